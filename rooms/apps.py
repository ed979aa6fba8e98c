from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = "Online-Räume"

    def ready(self):
        from rooms import alpaka_demo  # noqa: F401  (registers the Alpaka demo)
