"""The mood sprite has one face per engine mood, each with its German name."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from games.engines.the_cat import MOOD_KEYS, MOOD_NAMES

SPRITE = Path(__file__).resolve().parents[2] / "games/play/the_cat/static/play/the_cat/moods.svg"
SVG = "{http://www.w3.org/2000/svg}"


def test_one_symbol_per_mood_with_its_german_title():
    root = ET.parse(SPRITE).getroot()
    symbols = root.findall(f"{SVG}symbol")
    assert [symbol.get("id") for symbol in symbols] == [f"mood-{key}" for key in MOOD_KEYS]
    for symbol in symbols:
        key = symbol.get("id").removeprefix("mood-")
        assert symbol.find(f"{SVG}title").text == MOOD_NAMES[key]
        assert symbol.get("viewBox")


def test_faces_differ_in_shape_not_only_in_colour():
    root = ET.parse(SPRITE).getroot()
    shapes = set()
    for symbol in root.findall(f"{SVG}symbol"):
        # The drawing without any colour: element types and geometry only.
        outline = tuple(
            (element.tag, element.get("d"), element.get("r"), element.get("transform"))
            for element in symbol.iter()
            if element.tag not in (f"{SVG}symbol", f"{SVG}title")
        )
        shapes.add(outline)
    assert len(shapes) == len(MOOD_KEYS)
