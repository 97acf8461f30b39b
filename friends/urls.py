from django.urls import path

from friends import views

app_name = "friends"

urlpatterns = [
    path("friends/add/<str:username>/", views.add, name="add"),
    path("friends/accept/<id:request_id>/", views.accept, name="accept"),
    path("friends/remove/<str:username>/", views.remove, name="remove"),
    path("friends/block/<str:username>/", views.block, name="block"),
    path("friends/unblock/<str:username>/", views.unblock, name="unblock"),
    path("friends/invite/<id:match_id>/<str:username>/", views.invite, name="invite"),
    path("friends/invites/<id:invite_id>/", views.answer, name="answer"),
]
