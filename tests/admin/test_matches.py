import pytest
from django.urls import reverse

from games.models import Match, Move
from moderation.models import AuditLogEntry

from .conftest import make_deal, make_match, pushed_to_table

LIST_URL = reverse("admin:games_match_changelist")


@pytest.mark.django_db
def test_search_by_player_and_filter_by_status_and_variant(admin_client, classic, players):
    ivan, olga, petr = players
    playing = make_match(classic, [ivan, olga])
    finished = make_match(classic, [olga, petr], status=Match.Status.FINISHED)

    def listed(query: dict) -> set[int]:
        return {m.pk for m in admin_client.get(LIST_URL, query).context["cl"].result_list}

    assert listed({"q": "ivan"}) == {playing.pk}
    assert listed({"q": "olga"}) == {playing.pk, finished.pk}
    assert listed({"status__exact": "finished"}) == {finished.pk}
    assert listed({"variant__id__exact": classic.pk, "status__exact": "playing"}) == {playing.pk}


@pytest.mark.django_db
def test_match_page_shows_seats_and_latest_moves_read_only_with_replay_link(
    admin_client, classic, players
):
    match = make_match(classic, players[:2])
    make_deal(match, number=1, fool_seat=1, moves=3)
    make_deal(match, number=2, status="playing", moves=250)
    response = admin_client.get(reverse("admin:games_match_change", args=[match.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert f'href="/games/{match.pk}/replay/"' in html
    assert "ivan" in html and "olga" in html
    moves_formset = next(
        f for f in response.context["inline_admin_formsets"] if f.opts.model is Move
    )
    shown = [form.original.seq for form in moves_formset]
    last = Move.objects.filter(match=match).order_by("-seq").first().seq
    assert len(shown) == 200 and shown[-1] == last and shown == sorted(shown)
    # Nothing on the page can be edited or saved.
    assert 'name="_save"' not in html
    assert 'name="moves-0-action"' not in html
    # Moves read as words, with the seat's name, never as engine notation.
    assert "ivan says done" in html and "olga says done" in html
    assert "0 done" not in html


def abort_through_admin(client, match: Match, reason: str):
    data = {"action": "abort", "_selected_action": [match.pk]}
    form_page = client.post(LIST_URL, {**data, "index": 0})
    assert form_page.status_code == 200
    assert "Reason" in form_page.content.decode()
    return client.post(LIST_URL, {**data, "_apply": "1", "reason": reason}, follow=True)


@pytest.mark.django_db
def test_abort_asks_for_a_reason_then_aborts_unrated_and_logs(
    admin_client, superuser, classic, players, django_capture_on_commit_callbacks
):
    match = make_match(classic, players[:2])
    deal = make_deal(match, status="playing", moves=4)
    done = make_match(classic, players[1:], status=Match.Status.FINISHED)
    # The form refuses an empty reason.
    response = admin_client.post(
        LIST_URL, {"action": "abort", "_selected_action": [match.pk], "_apply": "1", "reason": ""}
    )
    assert response.status_code == 200
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            LIST_URL,
            {
                "action": "abort",
                "_selected_action": [match.pk, done.pk],
                "_apply": "1",
                "reason": "Collusion",
            },
            follow=True,
        )
    match.refresh_from_db()
    deal.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert match.abort_reason == "Collusion"
    assert not match.is_rated
    assert deal.end_reason == "aborted"
    assert Match.objects.get(pk=done.pk).status == Match.Status.FINISHED
    entry = AuditLogEntry.objects.get(action=AuditLogEntry.Action.ABORT_MATCH)
    assert (entry.actor, entry.target_id, entry.reason) == (superuser, str(match.pk), "Collusion")
    assert "already over" in response.content.decode()


@pytest.mark.django_db
def test_abort_from_the_admin_is_pushed_to_the_tables_sockets(
    admin_client, classic, players, django_capture_on_commit_callbacks
):
    match = make_match(classic, players[:2])
    make_deal(match, status="playing")

    def abort() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            abort_through_admin(admin_client, match, "Server maintenance")

    message = pushed_to_table(match, abort)
    assert message["type"] == "match.changed"
    assert message["match_id"] == match.pk
    assert message["version"] == Match.objects.get(pk=match.pk).version


@pytest.mark.django_db
def test_moderator_may_abort_but_not_edit_matches(
    moderator_client, classic, players, django_capture_on_commit_callbacks
):
    match = make_match(classic, players[:2])
    with django_capture_on_commit_callbacks(execute=True):
        abort_through_admin(moderator_client, match, "Abuse")
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED
    response = moderator_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert response.status_code == 200 and 'name="_save"' not in response.content.decode()


@pytest.mark.django_db
def test_staff_without_the_abort_right_gets_no_abort_action(client, classic, players):
    from django.contrib.auth.models import Permission

    from .conftest import User

    viewer = User.objects.create_user("viewer", password="x", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_match"))
    client.force_login(viewer)
    match = make_match(classic, players[:2])
    response = client.get(LIST_URL)
    action_form = response.context["action_form"]
    assert action_form is None or "abort" not in dict(action_form.fields["action"].choices)
    client.post(
        LIST_URL,
        {"action": "abort", "_selected_action": [match.pk], "_apply": "1", "reason": "x"},
    )
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


@pytest.mark.django_db
def test_server_processes_are_listed_with_their_sockets_and_cannot_be_edited(
    admin_client, classic, players
):
    from django.utils import timezone

    from games.models import Seat, ServerProcess, SocketPresence

    match = make_match(classic, players[:2])
    now = timezone.now()
    ServerProcess.objects.create(name="web1:42:ab12", host="web1", pid=42, last_beat=now)
    ServerProcess.objects.create(name="web2:43:cd34", host="web2", pid=43, last_beat=now)
    for number, channel in enumerate(["c1", "c2"]):
        SocketPresence.objects.create(
            seat=Seat.objects.get(match=match, number=number),
            server="web1:42:ab12",
            channel_name=channel,
            opened_at=now,
        )
    response = admin_client.get(reverse("admin:games_serverprocess_changelist"))
    assert response.status_code == 200
    counts = {
        p.name: response.context["cl"].model_admin.socket_count(p)
        for p in response.context["cl"].result_list
    }
    assert counts == {"web1:42:ab12": 2, "web2:43:cd34": 0}
    assert admin_client.get(reverse("admin:games_serverprocess_add")).status_code == 403
    change = admin_client.post(
        reverse("admin:games_serverprocess_change", args=["web1:42:ab12"]), {"pid": 7}
    )
    assert change.status_code == 403
    assert ServerProcess.objects.get(name="web1:42:ab12").pid == 42
