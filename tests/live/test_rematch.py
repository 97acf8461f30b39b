"""A rematch between people is an offer: the next game starts once everyone asked."""

from __future__ import annotations

import pytest

from games import services
from games.models import Deal, Match, RuleVariant, Seat

from .conftest import Socket, db, in_own_loop, make_user, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def finished_table(bots: tuple[str, ...] = ()) -> tuple[Match, list]:
    """mila's table (and oleg's, or a bot's), its first game resigned by its last seat."""
    people = [make_user("mila", language="ru")]
    variant = RuleVariant.objects.get(slug="classic")
    match = services.create_match(people[0], variant, 2, bots=bots)
    if not bots:
        people.append(make_user("oleg"))
        services.join_match(match, people[1])
    services.resign(match.pk, people[-1] if not bots else people[0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, people


def state(match_id: int) -> tuple[str, int, int, list[bool]]:
    match = Match.objects.get(pk=match_id)
    asked = list(
        Seat.objects.filter(match=match).order_by("number").values_list("wants_rematch", flat=True)
    )
    return match.status, match.version, Deal.objects.filter(match=match).count(), asked


async def open_sockets(match_id: int, people: list) -> list[Socket]:
    sockets = [Socket(f"/ws/games/{match_id}/", await db(session_cookie, u)) for u in people]
    for sock in sockets:
        assert (await sock.open())[0]
        await sock.drain()
    return sockets


def test_the_first_rematch_is_an_offer_the_other_player_sees_and_accepts():
    match, people = finished_table()

    @in_own_loop
    async def run():
        mila, oleg = await open_sockets(match.pk, people)
        before = await db(state, match.pk)
        await mila.send({"type": "rematch"})
        offered = [
            await sock.until(lambda f: "rematch-offer" in f or "rematch-awaited" in f)
            for sock in (mila, oleg)
        ]
        after_offer = await db(state, match.pk)
        # Asking twice is refused, and changes nothing.
        await mila.send({"type": "rematch"})
        refusal = await mila.until_error()
        after_repeat = await db(state, match.pk)
        await oleg.send({"type": "rematch"})
        await oleg.until(lambda f: 'id="table-hand"' in f and "rematch-offer" not in f)
        after_accept = await db(state, match.pk)
        for sock in (mila, oleg):
            await sock.close()
        return before, offered, after_offer, refusal, after_repeat, after_accept

    before, offered, after_offer, refusal, after_repeat, after_accept = run()
    # mila reads Russian; oleg English.
    assert "Вы предложили реванш; ждём: oleg." in offered[0]
    assert "control-rematch" not in offered[0]
    assert "mila asks for a rematch." in offered[1]
    assert "Accept the rematch" in offered[1]
    assert before[0] == after_offer[0] == Match.Status.FINISHED
    assert after_offer[2] == before[2] == 1
    assert after_offer[3] == [True, False]
    assert "Вы уже предложили реванш." in refusal
    assert after_repeat == after_offer
    status, _version, deals, asked = after_accept
    assert (status, deals, asked) == (Match.Status.PLAYING, 2, [False, False])


def test_against_a_bot_the_rematch_starts_at_once():
    match, people = finished_table(bots=("easy",))
    deal = services.start_next_deal(match, people[0])
    assert deal is not None and deal.number == 2
    status, _version, deals, asked = state(match.pk)
    assert (status, deals, asked) == (Match.Status.PLAYING, 2, [False, False])


def test_a_spectator_cannot_ask_for_a_rematch():
    match, _people = finished_table()
    watcher = make_user("vera")
    with pytest.raises(services.Refused) as refused:
        services.start_next_deal(match, watcher)
    assert refused.value.code == "not_seated"
    assert state(match.pk)[3] == [False, False]


def test_leaving_the_table_withdraws_an_offer_of_a_rematch():
    match, people = finished_table()

    @in_own_loop
    async def run():
        mila, oleg = await open_sockets(match.pk, people)
        await mila.send({"type": "rematch"})
        await oleg.until(lambda f: "mila asks for a rematch." in f)
        asked = await db(state, match.pk)
        await mila.close()
        withdrawn = await oleg.until(lambda f: 'id="table-result"' in f)
        await oleg.close()
        return asked, withdrawn

    asked, withdrawn = run()
    assert asked[3] == [True, False]
    assert "asks for a rematch" not in withdrawn and ">Rematch</button>" in withdrawn
    status, _version, deals, now_asked = state(match.pk)
    assert (status, deals, now_asked) == (Match.Status.FINISHED, 1, [False, False])
    # oleg's rematch is now an offer of his own, not an acceptance.
    assert services.start_next_deal(match, people[1]) is None
