"""Star votes: one per browser, changeable, rate-limited, shown on page, catalogue and JSON-LD."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from feedback.models import Vote
from feedback.services import NEW_VOTES_PER_IP_AND_GAME, VOTES_PER_IP, VOTES_PER_IP_AND_GAME
from games import visitors
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = make_game("sternspiel", title="Sternspiel")
    make_article(game)
    return game


def vote(client, game, stars, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("feedback:vote", args=[game.slug]), {"sterne": stars}, headers=headers
    )


def json_ld_game(html):
    blocks = re.findall(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    return next(b for b in map(json.loads, blocks) if b["@type"] == "Game")


def test_no_votes_yet(client, game):
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Noch keine Stimmen – Sei der Erste!" in html
    # Five buttons with accessible names, none pressed.
    assert html.count('name="sterne"') == 5
    assert 'aria-label="1 von 5 Sternen – schwach"' in html
    assert 'aria-label="5 von 5 Sternen – großartig"' in html
    assert 'aria-pressed="true"' not in html
    assert "aggregateRating" not in json_ld_game(html)
    # A plain page view sets no visitor cookie.
    assert visitors.COOKIE_NAME not in client.cookies


def test_htmx_vote_returns_the_updated_stars_and_a_message(client, game):
    response = vote(client, game, 4)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Danke! Du hast 4 von 5 Sternen vergeben." in html
    assert 'hx-swap-oob="innerHTML"' in html  # the live region keeps its place
    assert '<strong class="rating__average">4,0</strong>' in html
    assert "1 Stimme" in html
    assert 'id="stern-4" class="stars__star is-on" aria-pressed="true"' in html
    assert visitors.COOKIE_NAME in response.cookies  # the browser is remembered


def test_same_browser_changes_its_vote_instead_of_adding_one(client, game):
    vote(client, game, 2)
    vote(client, game, 5)
    assert Vote.objects.count() == 1
    assert Vote.objects.get().stars == 5
    html = client.get(game.get_absolute_url()).content.decode()
    assert "5,0" in html and "1 Stimme" in html
    # The cached page shows nobody's own stars; the reader's fragment does.
    assert 'aria-pressed="true"' not in html
    stars = reverse("feedback:stars", args=[game.slug])
    html = client.get(stars, headers={"HX-Request": "true"}).content.decode()
    assert 'id="stern-5" class="stars__star is-on" aria-pressed="true"' in html
    assert "Deine Bewertung" in html


def test_other_browsers_count_separately_and_average(game):
    for stars in (5, 4, 4):
        vote(Client(), game, stars)
    html = Client().get(game.get_absolute_url()).content.decode()
    assert "4,3" in html and "3 Stimmen" in html
    rating = json_ld_game(html)["aggregateRating"]
    assert rating == {
        "@type": "AggregateRating",
        "ratingValue": 4.3,
        "ratingCount": 3,
        "bestRating": 5,
        "worstRating": 1,
    }


def test_forged_visitor_cookie_gets_a_fresh_id(client, game):
    client.cookies[visitors.COOKIE_NAME] = "someone-elses-id"
    vote(client, game, 3)
    assert Vote.objects.get().visitor != "someone-elses-id"


def test_vote_without_javascript_redirects_back_to_the_stars(client, game):
    response = vote(client, game, 3, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == "/spiele/sternspiel/#bewertung"
    assert Vote.objects.get().stars == 3


@pytest.mark.parametrize("stars", ["0", "6", "drei", ""])
def test_invalid_stars_are_rejected(client, game, stars):
    response = vote(client, game, stars, htmx=False)
    assert response.status_code == 400
    assert "einen bis fünf Sterne" in response.content.decode()
    assert not Vote.objects.exists()


def test_get_is_not_allowed(client, game):
    assert client.get(reverse("feedback:vote", args=[game.slug])).status_code == 405


def test_rate_limit_per_ip_and_game(client, game):
    for n in range(VOTES_PER_IP_AND_GAME.count):
        assert vote(client, game, n % 5 + 1).status_code == 200
    response = vote(client, game, 1)
    assert "sehr viele Bewertungen" in response.content.decode()
    response = vote(client, game, 1, htmx=False)
    assert response.status_code == 429
    assert "Bewertung nicht gespeichert" in response.content.decode()
    # Clearing cookies does not help: the limit is per IP.
    assert vote(Client(), game, 1, htmx=False).status_code == 429
    assert Vote.objects.count() == 1


def test_rate_limit_per_ip_across_games(client):
    games = [
        make_game(f"s{n}") for n in range(VOTES_PER_IP.count // VOTES_PER_IP_AND_GAME.count + 1)
    ]
    votes = 0
    for g in games:
        browser = Client()  # one browser per game changes its vote: no new-vote limit involved
        for _ in range(VOTES_PER_IP_AND_GAME.count):
            if votes < VOTES_PER_IP.count:
                assert vote(browser, g, 4, htmx=False).status_code == 302
                votes += 1
    assert vote(Client(), games[-1], 4, htmx=False).status_code == 429
    assert vote(Client(REMOTE_ADDR="203.0.113.7"), games[-1], 4, htmx=False).status_code == 302


def test_clearing_the_cookie_does_not_stuff_a_rating(client):
    game = make_game("beliebt")
    first = Client()
    assert vote(first, game, 5, htmx=False).status_code == 302
    for _ in range(NEW_VOTES_PER_IP_AND_GAME.count - 1):
        assert vote(Client(), game, 5, htmx=False).status_code == 302
    # A "new browser" (cleared cookie) from the same address is refused …
    assert vote(Client(), game, 5, htmx=False).status_code == 429
    assert Vote.objects.filter(game=game).count() == NEW_VOTES_PER_IP_AND_GAME.count
    # … while an existing voter may still change their vote, and other addresses may vote.
    assert vote(first, game, 1, htmx=False).status_code == 302
    assert vote(Client(REMOTE_ADDR="203.0.113.9"), game, 2, htmx=False).status_code == 302
    assert Vote.objects.filter(game=game).count() == NEW_VOTES_PER_IP_AND_GAME.count + 1
    assert Vote.objects.filter(game=game, stars=1).count() == 1


def test_unpublished_game_cannot_be_voted_on(client):
    draft = make_game("geheim", published=False)
    assert vote(client, draft, 5).status_code == 404


def test_catalogue_shows_average_and_count_without_n_plus_1(client, django_assert_num_queries):
    first = make_game("eins", title="Eins")
    make_game("zwei", title="Zwei")
    for stars in (3, 4):
        vote(Client(), first, stars)
    html = client.get("/").content.decode()
    card_one = html[html.index(">Eins<") :]
    assert "3,5" in card_one[:2000] and "2 Stimmen" in card_one[:2000]
    card_two = html[html.index(">Zwei<") :]
    assert "Noch keine Stimmen" in card_two[:2000]

    with django_assert_num_queries(0):  # the page cache answers
        client.get("/")
    for n in range(5):
        g = make_game(f"mehr-{n}")
        vote(Client(), g, 5)
    # A vote empties the page cache; the render: games (with vote subqueries) + 2 prefetches.
    with django_assert_num_queries(3):
        client.get("/")


def test_catalogue_search_does_not_inflate_counts(client):
    from tests.factories import add_people

    game = make_game("suche", title="Suchspiel")
    add_people(game, authors=("Anna Such", "Bert Such"), publishers=("Such-Verlag",))
    vote(Client(), game, 5)
    html = client.get("/", {"q": "such"}).content.decode()
    assert "1 Stimme" in html
