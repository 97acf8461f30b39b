from django.urls import path

from . import views

app_name = "arena"

urlpatterns = [
    path("arena/", views.arena_list, name="list"),
    path("arena/new/", views.create, name="create"),
    path("arena/<int:pk>/", views.arena_page, name="detail"),
    path("arena/<int:pk>/standings/", views.standings_part, name="standings"),
    path("arena/<int:pk>/join/", views.join, name="join"),
    path("arena/<int:pk>/invite/<str:token>/", views.invite, name="invite"),
    path("arena/<int:pk>/chat/<int:message_id>/report/", views.report_line, name="report_line"),
    path("arena/<int:pk>/pause/", views.pause, name="pause"),
    path("arena/<int:pk>/resume/", views.resume, name="resume"),
    path("arena/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("arena/games/<int:match_id>/berserk/", views.berserk, name="berserk"),
]
