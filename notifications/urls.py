from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("push/subscribe/", views.subscribe, name="subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="unsubscribe"),
]
