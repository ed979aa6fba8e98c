"""A crafted ?spiele= address must not blow up the Sleeve-Finder's answer."""

import pytest

from sleeves.calculation import MAX_ENTRIES, MAX_NOTES, parse_selection

pytestmark = pytest.mark.django_db

FINDER = "/sleeve-finder/"


def test_1900_invalid_tokens_give_a_small_response(client):
    baseline = len(client.get(FINDER).content)
    tokens = ",".join("!" for _ in range(1900))  # 3.8 KB of address, as in the probe
    response = client.get(FINDER, {"spiele": tokens})
    assert response.status_code == 200
    html = response.content.decode()
    assert len(response.content) < baseline + 4_000, len(response.content)
    assert html.count("verstehen wir nicht") <= MAX_NOTES
    assert "weitere Hinweise" in html


def test_many_unknown_games_are_summarised(client):
    tokens = ",".join(f"spiel-{n}" for n in range(200))
    html = client.get(FINDER, {"spiele": tokens}).content.decode()
    assert html.count("kennen wir nicht") <= MAX_NOTES
    assert "weitere Hinweise" in html


def test_only_the_first_entries_are_read():
    selection = parse_selection(",".join(f"spiel-{n}" for n in range(1000)))
    assert len(selection.picks) == 30
    assert any(f"mehr als {MAX_ENTRIES} Einträge" in p for p in selection.problems)
    assert len(selection.problems) <= 3
