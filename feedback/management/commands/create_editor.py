"""Creates the first editor account for a deployment, from the environment only.

    EDITOR_USERNAME=… EDITOR_EMAIL=… EDITOR_PASSWORD=… manage.py create_editor

Idempotent: an existing account keeps its password (editors may have changed it)
unless --reset-password is given; it is made staff and put in the editors' group.
Editors are never superusers.
"""

import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction

from games.editors import EDITORS_GROUP, ensure_editors_group


class Command(BaseCommand):
    help = (
        "Legt ein Redaktionskonto aus EDITOR_USERNAME, EDITOR_EMAIL und EDITOR_PASSWORD an "
        "(ohne Rückfragen; mehrfach ausführbar)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset-password",
            action="store_true",
            help="Passwort eines vorhandenen Kontos auf EDITOR_PASSWORD setzen.",
        )

    def handle(self, *args, **options):
        username = os.environ.get("EDITOR_USERNAME", "").strip()
        email = os.environ.get("EDITOR_EMAIL", "").strip()
        password = os.environ.get("EDITOR_PASSWORD", "")
        if not username:
            raise CommandError("EDITOR_USERNAME fehlt – bitte den Benutzernamen setzen.")
        if not password:
            raise CommandError(
                "EDITOR_PASSWORD fehlt – ohne Passwort legen wir kein Redaktionskonto an."
            )
        if email:
            try:
                validate_email(email)
            except ValidationError as error:
                raise CommandError(f"EDITOR_EMAIL ist keine gültige Adresse: {email}") from error

        User = get_user_model()
        user = User.objects.filter(username=username).first()
        candidate = user or User(username=username, email=email)
        sets_password = user is None or options["reset_password"]
        if sets_password:
            try:
                validate_password(password, user=candidate)
            except ValidationError as error:
                raise CommandError(
                    "EDITOR_PASSWORD ist zu schwach: " + " ".join(error.messages)
                ) from error

        with transaction.atomic():
            created = user is None
            user = candidate
            user.is_staff = True
            user.is_active = True
            if email:
                user.email = email
            if sets_password:
                user.set_password(password)
            user.save()
            user.groups.add(ensure_editors_group())

        if created:
            self.stdout.write(f"Redaktionskonto „{username}“ angelegt (Gruppe „{EDITORS_GROUP}“).")
        elif sets_password:
            self.stdout.write(f"Redaktionskonto „{username}“ vorhanden; Passwort neu gesetzt.")
        else:
            self.stdout.write(
                f"Redaktionskonto „{username}“ vorhanden; Passwort unverändert "
                "(--reset-password setzt es neu)."
            )
