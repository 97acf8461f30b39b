from django.urls import path  # noqa: F401

app_name = "history"

urlpatterns: list = []
