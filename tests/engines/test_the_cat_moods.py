"""The mood sprite has one face per engine mood, each with its German name."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from itertools import combinations
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


# --- Colour-blind readers -------------------------------------------------------------

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
ALIKE = 10.0  # ΔE*ab below this: two colours pass for one at a glance


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, matrix) -> tuple[float, float, float]:
    rgb = [_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    simulated = [
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
    ]
    return _lab(simulated)


def faces() -> dict[str, dict]:
    """Per mood: the face's colour (the head's fill) and its marker – the drawing without
    colour (eyes, mouth, ears, extras) – and the name printed on the card."""
    result = {}
    for symbol in ET.parse(SPRITE).getroot().findall(f"{SVG}symbol"):
        key = symbol.get("id").removeprefix("mood-")
        head = next(g for g in symbol.iter(f"{SVG}g") if g.get("fill", "none") != "none")
        outline = tuple(
            (element.tag, element.get("d"), element.get("r"), element.get("transform"))
            for element in symbol.iter()
            if element.tag not in (f"{SVG}symbol", f"{SVG}title")
        )
        result[key] = {"colour": head.get("fill"), "marker": outline, "name": MOOD_NAMES[key]}
    return result


def test_no_two_faces_look_alike_for_colour_blind_readers():
    """Simulated deuteranopia and protanopia: faces whose colours pass for one another
    still differ by their marker (the drawing) and by the name on the card – and the
    face colours are spread enough that colour alone separates most of them."""
    drawn = faces()
    assert len(drawn) == 13
    alike: dict[str, list[tuple[str, str]]] = {}
    for label, matrix in SIMULATIONS.items():
        for (a, one), (b, other) in combinations(drawn.items(), 2):
            if math.dist(seen(one["colour"], matrix), seen(other["colour"], matrix)) < ALIKE:
                alike.setdefault(label, []).append((a, b))
                assert one["marker"] != other["marker"], (label, a, b)
                assert one["name"] != other["name"], (label, a, b)
    # Normal vision tells every face apart by colour alone; the lavender „verschlafen“
    # and the purple „verwirrt“ (once 13.6 apart) now differ clearly.
    assert "normal" not in alike
    worst = min(
        math.dist(seen(drawn["verschlafen"]["colour"], m), seen(drawn["verwirrt"]["colour"], m))
        for m in SIMULATIONS.values()
    )
    assert worst >= ALIKE
    # For colour-blind readers some colours do pass for one another: the marker is
    # what keeps those faces apart (this test fails if the drawings ever match).
    assert alike.get("deuteranopia")
