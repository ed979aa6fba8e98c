"""The pure sleeve calculation: no database, no HTTP."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sleeves.calculation import (
    MAX_COPIES,
    MAX_GAMES,
    CardGroup,
    Offer,
    Pick,
    Selection,
    Size,
    calculate,
    fits,
    format_mm,
    format_money,
    packs_needed,
    parse_selection,
    sum_by_size,
    tightest,
)

POKER = Size.of("63.5", 88)
EURO = Size.of(59, 92)
TOL = Decimal("4")


def offer(brand="Marke", name="Hülle", inner=(66, 91), per_pack=100, price=None, **extra):
    return Offer(
        brand=brand, name=name, inner=Size.of(*inner), per_pack=per_pack, price=price, **extra
    )


def cards(source, count, size, copies=1, **extra):
    return CardGroup(source=source, label="Karten", count=count, size=size, copies=copies, **extra)


# --- sizes ------------------------------------------------------------------------------------


def test_sizes_are_normalised_whatever_the_order():
    assert Size.of(88, "63.5") == Size.of("63.5", 88) == POKER
    assert POKER.width == Decimal("63.5") and POKER.height == Decimal("88")
    assert Size.parse("88×63,5 mm") == Size.parse("63.5 x 88") == POKER
    assert Size.of(63.5, 88) == POKER  # floats go through str(), no binary noise


@pytest.mark.parametrize("text", ["", "63", "0 x 88", "a x b", "-3 x 5", "1 x 2 x 3"])
def test_nonsense_sizes_are_rejected(text):
    with pytest.raises(ValueError):
        Size.parse(text)


def test_size_labels_use_german_decimal_comma():
    assert POKER.label == "63,5 × 88 mm"
    assert format_mm(Decimal("4.0")) == "4"
    assert format_mm(Decimal("100")) == "100"


# --- fitting rule -----------------------------------------------------------------------------


def test_exact_inner_size_fits():
    assert fits(POKER, POKER, TOL)


def test_slack_up_to_the_tolerance_fits_and_beyond_does_not():
    assert fits(POKER, Size.of("67.5", 92), TOL)  # exactly 4 mm in both directions
    assert not fits(POKER, Size.of("67.6", 91), TOL)  # 4.1 mm too wide
    assert not fits(POKER, Size.of(66, "92.1"), TOL)  # 4.1 mm too long
    assert fits(POKER, Size.of("67.6", 91), Decimal("5"))  # editors may allow more


def test_a_sleeve_smaller_in_one_direction_does_not_fit():
    assert not fits(POKER, Size.of(63, 91), TOL)
    assert not fits(POKER, Size.of(66, "87.5"), TOL)


def test_orientation_does_not_matter():
    rotated_sleeve = Size.of(91, 66)
    assert fits(Size.of(88, "63.5"), rotated_sleeve, TOL)
    assert tightest(Size.of(88, "63.5"), [offer(inner=(91, 66))], TOL) is not None


def test_tightest_fitting_sleeve_wins():
    loose = offer(name="Locker", inner=(67, 92))
    snug = offer(name="Knapp", inner=(65, 90))
    too_big = offer(name="Tarot", inner=(72, 122))
    assert tightest(POKER, [loose, too_big, snug], TOL) == snug


def test_no_fitting_sleeve_gives_none():
    assert tightest(POKER, [offer(inner=(61.5, 95)), offer(inner=(58.5, 90))], TOL) is None
    assert tightest(POKER, [], TOL) is None


def test_equal_tightness_goes_to_the_cheaper_sleeve_then_the_known_price():
    dear = offer(name="A", price=Decimal("5.00"), per_pack=50)  # 10 ct per sleeve
    cheap = offer(name="B", price=Decimal("8.00"), per_pack=100)  # 8 ct per sleeve
    unknown = offer(name="C")
    assert tightest(POKER, [dear, unknown, cheap], TOL) == cheap


# --- packs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_count", "per_pack", "packs"),
    [
        (0, 100, 0),
        (1, 100, 1),
        (52, 100, 1),
        (100, 100, 1),
        (101, 100, 2),
        (104, 50, 3),
        (220, 110, 2),
        (221, 110, 3),
    ],
)
def test_packs_are_rounded_up(cards_count, per_pack, packs):
    assert packs_needed(cards_count, per_pack) == packs


def test_packs_need_a_positive_pack_size():
    with pytest.raises(ValueError):
        packs_needed(10, 0)


# --- summing ----------------------------------------------------------------------------------


def test_equal_sizes_of_several_games_add_up_even_when_written_the_other_way_round():
    needs, unknown, _ = sum_by_size(
        [cards("Kätzchen-Angeln", 52, POKER), cards("Katz und Maus", 104, Size.of(88, "63.5"))]
    )
    assert [(need.size, need.cards) for need in needs] == [(POKER, 156)]
    assert [part.source for part in needs[0].parts] == ["Kätzchen-Angeln", "Katz und Maus"]
    assert unknown == []


def test_different_sizes_stay_apart_and_are_sorted():
    needs, _, _ = sum_by_size(
        [cards("A", 52, POKER), cards("B", 110, EURO), cards("C", 20, Size.of(44, 68))]
    )
    assert [(str(n.size), n.cards) for n in needs] == [
        ("44 × 68 mm", 20),
        ("59 × 92 mm", 110),
        ("63,5 × 88 mm", 52),
    ]


def test_copies_multiply_the_cards():
    needs, unknown, _ = sum_by_size(
        [cards("A", 52, POKER, copies=3), cards("B", 56, None, copies=2)]
    )
    assert needs[0].cards == 156
    assert unknown[0].total == 112


def test_unknown_sizes_are_listed_not_dropped():
    needs, unknown, _ = sum_by_size([cards("The Cat", 52, None), cards("A", 52, POKER)])
    assert [group.source for group in unknown] == ["The Cat"]
    assert needs[0].cards == 52


def test_expansions_are_left_out_unless_asked_for():
    groups = [
        cards("A", 52, POKER),
        cards("A", 20, POKER, is_expansion=True, expansion_title="Plus"),
    ]
    needs, _, left_out = sum_by_size(groups)
    assert needs[0].cards == 52 and [g.expansion_title for g in left_out] == ["Plus"]
    needs, _, left_out = sum_by_size(groups, include_expansions=True)
    assert needs[0].cards == 72 and left_out == []


# --- brand plans ------------------------------------------------------------------------------

MAYDAY = [
    offer("Mayday", "Standard", (66, 91), 100, Decimal("4.99"), price_seen_on=date(2026, 11, 1)),
    offer("Mayday", "Euro", (61.5, 95), 100, Decimal("4.99"), price_seen_on=date(2026, 11, 10)),
]
KINGS = [
    offer(
        "Sleeve Kings", "Card Game", (66, 91), 110, Decimal("6.50"), price_seen_on=date(2026, 11, 5)
    )
]
FFG = [offer("FFG", "Mini European", (46.5, 71), 50)]


def test_every_brand_gets_its_tightest_sleeve_packs_and_price():
    calc = calculate([cards("A", 156, POKER), cards("B", 110, EURO)], MAYDAY + KINGS + FFG, TOL)
    mayday = next(plan for plan in calc.plans if plan.brand == "Mayday")
    assert [(line.offer.name, line.packs, line.spare) for line in mayday.lines] == [
        ("Euro", 2, 90),
        ("Standard", 2, 44),
    ]
    assert mayday.totals == {"EUR": Decimal("19.96")}  # 4 packs × 4,99 €, exact in Decimal
    assert mayday.total_label == "19,96 €"
    assert mayday.complete and mayday.prices_known


def test_brand_missing_a_size_is_incomplete_and_sorted_last():
    calc = calculate([cards("A", 156, POKER), cards("B", 110, EURO)], MAYDAY + KINGS + FFG, TOL)
    assert [plan.brand for plan in calc.plans] == ["Mayday", "Sleeve Kings"]
    kings = calc.plans[1]
    assert not kings.complete
    assert kings.missing == [EURO]
    assert calc.brands_without_fit == ["FFG"]


def test_complete_brands_are_sorted_by_total_price():
    cheap = [offer("Billig", "S", (66, 91), 100, Decimal("1.00"), price_seen_on=date(2026, 1, 1))]
    calc = calculate([cards("A", 52, POKER)], MAYDAY + KINGS + cheap + [offer("Ohne Preis")], TOL)
    assert [plan.brand for plan in calc.plans] == ["Billig", "Mayday", "Sleeve Kings", "Ohne Preis"]


def test_missing_prices_are_said_not_guessed():
    calc = calculate([cards("A", 156, POKER), cards("B", 110, EURO)], [
        offer("X", "Standard", (66, 91), 100, Decimal("3.00"), price_seen_on=date(2026, 11, 1)),
        offer("X", "Euro", (61.5, 95), 100),
    ], TOL)  # fmt: skip
    plan = calc.plans[0]
    assert plan.unknown_prices == 1 and not plan.prices_known
    assert plan.total_label == "mindestens 6,00 €"
    only_unknown = calculate([cards("A", 52, POKER)], [offer("Y")], TOL).plans[0]
    assert only_unknown.total_label == "Preis unbekannt"
    assert only_unknown.lines[0].cost_label == "Preis unbekannt"


def test_price_date_span_and_partner_flag():
    partner = offer(
        "P",
        "S",
        (66, 91),
        100,
        Decimal("5"),
        price_seen_on=date(2026, 10, 1),
        url="https://shop.example/p",
        is_partner=True,
    )
    calc = calculate([cards("A", 52, POKER)], MAYDAY + KINGS, TOL)
    assert calc.price_dates == (date(2026, 11, 1), date(2026, 11, 5))
    assert not calc.has_partner_link
    with_partner = calculate([cards("A", 52, POKER)], MAYDAY + [partner], TOL)
    assert with_partner.has_partner_link
    # A partner flag without a link marks nothing.
    flag_only = calculate([cards("A", 52, POKER)], [offer("Q", is_partner=True)], TOL)
    assert not flag_only.has_partner_link


def test_only_unknown_sizes_gives_no_plans():
    calc = calculate([cards("The Cat", 52, None)], MAYDAY, TOL)
    assert calc.needs == [] and calc.plans == [] and calc.brands_without_fit == []
    assert calc.unknown_cards == 52 and calc.cards == 52


def test_money_is_formatted_the_german_way():
    assert format_money(Decimal("1234.5")) == "1.234,50 €"
    assert format_money(Decimal("0.1") + Decimal("0.2")) == "0,30 €"
    assert format_money(Decimal("7"), "CHF") == "7,00 CHF"


# --- the selection in the URL -----------------------------------------------------------------


def test_selection_round_trip():
    selection = parse_selection("the-cat,alpaka*2,katz-und-maus~7*3")
    assert selection.picks == (
        Pick("the-cat"),
        Pick("alpaka", copies=2),
        Pick("katz-und-maus", copies=3, edition=7),
    )
    assert selection.param == "the-cat,alpaka*2,katz-und-maus~7*3"
    assert parse_selection(selection.param) == selection
    assert selection.problems == ()


def test_repeated_slugs_and_repeated_parameters_add_copies():
    selection = parse_selection(["the-cat, alpaka", "THE-CAT", "alpaka*2"])
    assert selection.param == "the-cat*2,alpaka*3"


def test_bad_tokens_are_reported_and_skipped():
    selection = parse_selection("the-cat,,<script>,alpaka*0,ok*x")
    assert selection.slugs == ["the-cat"]
    assert len(selection.problems) == 3
    assert any("<script>" in problem for problem in selection.problems)


def test_copies_and_games_are_capped():
    selection = parse_selection(f"alpaka*{MAX_COPIES + 5}")
    assert selection.get("alpaka").copies == MAX_COPIES
    assert "höchstens" in selection.problems[0]
    many = parse_selection(",".join(f"spiel-{n}" for n in range(MAX_GAMES + 3)))
    assert len(many.picks) == MAX_GAMES
    assert "spiel-30" in many.problems[0]


def test_selection_changes_return_new_selections():
    start = parse_selection("the-cat")
    assert start.adding("alpaka").param == "the-cat,alpaka"
    assert start.adding("the-cat").param == "the-cat*2"
    assert start.with_copies("the-cat", 0).param == ""
    assert start.with_copies("the-cat", 99).param == f"the-cat*{MAX_COPIES}"
    assert start.adding("alpaka").without("the-cat").param == "alpaka"
    assert start.with_edition("the-cat", 4).param == "the-cat~4"
    assert start.param == "the-cat"  # unchanged
    assert Selection().param == ""


slugs = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True)
picks = st.builds(
    Pick,
    slug=slugs,
    copies=st.integers(1, MAX_COPIES),
    edition=st.none() | st.integers(1, 10**6),
)


@given(st.lists(picks, max_size=MAX_GAMES, unique_by=lambda pick: pick.slug))
def test_any_selection_survives_the_url(pick_list):
    selection = Selection(tuple(pick_list))
    parsed = parse_selection(selection.param)
    assert parsed == selection
    assert parsed.problems == ()


@pytest.mark.django_db
def test_offers_are_read_once_until_the_sleeve_data_change(poker, django_assert_num_queries):
    from sleeves.selectors import load_offers
    from tests.sleeves.conftest import make_product

    make_product("Erste Marke", poker, name="Alte Hülle")
    assert [offer.name for offer in load_offers()] == ["Alte Hülle"]
    with django_assert_num_queries(0):  # kept by this process (only the version is asked)
        assert [offer.name for offer in load_offers()] == ["Alte Hülle"]
    make_product("Zweite Marke", poker, name="Neue Hülle")  # the sleeves' version goes up
    with django_assert_num_queries(1):
        names = sorted(offer.name for offer in load_offers())
    assert names == ["Alte Hülle", "Neue Hülle"]
