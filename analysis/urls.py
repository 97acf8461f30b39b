from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:match_id>/hint/", views.hint, name="hint"),
    path(
        "games/<int:match_id>/analysis/<int:deal_number>/",
        views.deal_analysis,
        name="deal_analysis",
    ),
    path(
        "games/<int:match_id>/learn/<int:deal_number>/",
        views.learn,
        name="learn",
    ),
]
