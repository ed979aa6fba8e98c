"""The editors see accounts' links and the points ledger in German, read-only."""

import pytest
from django.urls import reverse

from accounts import services

pytestmark = pytest.mark.django_db


def test_ledger_and_links_are_listed_in_german(admin_client, reader, game):
    services.adopt(reader, "leser-id")
    services.award("leser-id", "erste-stimme", game.pk, 5, "Sternspiel")
    services.award("wartend", "meldung-angenommen", 99, 10, "Mondspiel")
    html = admin_client.get(reverse("admin:accounts_pointentry_changelist")).content.decode()
    assert "Punkte-Eintrag zur Änderung auswählen" in html and "Wartet auf Konto" in html
    assert "erste Stimme für ein Spiel" in html and "Fehlermeldung angenommen" in html
    assert "Sternspiel" in html and "Mondspiel" in html
    html = admin_client.get(reverse("admin:accounts_visitorlink_changelist")).content.decode()
    assert "Besucher-Verknüpfung zur Änderung auswählen" in html and "leser-id…" in html
    index = admin_client.get(reverse("admin:index")).content.decode()
    assert "Leserkonten" in index


def test_points_cannot_be_typed_in(admin_client):
    assert admin_client.get(reverse("admin:accounts_pointentry_add")).status_code == 403
    assert admin_client.get(reverse("admin:accounts_visitorlink_add")).status_code == 403
