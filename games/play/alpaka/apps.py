from django.apps import AppConfig


class AlpakaPlayConfig(AppConfig):
    name = "games.play.alpaka"
    label = "play_alpaka"
    verbose_name = "Alpaka (Spiel)"

    def ready(self):
        from games.play.alpaka.definition import ALPAKA
        from games.play.definition import register

        register(ALPAKA)
