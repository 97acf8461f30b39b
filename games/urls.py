"""The games app's routes.  The lobby and the table page are composed with the apps
above it, so durak_site/urls.py adds their routes to this namespace."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("games/<id:match_id>/join/", views.join, name="join"),
    path("games/<id:match_id>/leave/", views.leave, name="leave"),
    path("games/<id:match_id>/start/", views.start, name="start"),
    path("games/join/<str:token>/", views.join_by_token, name="join_by_token"),
    path("rules/", views.rules, name="rules"),
]
