from django.apps import AppConfig


class KaetzchenPlayConfig(AppConfig):
    name = "games.play.kaetzchen"
    label = "play_kaetzchen"
    verbose_name = "Kätzchen-Angeln (Spiel)"

    def ready(self):
        from games.play.definition import register
        from games.play.kaetzchen.definition import KAETZCHEN

        register(KAETZCHEN)
