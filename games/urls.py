from django.urls import path

from games import examples_views, views
from games.play import replay_views
from games.play import views as demo
from rules import views as rules_views

app_name = "games"

DEMO = "spiele/<slug:slug>/demo/"

REPLAY = "partien/<str:replay_id>/"

urlpatterns = [
    path("", views.catalogue, name="catalogue"),
    # Finished games step by step (games.play.replay_views); the id is the only key.
    path(REPLAY, replay_views.replay_page, name="replay"),
    path(REPLAY + "sichtbarkeit/", replay_views.publish, name="replay_publish"),
    path(REPLAY + "merken/", replay_views.save, name="replay_save"),
    path(REPLAY + "weiterspielen/", replay_views.play_on, name="replay_play_on"),
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
    # The coach (games.play.coach): a tip for the reader, and the switch „Erklärungen an/aus“.
    path(DEMO + "tipp/", demo.tip, name="demo_tip"),
    path(DEMO + "erklaerungen/", demo.coach_switch, name="demo_coach"),
    path(DEMO + "<slug:name>/", demo.extra, name="demo_extra"),
]
