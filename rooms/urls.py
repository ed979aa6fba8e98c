"""Rooms live under /spiele/<slug>/raum/…; the game definition comes from the slug (no query)."""

from django.urls import path

from rooms import live_views, public_views, views

app_name = "rooms"

ROOM = "spiele/<slug:slug>/raum/<slug:code>/"
WATCH = "spiele/<slug:slug>/zuschauen/<slug:watch_code>/"

urlpatterns = [
    path("spiele/<slug:slug>/raum/neu/", views.create, name="create"),
    path(ROOM, views.room, name="room"),
    path(ROOM + "status/", views.poll, name="poll"),
    # Server-Sent Events: a notice per new version (games.play.streams); the poll stays the fallback.
    path(ROOM + "live/", live_views.room, name="live"),
    path(ROOM + "beitreten/", views.join, name="join"),
    path(ROOM + "einstellungen/", views.options, name="options"),
    path(ROOM + "bot/", views.add_bot, name="add_bot"),
    path(ROOM + "bot/entfernen/", views.remove_bot, name="remove_bot"),
    path(ROOM + "starten/", views.start, name="start"),
    path(ROOM + "aktion/", views.act, name="act"),
    path(ROOM + "verlassen/", views.leave, name="leave"),
    path(ROOM + "neue-partie/", views.rematch, name="rematch"),
    path(ROOM + "lobby/", views.to_lobby, name="lobby"),
    path(ROOM + "sichtbarkeit/", views.visibility, name="visibility"),
    # Spectators: the watch code only reads (rooms.watching).
    path(WATCH, views.watch, name="watch"),
    path(WATCH + "status/", views.watch_poll, name="watch_poll"),
    path(WATCH + "live/", live_views.watch, name="watch_live"),
    # „Mitspieler finden“: open public rooms, joined by their public code (rooms.public_views).
    path("mitspieler-finden/", public_views.find_players, name="find"),
    path("spiele/<slug:slug>/mitspieler/", public_views.game_players, name="players"),
    path(
        "spiele/<slug:slug>/mitspieler/<slug:public_code>/",
        public_views.public_join,
        name="public_join",
    ),
]
