from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.next_puzzle, name="next"),
    path("puzzles/<id:puzzle_id>/", views.puzzle, name="puzzle"),
    path("puzzles/<id:puzzle_id>/attempts/<id:attempt_id>/", views.attempt, name="attempt"),
]
