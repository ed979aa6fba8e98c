"""The admin speaks German everywhere an editor looks, including Django 6.1's new strings."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("admin_list", ["games_game", "feedback_errorreport", "rules_rulesarticle"])
def test_list_search_is_german(editor_client, admin_list):
    html = editor_client.get(reverse(f"admin:{admin_list}_changelist")).content.decode()
    assert "durchsuchen" in html
    assert ">Search " not in html and '"Search"' not in html


def test_time_zone_note_of_date_fields_is_german(editor_client):
    script = editor_client.get(reverse("admin:jsi18n")).content.decode()
    assert "Hinweis: Zeiten bitte in der Zeitzone" in script
    assert "Note: Enter times" in script  # as the msgid, translated
