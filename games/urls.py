from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.create_table, name="create"),
    path("games/<id:match_id>/", views.table, name="table"),
    path("games/<id:match_id>/join/", views.join, name="join"),
    path("games/<id:match_id>/leave/", views.leave, name="leave"),
    path("games/<id:match_id>/start/", views.start, name="start"),
    path("games/join/<str:token>/", views.join_by_token, name="join_by_token"),
]
