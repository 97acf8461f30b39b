"""Friends, presence, invites and blocks: every change goes through these functions.

Pushes: a player's lobby sockets re-render their friends panel ("friends.changed"
on the seeker group); an invite reaches every open socket of its player, lobby or
table ("invite.received" on the user's group), after the commit, and a declined one
every open socket of its inviter ("invite.declined").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.ratelimit import count_one
from accounts.socket_news import tell_open_sockets
from friends.blocks import tables_hidden_from
from friends.models import Block, Friendship, Invite
from games.models import Match, Seat
from games.services import Refused, join_match, send_push
from games.services.common import lobby_user_group, refuse_suspended
from games.socket_guard import SocketQuota

# At most this many friend requests and invites per user within this many seconds.
SOCIAL_RATE = (10, 60)


def _throttle(user: Any) -> None:
    limit, seconds = SOCIAL_RATE
    if count_one(f"social:{user.pk}", seconds) > limit:
        raise Refused(
            _("You are sending requests and invites too often; wait a minute."),
            code="rate_limited",
        )


def _tell_panel(*user_ids: int) -> None:
    for user_id in user_ids:
        transaction.on_commit(
            lambda u=user_id: send_push(lobby_user_group(u), {"type": "friends.changed"})
        )


def tell_friends(user_id: int) -> None:
    """``user_id``'s presence changed: their friends' lobby panels show it."""
    for friend in friend_ids(user_id):
        send_push(lobby_user_group(friend), {"type": "friends.changed"})


# ------------------------------------------------------------------ reading


def friend_ids(user_id: int) -> set[int]:
    rows = Friendship.objects.filter(
        Q(from_user_id=user_id) | Q(to_user_id=user_id), accepted_at__isnull=False
    ).values_list("from_user_id", "to_user_id")
    return {a if b == user_id else b for a, b in rows}


def blocked_between(a: int, b: int) -> bool:
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def presence_of(user_ids: Iterable[int]) -> dict[int, str]:
    """ "playing" (seated at a table waiting or in play), "online" (an open socket)
    or "away", for each user."""
    ids = set(user_ids)
    # The status follows the seat: a player just seated (paired, joined, invited) is
    # playing before their table's page opens, and between the lobby's socket closing
    # and the table's opening they do not flicker to away.
    playing = set(
        Seat.objects.filter(
            user_id__in=ids, match__status__in=(Match.Status.WAITING, Match.Status.PLAYING)
        ).values_list("user_id", flat=True)
    )
    online = SocketQuota.online_among(ids - playing)
    return {
        user_id: "playing" if user_id in playing else "online" if user_id in online else "away"
        for user_id in ids
    }


def tables_to_watch(user_ids: Iterable[int], viewer: Any) -> dict[int, int]:
    """The public table in play of each of these users who sits at one that ``viewer``
    may watch (no seated player there blocked them)."""
    seats = Seat.objects.filter(
        user_id__in=set(user_ids), match__status=Match.Status.PLAYING, match__is_private=False
    ).exclude(match__in=tables_hidden_from(viewer))
    return dict(seats.values_list("user_id", "match_id"))


def friends_present(user: Any) -> list[tuple[Any, str]]:
    """``user``'s friends by name, each with their presence (``presence_of``)."""
    users = get_user_model().objects
    friends = list(users.filter(pk__in=friend_ids(user.pk)).order_by("username"))
    presence = presence_of(f.pk for f in friends)
    return [(f, presence[f.pk]) for f in friends]


def panel(user: Any) -> dict[str, Any]:
    """What the lobby's friends panel shows ``user``: each friend with their presence
    (and ``watch_table``, the public game in play they sit at, if any), and the
    requests waiting for an answer."""
    friends = friends_present(user)
    watch = tables_to_watch((f.pk for f, _presence in friends), user)
    for friend, _presence in friends:
        friend.watch_table = watch.get(friend.pk)
    incoming = list(
        Friendship.objects.filter(to_user=user, accepted_at__isnull=True)
        .select_related("from_user")
        .order_by("created_at")
    )
    return {"friends": friends, "incoming": incoming}


def relation_to(user: Any, other: Any) -> dict[str, Any]:
    """For ``other``'s profile as ``user`` sees it: friendship ("friends", "asked" or
    "") and whether ``user`` blocked them."""
    rows = Friendship.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    )
    friendship = ""
    for row in rows:
        if row.accepted_at is not None:
            friendship = "friends"
        elif row.from_user_id == user.pk:
            friendship = friendship or "asked"
    blocked = Block.objects.filter(blocker=user, blocked=other).exists()
    return {"friendship": friendship, "is_blocked": blocked}


def pending_invites(user: Any) -> list[Invite]:
    return list(
        Invite.objects.filter(
            to_user=user, status=Invite.Status.PENDING, match__status=Match.Status.WAITING
        )
        .select_related("from_user", "match")
        .order_by("-created_at")[:3]
    )


# ------------------------------------------------------------------ changes


def _other(user: Any, other: Any) -> Any:
    user = refuse_suspended(user)
    if other.pk == user.pk:
        raise Refused(_("That is you."), code="self")
    if blocked_between(user.pk, other.pk):
        raise Refused(_("One of you has blocked the other."), code="blocked")
    return user


def request_friend(user: Any, other: Any) -> Friendship:
    """Ask ``other`` to be friends; if they already asked, this accepts."""
    user = _other(user, other)
    with transaction.atomic():
        theirs = (
            Friendship.objects.select_for_update().filter(from_user=other, to_user=user).first()
        )
        if theirs is not None:
            if theirs.accepted_at is None:
                theirs.accepted_at = timezone.now()
                theirs.save(update_fields=["accepted_at"])
                _tell_panel(user.pk, other.pk)
            return theirs
        _throttle(user)
        try:
            with transaction.atomic():
                made = Friendship.objects.create(from_user=user, to_user=other)
        except IntegrityError:
            raise Refused(_("You have already asked."), code="asked") from None
        _tell_panel(other.pk)
        return made


def accept_friend(user: Any, request_id: int) -> Friendship:
    with transaction.atomic():
        found = (
            Friendship.objects.select_for_update()
            .filter(pk=request_id, to_user=user, accepted_at__isnull=True)
            .first()
        )
        if found is None:
            raise Refused(_("There is no such friend request."), code="not_found")
        found.accepted_at = timezone.now()
        found.save(update_fields=["accepted_at"])
        _tell_panel(user.pk, found.from_user_id)
        return found


def unfriend(user: Any, other: Any) -> None:
    """End a friendship, or withdraw or decline a request, either way round."""
    with transaction.atomic():
        Friendship.objects.filter(
            Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
        ).delete()
        _tell_panel(user.pk, other.pk)


def block(user: Any, other: Any) -> None:
    if other.pk == user.pk:
        raise Refused(_("That is you."), code="self")
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        unfriend(user, other)
        Invite.objects.filter(
            Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user),
            status=Invite.Status.PENDING,
        ).update(status=Invite.Status.DECLINED)


def unblock(user: Any, other: Any) -> None:
    Block.objects.filter(blocker=user, blocked=other).delete()


def invite(user: Any, other: Any, match_id: int) -> Invite:
    """Invite a friend to the waiting table ``user`` sits at; they hear of it at once."""
    user = _other(user, other)
    if other.pk not in friend_ids(user.pk):
        raise Refused(_("You can invite only your friends."), code="not_friend")
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not Seat.objects.filter(match=match, user=user).exists():
        raise Refused(_("You have no seat at this table."), code="not_seated")
    if match.status != Match.Status.WAITING:
        raise Refused(_("This table has already started."), code="started")
    _throttle(user)
    with transaction.atomic():
        made = Invite.objects.create(from_user=user, to_user=other, match=match)
        tell_open_sockets(other.pk, {"type": "invite.received"})
    return made


def answer_invite(user: Any, invite_id: int, *, accept: bool) -> Invite:
    """Join the table (``accept``) or decline; joining may still be refused (a full table).

    Refused, and nothing changed, for an invite that is not ``user``'s (``not_found``,
    as one that does not exist), one answered already (``answered``), and accepting
    one whose table no longer waits for players (``expired``: started, closed).
    """
    with transaction.atomic():
        found = (
            Invite.objects.select_for_update()
            .filter(pk=invite_id, to_user=user)
            .select_related("match")
            .first()
        )
        if found is None:
            raise Refused(_("There is no such invite."), 404, code="not_found")
        if found.status != Invite.Status.PENDING:
            raise Refused(_("This invite has already been answered."), code="answered")
        if accept and found.match.status != Match.Status.WAITING:
            raise Refused(
                _("This invite has expired: its table no longer waits for players."),
                code="expired",
            )
        if accept:
            join_match(found.match, user, token=found.match.invite_token)
        found.status = Invite.Status.ACCEPTED if accept else Invite.Status.DECLINED
        found.save(update_fields=["status"])
        if not accept:
            # The inviter hears of it on every open page, or would wait on in vain.
            tell_open_sockets(found.from_user_id, {"type": "invite.declined", "invite": found.pk})
        return found
