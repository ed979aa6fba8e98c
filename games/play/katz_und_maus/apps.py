from django.apps import AppConfig


class KatzUndMausPlayConfig(AppConfig):
    name = "games.play.katz_und_maus"
    label = "play_katz_und_maus"
    verbose_name = "Katz und Maus (Spiel)"

    def ready(self):
        from games.play.definition import register
        from games.play.katz_und_maus.definition import KATZ_UND_MAUS

        register(KATZ_UND_MAUS)
