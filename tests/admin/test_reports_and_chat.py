import pytest
from django.core.exceptions import PermissionDenied
from django.template import Context, Template
from django.urls import reverse

from games.models import ChatMessage
from moderation.models import AuditLogEntry, Report

from .conftest import User, make_match, pushed_to_table

REPORT_URL = reverse("moderation:report")
REPORTS_URL = reverse("admin:moderation_report_changelist")
CHAT_URL = reverse("admin:games_chatmessage_changelist")


@pytest.fixture
def table(classic, players):
    ivan, olga, _ = players
    return make_match(classic, [ivan, olga])


def say(match, user, text, **extra) -> ChatMessage:
    return ChatMessage.objects.create(match=match, user=user, text=text, **extra)


@pytest.mark.django_db
def test_player_reports_a_message_from_the_table(client, table, players):
    ivan, olga, _ = players
    message = say(table, olga, "you are a durak")
    client.force_login(ivan)
    response = client.post(
        REPORT_URL,
        {"match": table.pk, "chat_message": message.pk, "category": "abuse", "reason": "rude"},
        HTTP_HX_REQUEST="true",
    )
    assert 'data-testid="report-sent"' in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported_user, report.chat_message) == (ivan, olga, message)
    assert report.message_text == "you are a durak"
    assert report.status == Report.Status.OPEN
    # Sending it again does not fill the queue twice.
    client.post(REPORT_URL, {"match": table.pk, "chat_message": message.pk, "category": "abuse"})
    assert Report.objects.count() == 1


@pytest.mark.django_db
def test_spectator_reports_a_player_at_a_public_table(client, table, players):
    petr = players[2]
    client.force_login(petr)
    response = client.post(
        REPORT_URL,
        {"match": table.pk, "reported_user": players[1].pk, "category": "cheating", "next": "/"},
    )
    assert response.status_code == 302
    assert Report.objects.get().reported_user == players[1]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "forgery",
    ["private_table", "message_of_other_table", "player_not_at_table", "yourself", "mismatch"],
)
def test_forged_reports_are_refused(client, classic, table, players, forgery):
    ivan, olga, petr = players
    other = make_match(classic, [petr, olga])
    data = {"match": table.pk, "category": "abuse"}
    reporter = ivan
    if forgery == "private_table":
        private = make_match(classic, [olga, petr], is_private=True)
        data |= {"match": private.pk, "reported_user": olga.pk}
    elif forgery == "message_of_other_table":
        data["chat_message"] = say(other, olga, "elsewhere").pk
    elif forgery == "player_not_at_table":
        data["reported_user"] = petr.pk
    elif forgery == "yourself":
        data["reported_user"] = ivan.pk
    elif forgery == "mismatch":
        data |= {"chat_message": say(table, olga, "hi").pk, "reported_user": ivan.pk}
        reporter = petr
    client.force_login(reporter)
    response = client.post(REPORT_URL, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'class="errorlist"' in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_reporting_needs_a_login_and_a_post(client, table, players):
    data = {"match": table.pk, "reported_user": players[1].pk, "category": "spam"}
    assert client.post(REPORT_URL, data).status_code == 302
    client.force_login(players[0])
    assert client.get(REPORT_URL).status_code == 405
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_the_table_renders_the_report_form(rf, table, players):
    request = rf.get(f"/games/{table.pk}/")
    request.user = players[0]
    html = Template("{% load moderation %}{% report_form match player=olga %}").render(
        Context({"match": table, "olga": players[1], "request": request})
    )
    assert f'name="match" value="{table.pk}"' in html
    assert f'name="reported_user" value="{players[1].pk}"' in html
    assert "Report olga" in html and 'name="category"' in html


def handle(client, action: str, reports: list[Report], note: str):
    data = {"action": action, "_selected_action": [r.pk for r in reports]}
    assert client.post(REPORTS_URL, {**data, "index": 0}).status_code == 200
    return client.post(REPORTS_URL, {**data, "_apply": "1", "note": note}, follow=True)


@pytest.mark.django_db
def test_reports_flow_open_to_actioned_or_dismissed(moderator_client, moderator, table, players):
    ivan, olga, petr = players
    first = Report.objects.create(reporter=ivan, reported_user=olga, match=table)
    second = Report.objects.create(reporter=petr, reported_user=olga, match=table)
    queue = moderator_client.get(REPORTS_URL, {"status__exact": "open"})
    assert {r.pk for r in queue.context["cl"].result_list} == {first.pk, second.pk}

    handle(moderator_client, "mark_actioned", [first], "Muted for a day")
    handle(moderator_client, "mark_dismissed", [second], "Nothing rude")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.handled_by, first.note) == (
        "actioned",
        moderator,
        "Muted for a day",
    )
    assert (second.status, second.handled_by) == ("dismissed", moderator)
    assert first.handled_at is not None
    # A handled report is not handled again by a later click.
    handle(moderator_client, "mark_dismissed", [first], "changed my mind")
    first.refresh_from_db()
    assert first.status == "actioned"
    logged = AuditLogEntry.objects.values_list("action", "target_id")
    assert sorted(logged) == sorted(
        [("report_actioned", str(first.pk)), ("report_dismissed", str(second.pk))]
    )
    queue = moderator_client.get(REPORTS_URL, {"status__exact": "open"})
    assert list(queue.context["cl"].result_list) == []


@pytest.mark.django_db
def test_chat_is_searchable_filterable_and_hidden_in_bulk_live(
    moderator_client, moderator, classic, table, players, django_capture_on_commit_callbacks
):
    ivan, olga, petr = players
    other = make_match(classic, [petr, olga])
    rude = say(table, olga, "rude words here")
    kind = say(table, ivan, "good game")
    elsewhere = say(other, petr, "rude again")

    def listed(query: dict) -> set[int]:
        response = moderator_client.get(CHAT_URL, query)
        return {m.pk for m in response.context["cl"].result_list}

    assert listed({"q": "rude"}) == {rude.pk, elsewhere.pk}
    assert listed({"q": "ivan"}) == {kind.pk}
    assert listed({"match": table.pk}) == {rude.pk, kind.pk}

    def hide() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            moderator_client.post(
                CHAT_URL,
                {"action": "hide", "_selected_action": [rude.pk, elsewhere.pk], "index": 0},
            )

    pushed = pushed_to_table(table, hide)
    rude.refresh_from_db()
    assert rude.is_hidden and rude.hidden_by == moderator
    assert not ChatMessage.objects.get(pk=kind.pk).is_hidden
    assert listed({"is_hidden__exact": "1"}) == {rude.pk, elsewhere.pk}
    assert (pushed["type"], pushed["what"]) == ("match.changed", "chat")
    hidden_log = AuditLogEntry.objects.filter(action="hide_chat")
    assert {e.target_id for e in hidden_log} == {str(rude.pk), str(elsewhere.pk)}


@pytest.mark.django_db
def test_audit_log_is_shown_and_cannot_be_edited_by_anyone(admin_client, superuser, players):
    from moderation import audit

    entry = audit.record(superuser, AuditLogEntry.Action.MUTE, players[0], reason="Spam")
    listing = admin_client.get(reverse("admin:moderation_auditlogentry_changelist"))
    assert listing.status_code == 200 and "Spam" in listing.content.decode()
    change = reverse("admin:moderation_auditlogentry_change", args=[entry.pk])
    page = admin_client.get(change)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    admin_client.post(change, {"reason": "nothing happened"})
    assert admin_client.get(reverse("admin:moderation_auditlogentry_add")).status_code == 403
    delete = reverse("admin:moderation_auditlogentry_delete", args=[entry.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "Spam"
    entry.reason = "rewritten"
    with pytest.raises(PermissionDenied):
        entry.save()
    with pytest.raises(PermissionDenied):
        entry.delete()
    assert AuditLogEntry.objects.get(pk=entry.pk).reason == "Spam"


@pytest.mark.django_db
def test_moderators_group_rights(moderator):
    assert moderator.has_perm("moderation.moderate_users")
    assert moderator.has_perm("moderation.abort_match")
    assert moderator.has_perm("moderation.hide_chat")
    assert moderator.has_perm("moderation.change_report")
    assert not moderator.has_perm("games.change_rulevariant")
    assert not moderator.has_perm("games.add_rulevariant")
    assert not moderator.has_perm("accounts.change_user")
    assert not moderator.has_perm("moderation.delete_auditlogentry")
    assert User.objects.get(pk=moderator.pk).groups.filter(name="moderators").exists()
