"""Loads card formats and sleeve products and feeds them to `sleeves.calculation`.

Query budget (fixed, independent of how many formats and products exist):
- `box_for(game)`: 1 query for the formats; 2 more (settings, products) only when the
  game has formats at all – the products only once per process and sleeve-data version.
- `finder_for(...)`: games, their publishers, formats, settings, products (as above).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from urllib.parse import urlencode

from django.db.models import Exists, OuterRef
from django.urls import reverse

from games.models import Edition, Game
from site_config import content_versions
from sleeves import calculation as fitting
from sleeves.calculation import Calculation, CardGroup, Offer, Pick, Selection
from sleeves.models import CardFormat, SleeveProduct, SleeveSettings


def load_offers() -> tuple[Offer, ...]:
    """Active, stand-alone sleeves (inner "perfect fit" sleeves are never recommended).

    Kept by each process until the sleeve data change (their content version): the
    catalogue is the same for every box and every finder request, and offers are frozen.
    """
    version = content_versions.versions("sleeves")
    return content_versions.kept(f"sleeve-offers:{version}", _offers_from_database)


def _offers_from_database() -> tuple[Offer, ...]:
    products = SleeveProduct.objects.filter(is_active=True, is_inner_sleeve=False).select_related(
        "brand", "card_size"
    )
    return tuple(
        Offer(
            brand=product.brand.name,
            name=product.name,
            code=product.code,
            inner=product.inner_size,
            sold_for=product.card_size.size,
            per_pack=product.per_pack,
            price=product.price,
            currency=product.currency,
            price_seen_on=product.price_seen_on,
            url=product.shop_url,
            is_partner=product.is_partner_link,
            inner_source=product.inner_size_source,
            key=product.pk,
        )
        for product in products
    )


def tolerance() -> Decimal:
    return SleeveSettings.current().tolerance_mm


def finder_url(selection_param: str = "") -> str:
    url = reverse("sleeves:finder")
    if selection_param:
        url += "?" + urlencode({"spiele": selection_param}, safe=",*~")
    return url


@dataclass
class Variant:
    """The cards of one edition of a game; `edition` None is the edition the page describes."""

    game: Game
    edition: Edition | None
    formats: list[CardFormat]

    @property
    def key(self) -> int | None:
        return self.edition.pk if self.edition else None

    @property
    def applies_to(self) -> str:
        if self.edition is not None:
            parts = [str(self.edition.publisher) if self.edition.publisher else "Ausgabe"]
            parts.append(self.edition.article_number or str(self.edition.year or ""))
            return " ".join(part for part in parts if part)
        publishers = ", ".join(p.name for p in self.game.publishers.all())
        return " ".join(part for part in (publishers, self.game.article_number) if part)

    @property
    def base_formats(self) -> list[CardFormat]:
        return [f for f in self.formats if not f.is_expansion]

    @property
    def expansions(self) -> list[CardFormat]:
        return [f for f in self.formats if f.is_expansion]

    @property
    def base_cards(self) -> int:
        return sum(f.count for f in self.base_formats)

    @property
    def checked_on(self) -> date | None:
        dates = [f.checked_on for f in self.formats if f.checked_on]
        return max(dates) if dates else None

    def groups(self, copies: int = 1, source: str = "") -> list[CardGroup]:
        return [
            CardGroup(
                source=source or self.game.title,
                label=card_format.label,
                count=card_format.count,
                size=card_format.size.size if card_format.size else None,
                copies=copies,
                is_expansion=card_format.is_expansion,
                expansion_title=card_format.expansion_title,
            )
            for card_format in self.formats
        ]

    @property
    def finder_param(self) -> str:
        return Pick(self.game.slug, edition=self.key).token


def variants_of(game: Game, formats: list[CardFormat]) -> list[Variant]:
    """Main edition first, then other editions with their own formats in their order."""
    main = [f for f in formats if f.edition_id is None]
    editions: dict[int, Variant] = {}
    for card_format in formats:
        if card_format.edition_id is not None:
            variant = editions.setdefault(
                card_format.edition_id, Variant(game, card_format.edition, [])
            )
            variant.formats.append(card_format)
    ordered = sorted(
        editions.values(), key=lambda v: (v.edition.position, v.edition.year or 0, v.key)
    )
    return ([Variant(game, None, main)] if main else []) + ordered


def _formats_for(games) -> list[CardFormat]:
    return list(
        CardFormat.objects.filter(game__in=games)
        .select_related("size", "edition__publisher")
        .order_by("game_id", "is_expansion", "position", "pk")
    )


@dataclass
class BoxPart:
    variant: Variant
    calculation: Calculation


@dataclass
class GameBox:
    game: Game
    parts: list[BoxPart]
    tolerance: Decimal

    @property
    def price_dates(self) -> tuple[date, date] | None:
        dates = [d for part in self.parts if (span := part.calculation.price_dates) for d in span]
        return (min(dates), max(dates)) if dates else None

    @property
    def has_partner_link(self) -> bool:
        return any(part.calculation.has_partner_link for part in self.parts)

    @property
    def has_sizes(self) -> bool:
        return any(part.calculation.needs for part in self.parts)

    @property
    def finder_url(self) -> str:
        return finder_url(self.parts[0].variant.finder_param)


def box_for(game: Game) -> GameBox | None:
    """The sleeve box of the game page; None when no card formats are recorded yet."""
    formats = _formats_for([game.pk])
    if not formats:
        return None
    if drafted := getattr(game, "draft_card_formats", None):
        # A staff preview of the game's draft (editorial.drafts.overlay).
        from editorial.drafts import overlay_card_format

        for card_format in formats:
            if str(card_format.pk) in drafted:
                overlay_card_format(card_format)
    tolerance_mm = tolerance()
    offers = load_offers()
    parts = [
        BoxPart(variant, fitting.calculate(variant.groups(), offers, tolerance_mm))
        for variant in variants_of(game, formats)
    ]
    return GameBox(game, parts, tolerance_mm)


# ---------------------------------------------------------------------------------------------
# Sleeve-Finder


@dataclass
class FinderRow:
    pick: Pick
    game: Game
    variants: list[Variant]
    variant: Variant | None

    @property
    def has_data(self) -> bool:
        return self.variant is not None


@dataclass
class FinderResult:
    selection: Selection
    rows: list[FinderRow]
    calculation: Calculation
    include_expansions: bool
    problems: list[str] = field(default_factory=list)

    @property
    def rows_without_data(self) -> list[FinderRow]:
        return [row for row in self.rows if not row.has_data]

    @property
    def copies(self) -> int:
        return sum(row.pick.copies for row in self.rows)


def finder_for(selection: Selection, user, include_expansions: bool = False) -> FinderResult:
    problems = list(selection.problems)
    games = {
        game.slug: game
        for game in Game.objects.visible_to(user)
        .filter(slug__in=selection.slugs)
        .prefetch_related("publishers")
    }
    for slug in selection.slugs:
        if slug not in games:
            problems.append(f"Ein Spiel mit der Adresse „{slug}“ kennen wir nicht.")
    selection = selection.keeping(games)
    formats = _formats_for([game.pk for game in games.values()]) if games else []
    rows, groups = [], []
    for pick in selection.picks:
        game = games[pick.slug]
        variants = variants_of(game, [f for f in formats if f.game_id == game.pk])
        variant = next((v for v in variants if v.key == pick.edition), None)
        if variant is None and variants:
            variant = variants[0]
            if pick.edition is not None:
                problems.append(
                    f"Die gewählte Ausgabe von {game.title} kennen wir nicht; "
                    f"wir rechnen mit den Karten der Ausgabe {variant.applies_to or 'laut Spielseite'}."
                )
                selection = selection.with_edition(pick.slug, None)
                pick = selection.get(pick.slug)
        rows.append(FinderRow(pick, game, variants, variant))
        if variant is not None:
            groups.extend(variant.groups(copies=pick.copies))
    has_sizes = any(group.size for group in groups)
    calculation = fitting.calculate(
        groups,
        load_offers() if has_sizes else (),
        tolerance(),
        include_expansions=include_expansions,
    )
    return FinderResult(
        selection, rows, calculation, include_expansions, fitting.cap_notes(problems)
    )


def search_games(user, text: str, limit: int = 12) -> list[Game]:
    """Games to add: matches for `text`, or all games with card data when it is empty."""
    games = Game.objects.visible_to(user).annotate(
        has_card_formats=Exists(CardFormat.objects.filter(game=OuterRef("pk")))
    )
    games = games.search(text) if text.strip() else games.filter(has_card_formats=True)
    return list(games.order_by("-has_card_formats", "title")[:limit])
