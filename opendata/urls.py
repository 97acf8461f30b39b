from django.urls import path

from opendata import views

app_name = "opendata"

urlpatterns = [
    path("open-data/", views.index, name="index"),
    path(
        "open-data/durak-games-<int:year>-<int:month>.jsonl.gz",
        views.download,
        name="download",
    ),
]
