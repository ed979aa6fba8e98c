from django.apps import AppConfig


class LegalConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "legal"
    verbose_name = "Impressum und Datenschutz"

    def ready(self):
        from legal import checks  # noqa: F401  (check --deploy warns about placeholders)
