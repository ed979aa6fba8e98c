from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.editors import ensure_editors_group


class Command(BaseCommand):
    help = "Legt das lokale Redaktionskonto an (nur mit Entwicklungs-Einstellungen)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000/admin/", help="Adresse des Admins"
        )

    def handle(self, *args, **options):
        username = getattr(settings, "DEV_EDITOR_USERNAME", None)
        password = getattr(settings, "DEV_EDITOR_PASSWORD", None)
        if not settings.DEBUG or not username or not password:
            raise CommandError("Nur mit Entwicklungs-Einstellungen (DEBUG) erlaubt.")
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"is_staff": True}
        )
        if created:
            user.set_password(password)
            user.save()
        user.groups.add(ensure_editors_group())
        self.stdout.write(
            f"Redaktionskonto: {options['url']}  Benutzer „{username}“, "
            f"Passwort „{password}“" + ("" if created else " (bereits vorhanden)")
        )
