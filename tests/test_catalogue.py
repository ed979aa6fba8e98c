import pytest
from django.urls import reverse

from tests.factories import add_people, make_article, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def games():
    duo = make_game("duo", players_min=2, players_max=2, min_age=4, duration_minutes=10)
    party = make_game(
        "party", players_min=3, players_max=8, min_age=10, duration_minutes=45, complexity=2
    )
    secret = make_game("geheim", published=False)
    add_people(party, authors=("Berta Brettspiel",), publishers=("Spaßverlag",))
    for game in (duo, party, secret):
        make_article(game)
    return {"duo": duo, "party": party, "secret": secret}


def titles(response):
    games = response.context["games"]  # drawn only when the results are not kept
    return [game.slug for game in games()]


def test_full_page_lists_published_games_only(client, games):
    response = client.get(reverse("games:catalogue"))
    assert response.status_code == 200
    assert titles(response) == ["duo", "party"]
    html = response.content.decode()
    assert "<html" in html and 'id="ergebnisse"' in html
    assert "Geheim" not in html


def test_staff_sees_drafts_marked(editor_client, games):
    response = editor_client.get(reverse("games:catalogue"))
    assert "geheim" in titles(response)
    assert "Entwurf" in response.content.decode()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"spieler": "2"}, ["duo"]),
        ({"spieler": "5"}, ["party"]),
        ({"alter": "6"}, ["duo"]),
        ({"alter": "12"}, ["duo", "party"]),
        ({"dauer": "15"}, ["duo"]),
        ({"komplexitaet": "2"}, ["party"]),
        ({"q": "spaßverlag"}, ["party"]),
        ({"q": "Berta"}, ["party"]),
        ({"q": "nichts-passt"}, []),
        ({"spieler": "2", "komplexitaet": "2"}, []),
        ({"spieler": "abc"}, ["duo", "party"]),  # invalid input is ignored, not an error
    ],
)
def test_filters(client, games, query, expected):
    response = client.get(reverse("games:catalogue"), query)
    assert response.status_code == 200
    assert titles(response) == expected


def test_htmx_request_gets_only_the_results_region(client, games):
    response = client.get(
        reverse("games:catalogue"), {"spieler": "2"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="ergebnisse"')
    assert "<html" not in html and "<form" not in html
    assert "1 Spiel passen" in html or "1 Spiel" in html
    assert "HX-Request" in response.headers["Vary"]


def test_empty_result_says_so(client, games):
    response = client.get(reverse("games:catalogue"), {"q": "zzz"})
    assert "Kein Spiel passt" in response.content.decode()


def test_filter_form_works_without_javascript(client, games):
    html = client.get(reverse("games:catalogue")).content.decode()
    assert 'method="get"' in html and 'action="/"' in html
    assert 'hx-push-url="true"' in html
