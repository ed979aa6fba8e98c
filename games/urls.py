from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.catalogue, name="catalogue"),
    path("spiele/<slug:slug>/", views.game_detail, name="detail"),
    path("spiele/<slug:slug>/demo/", views.game_demo, name="demo"),
]
