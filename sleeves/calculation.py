"""The sleeve calculation, free of Django and the database.

Fit rule (also explained to readers on the site):
- Sizes are compared normalised, width ≤ height, so "88 × 63" is the same card as "63 × 88".
- A sleeve fits a card when its inner size is at least the card size in width AND height,
  and at most `tolerance` millimetres larger in width AND in height.
- Of the sleeves of one brand that fit, the tightest wins: the smallest slack area
  (inner area − card area). Ties go to the lower price per sleeve, then to the name.
- Packs are whole: packs = ceil(cards / sleeves per pack).

`sleeves.selectors` loads rows from the database and hands them to these functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation

DEFAULT_TOLERANCE_MM = Decimal("4.0")
MAX_COPIES = 20
MAX_GAMES = 30
# A crafted address must not make the page (or the work behind it) grow: at most this many
# comma-separated entries are read, and at most MAX_NOTES notes about them are shown.
MAX_ENTRIES = 2 * MAX_GAMES
MAX_NOTES = 5
CURRENCY_SIGNS = {"EUR": "€", "CHF": "CHF", "GBP": "£", "USD": "$"}


# ---------------------------------------------------------------------------------------------
# Sizes


def to_mm(value) -> Decimal:
    """A length in millimetres as Decimal; floats go through str() so 63.5 stays 63.5."""
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value).replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"Keine Länge: {value!r}") from None
    if not number.is_finite() or number <= 0:
        raise ValueError(f"Keine Länge: {value!r}")
    return number


def format_mm(value: Decimal) -> str:
    """63.5 → "63,5", 88.0 → "88" (German decimal comma, no trailing zeros)."""
    text = format(value.normalize(), "f")
    return text.replace(".", ",")


@dataclass(frozen=True, order=True)
class Size:
    """A card or sleeve size in mm, always normalised so that width ≤ height."""

    width: Decimal
    height: Decimal

    def __post_init__(self):
        if self.width > self.height:
            raise ValueError("Size must be normalised; use Size.of().")

    @classmethod
    def of(cls, first, second) -> Size:
        a, b = to_mm(first), to_mm(second)
        return cls(min(a, b), max(a, b))

    @classmethod
    def parse(cls, text: str) -> Size:
        """Reads "63.5x88", "88 × 63,5 mm" and similar spellings."""
        parts = re.split(r"\s*[x×X*]\s*", text.strip().removesuffix("mm").strip())
        if len(parts) != 2:
            raise ValueError(f"Kein Kartenmaß: {text!r}")
        return cls.of(*parts)

    @property
    def area(self) -> Decimal:
        return self.width * self.height

    @property
    def label(self) -> str:
        return f"{format_mm(self.width)} × {format_mm(self.height)} mm"

    def __str__(self):
        return self.label


def slack(card: Size, inner: Size) -> tuple[Decimal, Decimal]:
    """How much larger the sleeve is inside than the card, in width and in height."""
    return inner.width - card.width, inner.height - card.height


def fits(card: Size, inner: Size, tolerance: Decimal = DEFAULT_TOLERANCE_MM) -> bool:
    slack_width, slack_height = slack(card, inner)
    return 0 <= slack_width <= tolerance and 0 <= slack_height <= tolerance


def packs_needed(cards: int, per_pack: int) -> int:
    if per_pack < 1:
        raise ValueError("Eine Packung enthält mindestens eine Hülle.")
    if cards < 0:
        raise ValueError("Kartenzahl kann nicht negativ sein.")
    return -(-cards // per_pack)


# ---------------------------------------------------------------------------------------------
# Money


def format_money(amount: Decimal, currency: str = "EUR") -> str:
    """German notation: 1234.5 → "1.234,50 €"."""
    quantised = amount.quantize(Decimal("0.01"))
    whole, _, cents = f"{quantised:,.2f}".partition(".")
    return f"{whole.replace(',', '.')},{cents} {CURRENCY_SIGNS.get(currency, currency)}"


def format_totals(totals: dict[str, Decimal]) -> str:
    return " + ".join(format_money(amount, currency) for currency, amount in sorted(totals.items()))


# ---------------------------------------------------------------------------------------------
# Sleeves and cards


@dataclass(frozen=True)
class Offer:
    """One sleeve product as the calculation sees it."""

    brand: str
    name: str
    inner: Size
    per_pack: int
    sold_for: Size | None = None
    code: str = ""
    price: Decimal | None = None
    currency: str = "EUR"
    price_seen_on: date | None = None
    url: str = ""
    is_partner: bool = False
    inner_source: str = ""
    key: object = None

    @property
    def price_per_sleeve(self) -> Decimal | None:
        return None if self.price is None else self.price / self.per_pack

    @property
    def price_label(self) -> str:
        return "Preis unbekannt" if self.price is None else format_money(self.price, self.currency)


def tightest(card: Size, offers: Iterable[Offer], tolerance: Decimal) -> Offer | None:
    """The fitting offer with the least slack area, or None when nothing fits."""
    fitting = [offer for offer in offers if fits(card, offer.inner, tolerance)]

    def tightness(offer: Offer):
        per_sleeve = offer.price_per_sleeve
        return (
            offer.inner.area - card.area,
            per_sleeve is None,
            per_sleeve or Decimal(0),
            offer.name,
            offer.code,
        )

    return min(fitting, key=tightness, default=None)


@dataclass(frozen=True)
class CardGroup:
    """Cards of one size that one selected game brings along (per copy)."""

    source: str
    label: str
    count: int
    size: Size | None
    copies: int = 1
    is_expansion: bool = False
    expansion_title: str = ""

    @property
    def total(self) -> int:
        return self.count * self.copies


@dataclass(frozen=True)
class SizeNeed:
    size: Size
    cards: int
    parts: tuple[CardGroup, ...]


def sum_by_size(
    groups: Iterable[CardGroup], include_expansions: bool = False
) -> tuple[list[SizeNeed], list[CardGroup], list[CardGroup]]:
    """Cards summed per normalised size; returns (needs, unknown size, left-out expansions)."""
    by_size: dict[Size, list[CardGroup]] = {}
    unknown, left_out = [], []
    for group in groups:
        if group.is_expansion and not include_expansions:
            left_out.append(group)
        elif group.size is None:
            unknown.append(group)
        else:
            by_size.setdefault(group.size, []).append(group)
    needs = [
        SizeNeed(size, sum(part.total for part in parts), tuple(parts))
        for size, parts in sorted(by_size.items())
    ]
    return needs, unknown, left_out


@dataclass(frozen=True)
class Line:
    """One card size of a brand plan: which sleeve, how many packs."""

    need: SizeNeed
    offer: Offer | None

    @property
    def packs(self) -> int:
        return packs_needed(self.need.cards, self.offer.per_pack) if self.offer else 0

    @property
    def sleeves(self) -> int:
        return self.packs * self.offer.per_pack if self.offer else 0

    @property
    def spare(self) -> int:
        return self.sleeves - self.need.cards if self.offer else 0

    @property
    def cost(self) -> Decimal | None:
        if self.offer is None or self.offer.price is None:
            return None
        return self.offer.price * self.packs

    @property
    def cost_label(self) -> str:
        return (
            "Preis unbekannt" if self.cost is None else format_money(self.cost, self.offer.currency)
        )


@dataclass(frozen=True)
class BrandPlan:
    brand: str
    lines: tuple[Line, ...]

    @property
    def complete(self) -> bool:
        return all(line.offer for line in self.lines)

    @property
    def missing(self) -> list[Size]:
        return [line.need.size for line in self.lines if line.offer is None]

    @property
    def packs(self) -> int:
        return sum(line.packs for line in self.lines)

    @property
    def totals(self) -> dict[str, Decimal]:
        totals: dict[str, Decimal] = {}
        for line in self.lines:
            if line.cost is not None:
                totals[line.offer.currency] = (
                    totals.get(line.offer.currency, Decimal(0)) + line.cost
                )
        return totals

    @property
    def prices_known(self) -> bool:
        """Every chosen sleeve has a price (a missing sleeve is not a missing price)."""
        return all(line.cost is not None for line in self.lines if line.offer)

    @property
    def unknown_prices(self) -> int:
        return sum(1 for line in self.lines if line.offer and line.cost is None)

    @property
    def total_label(self) -> str:
        if not self.totals:
            return "Preis unbekannt"
        label = format_totals(self.totals)
        return label if self.prices_known else f"mindestens {label}"

    @property
    def has_partner_link(self) -> bool:
        return any(line.offer and line.offer.url and line.offer.is_partner for line in self.lines)

    def sort_key(self):
        totals = self.totals
        comparable = self.prices_known and set(totals) <= {"EUR"}
        return (
            not self.complete,
            not comparable,
            totals.get("EUR", Decimal(0)) if comparable else Decimal(0),
            self.brand.casefold(),
        )


@dataclass
class Calculation:
    needs: list[SizeNeed]
    unknown: list[CardGroup]
    left_out_expansions: list[CardGroup]
    plans: list[BrandPlan]
    brands_without_fit: list[str]
    tolerance: Decimal
    include_expansions: bool = False

    @property
    def known_cards(self) -> int:
        return sum(need.cards for need in self.needs)

    @property
    def unknown_cards(self) -> int:
        return sum(group.total for group in self.unknown)

    @property
    def cards(self) -> int:
        return self.known_cards + self.unknown_cards

    @property
    def chosen_offers(self) -> list[Offer]:
        return [line.offer for plan in self.plans for line in plan.lines if line.offer]

    @property
    def price_dates(self) -> tuple[date, date] | None:
        """Oldest and newest date among the prices shown – the "Stand" of the prices."""
        dates = [
            o.price_seen_on for o in self.chosen_offers if o.price is not None and o.price_seen_on
        ]
        return (min(dates), max(dates)) if dates else None

    @property
    def has_partner_link(self) -> bool:
        return any(plan.has_partner_link for plan in self.plans)


def calculate(
    groups: Iterable[CardGroup],
    offers: Iterable[Offer],
    tolerance: Decimal = DEFAULT_TOLERANCE_MM,
    include_expansions: bool = False,
) -> Calculation:
    """Per brand the tightest fitting sleeve for every card size, packs and price."""
    needs, unknown, left_out = sum_by_size(groups, include_expansions)
    by_brand: dict[str, list[Offer]] = {}
    for offer in offers:
        by_brand.setdefault(offer.brand, []).append(offer)
    plans, without_fit = [], []
    for brand, brand_offers in by_brand.items():
        lines = tuple(Line(need, tightest(need.size, brand_offers, tolerance)) for need in needs)
        if any(line.offer for line in lines):
            plans.append(BrandPlan(brand, lines))
        elif needs:
            without_fit.append(brand)
    plans.sort(key=BrandPlan.sort_key)
    without_fit.sort(key=str.casefold)
    return Calculation(needs, unknown, left_out, plans, without_fit, tolerance, include_expansions)


# ---------------------------------------------------------------------------------------------
# The finder's selection in the URL: ?spiele=spiel-a,spiel-b*2,spiel-c~7
#   slug            one copy of the game's main edition
#   slug*N          N copies (1 … MAX_COPIES)
#   slug~ID         the cards of edition ID of that game

TOKEN = re.compile(
    r"^(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)(?:~(?P<edition>\d{1,9}))?(?:\*(?P<copies>\d{1,6}))?$"
)


@dataclass(frozen=True)
class Pick:
    slug: str
    copies: int = 1
    edition: int | None = None

    @property
    def token(self) -> str:
        text = self.slug
        if self.edition is not None:
            text += f"~{self.edition}"
        if self.copies != 1:
            text += f"*{self.copies}"
        return text


@dataclass(frozen=True)
class Selection:
    picks: tuple[Pick, ...] = ()
    problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def param(self) -> str:
        return ",".join(pick.token for pick in self.picks)

    @property
    def slugs(self) -> list[str]:
        return [pick.slug for pick in self.picks]

    def get(self, slug: str) -> Pick | None:
        return next((pick for pick in self.picks if pick.slug == slug), None)

    def _replace_pick(self, slug: str, new: Pick | None) -> Selection:
        picks = [new if pick.slug == slug else pick for pick in self.picks]
        return Selection(tuple(pick for pick in picks if pick is not None))

    def adding(self, slug: str) -> Selection:
        """One more copy, or the game newly at the end."""
        pick = self.get(slug)
        if pick is None:
            if len(self.picks) >= MAX_GAMES:
                return Selection(self.picks)
            return Selection((*self.picks, Pick(slug)))
        return self.with_copies(slug, pick.copies + 1)

    def with_copies(self, slug: str, copies: int) -> Selection:
        pick = self.get(slug)
        if pick is None:
            return Selection(self.picks)
        if copies < 1:
            return self.without(slug)
        return self._replace_pick(slug, replace(pick, copies=min(copies, MAX_COPIES)))

    def with_edition(self, slug: str, edition: int | None) -> Selection:
        pick = self.get(slug)
        return self._replace_pick(slug, replace(pick, edition=edition)) if pick else self

    def without(self, slug: str) -> Selection:
        return self._replace_pick(slug, None)

    def keeping(self, slugs: Iterable[str]) -> Selection:
        wanted = set(slugs)
        return Selection(tuple(p for p in self.picks if p.slug in wanted), self.problems)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_selection(values: str | Iterable[str]) -> Selection:
    """Reads `?spiele=` (comma-separated, also repeated); never raises on bad input.

    Repeated slugs add up their copies; problems are collected as German sentences.
    """
    if isinstance(values, str):
        values = [values]
    picks: dict[str, Pick] = {}
    problems: list[str] = []
    dropped: list[str] = []
    entries = [raw for value in values for raw in value.split(",", MAX_ENTRIES)]
    if len(entries) > MAX_ENTRIES:
        problems.append(
            f"Die Adresse enthält mehr als {MAX_ENTRIES} Einträge; den Rest haben wir nicht gelesen."
        )
        entries = entries[:MAX_ENTRIES]
    for raw in entries:
        token = raw.strip().lower()
        if not token:
            continue
        match = TOKEN.match(token)
        if match is None:
            problems.append(
                f"„{_shorten(raw.strip())}“ verstehen wir nicht und haben es weggelassen."
            )
            continue
        slug = match["slug"]
        copies = int(match["copies"]) if match["copies"] else 1
        edition = int(match["edition"]) if match["edition"] else None
        if copies < 1:
            problems.append(f"„{_shorten(slug)}“ mit 0 Exemplaren haben wir weggelassen.")
            continue
        if slug in picks:
            previous = picks[slug]
            copies += previous.copies
            edition = previous.edition if previous.edition is not None else edition
        elif len(picks) >= MAX_GAMES:
            dropped.append(slug)
            continue
        if copies > MAX_COPIES:
            problems.append(
                f"Von „{_shorten(slug)}“ rechnen wir mit höchstens {MAX_COPIES} Exemplaren."
            )
            copies = MAX_COPIES
        picks[slug] = Pick(slug, copies, edition)
    if dropped:
        names = ", ".join(f"„{_shorten(slug)}“" for slug in dropped[:5])
        more = " …" if len(dropped) > 5 else ""
        problems.append(f"Höchstens {MAX_GAMES} Spiele auf einmal – weggelassen: {names}{more}.")
    return Selection(tuple(picks.values()), tuple(problems))


def cap_notes(notes: list[str], limit: int = MAX_NOTES) -> list[str]:
    """The first `limit` notes and a count of the rest."""
    if len(notes) <= limit:
        return list(notes)
    rest = len(notes) - limit
    return [
        *notes[:limit],
        f"… und {rest} weitere{'r' if rest == 1 else ''} Hinweis{'e' if rest != 1 else ''}.",
    ]
