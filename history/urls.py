"""The history app's routes.  The replay page shows the review too, so it is the
analysis app's (``analysis:replay``); the leaderboard shows the puzzles' and the
daily deal's boards too, so it is the daily app's (``daily:leaderboard``)."""

from django.urls import path

from history import views

app_name = "history"

urlpatterns = [
    path("u/<str:username>/games/", views.my_games, name="games"),
    path("games/<id:pk>/replay/record.json", views.record, name="record"),
    path("games/<id:pk>/deals/<int:number>/ratings/", views.deal_ratings, name="deal_ratings"),
]
