"""The rooms app; on start it registers its due tables with the play layer's deadline loop."""

from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Online-Räume"

    def ready(self):
        from games.play import deadline_loop
        from rooms import deadlines

        # Timeouts and bot moves in running rooms are applied on time while people watch.
        deadline_loop.register(deadlines.DUE_SOURCE)
