from django.urls import include, path

from games import kaetzchen_demo, views

app_name = "games"

urlpatterns = [
    path("", views.catalogue, name="catalogue"),
    path("spiele/<slug:slug>/", views.game_detail, name="detail"),
    path("spiele/<slug:slug>/demo/", views.game_demo, name="demo"),
    # The Kätzchen-Angeln demo's actions (aufdecken/, kaetzchen-zug/, ergebnis/, neues-spiel/, auto/).
    path("spiele/kaetzchen-angeln/demo/", include((kaetzchen_demo.urlpatterns, "kaetzchen"))),
]
