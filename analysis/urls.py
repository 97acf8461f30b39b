from django.urls import path

from analysis import replay_page, views

app_name = "analysis"

urlpatterns = [
    path("games/<id:pk>/replay/", replay_page.replay, name="replay"),
    path("games/<id:match_id>/hint/", views.hint, name="hint"),
    path("games/<id:match_id>/hint/<id:hint_id>/", views.hint_answer, name="hint_answer"),
    path(
        "games/<id:match_id>/analysis/<id:deal_number>/",
        views.deal_analysis,
        name="deal_analysis",
    ),
    path(
        "games/<id:match_id>/analysis/<id:deal_number>/accuracy/",
        views.result_accuracy,
        name="result_accuracy",
    ),
    path(
        "games/<id:match_id>/play-on/<id:deal_number>/",
        views.play_on,
        name="play_on",
    ),
    path(
        "games/<id:match_id>/learn/<id:deal_number>/",
        views.learn,
        name="learn",
    ),
]
