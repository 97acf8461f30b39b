from django.urls import path

from . import leaderboards, views

app_name = "daily"

urlpatterns = [
    path("daily/", views.today_page, name="today"),
    path("daily/<str:day>/", views.day_page, name="day"),
    path("daily/play/<slug:variant>/", views.play, name="play"),
    path("leaderboard/", leaderboards.leaderboard, name="leaderboard"),
]
