"""The rooms app; on start it registers its due tables with the play layer's deadline loop
and its polls as answered in front."""

from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Online-Räume"

    def ready(self):
        from games.play import deadline_loop, live
        from rooms import deadlines, locked

        # Timeouts and bot moves in running rooms are applied on time while people watch.
        deadline_loop.register(deadlines.DUE_SOURCE)
        # Unchanged polls of a seat are answered in front of Django (rooms.fast_poll).
        live.answered_in_front(locked.CHANNEL_KIND)
