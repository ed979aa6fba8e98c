from django.apps import AppConfig


class SleevesConfig(AppConfig):
    name = "sleeves"
    verbose_name = "Kartenhüllen"
