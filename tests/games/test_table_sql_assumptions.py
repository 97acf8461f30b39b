"""``games.table_sql`` writes ``Match`` and ``Move`` rows itself (``update_fields``,
``insert``) instead of through ``Model.save``: right only while neither model has a
field that sets itself when saved (``auto_now``) or a receiver of its ``pre_save`` or
``post_save``, which those writes would pass over.  These tests fail as soon as one
appears; then the write goes back to ``save`` or learns what the new thing does."""

from __future__ import annotations

import pytest
from django.db.models.signals import post_save, pre_save

from games.models import Match, Move

WRITTEN_BY_TABLE_SQL = [Match, Move]


@pytest.mark.parametrize("model", WRITTEN_BY_TABLE_SQL, ids=lambda model: model.__name__)
def test_no_field_sets_itself_when_saved(model):
    setting_themselves = [
        field.name for field in model._meta.get_fields() if getattr(field, "auto_now", False)
    ]
    assert setting_themselves == []


@pytest.mark.parametrize("model", WRITTEN_BY_TABLE_SQL, ids=lambda model: model.__name__)
@pytest.mark.parametrize("signal", [pre_save, post_save], ids=["pre_save", "post_save"])
def test_nothing_listens_to_their_saves(model, signal):
    assert not signal.has_listeners(model)
