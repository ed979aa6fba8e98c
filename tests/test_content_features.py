"""Issue 14: turn summaries, table-layout figures, frequent questions, „Ähnlich wie“,
one form of address, and the Alpaka decisions the article and the engine share."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.engines import alpaka
from games.models import Game, Mechanic
from games.similar import similar_games
from rules.content_loader import content_files, read_content
from rules.models import FrequentQuestion, RulesArticle, Section
from rules.publishing import build_snapshot, has_unpublished_changes, publish
from tests.factories import make_article, make_game

SLUGS = ["alpaka", "kaetzchen-angeln", "katz-und-maus", "the-cat"]
CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "site.css"


def shipped(slug: str) -> dict:
    return next(d for d in map(read_content, content_files()) if d["game"]["slug"] == slug)


def section(data: dict, kind: str) -> dict:
    return next(s for s in data["sections"] if s["kind"] == kind)


def all_texts(data: dict, other_names: bool = True) -> list[str]:
    """Every reader-facing text of a content file (``other_names``: with the glossary's
    other names, which are other people's words on purpose)."""
    texts = [data["game"]["short_description"], data["game"].get("lead", "")]
    texts += [data["game"].get(name, "") for name in ("audience", "good_to_know")]
    texts.append(data["article"].get("source_note", ""))
    for item in data["sections"]:
        texts += [item.get(name, "") for name in ("title", "body", "summary", "figure_alt")]
        texts.append(item.get("figure_caption", ""))
    for part in ("examples", "mistakes", "questions"):
        for item in data.get(part, []):
            texts += [item.get("title", ""), item.get("body", "")]
    for source in data.get("sources", []):
        texts += [source.get(name, "") for name in ("label", "title", "edition", "covers")]
    for entry in data.get("glossary", []):
        texts += [entry["term"], entry.get("body", "")]
        texts += entry.get("other_names", []) if other_names else []
    return [text for text in texts if text]


def without_quotes(text: str) -> str:
    """Quotations („…“) from a source may keep their wording."""
    return re.sub(r"„[^“]*“", "", text)


# --- What every shipped article has ----------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_article_has_a_turn_summary_of_three_to_five_steps(slug):
    summary = section(shipped(slug), "ablauf").get("summary", "")
    steps = re.findall(r"^\d+\. ", summary, flags=re.MULTILINE)
    assert 3 <= len(steps) <= 5, (slug, summary)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_setup_has_an_svg_figure_with_a_text_alternative(slug):
    setup = section(shipped(slug), "aufbau")
    path = finders.find(setup["figure"])
    assert setup["figure"].startswith("img/aufbau/") and setup["figure"].endswith(".svg")
    assert path, setup["figure"]
    svg = Path(path).read_text()
    assert "<title" in svg and "<desc" in svg
    # Nothing the image would load from elsewhere, no script.
    assert "<script" not in svg and "http://" not in svg.replace("http://www.w3.org", "")
    alt = setup["figure_alt"].strip()
    assert len(alt) >= 120, "the text alternative must describe the layout, not name it"
    assert setup.get("figure_caption")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_article_has_four_to_eight_frequent_questions_with_the_rule(slug):
    data = shipped(slug)
    assert section(data, "haeufige-fragen")
    questions = data.get("questions", [])
    assert 4 <= len(questions) <= 8, (slug, len(questions))
    for question in questions:
        assert question["title"].endswith("?"), question["title"]
        assert "Regel:" in question["body"], question["title"]
    if slug == "the-cat":  # the only source with pages: cite one, or say it is silent
        for question in questions:
            cited = question.get("pages", "").startswith("@regelbeschreibung S. ")
            silent = "Regelbeschreibung" in question["body"] and "Festlegung" in question["body"]
            assert cited or silent, question["title"]


# Form of address: „du“ throughout. „ihr“ here is the plural address (also the
# possessive „Ihr Zug“ is avoided, so the check can stay this simple).
IHR_FORM = re.compile(r"\b(ihr|euch|euer|eure|eurem|euren|eurer|eures)\b", re.IGNORECASE)


@pytest.mark.parametrize("slug", SLUGS)
def test_articles_address_the_reader_as_du_only(slug):
    offenders = [
        text[:90] for text in all_texts(shipped(slug)) if IHR_FORM.search(without_quotes(text))
    ]
    assert offenders == []


def test_alpaka_uses_one_word_for_points():
    for text in all_texts(shipped("alpaka"), other_names=False):
        for match in re.finditer(r"\w*punkt\w*", text, flags=re.IGNORECASE):
            assert "minuspunkt" in match.group(0).lower(), (match.group(0), text[:80])


@pytest.mark.parametrize("slug", ["alpaka", "kaetzchen-angeln", "the-cat"])
def test_pile_terms_are_the_sites(slug):
    # „Ablagestapel“ and „Nachziehstapel“ as in the Alpaka article; Katz und Maus
    # names its piles in its own article (its engineer owns that wording).
    joined = " ".join(all_texts(shipped(slug)))
    assert "Ablegestapel" not in joined and "Abwurfstapel" not in joined


# --- Kätzchen-Angeln fixes ----------------------------------------------------------


def test_kaetzchen_article_fixes():
    data = shipped("kaetzchen-angeln")
    joined = "\n".join(all_texts(data))
    assert "Beginner" not in joined
    assert "Weiterspielen von Hand" not in joined
    assert "Chinas beliebtes" not in joined
    assert "verwandt" not in section(data, "geschichte")["body"]
    assert "Spielen wie **Krieg** näher" in section(data, "geschichte")["body"]
    assert "dreht den Packen nicht um" not in joined
    play = section(data, "ablauf")
    assert "Dreh den Packen um" in play["body"] and "ganz unten" in play["body"]
    assert play["figure"] == "img/aufbau/kaetzchen-angeln-fang.svg"
    assert "Limit der Online-Fassung – keine Tischregel" in section(data, "spielende")["body"]
    assert "unsere Einschätzung" in data["game"]["audience"]
    assert "manche andere Fassungen" not in joined


# --- Alpaka: the article states what the engine does ---------------------------------


def test_alpaka_article_fixes_and_decisions():
    data = shipped("alpaka")
    joined = "\n".join(all_texts(data))
    assert "in manchem Nachbau" not in joined
    assert "darfst du nur noch ablegen" not in joined
    assert "es gilt der Punktestand in diesem Moment" not in joined
    decisions = section(data, "varianten")["body"]
    assert "Online gibt in der ersten Runde immer der Gastgeber" in decisions
    assert "Aussteigen darf er weiterhin." in decisions
    assert "Der Verbliebene gewinnt – ganz gleich, wie viele Minuspunkte er hat" in decisions
    assert "Dann zahlt nur der Gegangene, und alle anderen gehen leer aus." in decisions
    assert "Das Spielende lösen Gegangene nie aus" in decisions
    rounds = [e for e in data["examples"] if e.get("check", {}).get("kind") == "round"]
    for example in rounds:
        if example["check"].get("points"):
            assert "Vor dieser Runde" in example["body"] or "gleicher Stand" in example["body"]


def _table(variant="klassisch", players=3):
    state = alpaka.new_game(7, players, {"variant": variant})
    state["round"] = 2
    return state


def test_engine_lone_player_may_play_or_quit_but_not_draw():
    state = _table()
    state["hands"] = [["4", "4", "6"], ["2"], ["1"]]
    state["discard"] = ["3"]
    state["quit"] = [False, True, True]
    state["turn"] = 0
    kinds = {a["type"] for a in alpaka.legal_actions(state, 0)}
    assert kinds == {"play", "quit"} and state["draw_pile"]


def test_engine_allows_drawing_or_quitting_although_a_card_fits():
    # The first two Alpaka FAQs.
    state = _table()
    state["hands"] = [["4", "5"], ["2"], ["1"]]
    state["discard"] = ["4"]
    state["turn"] = 0
    kinds = [a["type"] for a in alpaka.legal_actions(state, 0)]
    assert "play" in kinds and "draw" in kinds and "quit" in kinds


def test_engine_last_remaining_player_wins_whatever_the_points():
    state = alpaka.new_game(3, 2, {})
    state["chips"] = [alpaka.chips_for(35), alpaka.chips_for(2)]
    state, _ = alpaka.remove_player(state, 1)
    result = alpaka.outcome(state)
    assert result["winners"] == [0] and result["reason"] == "abandoned"
    assert result["points"] == [35, 2]  # the standings at that moment, running round unscored


def test_engine_englert_leaver_with_the_highest_hand_pays_alone():
    state = _table("englert", players=3)
    state["hands"] = [["5"], ["6", "A"], ["1", "2"]]
    state["discard"] = ["4"]
    state["quit"] = [False, False, False]
    state["turn"] = 0
    state["target"] = 20
    state["chips"] = [alpaka.chips_for(p) for p in (0, 10, 0)]
    state, _ = alpaka.remove_player(state, 1)  # leaves holding 6 + Alpaka = 16
    state, _ = alpaka.apply(state, 0, {"type": "play", "card": "5"})
    rows = state["round_result"]["rows"]
    assert [row["points"] for row in rows] == [0, 16, 0]
    # The leaver now has 26 minus points, past the target of 20 – but leavers
    # never end the game.
    assert alpaka.points(state)[1] == 26
    assert alpaka.outcome(state) is None and state["phase"] == alpaka.SCORING


# --- Models, loader, snapshot, page ---------------------------------------------------


@pytest.mark.django_db
def test_loader_creates_questions_figures_summaries_mechanics_and_picks(content):
    alpaka_game = Game.objects.get(slug="alpaka")
    article = alpaka_game.article
    assert 4 <= article.questions.count() <= 8
    setup = article.sections.get(kind="aufbau")
    assert setup.figure == "img/aufbau/alpaka.svg" and setup.figure_alt
    assert article.sections.get(kind="ablauf").summary.startswith("1. ")
    assert set(alpaka_game.mechanics.values_list("name", flat=True)) >= {"Ablegen"}
    mouse = Game.objects.get(slug="katz-und-maus")
    assert list(alpaka_game.related_games.all()) == [mouse]
    assert list(mouse.related_games.all()) == [alpaka_game]  # one pick links both pages
    snapshot = article.published_snapshot
    assert len(snapshot["questions"]) == article.questions.count()
    assert any(s.get("figure") for s in snapshot["sections"])


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_game_page_shows_summary_figure_questions_and_similar(client, content, slug):
    game = Game.objects.get(slug=slug)
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Dein Zug auf einen Blick" in html
    assert 'class="turn-summary"' in html
    setup = game.article.sections.get(kind="aufbau")
    assert f'src="/static/{setup.figure}"' in html
    assert 'alt="Tischplan für' in html
    assert 'id="haeufige-fragen"' in html and ">Häufige Fragen<" in html
    for question in game.article.questions.all():
        assert question.title in html
    assert "Ähnlich wie:" in html


@pytest.mark.django_db
def test_similar_games_on_the_pages(client, content):
    html = client.get("/spiele/alpaka/").content.decode()
    similar = html.split("Ähnlich wie:", 1)[1].split("</p>", 1)[0]
    assert 'href="/spiele/katz-und-maus/"' in similar and "keine im Bestand" not in similar
    for slug in ("kaetzchen-angeln", "the-cat"):
        page = client.get(f"/spiele/{slug}/").content.decode()
        assert "keine im Bestand" in page.split("Ähnlich wie:", 1)[1].split("</p>", 1)[0]


@pytest.mark.django_db
def test_suggestions_need_a_shared_mechanic_and_overlapping_players():
    shedding, hand, luck = (Mechanic.objects.create(name=n) for n in ("Ablegen", "Hand", "Glück"))
    game = make_game("basis", players_min=2, players_max=5, duration_minutes=20)
    game.mechanics.set([shedding, hand])
    close = make_game("nah", players_min=3, players_max=6, duration_minutes=25)
    close.mechanics.set([shedding, hand])
    one = make_game("halb", players_min=2, players_max=2, duration_minutes=60, complexity=2)
    one.mechanics.set([shedding])
    solo = make_game("solo", players_min=1, players_max=1)
    solo.mechanics.set([shedding, hand])  # no player overlap
    other = make_game("anders", players_min=2, players_max=4)
    other.mechanics.set([luck])
    hidden = make_game("entwurf", published=False)
    hidden.mechanics.set([shedding, hand])

    result = similar_games(game)

    assert result.picks == []
    assert [s.game.slug for s in result.suggestions] == ["nah", "halb"]
    best = result.suggestions[0]
    assert best.reasons == ("Ablegen", "Hand", "3–5 Spieler", "ähnliche Dauer", "beide Einsteiger")
    assert result.suggestions[1].reasons == ("Ablegen", "2 Spieler")

    # An editor's pick comes first and is not suggested again.
    game.related_games.add(one)
    result = similar_games(game)
    assert [g.slug for g in result.picks] == ["halb"]
    assert [s.game.slug for s in result.suggestions] == ["nah"]
    # Symmetrical: the picked game lists the first one too.
    assert [g.slug for g in similar_games(one).picks] == ["basis"]


@pytest.mark.django_db
def test_no_mechanics_no_picks_means_keine_im_bestand(client):
    game = make_game("allein")
    make_game("zweites")  # same players and length, but nothing shared
    make_article(game)
    assert not similar_games(game)
    html = client.get(game.get_absolute_url()).content.decode()
    assert "keine im Bestand" in html.split("Ähnlich wie:", 1)[1].split("</p>", 1)[0]


@pytest.mark.django_db
def test_faq_kind_renders_from_the_published_snapshot(client):
    game = make_game("fragenspiel")
    article = make_article(game, published=False, sections=("ziel", "ablauf", "haeufige-fragen"))
    FrequentQuestion.objects.create(
        article=article, title="Darf ich das?", body="Ja. *Regel: „Ablauf“.*", pages="S. 3"
    )
    Section.objects.filter(article=article, kind="ablauf").update(summary="1. Eins\n2. Zwei")
    publish(RulesArticle.objects.get(pk=article.pk))
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Darf ich das?" in html and "<em>Regel: „Ablauf“.</em>" in html
    assert '<span class="cite">S. 3</span>' in html  # an old plain page, not a citation
    assert "Dein Zug auf einen Blick" in html and "<li>Zwei</li>" in html
    assert 'href="#haeufige-fragen"' in html  # in the table of contents


@pytest.mark.django_db
def test_snapshots_without_the_new_fields_still_match():
    # An article without summaries, figures or questions snapshots exactly as before,
    # so articles published before these fields existed show no pending changes.
    article = make_article(make_game("altbestand"))
    snapshot = build_snapshot(article)
    assert "questions" not in snapshot
    assert all(set(s) == {"kind", "title", "body", "pages"} for s in snapshot["sections"])
    assert not has_unpublished_changes(RulesArticle.objects.get(pk=article.pk))


@pytest.mark.django_db
def test_figure_needs_an_existing_static_file_and_a_text_alternative():
    article = make_article(make_game("bildspiel"), published=False)
    setup = Section(article=article, kind="aufbau", figure="img/aufbau/gibt-es-nicht.svg")
    with pytest.raises(ValidationError) as error:
        setup.full_clean()
    assert set(error.value.message_dict) >= {"figure", "figure_alt"}
    setup.figure = "img/aufbau/alpaka.svg"
    setup.figure_alt = "Tischplan mit vier Plätzen."
    setup.full_clean()


@pytest.mark.django_db
def test_admin_shows_the_new_fields(editor_client, content):
    article = Game.objects.get(slug="alpaka").article
    html = editor_client.get(
        reverse("admin:rules_rulesarticle_change", args=[article.pk])
    ).content.decode()
    setup = article.sections.get(kind="aufbau")
    section_html = editor_client.get(
        reverse("admin:rules_section_change", args=[setup.pk])
    ).content.decode()
    for label in ("Zug auf einen Blick", "Abbildung (statische Datei)", "Textalternative"):
        assert label in section_html
    assert "Häufige Fragen" in html and "Darf ich ziehen, obwohl" in html
    game_html = editor_client.get(
        reverse("admin:games_game_change", args=[article.game.pk])
    ).content.decode()
    assert "Ähnliche Spiele (Redaktion)" in game_html and "Mechaniken" in game_html
    assert editor_client.get(reverse("admin:games_mechanic_changelist")).status_code == 200


def test_turn_summary_is_printed():
    css = CSS.read_text()
    print_rules = css[css.index("@media print") :]
    assert ".turn-summary" in print_rules
    hidden = re.search(r"\{ display: none !important; \}", print_rules)
    hidden_selectors = print_rules[: hidden.start()] if hidden else ""
    assert "turn-summary" not in hidden_selectors and "rules-figure" not in hidden_selectors


@pytest.mark.django_db
def test_age_shown_as_our_estimate_where_it_is_one(client, content):
    kitten = client.get("/spiele/kaetzchen-angeln/").content.decode()
    assert "ab 4 Jahren (unsere Einschätzung)" in kitten
    assert "(unsere Einschätzung)" not in client.get("/spiele/alpaka/").content.decode()
    catalogue = client.get("/").content.decode()
    assert "ab 4 (geschätzt)" in catalogue and "ab 8 (geschätzt)" not in catalogue
