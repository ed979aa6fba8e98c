from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Leserkonten"

    def ready(self):
        # Adoption on login, fresh visitor id on logout, points for votes and accepted reports.
        from accounts import receivers  # noqa: F401
