"""Whole pages from the cache (site_config/page_cache.py): hits, misses, invalidation,
per-visitor fragments and the Cache-Control of every page type."""

import re
from decimal import Decimal

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from feedback.models import Vote
from games.models import Edition, Publisher
from rules.models import RulesArticle, Section, WorkedExample
from rules.publishing import publish, unpublish
from site_config import page_cache
from sleeves.models import CardFormat, CardSize, SleeveSettings
from tests.factories import add_people, make_article, make_game

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
PUBLIC = page_cache.PUBLIC_CACHE_CONTROL


@pytest.fixture
def game():
    game = make_game("zwischenspeicher", title="Zwischenspeicher")
    add_people(game)
    make_article(game)
    return game


@pytest.fixture
def demo_game():
    game = make_game("nimm-drei", title="Nimm drei", demo_engine="takeaway", players_max=2)
    make_article(game)
    return game


def page(client, url, **kwargs):
    response = client.get(url, **kwargs)
    assert response.status_code == 200, url
    return response


def state(response) -> str:
    return response.get(page_cache.HIT_HEADER, "")


# --- Hits and misses --------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/spiele/zwischenspeicher/", "/", "/sleeve-finder/"])
def test_second_anonymous_request_is_a_hit_without_queries(url, game, django_assert_num_queries):
    first = page(Client(), url)
    assert state(first) == "miss"
    with django_assert_num_queries(0):
        second = page(Client(), url)
    assert state(second) == "hit"
    assert second.content == first.content
    assert second["Content-Length"] == str(len(first.content))


@pytest.mark.parametrize("url", ["/spiele/zwischenspeicher/", "/", "/sleeve-finder/"])
def test_cached_pages_hold_nothing_of_one_visitor(url, game):
    for response in (page(Client(), url), page(Client(), url)):
        html = response.content.decode()
        assert not response.cookies  # no Set-Cookie: no visitor id, CSRF or session cookie
        assert "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html
        assert "nonce-" not in response["Content-Security-Policy"]
        assert 'nonce="' not in html
        assert response["Cache-Control"] == PUBLIC


def test_visitor_and_csrf_cookies_do_not_matter_but_session_and_messages_do(game):
    url = game.get_absolute_url()
    page(Client(), url)  # stored
    reader = Client()
    reader.cookies["besucher"] = "irgendwer"
    reader.cookies["csrftoken"] = "x" * 32
    assert state(page(reader, url)) == "hit"
    with_messages = Client()
    with_messages.cookies["messages"] = _messages_cookie("Hinweis")
    assert state(page(with_messages, url)) == ""  # rendered, not looked up, not stored
    with_session = Client()
    with_session.cookies["sessionid"] = "no-such-session"
    assert state(page(with_session, url)) == ""


def _messages_cookie(text: str) -> str:
    request = HttpRequest()
    storage = CookieStorage(request)
    from django.http import HttpResponse

    response = HttpResponse()
    storage._store([_message(text)], response)
    return response.cookies["messages"].value


def _message(text):
    from django.contrib.messages.storage.base import Message

    return Message(constants.INFO, text)


def test_a_new_code_stamp_misses(game, settings):
    url = game.get_absolute_url()
    page(Client(), url)
    assert state(page(Client(), url)) == "hit"
    page_cache.code_stamp.cache_clear()
    try:
        settings.PAGE_CACHE_CODE_STAMP = "naechste-fassung"
        assert state(page(Client(), url)) == "miss"
    finally:
        page_cache.code_stamp.cache_clear()


def test_a_lost_generation_never_revives_old_pages(game):
    from django.core.cache import cache

    url = game.get_absolute_url()
    page(Client(), url)
    cache.delete(page_cache.GENERATION_KEY)  # evicted
    assert state(page(Client(), url)) == "miss"


# --- Invalidation: every kind of edit a page shows ----------------------------------------------


def _title_change(game):
    game.title = "Neuer Titel"
    game.save()
    return "Neuer Titel"


def _publisher_added(game):
    game.publishers.add(Publisher.objects.create(name="Kartenhaus Verlag"))
    return "Kartenhaus Verlag"


def _publisher_renamed(game):
    publisher = game.publishers.get()
    publisher.name = "Umbenannt GmbH"
    publisher.save()
    return "Umbenannt GmbH"


def _section_published(game):
    section = Section.objects.get(article__game=game, kind="ziel")
    section.body = "Ganz **neues** Ziel."
    section.save()
    publish(section.article)
    return "Ganz <strong>neues</strong> Ziel."


def _example_published(game):
    article = RulesArticle.objects.get(game=game)
    WorkedExample.objects.create(article=article, title="Zweites Beispiel", body="Noch eins.")
    publish(article)
    return "Zweites Beispiel"


def _edition_added(game):
    publisher = Publisher.objects.create(name="Ausgabenverlag")
    Edition.objects.create(game=game, publisher=publisher, year=2031, note="Jubiläumsausgabe")
    article = RulesArticle.objects.get(game=game)
    section = Section.objects.create(article=article, kind="ausgaben", body="Ausgaben.")
    publish(section.article)
    return "Jubiläumsausgabe"


def _card_format_added(game):
    size = CardSize.objects.create(name="Testformat", width_mm=Decimal(63), height_mm=Decimal(88))
    CardFormat.objects.create(game=game, label="Spielkarten für den Test", count=55, size=size)
    return "Spielkarten für den Test"


def _vote_cast(game):
    Vote.objects.create(game=game, visitor="jemand", stars=4)
    return "1 Stimme"


@pytest.mark.parametrize(
    "edit",
    [
        _title_change,
        _publisher_added,
        _publisher_renamed,
        _section_published,
        _example_published,
        _edition_added,
        _card_format_added,
        _vote_cast,
    ],
)
def test_every_edit_a_page_shows_invalidates_it(edit, game):
    urls = [game.get_absolute_url(), "/"]
    for url in urls:
        page(Client(), url)
        assert state(page(Client(), url)) == "hit"
    shown = edit(game)
    after = page(Client(), game.get_absolute_url())
    assert state(after) == "miss"
    assert shown in after.content.decode()
    assert state(page(Client(), "/")) == "miss"


def test_unpublished_working_copy_changes_stay_off_the_public_page(game):
    url = game.get_absolute_url()
    section = Section.objects.get(article__game=game, kind="ziel")
    section.body = "Halbfertiger Entwurf."
    section.save()  # bumps: the page is drawn again, from the unchanged snapshot
    assert "Halbfertiger Entwurf" not in page(Client(), url).content.decode()
    publish(section.article)
    assert "Halbfertiger Entwurf" in page(Client(), url).content.decode()
    unpublish(RulesArticle.objects.get(game=game))
    assert "Halbfertiger Entwurf" not in page(Client(), url).content.decode()


def test_unpublishing_a_game_removes_its_cached_page(game):
    url = game.get_absolute_url()
    page(Client(), url)
    game.is_published = False
    game.save()
    assert Client().get(url).status_code == 404


def test_sleeve_settings_invalidate(game):
    page(Client(), "/sleeve-finder/")
    SleeveSettings(tolerance_mm=Decimal("3")).save()
    assert state(page(Client(), "/sleeve-finder/")) == "miss"


def test_demo_play_does_not_empty_the_cache(demo_game):
    url = demo_game.get_absolute_url()
    page(Client(), url)
    player = Client()
    player.post("/spiele/nimm-drei/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    assert state(page(Client(), url)) == "hit"


def test_an_admin_change_bumps_even_without_a_signal(editor_client, game):
    # Admin actions may use QuerySet.update(); any successful admin POST bumps.
    before = page_cache.current_generation()
    url = reverse("admin:games_game_changelist")
    editor_client.post(url, {"action": "delete_selected", "_selected_action": []})
    assert page_cache.current_generation() != before


def test_the_generation_is_bumped_again_after_commit(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _title_change(game)
    assert callbacks, "a page drawn before the commit must not outlive it"


# --- Per-visitor parts --------------------------------------------------------------------------


def _stars_fragment(client, game):
    response = client.get(reverse("feedback:stars", args=[game.slug]), headers=HX)
    assert response.status_code == 200
    assert response["Cache-Control"] == page_cache.PER_VISITOR_CACHE_CONTROL
    return response.content.decode()


def _pressed(html):
    return re.findall(r'id="stern-(\d)"[^>]*aria-pressed="true"', html)


def test_two_readers_see_their_own_stars_and_the_same_page(game):
    alice, bob = Client(), Client()
    vote_url = reverse("feedback:vote", args=[game.slug])
    alice.post(vote_url, {"sterne": 2}, headers=HX)
    bob.post(vote_url, {"sterne": 5}, headers=HX)
    page_a = page(alice, game.get_absolute_url())
    page_b = page(bob, game.get_absolute_url())
    assert page_a.content == page_b.content
    assert state(page_b) == "hit"
    assert "3,5" in page_a.content.decode() and _pressed(page_a.content.decode()) == []
    # The page loads the reader's form; each gets their own stars and CSRF token.
    assert f'hx-get="{reverse("feedback:stars", args=[game.slug])}"' in page_a.content.decode()
    assert _pressed(_stars_fragment(alice, game)) == ["2"]
    assert _pressed(_stars_fragment(bob, game)) == ["5"]
    assert _pressed(_stars_fragment(Client(), game)) == []


def test_rating_page_without_javascript(game):
    client = Client()
    response = client.get(reverse("feedback:stars", args=[game.slug]) + "?sterne=4")
    html = response.content.decode()
    assert response.status_code == 200 and "<h1>Zwischenspeicher bewerten</h1>" in html
    assert "4 von 5 Sternen gewählt" in html and "csrfmiddlewaretoken" in html
    assert response["Cache-Control"] == page_cache.PER_VISITOR_CACHE_CONTROL


def test_two_visitors_get_their_own_demo_and_the_same_page(demo_game):
    player, newcomer = Client(), Client()
    player.post("/spiele/nimm-drei/demo/start/", {"version": 0, "bots": 1}, headers=HX)
    page_player = page(player, demo_game.get_absolute_url())
    page_newcomer = page(newcomer, demo_game.get_absolute_url())
    assert page_player.content == page_newcomer.content
    html = page_player.content.decode()
    fragment_url = "/spiele/nimm-drei/demo/?zurueck=%2Fspiele%2Fnimm-drei%2F"
    assert f'hx-get="{fragment_url}"' in html
    assert 'href="/spiele/nimm-drei/demo/"' in html  # without JavaScript: the full-screen demo
    assert "demo-setup" not in html  # no visitor's table in the cached page

    mine = player.get(fragment_url, headers=HX)
    fresh = newcomer.get(fragment_url, headers=HX)
    for response in (mine, fresh):
        assert response.status_code == 200
        assert response["Cache-Control"] == page_cache.PER_VISITOR_CACHE_CONTROL
        assert "HX-Request" in response["Vary"]
        assert "<html" not in response.content.decode()
        assert 'name="zurueck" value="/spiele/nimm-drei/"' in response.content.decode()
    assert "demo-setup" not in mine.content.decode()  # the started game
    assert "demo-setup" in fresh.content.decode()  # the setup form
    full = newcomer.get("/spiele/nimm-drei/demo/")
    assert "<html" in full.content.decode() and "Vollbild" not in full["Cache-Control"]
    assert full["Cache-Control"] == page_cache.PER_VISITOR_CACHE_CONTROL


def test_report_form_opened_by_the_address_is_not_cached(game):
    url = game.get_absolute_url() + "?melden=1"
    for _ in range(2):
        response = Client().get(url)
        assert "csrfmiddlewaretoken" in response.content.decode()
        assert response["Cache-Control"] == page_cache.PER_VISITOR_CACHE_CONTROL
        assert state(response) == ""


# --- Who gets the cached page -------------------------------------------------------------------


def test_signed_in_reader_gets_the_stored_page_privately(game, django_user_model):
    url = game.get_absolute_url()
    anonymous = page(Client(), url)
    reader = Client()
    reader.force_login(django_user_model.objects.create_user("leser", password="geheim-123"))
    response = page(reader, url)
    assert state(response) == "hit" and response.content == anonymous.content
    assert response["Cache-Control"] == page_cache.SIGNED_IN_CACHE_CONTROL


def test_staff_never_get_or_leave_a_cached_page(editor_client, game):
    url = game.get_absolute_url()
    section = Section.objects.get(article__game=game, kind="ziel")
    section.body = "Nur für die Redaktion."
    section.save()
    staff_page = page(editor_client, url)
    assert "Nur für die Redaktion" in staff_page.content.decode()
    assert staff_page["Cache-Control"] == page_cache.STAFF_CACHE_CONTROL
    assert state(staff_page) == ""
    public = page(Client(), url)
    assert state(public) == "miss" and "Nur für die Redaktion" not in public.content.decode()
    assert state(page(editor_client, url)) == ""


def test_drafts_in_the_catalogue_stay_with_staff(editor_client, game):
    make_game("entwurfsspiel", title="Entwurfsspiel", published=False)
    assert "Entwurfsspiel" in page(editor_client, "/").content.decode()
    assert "Entwurfsspiel" not in page(Client(), "/").content.decode()


# --- htmx ---------------------------------------------------------------------------------------


def test_htmx_and_full_catalogue_are_stored_apart(game):
    full = page(Client(), "/?spieler=2")
    partial = page(Client(), "/?spieler=2", headers=HX)
    assert "<html" in full.content.decode() and "<html" not in partial.content.decode()
    assert state(partial) == "miss"
    assert "<html" not in page(Client(), "/?spieler=2", headers=HX).content.decode()
    assert "<html" in page(Client(), "/?spieler=2").content.decode()
    for response in (full, partial):
        assert "HX-Request" in response["Vary"] and "Cookie" in response["Vary"]


def test_sleeve_finder_htmx_partial_varies_on_hx_request(game):
    partial = page(Client(), "/sleeve-finder/", headers=HX)
    assert "HX-Request" in partial["Vary"]
    assert state(page(Client(), "/sleeve-finder/", headers=HX)) == "hit"
    assert "<html" in page(Client(), "/sleeve-finder/").content.decode()


# --- Cache-Control of every page type -----------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("/", PUBLIC),
        ("/?q=zwischen", PUBLIC),
        ("/spiele/zwischenspeicher/", PUBLIC),
        ("/sleeve-finder/", PUBLIC),
        ("/spiele/zwischenspeicher/?abschnitt=ziel", "private, no-store"),
        ("/spiele/zwischenspeicher/sterne/", "private, no-store"),
        ("/spiele/nimm-drei/demo/", "private, no-store"),
    ],
)
def test_cache_control_of_pages(url, expected, game, demo_game):
    assert Client().get(url)["Cache-Control"] == expected


def test_cache_control_of_per_visitor_requests(game, demo_game, editor_client):
    def directives(response):
        return {part.strip() for part in response["Cache-Control"].split(",")}

    client = Client()
    fragment = client.get("/spiele/nimm-drei/demo/", headers=HX)
    assert directives(fragment) >= {"private", "no-store"}
    report_form = client.get(reverse("feedback:report", args=[game.slug]), headers=HX)
    assert directives(report_form) >= {"private", "no-store"}
    vote = client.post(reverse("feedback:vote", args=[game.slug]), {"sterne": 3}, headers=HX)
    assert directives(vote) >= {"private", "no-store"}
    room_form = client.get(reverse("rooms:create", args=["nimm-drei"]))
    assert "no-store" in directives(room_form) or "private" in directives(room_form)
    admin = editor_client.get(reverse("admin:index"))
    assert directives(admin) >= {"private", "no-store"}


def test_a_refused_host_is_never_stored(game):
    url = game.get_absolute_url()
    for _ in range(2):
        response = Client(HTTP_HOST="anderswo.example").get(url)
        assert response.status_code == 400 and state(response) == ""
    assert state(page(Client(), url)) == "miss"
