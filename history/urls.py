"""The history app's routes.  Its replay page is composed with the review above it,
and its leaderboard with the puzzles' and the daily deal's boards, so
durak_site/urls.py adds those routes to this namespace."""

from django.urls import path

from history import views

app_name = "history"

urlpatterns = [
    path("u/<str:username>/games/", views.my_games, name="games"),
    path("games/<id:pk>/replay/record.json", views.record, name="record"),
    path("games/<id:pk>/deals/<int:number>/ratings/", views.deal_ratings, name="deal_ratings"),
]
