from django.apps import AppConfig


class EditorialConfig(AppConfig):
    name = "editorial"
    verbose_name = "Redaktion"
