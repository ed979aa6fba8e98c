"""Loads the shipped sleeve data from sleeves/content/*.toml.

Every shipped item has a key ("product:Mayday Games:MDG-7041", …). Once the loader has
created an item – or found it already there – it writes the key to `ShippedRecord` and
never creates that item again. Editors may therefore rename, correct or delete shipped
items; `load_content`, which `make run` calls every time, does not bring them back.

Card formats need their game: a format whose game slug does not exist yet is skipped
(and not recorded), so a later run creates it once the game has been loaded.
"""

import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from django.db import transaction

from games.models import Edition, Game
from sleeves.calculation import Size
from sleeves.models import Brand, CardFormat, CardSize, ShippedRecord, SleeveProduct

CONTENT_DIR = Path(__file__).resolve().parent / "content"


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)


def read_content(directory: Path = CONTENT_DIR) -> dict[str, list[dict]]:
    merged: dict[str, list[dict]] = {"sizes": [], "brands": [], "products": [], "formats": []}
    for path in sorted(directory.glob("*.toml")):
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        for kind, items in data.items():
            if kind not in merged:
                raise ValueError(f"{path.name}: unbekannter Abschnitt [[{kind}]]")
            merged[kind].extend(items)
    return merged


@transaction.atomic
def load_all(directory: Path = CONTENT_DIR) -> LoadReport:
    data = read_content(directory)
    report = LoadReport()
    recorded = set(ShippedRecord.objects.values_list("key", flat=True))
    for item in data["sizes"]:
        _load_size(item, recorded, report)
    for item in data["brands"]:
        _load_brand(item, recorded, report)
    for item in data["products"]:
        _load_product(item, recorded, report)
    for item in data["formats"]:
        _load_format(item, recorded, report)
    return report


def _remember(key: str, recorded: set[str]) -> None:
    ShippedRecord.objects.create(key=key)
    recorded.add(key)


def _size(text: str) -> CardSize:
    size = Size.parse(text)
    card_size, _ = CardSize.objects.get_or_create(width_mm=size.width, height_mm=size.height)
    return card_size


def _load_size(item: dict, recorded: set[str], report: LoadReport) -> None:
    size = Size.parse(item["size"])
    key = f"size:{size.width}x{size.height}"
    if key in recorded:
        return
    card_size, created = CardSize.objects.get_or_create(
        width_mm=size.width, height_mm=size.height, defaults={"name": item.get("name", "")}
    )
    (report.created if created else report.kept).append(f"Kartenmaß {card_size}")
    _remember(key, recorded)


def _load_brand(item: dict, recorded: set[str], report: LoadReport) -> None:
    key = f"brand:{item['name']}"
    if key in recorded:
        return
    brand, created = Brand.objects.get_or_create(
        name=item["name"], defaults={"website": item.get("website", "")}
    )
    (report.created if created else report.kept).append(f"Marke {brand}")
    _remember(key, recorded)


def _load_product(item: dict, recorded: set[str], report: LoadReport) -> None:
    key = f"product:{item['brand']}:{item.get('code') or item['name']}"
    if key in recorded:
        return
    brand = Brand.objects.filter(name=item["brand"]).first()
    if brand is None:
        # The shipped brand was renamed or deleted by an editor: respect that.
        report.waiting.append(f"Produkt {item['name']}: Marke „{item['brand']}“ fehlt")
        return
    existing = SleeveProduct.objects.filter(brand=brand)
    existing = (
        existing.filter(code=item["code"])
        if item.get("code")
        else existing.filter(name=item["name"])
    )
    if existing.exists():
        report.kept.append(f"Produkt {item['brand']} {item['name']}")
    else:
        inner = Size.parse(item["inner"])
        SleeveProduct.objects.create(
            brand=brand,
            name=item["name"],
            code=item.get("code", ""),
            card_size=_size(item["card_size"]),
            inner_width_mm=inner.width,
            inner_height_mm=inner.height,
            inner_size_source=item.get("inner_source", ""),
            per_pack=item["per_pack"],
            is_inner_sleeve=item.get("inner_sleeve", False),
            price=Decimal(str(item["price"])) if item.get("price") is not None else None,
            price_seen_on=item.get("price_seen_on"),
            shop_url=item.get("shop_url", ""),
            is_partner_link=item.get("partner_link", False),
        )
        report.created.append(f"Produkt {item['brand']} {item['name']}")
    _remember(key, recorded)


def _load_format(item: dict, recorded: set[str], report: LoadReport) -> None:
    edition_number = item.get("edition_article_number", "")
    key = f"format:{item['game']}:{edition_number or 'haupt'}:{item['label']}"
    if key in recorded:
        return
    game = Game.objects.filter(slug=item["game"]).first()
    if game is None:
        report.waiting.append(f"Kartenformat {item['game']}: Spiel noch nicht angelegt")
        return
    edition = None
    if edition_number:
        edition = Edition.objects.filter(game=game, article_number=edition_number).first()
        if edition is None:
            report.waiting.append(f"Kartenformat {item['game']}: Ausgabe {edition_number} fehlt")
            return
    if CardFormat.objects.filter(game=game, edition=edition, label=item["label"]).exists():
        report.kept.append(f"Kartenformat {item['game']} {item['label']}")
    else:
        CardFormat.objects.create(
            game=game,
            edition=edition,
            label=item["label"],
            count=item["count"],
            size=_size(item["size"]) if item.get("size") else None,
            is_expansion=item.get("expansion", False),
            expansion_title=item.get("expansion_title", ""),
            count_source=item.get("count_source", ""),
            size_source=item.get("size_source", ""),
            checked_on=item.get("checked_on"),
            note=item.get("note", ""),
            position=item.get("position", 0),
        )
        report.created.append(f"Kartenformat {item['game']} {item['label']}")
    _remember(key, recorded)
