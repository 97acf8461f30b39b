"""A suspension or mute notice never ends a date with two full stops."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from accounts.notices import mute_notice, suspension_notice

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_notices_end_dates_with_a_time_and_one_full_stop(lang):
    until = timezone.now().replace(hour=15, minute=30) + datetime.timedelta(days=3)
    user = get_user_model().objects.create_user("ida", password="kozyrnaya-42!")
    user.suspended_until = until
    user.muted_until = until
    user.suspension_reason = "spam"
    with translation.override(lang):
        for notice in (suspension_notice(user), mute_notice(user)):
            assert ".." not in notice, notice
            assert timezone.localtime(until).strftime("%H:%M") in notice, notice
