from django.urls import path

from games import examples_views, views
from games.play import views as demo
from rules import views as rules_views

app_name = "games"

DEMO = "spiele/<slug:slug>/demo/"

urlpatterns = [
    path("", views.catalogue, name="catalogue"),
    path("spiele/<slug:slug>/", views.game_detail, name="detail"),
    path(DEMO, views.game_demo, name="demo"),
    # One printable page per game (rules/views.py).
    path("spiele/<slug:slug>/kurzregel/", rules_views.short_rules, name="short_rules"),
    # One step of a worked example (htmx) or the example as a page of its own.
    path(
        "spiele/<slug:slug>/beispiel/<int:number>/",
        examples_views.example_step,
        name="example_step",
    ),
    # The in-page demo's requests, the same for every game (games.play.driver).
    path(DEMO + "start/", demo.start, name="demo_start"),
    path(DEMO + "aktion/", demo.act, name="demo_act"),
    path(DEMO + "gegner/", demo.bot, name="demo_bot"),
    path(DEMO + "status/", demo.poll, name="demo_poll"),
    path(DEMO + "live/", demo.live, name="demo_live"),
    path(DEMO + "neu/", demo.new, name="demo_new"),
    path(DEMO + "<slug:name>/", demo.extra, name="demo_extra"),
]
