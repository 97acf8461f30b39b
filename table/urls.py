"""The live table's routes: the lobby, the table page and its posts, the invite link,
and the rules."""

from django.urls import path

from table import pages, views

app_name = "table"

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("games/new/", pages.create_table, name="create"),
    path("games/live/", pages.live_games, name="live"),
    path("games/<id:match_id>/", pages.table, name="table"),
    path("games/<id:match_id>/join/", views.join, name="join"),
    path("games/<id:match_id>/leave/", views.leave, name="leave"),
    path("games/<id:match_id>/start/", views.start, name="start"),
    path("games/join/<str:token>/", views.join_by_token, name="join_by_token"),
    path("rules/", views.rules, name="rules"),
]
