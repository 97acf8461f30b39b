"""Reporting a line of an arena's chat, as at the table: the report lands in the
moderators' queue; one's own line, a line reported twice, too many reports within
the hour and a forged line are refused with a message, and nothing is filed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from arena import services
from arena.chat import post_arena_chat
from arena.chat_reports import report_arena_line
from arena.models import ArenaChatMessage, ArenaChatReport
from games.services import Refused
from moderation.forms import REPORTS_PER_HOUR
from moderation.models import AuditLogEntry, Report
from tests.live.conftest import Socket
from tests.sockets import db, in_own_loop, session_cookie

from .conftest import person, running_arena
from .test_arena_chat import fresh_channel_layer  # noqa: F401 (the fixture)


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def report_url(arena, line) -> str:
    return reverse("arena:report_line", args=[arena.pk, line.pk])


def reports() -> list[dict]:
    return list(ArenaChatReport.objects.values())


def refused(user, arena, message_id) -> Refused:
    before = reports()
    with pytest.raises(Refused) as refusal:
        report_arena_line(user, arena, message_id, "abuse")
    assert reports() == before
    return refusal.value


@pytest.mark.django_db
def test_a_line_is_reported_from_the_page_and_lands_in_the_moderators_queue():
    arena = running_arena()
    rude, reader = person(), person()
    line = post_arena_chat(arena.pk, rude, "ты дурак")
    client = signed_in(reader)
    page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert f'href="{report_url(arena, line)}"' in page and "Report message" in page
    form = client.get(report_url(arena, line))
    assert form.status_code == 200
    html = form.content.decode()
    assert "ты дурак" in html and rude.username in html and 'name="category"' in html
    assert reports() == []  # opening the form files nothing
    response = client.post(report_url(arena, line), {"category": "abuse", "reason": "grubo"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Thank you. A moderator will look at your report." in page
    (report,) = ArenaChatReport.objects.all()
    assert (report.reporter, report.reported_user, report.message) == (reader, rude, line)
    assert (report.message_text, report.category, report.reason) == ("ты дурак", "abuse", "grubo")
    assert report.status == Report.Status.OPEN

    admin = get_user_model().objects.create_superuser(username="mod", password="pw-mod")
    moderator = signed_in(admin)
    queue = moderator.get(reverse("admin:arena_arenachatreport_changelist")).content.decode()
    assert "ты дурак" in queue and rude.username in queue
    one = moderator.get(reverse("admin:arena_arenachatreport_change", args=[report.pk]))
    assert one.status_code == 200
    html = one.content.decode()
    assert reverse("admin:arena_arena_change", args=[arena.pk]) in html
    assert reverse("admin:arena_arenachatmessage_change", args=[line.pk]) in html
    done = moderator.post(
        reverse("admin:arena_arenachatreport_changelist"),
        {
            "action": "mark_actioned",
            "_selected_action": [report.pk],
            "_apply": "1",
            "note": "muted for an hour",
        },
    )
    assert done.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.handled_by, report.note) == (
        "actioned",
        admin,
        "muted for an hour",
    )
    assert AuditLogEntry.objects.get().action == AuditLogEntry.Action.REPORT_ACTIONED
    assert Report.objects.count() == 0  # the table's reports are untouched


@pytest.mark.django_db
def test_ones_own_line_is_not_offered_and_is_refused():
    arena = running_arena()
    user = person()
    line = post_arena_chat(arena.pk, user, "привет")
    client = signed_in(user)
    page = client.get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert report_url(arena, line) not in page
    opened = client.get(report_url(arena, line))
    assert opened.status_code == 400 and 'name="category"' not in opened.content.decode()
    response = client.post(report_url(arena, line), {"category": "abuse"})
    assert response.status_code == 400
    assert "You cannot report yourself." in response.content.decode()
    assert refused(user, arena, line.pk).code == "yourself"
    assert reports() == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You have reported this message already; a moderator will look at it."),
        ("ru", "Вы уже пожаловались на это сообщение; модератор его посмотрит."),
    ],
)
def test_a_line_reported_twice_is_refused_the_second_time(language, words):
    arena = running_arena()
    line = post_arena_chat(arena.pk, person(), "spam spam")
    reader = person()
    client = signed_in(reader, language)
    assert client.post(report_url(arena, line), {"category": "spam"}).status_code == 302
    before = reports()
    response = client.post(report_url(arena, line), {"category": "abuse"})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert reports() == before
    # Another player's report of the same line is news.
    report_arena_line(person(), arena, line.pk, "spam")
    assert ArenaChatReport.objects.count() == 2


@pytest.mark.django_db
def test_a_flood_of_reports_is_refused_counting_the_tables_too():
    arena = running_arena()
    reader = person()
    lines = [post_arena_chat(arena.pk, person(), f"line {n}") for n in range(REPORTS_PER_HOUR + 1)]
    for line in lines[:REPORTS_PER_HOUR]:
        report_arena_line(reader, arena, line.pk, "spam")
    refusal = refused(reader, arena, lines[-1].pk)
    assert refusal.code == "too_many" and refusal.status == 429
    assert refusal.message == "You have sent many reports in the last hour. Please wait a little."


@pytest.mark.django_db
def test_a_forged_line_is_refused():
    arena = running_arena()
    other = running_arena(name="Other")
    elsewhere = post_arena_chat(other.pk, person(), "there")
    reader = person()
    assert refused(reader, arena, elsewhere.pk).code == "no_message"
    assert refused(reader, arena, 999_999).code == "no_message"
    assert refused(reader, arena, "1").code == "no_message"
    response = signed_in(reader).post(
        reverse("arena:report_line", args=[arena.pk, elsewhere.pk]), {"category": "abuse"}
    )
    assert response.status_code == 404
    assert "This message is not from this arena." in response.content.decode()
    assert reports() == []


@pytest.mark.django_db
def test_a_bad_category_and_a_stranger_to_a_private_arena_are_refused():
    arena = running_arena(password="secret")
    talker = person()
    services.join(talker, arena, "secret")
    line = post_arena_chat(arena.pk, talker, "секрет")
    stranger = person()
    assert refused(stranger, arena, line.pk).code == "private"
    client = signed_in(person())
    response = client.post(report_url(arena, line), {"category": "nonsense"})
    assert response.status_code == 400 and "Choose what happened." in response.content.decode()
    assert reports() == []


@pytest.mark.django_db
def test_a_visitor_signed_out_sees_no_report_form_and_cannot_report():
    arena = running_arena()
    line = post_arena_chat(arena.pk, person(), "hello")
    page = Client().get(reverse("arena:detail", args=[arena.pk])).content.decode()
    assert report_url(arena, line) not in page
    response = Client().post(report_url(arena, line), {"category": "abuse"})
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert reports() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_channel_layer")
@in_own_loop
async def test_a_line_arriving_live_has_the_report_link_for_others_only():
    arena = await db(running_arena)
    speaker, reader = await db(person), await db(person)
    speaking = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, speaker))
    reading = Socket(f"/ws/arena/{arena.pk}/", await db(session_cookie, reader))
    for sock in (speaking, reading):
        assert (await sock.open())[0]
        await sock.drain()
    await speaking.send({"type": "chat", "text": "свежая строка"})
    heard = await reading.until(lambda f: "свежая строка" in f, timeout=5)
    said = await speaking.until(lambda f: "свежая строка" in f, timeout=5)
    line = await db(ArenaChatMessage.objects.get)
    assert f'href="{report_url(arena, line)}"' in heard
    assert "arena-chat-report" not in said
    for sock in (speaking, reading):
        await sock.close()
