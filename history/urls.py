from django.urls import path

from history import views

app_name = "history"

urlpatterns = [
    path("u/<str:username>/games/", views.my_games, name="games"),
    path("games/<id:pk>/replay/", views.replay, name="replay"),
    path("games/<id:pk>/replay/record.json", views.record, name="record"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
