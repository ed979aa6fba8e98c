"""„Üben“: the page, answers without JavaScript and with htmx, progress, the solution after
two misses, the cards beside the article's sections, the admin's engine preview, and the
progress of a visitor moving into an account (and out of it again)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from accounts.models import VisitorLink
from accounts.personal_data import erase
from exercises import content_loader
from exercises.models import Exercise, ExerciseProgress
from tests.accounts.conftest import PASSWORD, login, reader, visitor_of  # noqa: F401

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
PAGE = "/spiele/kaetzchen-angeln/ueben/"


@pytest.fixture
def exercises(content):
    content_loader.load_all()
    return list(Exercise.objects.filter(game__slug="kaetzchen-angeln").order_by("position"))


def answer(client, number, data, htmx=False, slug="kaetzchen-angeln"):
    return client.post(f"/spiele/{slug}/ueben/{number}/", data, headers=HX if htmx else {})


def test_the_page_lists_every_exercise_with_its_anchor_and_board(client, exercises):
    response = client.get(PAGE)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "HX-Request" in response["Vary"]
    for number, exercise in enumerate(exercises, start=1):
        assert f'id="uebung-{number}"' in html
        assert exercise.title in html
        # A plain form (no JavaScript needed) beside htmx.
        assert f'action="/spiele/kaetzchen-angeln/ueben/{number}/#uebung-{number}"' in html
    assert "0 von 12 Aufgaben gelöst" in html
    assert html.count('name="antwort" value="nichts"') == 12


def test_the_htmx_page_is_only_the_list(client, exercises):
    html = client.get(PAGE, headers=HX).content.decode()
    assert html.lstrip().startswith('<div id="uebungen"')
    assert "<html" not in html and 'id="uebung-12"' in html


def test_the_answers_never_reach_the_page(client, exercises):
    """Before two misses nothing marks the solution, and the tokens of the stored wrong
    answers appear only as buttons every exercise has (the board's own choices)."""
    html = client.get(PAGE).content.decode()
    assert "is-solution" not in html
    assert "Lösung:" not in html


def test_a_right_answer_without_javascript_shows_the_rule_and_marks_it_solved(client, exercises):
    response = answer(client, 1, {"antwort": "tisch:2"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert "Richtig!" in html
    assert "Die Pik 9 passt zur Kreuz 9" in html  # the exercise's explanation
    assert "Gewonnen: Pik 9, Kreuz König, Herz 2, Kreuz 9." in html  # what the engine did
    assert "1 von 12 Aufgaben gelöst" in html
    row = ExerciseProgress.objects.get()
    assert row.solved and row.visitor == visitor_of(client)


def test_a_wrong_answer_says_what_happened_and_links_the_rule(client, exercises):
    html = answer(client, 1, {"antwort": "tisch:1"}).content.decode()
    assert "Noch nicht." in html
    assert "Der Fang beginnt bei einer anderen Karte." in html
    assert "Geangelt! Du nimmst 4 Karten." in html
    assert '<a href="/spiele/kaetzchen-angeln/#ablauf">Ablauf</a>' in html
    assert "Lösung:" not in html


def test_after_the_second_miss_the_solution_is_shown_and_marked_on_the_board(client, exercises):
    answer(client, 1, {"antwort": "tisch:1"})
    html = answer(client, 1, {"antwort": "nichts"}, htmx=True).content.decode()
    assert "Lösung:" in html and "Tippe die **Pik 9**" not in html  # rendered as Markdown
    assert "<strong>Pik 9</strong>" in html
    assert re.search(r'class="ex-card is-solution"[^>]*value="tisch:2"', html)
    # Then solving it still counts.
    html = answer(client, 1, {"antwort": "tisch:2"}, htmx=True).content.decode()
    assert "Richtig!" in html and "is-solution" not in html
    assert ExerciseProgress.objects.get().misses == 2


def test_an_htmx_answer_is_the_exercise_and_the_progress_out_of_band(client, exercises):
    response = answer(client, 2, {"antwort": "nichts"}, htmx=True)
    html = response.content.decode()
    assert html.startswith('<li class="exercise exercise--solved" id="uebung-2"')
    assert '<p class="exercises__progress" id="uebungen-stand" hx-swap-oob="true">' in html
    assert "<html" not in html
    assert response["Cache-Control"] == "private, no-store"


def test_a_post_without_a_choice_asks_for_one_and_counts_no_miss(client, exercises):
    html = answer(client, 1, {}).content.decode()
    assert "Wähle zuerst aus" in html
    assert not ExerciseProgress.objects.filter(misses__gt=0).exists()


def test_all_solved_shows_alle_regeln_geuebt(client, exercises):
    for number, exercise in enumerate(exercises, start=1):
        answer(client, number, {"antwort": exercise.setup["answer"]})
    html = client.get(PAGE).content.decode()
    assert "Alle Regeln geübt" in html and "12 von 12" in html


def test_an_unknown_exercise_is_404(client, exercises):
    assert answer(client, 13, {"antwort": "nichts"}).status_code == 404
    assert client.get("/spiele/gibt-es-nicht/ueben/").status_code == 404


@pytest.mark.parametrize(
    "slug,number,data,verdict",
    [
        ("alpaka", 1, {"antwort": "play:4"}, "Richtig!"),
        ("alpaka", 8, {"antwort": "draw"}, "Alle anderen sind ausgestiegen"),
        ("the-cat", 1, {"antwort": "swap", "geben": "stolz", "nehmen": "frech"}, "Richtig!"),
        ("the-cat", 8, {"antwort": "stop"}, "nicht jeder Stapel fertig"),
        ("katz-und-maus", 1, {"quelle": "stock", "antwort": "A"}, "Richtig!"),
        ("katz-und-maus", 2, {"quelle": "hand:2", "antwort": "A"}, "Einen neuen Baustapel"),
    ],
)
def test_every_game_answers_on_its_board(client, exercises, slug, number, data, verdict):
    page = client.get(f"/spiele/{slug}/ueben/").content.decode()
    assert f'id="uebung-{number}"' in page
    html = answer(client, number, data, htmx=True, slug=slug).content.decode()
    assert verdict in html


def test_the_article_links_exercises_beside_their_section(client, exercises):
    html = client.get("/spiele/kaetzchen-angeln/").content.decode()
    ablauf = html[html.index('id="ablauf"') : html.index('id="spielende"')]
    assert 'href="/spiele/kaetzchen-angeln/ueben/#uebung-1"' in ablauf
    assert "Aufgabe 1: Die Neun geht angeln" in ablauf
    ende = html[html.index('id="spielende"') :]
    assert "Aufgabe 11: Rettung mit der letzten Karte" in ende
    assert 'href="/spiele/kaetzchen-angeln/ueben/"' in html  # „Regeln üben“ beside the demo


def test_a_changed_exercise_reaches_the_cached_game_page(client, exercises):
    client.get("/spiele/kaetzchen-angeln/")
    first = exercises[0]
    first.title = "Neun angelt neu"
    first.save()
    assert "Aufgabe 1: Neun angelt neu" in client.get("/spiele/kaetzchen-angeln/").content.decode()


def test_progress_moves_to_the_account_on_login_and_shows_in_mein_bereich(
    client,
    exercises,
    reader,  # noqa: F811
):
    # The account has a primary id from another browser with one miss on exercise 1.
    VisitorLink.objects.create(user=reader, visitor="konto-id", is_primary=True)
    ExerciseProgress.objects.create(visitor="konto-id", exercise=exercises[0], misses=1)
    answer(client, 1, {"antwort": "tisch:2"})
    answer(client, 2, {"antwort": "nichts"})
    browser = visitor_of(client)
    login(client)
    assert visitor_of(client) == "konto-id"
    rows = {row.exercise_id: row for row in ExerciseProgress.objects.all()}
    assert set(row.visitor for row in rows.values()) == {"konto-id"}
    assert rows[exercises[0].pk].solved and rows[exercises[0].pk].misses == 1
    assert not ExerciseProgress.objects.filter(visitor=browser).exists()
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Geübte Regeln" in html
    assert "Kätzchen-Angeln</a>: 2 von 12 Aufgaben gelöst" in html
    assert "2 von 12 Aufgaben gelöst" in client.get(PAGE).content.decode()


def test_meine_daten_lists_the_progress_and_deleting_the_account_erases_it(
    client,
    exercises,
    reader,  # noqa: F811
):
    answer(client, 1, {"antwort": "tisch:1"})
    login(client)
    data = json.loads(client.get(reverse("accounts:my_data")).content)
    assert data["uebungen"] == [
        {
            "spiel": "Kätzchen-Angeln",
            "uebung": "Die Neun geht angeln",
            "adresse": "http://testserver/spiele/kaetzchen-angeln/ueben/#uebung-1",
            "fehlversuche": 1,
            "geloest_am": None,
            "zuletzt_geuebt": data["uebungen"][0]["zuletzt_geuebt"],
        }
    ]
    erase(reader)
    assert not ExerciseProgress.objects.exists()


def test_the_admin_previews_the_board_and_refuses_what_the_engine_contradicts(
    editor_client, exercises
):
    exercise = exercises[0]
    url = reverse("admin:exercises_exercise_change", args=[exercise.pk])
    page = editor_client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {key: value for key, value in form.initial.items() if value is not None}
    data.update(
        {
            "game": exercise.game_id,
            "pruefart": "kaetzchen:catch",
            "pruefart_angezeigt": "kaetzchen:catch",
            "check__table": "4D 9S KC 2H",
            "check__card": "9C",
            "check__by": "",
            "check__last_card": "",
            "check__answer": "tisch:2",
            "check__wrong": "tisch:1",
            "expect__why": "andere_karte",
            "is_published": "on",
            "_engine_preview": "1",
        }
    )
    html = editor_client.post(url, data).content.decode()
    assert "Die Engine bestätigt beide Antworten." in html
    assert "So sieht der Tisch aus" in html and 'value="tisch:2"' in html  # the board
    assert "Nur Vorschau" in html
    # A wrong answer the engine accepts is refused on save.
    data.pop("_engine_preview")
    data["check__wrong"] = "tisch:2"
    html = editor_client.post(url, data).content.decode()
    assert "gilt laut Engine als richtig" in html
    exercise.refresh_from_db()
    assert exercise.setup["wrong"] == "tisch:1"
    # A right one is saved.
    data["check__wrong"] = "nichts"
    data["expect__why"] = "angelt"
    assert editor_client.post(url, data).status_code == 302
    exercise.refresh_from_db()
    assert exercise.setup["wrong"] == "nichts" and exercise.expect == {"why": "angelt"}


def test_old_progress_without_an_account_is_cleaned_up_daily(exercises, reader):  # noqa: F811
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from exercises.progress import IDLE_DAYS

    old = timezone.now() - timedelta(days=IDLE_DAYS + 1)
    VisitorLink.objects.create(user=reader, visitor="konto-id", is_primary=True)
    for visitor in ("verwaist", "konto-id", "frisch"):
        ExerciseProgress.objects.create(visitor=visitor, exercise=exercises[0])
    ExerciseProgress.objects.exclude(visitor="frisch").update(updated_at=old)
    call_command("daily_cleanup")
    assert set(ExerciseProgress.objects.values_list("visitor", flat=True)) == {"konto-id", "frisch"}


def test_the_datenschutzerklaerung_states_what_progress_keeps_and_for_how_long(client):
    from exercises.progress import IDLE_DAYS

    text = " ".join(client.get("/datenschutz/").content.decode().split())
    assert IDLE_DAYS == 365 and "bis 1 Jahr nach der letzten Antwort" in text
    assert "<code>cleanup_exercises</code>" in text


def test_answers_from_browsers_without_a_cookie_stop_creating_rows(exercises, settings):
    from django.test import Client

    from exercises.views import NEW_VISITORS_PER_IP

    for _ in range(NEW_VISITORS_PER_IP.count + 5):
        html = Client(REMOTE_ADDR="198.51.100.77").post(
            "/spiele/kaetzchen-angeln/ueben/2/", {"antwort": "nichts"}
        )
        assert "Richtig!" in html.content.decode()  # the verdict comes anyway
    assert ExerciseProgress.objects.count() == NEW_VISITORS_PER_IP.count


def _item_html(html: str, number: int) -> str:
    start = html.index(f'id="uebung-{number}"')
    end = html.find('<li class="exercise', start)
    return html[start : end if end != -1 else len(html)]


def test_the_cat_shows_no_mood_of_another_players_stacks(client, exercises):
    """The other stacks are filled from the remaining cards: their moods never reach the page
    (the hidden-information rule of every table, for exercises too)."""
    from exercises.models import Exercise

    html = client.get("/spiele/the-cat/ueben/").content.decode()
    for number, exercise in enumerate(
        Exercise.objects.filter(game__slug="the-cat").order_by("position"), start=1
    ):
        setup = exercise.setup
        visible = {mood for stack in setup["stacks"][0] for mood in stack}
        visible |= set(setup.get("middle", []))
        if not setup.get("middle"):
            continue  # a middle filled from the rest is open on the table
        shown = set(re.findall(r"#mood-([a-z]+)", _item_html(html, number)))
        assert shown and shown <= visible, (number, shown - visible)


def test_alpaka_shows_only_the_count_of_the_other_hands(client, exercises):
    html = client.get("/spiele/alpaka/ueben/").content.decode()
    item = _item_html(html, 7)  # Ben 1 4, Cara 2 3; yours 5 6 A; 2 on top
    assert "Ben: 2 Karten" in item and "Cara: 2 Karten" in item
    faces = re.findall(r"alp-card alp-card--(\w+)", item)
    assert sorted(faces) == sorted(["5", "6", "a", "2"])


def test_every_shipped_exercise_links_a_section_its_article_has():
    from rules.content_loader import content_files, read_content

    kinds = {}
    for path in content_files():
        data = read_content(path)
        kinds[data["game"]["slug"]] = {section["kind"] for section in data["sections"]}
    for path in content_loader.content_files():
        data = content_loader.read(path)
        for item in data["exercises"]:
            assert item["section"] in kinds[data["slug"]], (data["slug"], item["title"])


def test_the_sitemap_lists_each_games_exercise_page(client, exercises):
    xml = client.get("/sitemap.xml").content.decode()
    for slug in ("kaetzchen-angeln", "alpaka", "katz-und-maus", "the-cat"):
        assert f"/spiele/{slug}/ueben/</loc>" in xml
