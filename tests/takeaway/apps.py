from django.apps import AppConfig


class TakeawayConfig(AppConfig):
    name = "tests.takeaway"
    label = "play_takeaway"

    def ready(self):
        from games.play.definition import register
        from tests.takeaway.definition import TAKEAWAY

        register(TAKEAWAY)
