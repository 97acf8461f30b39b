from django.urls import path

from matchmaking import views

app_name = "matchmaking"

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/guest/", views.play_as_guest, name="play_as_guest"),
    path("play/cancel/", views.cancel, name="cancel"),
    path("play/bots-now/", views.bots_now, name="bots_now"),
    path("games/<id:match_id>/new-opponent/", views.new_opponent, name="new_opponent"),
    path("friends/challenge/<str:username>/", views.challenge, name="challenge"),
]
