"""Impressum and Datenschutzerklärung: two pages editors keep in the admin.

They ship with a text the site's code can vouch for (cookies, logs, retention) and
placeholders for what only the operator knows (name, address, host), written as
„[BITTE AUSFÜLLEN: …]“. ``manage.py check --deploy`` warns while any is left.
"""

import re

from django.db import models

PLACEHOLDER = re.compile(r"\[BITTE AUSFÜLLEN:[^\]]*\]")


class LegalPage(models.Model):
    class Key(models.TextChoices):
        IMPRESSUM = "impressum", "Impressum"
        DATENSCHUTZ = "datenschutz", "Datenschutzerklärung"

    key = models.CharField("Seite", max_length=20, choices=Key, unique=True, editable=False)
    title = models.CharField("Überschrift", max_length=120)
    body = models.TextField(
        "Text",
        help_text="Markdown: Absätze, ## Zwischenüberschriften, Listen, Tabellen, **fett**, "
        "[Links](https://…). Stellen in der Form „[BITTE AUSFÜLLEN: …]“ sind Platzhalter: "
        "Solange einer übrig ist, warnt „manage.py check --deploy“. Die mitgelieferte Vorlage "
        "beschreibt, was der Code der Seite tut; sie ersetzt keine Rechtsberatung.",
    )
    updated_at = models.DateTimeField("zuletzt geändert", auto_now=True)

    class Meta:
        verbose_name = "Rechtliche Seite"
        verbose_name_plural = "Rechtliche Seiten"
        ordering = ["key"]

    def __str__(self):
        return self.get_key_display()

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse(f"legal:{self.key}")

    def placeholders(self) -> list[str]:
        return PLACEHOLDER.findall(f"{self.title}\n{self.body}")
