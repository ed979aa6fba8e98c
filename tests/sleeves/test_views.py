"""The sleeve box on the game page and the Sleeve-Finder page."""

import re
import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from games.models import Edition, Publisher
from site_config.page_cache import bump_generation
from sleeves.models import CardFormat, CardSize, SleeveProduct, SleeveSettings
from tests.factories import add_people, make_article, make_game
from tests.sleeves.conftest import make_product

pytestmark = pytest.mark.django_db
FINDER = "/sleeve-finder/"


def text_of(html: str) -> str:
    """Visible text, whitespace collapsed, for sentence-level assertions."""
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()
    return re.sub(r" ([,.;])", r"\1", text)  # tags closed right before punctuation


def box_of(html: str) -> str:
    match = re.search(r'<section class="sleeve-box".*?</section>', html, re.S)
    assert match, "no sleeve box on the page"
    return match.group(0)


@pytest.fixture
def poker_game(poker):
    game = make_game("poker-spiel", title="Pokerspiel")
    make_article(game)
    CardFormat.objects.create(
        game=game, label="Spielkarten", count=52, size=poker, count_source="Spielregel S. 2",
        size_source="nachgemessen", checked_on=date(2026, 11, 10),
    )  # fmt: skip
    return game


@pytest.fixture
def products(poker, euro):
    return {
        "mayday": make_product(
            "Mayday Games", poker, code="MDG-7041", name="Standard Card Game Sleeves",
            price=Decimal("4.99"), price_seen_on=date(2026, 11, 3),
            shop_url="https://shop.example/mayday", is_partner_link=True,
        ),
        "kings": make_product(
            "Sleeve Kings", poker, code="SKS-8810", name="Card Game Sleeves", per_pack=110,
            shop_url="https://kings.example/", is_partner_link=False,
        ),
        "ffg_euro": make_product("Fantasy Flight Games", euro, inner=("61.5", "95"), per_pack=50),
        "tarot": make_product(
            "Ultra Pro", CardSize.objects.create(width_mm=70, height_mm=120), inner=("72", "123")
        ),
    }  # fmt: skip


# --- game page --------------------------------------------------------------------------------


def test_box_for_a_game_with_known_size(client, poker_game, products):
    html = client.get(poker_game.get_absolute_url()).content.decode()
    box = box_of(html)
    text = text_of(box)
    assert "Kartenhüllen (Sleeves) für Pokerspiel" in text
    assert "52 Spielkarten" in text and "63,5 × 88 mm" in text
    assert "Anzahl: Spielregel S. 2 · Maß: nachgemessen · geprüft am 10.11.2026" in text
    # Mayday: 1 pack of 100 at 4,99 €; Sleeve Kings: 1 pack of 110, price unknown.
    assert re.search(r"Mayday Games 1 Packung 4,99 €", text)
    assert re.search(r"Sleeve Kings 1 Packung Preis unbekannt", text)
    assert "1 × 100 Stück, 48 übrig" in text
    assert "1 × 110 Stück, 58 übrig" in text
    # Brands without a fitting size are named, not shown as recommendations.
    assert (
        "Keine passende Größe im erfassten Sortiment von: Fantasy Flight Games, Ultra Pro." in text
    )
    assert "Erweiterungen nicht mitgezählt" in text and "höchstens 4 mm größer" in text
    assert "Stand 03.11.2026" in text
    # The box sits after the last section, before the "Zuletzt aktualisiert" line.
    assert html.index('id="kartenhuellen"') > html.index('id="irrtuemer"')
    assert html.index('id="kartenhuellen"') < html.index('class="updated"')
    assert 'href="/sleeve-finder/?spiele=poker-spiel"' in box


def test_partner_links_are_marked_and_disclosed(client, poker_game, products):
    box = box_of(client.get(poker_game.get_absolute_url()).content.decode())
    partner = re.search(r'<a href="https://shop.example/mayday" rel="([^"]+)">(.*?)</a>', box, re.S)
    assert partner and partner.group(1) == "sponsored noopener"
    assert 'class="partner-mark" aria-hidden="true">*</span>' in partner.group(2)
    assert "(Partnerlink)" in partner.group(2)
    plain = re.search(r'<a href="https://kings.example/" rel="([^"]+)">(.*?)</a>', box, re.S)
    assert plain.group(1) == "noopener" and "*" not in plain.group(2)
    assert "markierte Links sind Partnerlinks" in text_of(box)
    # Without any partner link on the box, no disclosure either.
    SleeveProduct.objects.filter(is_partner_link=True).update(is_partner_link=False)
    bump_generation()  # update() sends no signal (the admin bumps after its actions)
    box = box_of(client.get(poker_game.get_absolute_url()).content.decode())
    assert "Partnerlink" not in box


def test_tolerance_set_by_editors_changes_the_fit(client, poker_game, products):
    SleeveSettings(tolerance_mm=Decimal("2")).save()  # 66 × 91 has 2.5/3 mm slack
    text = text_of(box_of(client.get(poker_game.get_absolute_url()).content.decode()))
    assert "höchstens 2 mm größer" in text
    assert "Mayday Games 1 Packung" not in text
    assert "Noch keine passende Hülle" in text or "haben wir noch keine passende Hülle" in text


def test_box_for_the_cat_says_size_unknown(client, sleeve_content):
    box = box_of(client.get("/spiele/the-cat/").content.decode())
    text = text_of(box)
    assert "Kartenhüllen (Sleeves) für The Cat" in text
    assert "52 Karten. Gilt für: AMIGO 01807." in text
    assert (
        "Maß noch unbekannt 52 Katzenkarten – ein verlässliches Maß haben wir noch nicht, miss bitte vor dem Kauf nach."
        in text
    )
    assert "sleeve-plans" not in box  # nothing to calculate without a size
    assert "Sobald ein Maß bekannt ist, rechnen wir hier passende Hüllen je Marke aus." in text
    assert "Mit weiteren Spielen im Sleeve-Finder zusammenrechnen →" in text


def test_shipped_poker_games_get_real_products(client, sleeve_content):
    text = text_of(box_of(client.get("/spiele/katz-und-maus/").content.decode()))
    assert "104 Spielkarten" in text
    assert "Mayday Games 2 Packungen Preis unbekannt" in text
    assert "Sleeve Kings 1 Packung Preis unbekannt" in text  # 110 per pack
    assert "Fantasy Flight Games 3 Packungen" in text
    assert "Card Game (FFS05)" in text
    assert "Pro-Fit" not in text  # inner sleeves are not recommended
    assert "Preise haben wir für diese Hüllen noch nicht erfasst" in text


def test_expansions_are_listed_but_not_counted(client, poker_game, products, poker):
    CardFormat.objects.create(
        game=poker_game, label="Zusatzkarten", count=60, size=poker, is_expansion=True,
        expansion_title="Mehr Katzen",
    )  # fmt: skip
    text = text_of(box_of(client.get(poker_game.get_absolute_url()).content.decode()))
    assert "52 Karten." in text
    assert "1 × 100 Stück" in text
    assert "Nicht mitgezählt: Mehr Katzen (60 Zusatzkarten, 63,5 × 88 mm)" in text


def test_editions_with_own_cards_get_their_own_calculation(client, poker_game, products, euro):
    swan = Edition.objects.create(
        game=poker_game,
        publisher=Publisher.objects.create(name="Swan Panasia"),
        article_number="SW-1",
    )
    CardFormat.objects.create(game=poker_game, edition=swan, label="Karten", count=120, size=euro)
    text = text_of(box_of(client.get(poker_game.get_absolute_url()).content.decode()))
    assert "Ausgabe laut Spielseite" in text and "Ausgabe Swan Panasia SW-1" in text
    assert "120 Karten. Gilt für: Swan Panasia SW-1." in text
    assert "Fantasy Flight Games 3 Packungen" in text


def test_game_without_formats_has_no_box(client):
    game = make_game("ohne-karten")
    make_article(game)
    assert 'id="kartenhuellen"' not in client.get(game.get_absolute_url()).content.decode()


def test_box_costs_a_fixed_number_of_queries(
    client, poker_game, products, poker, euro, django_assert_num_queries
):
    add_people(poker_game)
    url = poker_game.get_absolute_url()
    client.get(url)  # warm caches that are not per request
    bump_generation()  # count the queries of a render, not a page-cache hit
    # The page's own 7 + formats + settings + products (see tests/test_game_page.py).
    with django_assert_num_queries(10):
        client.get(url)
    for n in range(5):
        make_product(f"Marke {n}", euro if n % 2 else poker, per_pack=50 + n)
        CardFormat.objects.create(game=poker_game, label=f"Sorte {n}", count=10, size=euro)
    CardFormat.objects.create(game=poker_game, label="Unbekannt", count=10)
    # The sleeve box is drawn again with the same 3, plus the game, the article's
    # snapshot (its sections are kept, but read around them) and the editions'
    # publishers; „Ähnlich wie“, the people and the votes are kept (no game changed).
    with django_assert_num_queries(7):
        client.get(url)


# --- Sleeve-Finder ----------------------------------------------------------------------------


def test_finder_without_selection_lists_games_with_card_data(client, sleeve_content):
    response = client.get(FINDER)
    assert response.status_code == 200
    text = text_of(response.content.decode())
    assert "Sleeve-Finder" in text and "Noch kein Spiel ausgewählt" in text
    for title in ("Alpaka", "Katz und Maus", "Kätzchen-Angeln", "The Cat"):
        assert title in text
    assert f'href="{FINDER}?spiele=the-cat"' in response.content.decode()


def test_finder_sums_games_with_equal_sizes_and_copies(client, sleeve_content):
    html = client.get(FINDER + "?spiele=kaetzchen-angeln,katz-und-maus*2").content.decode()
    text = text_of(html)
    # 52 + 2 × 104 = 260 poker-size cards.
    assert "63,5 × 88 mm 260 Karten aus Kätzchen-Angeln (52), Katz und Maus (2 × 104)" in text
    assert "Mayday Games 3 Packungen" in text  # 260 / 100
    assert "Sleeve Kings 3 Packungen" in text  # 260 / 110
    assert "Fantasy Flight Games 6 Packungen" in text  # 260 / 50
    assert "2 Exemplare" in text


def test_finder_keeps_different_sizes_apart(client, poker_game, products, euro):
    euro_game = make_game("euro-spiel", title="Eurospiel")
    CardFormat.objects.create(game=euro_game, label="Karten", count=110, size=euro)
    text = text_of(client.get(FINDER + "?spiele=poker-spiel,euro-spiel").content.decode())
    assert "59 × 92 mm 110 Karten aus Eurospiel (110)" in text
    assert "63,5 × 88 mm 52 Karten aus Pokerspiel (52)" in text
    # Nobody sells both sizes here: each brand covers one and says what is missing.
    assert "Keine passende Hülle erfasst für 110 Karten 59 × 92 mm" in text
    assert "Keine passende Hülle erfasst für 52 Karten 63,5 × 88 mm" in text


def test_finder_lists_unknown_sizes_and_games_without_data(client, sleeve_content):
    make_game("ohne-daten", title="Ohne Daten")
    html = client.get(
        FINDER + "?spiele=the-cat,alpaka*2,kaetzchen-angeln,ohne-daten"
    ).content.decode()
    text = text_of(html)
    assert (
        "Maß noch unbekannt – nicht eingerechnet: The Cat: 52 Katzenkarten Alpaka: 56 Spielkarten × 2 = 112"
        in text
    )
    assert "Noch keine Kartenangaben – nicht eingerechnet: Ohne Daten." in text
    assert "4 Spiele ausgewählt, 216 Karten, davon 164 mit unbekanntem Maß." in text


def test_finder_reports_unknown_and_broken_input_instead_of_failing(client, sleeve_content):
    response = client.get(FINDER + "?spiele=the-cat,gibt-es-nicht,%3Cb%3Ex%3C/b%3E,alpaka*999")
    assert response.status_code == 200
    html = response.content.decode()
    text = text_of(html)
    assert "Ein Spiel mit der Adresse „gibt-es-nicht“ kennen wir nicht." in text
    assert "verstehen wir nicht" in text and "<b>x</b>" not in html
    assert "höchstens 20 Exemplaren" in text
    # Links and the share field carry the cleaned selection.
    assert 'value="http://testserver/sleeve-finder/?spiele=the-cat,alpaka*20"' in html
    assert not [href for href in re.findall(r'href="([^"]*)"', html) if "gibt-es-nicht" in href]


def test_drafts_stay_hidden_from_readers(client, poker, products):
    draft = make_game("entwurf", published=False)
    CardFormat.objects.create(game=draft, label="Karten", count=52, size=poker)
    text = text_of(client.get(FINDER + "?spiele=entwurf").content.decode())
    assert "Ein Spiel mit der Adresse „entwurf“ kennen wir nicht." in text
    assert "entwurf" not in text_of(client.get(FINDER + "?q=entwurf").content.decode()).replace(
        "„entwurf“", ""
    )


def test_finder_url_round_trip_through_its_own_links(client, sleeve_content):
    html = client.get(FINDER + "?spiele=the-cat,alpaka*2").content.decode()
    hrefs = set(re.findall(r'href="(/sleeve-finder/[^"]*)"', html))
    assert "/sleeve-finder/?spiele=the-cat*2,alpaka*2" in hrefs  # + The Cat
    assert "/sleeve-finder/?spiele=the-cat,alpaka" in hrefs  # − Alpaka
    assert "/sleeve-finder/?spiele=alpaka*2" in hrefs  # remove The Cat
    assert "/sleeve-finder/?spiele=the-cat,alpaka*2,kaetzchen-angeln" in hrefs  # add
    # Following a link gives a page whose links again encode exactly that selection.
    follow = client.get("/sleeve-finder/?spiele=the-cat*2,alpaka*2").content.decode()
    assert 'value="http://testserver/sleeve-finder/?spiele=the-cat*2,alpaka*2"' in follow
    assert "2 Spiele ausgewählt, 216 Karten" in text_of(follow)


def test_search_without_javascript_keeps_the_selection(client, sleeve_content):
    html = client.get(FINDER + "?spiele=the-cat&q=Katz").content.decode()
    text = text_of(html)
    assert "Treffer für „Katz“" in text
    assert 'href="/sleeve-finder/?spiele=the-cat,katz-und-maus&amp;q=Katz"' in html
    assert '<input type="hidden" name="spiele" value="the-cat">' in html


def test_htmx_gets_the_partial_with_out_of_band_state(client, sleeve_content):
    response = client.get(FINDER + "?spiele=the-cat,alpaka", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html and 'id="finder"' in html
    assert 'hx-swap-oob="innerHTML:#finder-status"' in html
    assert 'hx-swap-oob="innerHTML:#finder-state"' in html
    assert '<input type="hidden" name="spiele" value="the-cat,alpaka">' in html
    assert "HX-Request" in response["Vary"]


def test_expansions_can_be_counted_in_the_finder(client, poker_game, products, poker):
    CardFormat.objects.create(
        game=poker_game,
        label="Karten",
        count=60,
        size=poker,
        is_expansion=True,
        expansion_title="Plus",
    )
    text = text_of(client.get(FINDER + "?spiele=poker-spiel").content.decode())
    assert "1 Erweiterung nicht mitgezählt." in text and "Mayday Games 1 Packung" in text
    html = client.get(FINDER + "?spiele=poker-spiel&erweiterungen=1").content.decode()
    text = text_of(html)
    assert "Erweiterungen sind mitgezählt." in text
    assert "Mayday Games 2 Packungen 9,98 €" in text  # 112 cards
    assert '<input type="hidden" name="erweiterungen" value="1">' in html


def test_finder_edition_choice(client, poker_game, products, euro):
    swan = Edition.objects.create(game=poker_game, article_number="SW-1")
    CardFormat.objects.create(game=poker_game, edition=swan, label="Karten", count=120, size=euro)
    text = text_of(client.get(FINDER + f"?spiele=poker-spiel~{swan.pk}").content.decode())
    assert "59 × 92 mm 120 Karten" in text
    text = text_of(client.get(FINDER + "?spiele=poker-spiel~999999").content.decode())
    assert "Die gewählte Ausgabe von Pokerspiel kennen wir nicht" in text
    assert "63,5 × 88 mm 52 Karten" in text


def test_nav_and_sitemap_know_the_finder(client, db):
    html = client.get(FINDER).content.decode()
    assert '<a href="/sleeve-finder/" aria-current="page">Sleeve-Finder</a>' in html
    assert '<link rel="canonical" href="http://testserver/sleeve-finder/">' in html
    tree = ET.fromstring(client.get("/sitemap.xml").content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert "http://testserver/sleeve-finder/" in [
        loc.text for loc in tree.findall("s:url/s:loc", ns)
    ]


def test_finder_refuses_post(client, db):
    assert client.post(FINDER).status_code == 405


def test_finder_query_count_does_not_grow_with_the_selection(
    client, sleeve_content, django_assert_max_num_queries
):
    # games, publishers, formats, settings, products, search (+ savepoint-free reads only)
    with django_assert_max_num_queries(6):
        client.get(FINDER + "?spiele=the-cat,alpaka,kaetzchen-angeln,katz-und-maus*3")


# --- admin ------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["cardsize", "brand", "sleeveproduct", "cardformat"])
def test_editors_can_maintain_sleeve_data(editor_client, sleeve_content, model):
    changelist = editor_client.get(reverse(f"admin:sleeves_{model}_changelist"))
    assert changelist.status_code == 200
    assert editor_client.get(reverse(f"admin:sleeves_{model}_add")).status_code == 200


def test_admin_is_german_with_filters_and_editable_prices(editor_client, sleeve_content):
    html = editor_client.get(reverse("admin:sleeves_sleeveproduct_changelist")).content.decode()
    for label in (
        "Sleeve-Produkte",
        "Hüllen je Packung",
        "Preis je Packung",
        "Partnerlink",
        "Preis gesehen am",
    ):
        assert label in html
    assert 'name="form-0-price"' in html  # list_editable
    html = editor_client.get(
        reverse("admin:sleeves_cardformat_changelist") + "?mass=nein"
    ).content.decode()
    assert "The Cat" in html and "Kätzchen-Angeln" not in html


def test_editor_changes_tolerance_through_the_settings_page(editor_client, db):
    response = editor_client.get(reverse("admin:sleeves_sleevesettings_changelist"))
    assert response.status_code == 302
    response = editor_client.post(response["Location"], {"tolerance_mm": "3.5"})
    assert response.status_code == 302
    assert SleeveSettings.current().tolerance_mm == Decimal("3.5")


def test_editor_adds_a_card_format_with_swapped_size(editor_client, db):
    game = make_game("neu")
    size_response = editor_client.post(
        reverse("admin:sleeves_cardsize_add"), {"name": "", "width_mm": "88", "height_mm": "63.5"}
    )
    assert size_response.status_code == 302
    size = CardSize.objects.get()
    assert (size.width_mm, size.height_mm) == (Decimal("63.5"), Decimal("88"))
    duplicate = editor_client.post(
        reverse("admin:sleeves_cardsize_add"), {"name": "", "width_mm": "63.5", "height_mm": "88"}
    )
    assert "gibt es schon" in duplicate.content.decode()
    response = editor_client.post(
        reverse("admin:sleeves_cardformat_add"),
        {"game": game.pk, "label": "Karten", "count": "52", "size": size.pk, "position": "0"},
    )
    assert response.status_code == 302
    assert CardFormat.objects.get(game=game).size == size


def test_long_search_results_are_cut_with_a_hint(client, poker):
    for n in range(14):
        game = make_game(f"spiel-{n:02d}", title=f"Spiel {n:02d}")
        CardFormat.objects.create(game=game, label="Karten", count=10, size=poker)
    text = text_of(client.get(FINDER + "?q=Spiel").content.decode())
    assert "Spiel 11" in text and "Spiel 12" not in text
    assert "grenze die Suche weiter ein" in text
    assert "grenze" not in text_of(client.get(FINDER + "?q=Spiel 13").content.decode())
