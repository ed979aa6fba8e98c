"""Issue 25: rules as written, honest sources, own words, glossary and Kurzregel.

The own-words checks compare what the site ships with the source texts (the seeds in
``<repo>/../shared/seeds``). Without that folder they fail: a missing comparison must
never pass as a clean one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.engines.the_cat import rules as cat_rules
from games.models import Game
from rules.citations import CITATION, field_key, keys_in
from rules.content_loader import content_files, read_content
from rules.models import GlossaryEntry, RulesArticle
from rules.publishing import publish
from tests import project_files

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
SLUGS = ["alpaka", "kaetzchen-angeln", "katz-und-maus", "the-cat"]
RUN = 11  # words in a row that may never match a source
WORD = re.compile(r"[^\W_]+")
# The shipped files a reader's text can come from (content, templates, presenters,
# engines' German messages, scripts, drawings).
SHIPPED = re.compile(r"\.(toml|html|py|js|svg|txt)$")


def seed_texts() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.fail(f"Die Quelltexte fehlen: {SEEDS} (erwartet neben dem Repository).")
    texts = {path.name: path.read_text() for path in sorted(SEEDS.glob("*.txt"))}
    if len(texts) < 4:
        pytest.fail(f"In {SEEDS} liegen nur {len(texts)} Quelltexte, erwartet sind 4.")
    return texts


def words(text: str) -> list[str]:
    return [word.lower() for word in WORD.findall(text)]


def runs_of(text: str, size: int = RUN) -> set[tuple[str, ...]]:
    found = words(text)
    return {tuple(found[i : i + size]) for i in range(len(found) - size + 1)}


def shipped(slug: str) -> dict:
    return next(d for d in map(read_content, content_files()) if d["game"]["slug"] == slug)


def strings(value):
    """Every string in a content file's data."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def shipped_files() -> list[Path]:
    listed = project_files.listed()
    return [
        ROOT / name
        for name in listed
        if SHIPPED.search(name) and not name.startswith(("tests/", "bench/"))
    ]


# --- Own words ------------------------------------------------------------------------------


def test_the_seeds_are_found_next_to_the_repository():
    texts = seed_texts()
    assert any("Katz" in text for text in texts.values())


@pytest.mark.parametrize("slug", SLUGS)
def test_no_run_of_eleven_words_from_a_source_in_an_article(slug):
    sources = {name: runs_of(text) for name, text in seed_texts().items()}
    copied = []
    for text in strings(shipped(slug)):
        for name, runs in sources.items():
            copied += [(name, " ".join(run)) for run in runs_of(text) & runs]
    assert copied == []


def test_no_run_of_eleven_words_from_a_source_anywhere_the_site_ships():
    """Templates, presenters, engines' messages, scripts and drawings too."""
    sources = set().union(*(runs_of(text) for text in seed_texts().values()))
    copied = {}
    for path in shipped_files():
        common = runs_of(path.read_text(errors="ignore")) & sources
        if common:
            copied[str(path.relative_to(ROOT))] = [" ".join(run) for run in common][:3]
    assert copied == {}


def test_the_run_check_would_see_a_copied_sentence():
    seed = next(iter(seed_texts().values()))
    sentence = " ".join(words(seed)[40:52])
    assert runs_of(f"Vorher etwas Eigenes. {sentence} Danach wieder eigene Worte.") & runs_of(seed)


SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|\n+")


def sentences(text: str) -> list[str]:
    """Sentences of a text without citations, quotations („…“) and Markdown marks."""
    text = CITATION.sub("", text)
    text = re.sub(r"„[^“]*“", "", text)
    text = re.sub(r"[*_`#|>]", " ", text)
    return [part for part in SENTENCE_END.split(text) if len(words(part)) >= 5]


def pairs(text: str) -> set[tuple[str, str]]:
    found = words(text)
    return set(zip(found, found[1:], strict=False))


def seed_sentences() -> list[list[set]]:
    return [[pairs(s) for s in sentences(text)] for text in seed_texts().values()]


def overlap(ours: set, theirs: set) -> float:
    return len(ours & theirs) / len(ours) if ours else 0.0


@pytest.mark.parametrize("slug", SLUGS)
def test_no_sentence_is_a_light_rewording_of_a_source_sentence(slug):
    """A long sentence may share at most half its word pairs with any source sentence."""
    seeds = [s for seed in seed_sentences() for s in seed]
    close = []
    for text in strings(shipped(slug)):
        for sentence in sentences(text):
            ours = pairs(sentence)
            if len(ours) >= 9 and max(overlap(ours, s) for s in seeds) >= 0.6:
                close.append(sentence.strip()[:100])
    assert close == []


@pytest.mark.parametrize("slug", SLUGS)
def test_no_paragraph_follows_a_source_sentence_by_sentence(slug):
    """Three sentences in a row that each echo the next sentences of one source (a third
    of their word pairs or more) are a paraphrase, not an explanation of our own."""
    seeds = seed_sentences()
    followed = []
    for text in strings(shipped(slug)):
        ours = [pairs(s) for s in sentences(text)]
        matches = [
            {
                (n, j)
                for n, seed in enumerate(seeds)
                for j, s in enumerate(seed)
                if overlap(o, s) >= 0.3
            }
            for o in ours
        ]
        for i in range(len(ours) - 2):
            for n, j in matches[i]:
                second = [k for m, k in matches[i + 1] if m == n and j < k <= j + 2]
                third = [
                    k
                    for m, k in matches[i + 2]
                    if second and m == n and min(second) < k <= min(second) + 2
                ]
                if third:
                    followed.append(text[:80])
    assert followed == []


# --- Honest sources ---------------------------------------------------------------------------

# Sources that give page numbers (and which ones): only these may be cited with a page.
PAGES = {("the-cat", "regelbeschreibung"): {"S. 1", "S. 2", "S. 1–2"}}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_citation_points_to_a_listed_source(slug):
    data = shipped(slug)
    listed = {source["key"] for source in data["sources"]}
    assert listed, slug
    cited = []
    for text in strings({k: v for k, v in data.items() if k != "sources"}):
        for match in CITATION.finditer(text):
            cited.append((match.group(1), (match.group(2) or "").strip()))
    for part in ("sections", "examples", "mistakes", "questions"):
        for item in data.get(part, []):
            page = item.get("pages", "")
            if page:
                assert field_key(page), f"„{page}“ in {item.get('title') or item.get('kind')}"
                cited.append((field_key(page), page.split(" ", 1)[1] if " " in page else ""))
    assert cited, slug
    for key, where in cited:
        assert key in listed, (slug, key)
        if where:
            assert where in PAGES.get((slug, key), set()), (slug, key, where)


def test_citations_render_as_links_to_the_sources(client, content):
    for slug in SLUGS:
        html = client.get(f"/spiele/{slug}/").content.decode()
        assert "cite--missing" not in html and "[@" not in html, slug
        assert 'id="quellen"' in html and 'href="#quelle-' in html
    cat = client.get("/spiele/the-cat/").content.decode()
    assert '<a href="#quelle-regelbeschreibung"' in cat and "Regelbeschreibung</a>, S. 2" in cat


def test_a_citation_of_an_unlisted_source_is_marked_for_the_editors():
    from rules.citations import Citations

    cites = Citations({"a": ("Quelle A", "Ein Text")})
    html = cites.in_html("<p>Satz [@a S. 2] und [@b].</p>")
    assert 'href="#quelle-a"' in html and "S. 2" in html
    assert 'class="cite cite--missing"' in html and "[@b]" in html
    assert keys_in("x [@a] y [@b S. 1–2]") == ["a", "b"]


def test_read_is_said_only_of_what_was_read(client, content):
    for slug in SLUGS:
        for text in strings(shipped(slug)):
            for match in re.finditer(r"(\w+\s+){0,2}gelesen", text):
                assert "nicht" in match.group(0), (slug, text[:80])
    cat = RulesArticle.objects.get(game__slug="the-cat")
    assert cat.rulebook_read_on is None
    sources = {s.key: s for s in cat.sources.all()}
    assert sources["amigo-spielregel"].read_on is None
    html = client.get("/spiele/the-cat/").content.decode()
    assert "beide Seiten gelesen" not in html and "gelesen am" not in html
    assert "nicht selbst gelesen" in html
    # The Kurzregel's footer names only what was read.
    short = client.get("/spiele/the-cat/kurzregel/").content.decode()
    footer = short[short.index('class="short-rules__foot"') :]
    assert "Regelbeschreibung" in footer and "AMIGO-Spielregel" not in footer


@pytest.mark.parametrize("slug", SLUGS)
def test_decisions_are_marked_where_they_apply_and_gathered(slug):
    data = shipped(slug)
    in_place = [
        s["kind"]
        for s in data["sections"]
        if s["kind"] != "varianten" and "Unsere Festlegung" in s.get("body", "")
    ]
    assert in_place, slug
    assert "Unsere Festlegungen" in next(
        s["body"] for s in data["sections"] if s["kind"] == "varianten"
    )


# --- Katz und Maus: the source's end of game is the rule -------------------------------------


def test_katz_und_maus_states_the_source_end_and_names_the_reshuffle_a_variant():
    data = shipped("katz-und-maus")
    body = {s["kind"]: s["body"] for s in data["sections"]}
    assert "Der Kartenstock ist aufgebraucht" in body["spielende"]
    assert "die wenigsten Karten im Spielerstapel" in body["spielende"]
    assert "Variante „Baustapel mischen“" in body["varianten"]
    # Wherever a new draw pile from the build piles is described, it is called the variant.
    for text in strings(data):
        for paragraph in text.split("\n\n"):
            if re.search(r"neue[nr]? Kartenstock", paragraph):
                assert "Variante" in paragraph or "unfertigen Baustapeln" in paragraph, paragraph
    assert "etwa 30 Minuten" not in " ".join(strings(data))
    assert data["game"]["duration_kind"] == "bis"


def test_katz_und_maus_page_shows_the_duration_as_an_upper_bound(client, content):
    html = client.get("/spiele/katz-und-maus/").content.decode()
    assert "bis zu 30 Minuten" in html and "etwa 30 Minuten" not in html
    assert "Unterschiede zu Skip-Bo" in html


def test_no_simulation_figure_is_written_into_the_articles():
    """Numbers from simulations live in the statistics, worded from the stored figures."""
    for slug in SLUGS:
        for text in strings(shipped(slug)):
            assert not re.search(r"\d+ von 100 Spielen|300 Spiele|vielen Tausend", text), text[:80]


def test_kaetzchen_faq_on_a_lone_jack_states_what_can_happen():
    data = shipped("kaetzchen-angeln")
    answer = next(q["body"] for q in data["questions"] if q["title"].startswith("Wem gehört"))
    assert "wird er wie jede Karte geangelt" not in answer
    assert "nur der nächste Bube" in answer


# --- Words readers search for -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "slug"),
    [
        ("Spielstapel", "katz-und-maus"),
        ("Ablegestapel", "katz-und-maus"),
        ("Hilfsstapel", "katz-und-maus"),
        ("Joker", "katz-und-maus"),
        ("Spite and Malice", "katz-und-maus"),
        ("Englert", "alpaka"),
        ("Katzenlaune", "the-cat"),
        ("Xiao Mao", "kaetzchen-angeln"),
    ],
)
def test_the_catalogue_search_finds_other_names(client, content, query, slug):
    html = client.get("/", {"q": query}).content.decode()
    assert f'href="/spiele/{slug}/"' in html, query


def test_a_new_name_is_found_only_once_published(client, content):
    article = RulesArticle.objects.get(game__slug="alpaka")
    GlossaryEntry.objects.create(article=article, term="Kamel", other_names="Trampeltier")
    assert 'href="/spiele/alpaka/"' not in client.get("/", {"q": "Trampeltier"}).content.decode()
    publish(RulesArticle.objects.prefetch_related("glossary").get(pk=article.pk))
    assert 'href="/spiele/alpaka/"' in client.get("/", {"q": "Trampeltier"}).content.decode()


def test_every_article_has_a_glossary_and_sources(client, content):
    for slug in SLUGS:
        article = RulesArticle.objects.get(game__slug=slug)
        assert article.glossary.count() >= 4 and article.sources.count() >= 1
        html = client.get(f"/spiele/{slug}/").content.decode()
        assert 'id="begriffe"' in html and 'class="glossary"' in html


def test_the_cat_shows_the_thirteen_moods_once_with_their_names():
    data = shipped("the-cat")
    material = next(s for s in data["sections"] if s["kind"] == "material")
    svg = (ROOT / "static" / material["figure"]).read_text()
    names = [name for _, name in cat_rules.MOODS]
    assert len(names) == 13
    for name in names:
        assert svg.count(f">{name}</text>") == 1, name
        assert name in material["figure_alt"]
    assert "nicht die Bilder der AMIGO-Karten" in material["figure_caption"]
    figures = [s.get("figure", "") for s in data["sections"]]
    assert figures.count(material["figure"]) == 1


# --- Kurzregel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_a_kurzregel_linked_from_article_and_demo(client, content, slug):
    url = reverse("games:short_rules", args=[slug])
    assert url == f"/spiele/{slug}/kurzregel/"
    response = client.get(url)
    assert response.status_code == 200
    assert "public" in response["Cache-Control"]
    html = response.content.decode()
    game = Game.objects.get(slug=slug)
    assert "Kurzregel" in html and game.title in html and "short_rules.css" in html
    assert f'href="{url}"' in client.get(game.get_absolute_url()).content.decode()
    assert f'href="{url}"' in client.get(game.get_demo_url()).content.decode()


def test_a_game_without_a_kurzregel_has_no_page(client, content):
    article = RulesArticle.objects.get(game__slug="alpaka")
    article.sections.filter(kind="kurzregel").delete()
    publish(RulesArticle.objects.get(pk=article.pk))
    assert client.get("/spiele/alpaka/kurzregel/").status_code == 404
    assert "/spiele/alpaka/kurzregel/" not in client.get("/spiele/alpaka/").content.decode()


def test_editors_keep_sources_and_glossary_in_the_admin(editor_client, content):
    article = RulesArticle.objects.get(game__slug="katz-und-maus")
    html = editor_client.get(
        reverse("admin:rules_rulesarticle_change", args=[article.pk])
    ).content.decode()
    for label in ("Quellen", "Begriffe und andere Namen", "Kürzel", "Gelesen am", "Andere Namen"):
        assert label in html, label
    assert 'value="skip-bo-notizen"' in html and 'value="Spielerstapel"' in html
