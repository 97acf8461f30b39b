from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("moderation/report/", views.report, name="report"),
]
