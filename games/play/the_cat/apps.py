from django.apps import AppConfig


class TheCatPlayConfig(AppConfig):
    name = "games.play.the_cat"
    label = "play_the_cat"
    verbose_name = "The Cat (Spiel)"

    def ready(self):
        from games.play.definition import register
        from games.play.the_cat.definition import THE_CAT

        register(THE_CAT)
