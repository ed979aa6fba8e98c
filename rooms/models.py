"""Online rooms: one row per room, one per seat.

All room state lives here – the engine state as JSON, the version every action
names, the deadlines of the pending decision and of the next bot move – so any
number of worker processes and app servers can answer the same room.
"""

from django.db import models
from django.db.models import Q

from games import clock


class Room(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Lobby"
        PLAYING = "playing", "Partie läuft"
        FINISHED = "finished", "Partie beendet"

    code = models.CharField("Code", max_length=32, unique=True)
    engine = models.CharField("Spiel-Engine", max_length=20)
    options = models.JSONField("Einstellungen", default=dict)
    status = models.CharField("Status", max_length=10, choices=Status, default=Status.LOBBY)
    state = models.JSONField("Spielzustand", null=True, blank=True)
    # Counts every change (lobby and game); clients name it with each request and poll.
    version = models.PositiveIntegerField("Version", default=0)
    # The pending human decision times out at `deadline`; the next bot acts at `bot_due`.
    deadline = models.DateTimeField("Frist", null=True, blank=True)
    bot_due = models.DateTimeField("Bot-Zug fällig", null=True, blank=True)
    # The latest public events, [{"v": version, "event": {...}}], newest last.
    log = models.JSONField("Verlauf", default=list, blank=True)
    # What replays the running game (games.play.table.Table.record); kept as a replay
    # when the game ends (games.play.replays).
    record = models.JSONField("Partieprotokoll", null=True, blank=True)
    games_played = models.PositiveIntegerField("Partien", default=0)
    created_at = models.DateTimeField("eröffnet", default=clock.now)
    # Last human action (timeouts and bots do not count): idle rooms are removed.
    last_activity = models.DateTimeField("zuletzt aktiv", default=clock.now, db_index=True)
    # „Mitspieler finden“: a public room waiting in the lobby is listed on the game page.
    # Lists and the public join name it by ``public_code``, never by the invite ``code``;
    # the public code is new each time the host makes the room public again.
    is_public = models.BooleanField("öffentlich", default=False)
    public_code = models.CharField(
        "öffentlicher Code", max_length=16, unique=True, null=True, blank=True
    )
    public_since = models.DateTimeField("öffentlich seit", null=True, blank=True)
    # Spectators watch by this code (rooms.watching): it never lets anyone join. The host
    # passes it on for a private room; public rooms list it while their game runs.
    watch_code = models.CharField(
        "Zuschauer-Code", max_length=24, unique=True, null=True, blank=True
    )

    class Meta:
        verbose_name = "Raum"
        verbose_name_plural = "Räume"
        ordering = ["-last_activity"]
        indexes = [
            # The open-rooms list: public rooms in the lobby of some games, newest first.
            models.Index(
                fields=["engine", "-public_since"],
                condition=Q(is_public=True, status="lobby"),
                name="room_public_lobby",
            ),
            # „Zuschauen“: public rooms whose game runs, most recently active first.
            models.Index(
                fields=["engine", "-last_activity"],
                condition=Q(is_public=True, status="playing"),
                name="room_public_playing",
            ),
        ]

    def __str__(self):
        return f"{self.engine} · {self.code}"


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    # The engine's seat index once the game runs; join order in the lobby.
    number = models.PositiveSmallIntegerField("Platz")
    name = models.CharField("Name", max_length=24)
    visitor = models.CharField("Besucher", max_length=64, blank=True)  # empty for bots
    is_bot = models.BooleanField("Bot", default=False)
    is_host = models.BooleanField("Gastgeber", default=False)
    left = models.BooleanField("hat verlassen", default=False)
    # The add-bot form's one-time token: a repeated request adds no second bot.
    token = models.CharField("Anfrage-Token", max_length=32, blank=True)
    joined_at = models.DateTimeField("beigetreten", default=clock.now)

    class Meta:
        verbose_name = "Platz"
        verbose_name_plural = "Plätze"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="seat_number_per_room"),
            models.UniqueConstraint(
                fields=["room", "visitor"],
                condition=~Q(visitor=""),
                name="one_seat_per_visitor_and_room",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.number})"
