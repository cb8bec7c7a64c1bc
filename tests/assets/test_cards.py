"""The card art: generated, never hand-edited; complete for every deck; valid SVG that
QtSvg can draw; and the rules' facts (count cards, point cards, colours) on the faces.

The expected card lists are written out here from the rules documents, not imported from
the generator, so a generator that forgot a card cannot also forget to expect it.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
CARDS = ASSETS / "cards"
SVG = "{http://www.w3.org/2000/svg}"
COUNT_RED = "#c8102e"

# Somerset: suits /0 … /12 holding ranks 0..suit, plus the S/S (rules/somerset.md).
SOMERSET = [f"{rank}-{suit}" for suit in (0, 2, 4, 6, 8, 10, 12) for rank in range(suit + 1)]
SOMERSET.append("S-S")
SOMERSET_COUNT = {"1-2": 1, "2-4": 1, "3-6": 1, "4-8": 2, "5-10": 2, "6-12": 2, "S-S": 3}
# Rook: 1–14 in Black, Red, Green, Yellow, plus the bird (rules/rook.md).
ROOK = [f"{colour}{n}" for colour in "BRGY" for n in range(1, 15)] + ["ROOK"]
ROOK_POINTS = {"1": 15, "14": 10, "10": 10, "5": 5}
# Standard deck for Horseshoes (rules/horseshoes.md).
STANDARD = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]

DECKS = {
    "somerset": SOMERSET,
    "rook": ROOK,
    "rook-accessible": ROOK,
    "standard": STANDARD,
}


def all_committed_svgs() -> list[Path]:
    return sorted([*CARDS.rglob("*.svg"), ASSETS / "icons" / "parlour.svg"])


def parse(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def title_of(root: ET.Element) -> str:
    return root.find(f"{SVG}title").text


def texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


@pytest.fixture(scope="module")
def fresh_run(tmp_path_factory) -> Path:
    """The generator run as a separate process, with a different hash seed from ours."""
    out = tmp_path_factory.mktemp("cards")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, str(ASSETS / "make_cards.py"), "--out", str(out)],
                   check=True, env=env, capture_output=True)
    return out


def test_committed_svgs_are_exactly_what_the_generator_writes(fresh_run):
    generated = sorted(p.relative_to(fresh_run) for p in fresh_run.rglob("*.svg"))
    committed = sorted(p.relative_to(ASSETS) for p in all_committed_svgs())
    assert generated == committed
    stale = [str(rel) for rel in generated
             if (fresh_run / rel).read_bytes() != (ASSETS / rel).read_bytes()]
    assert stale == [], "regenerate with: python assets/make_cards.py"


def test_generator_output_does_not_vary_between_runs(fresh_run, tmp_path):
    sys.path.insert(0, str(ASSETS))
    try:
        import make_cards
    finally:
        sys.path.remove(str(ASSETS))
    make_cards.write_all(tmp_path)
    for path in fresh_run.rglob("*.svg"):
        assert (tmp_path / path.relative_to(fresh_run)).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_card_of_every_deck_exists(deck):
    present = sorted(p.stem for p in (CARDS / deck).glob("*.svg"))
    assert present == sorted(DECKS[deck])


def test_deck_sizes_match_the_rules():
    assert (len(SOMERSET), len(ROOK), len(STANDARD)) == (50, 57, 52)
    assert (CARDS / "back-blue.svg").is_file() and (CARDS / "back-red.svg").is_file()


def test_every_svg_is_well_formed_with_a_card_shaped_viewbox_and_a_title():
    for path in all_committed_svgs():
        root = parse(path)
        assert root.tag == f"{SVG}svg", path
        x, y, width, height = (float(v) for v in root.get("viewBox").split())
        assert (x, y) == (0, 0), path
        if path.parent.name != "icons":
            assert width * 3.5 == height * 2.5, path
        assert title_of(root).strip(), path


def test_no_fonts_or_images_are_embedded():
    for path in all_committed_svgs():
        content = path.read_text()
        assert "@font-face" not in content and "<image" not in content, path
        assert "<filter" not in content, path


@pytest.mark.parametrize("path, title", [
    ("somerset/8-8.svg", "8 of the /8 suit"),
    ("somerset/3-6.svg", "3 of the /6 suit"),
    ("somerset/S-S.svg", "the S/S"),
    ("somerset/0-0.svg", "0/0, the Rover"),
    ("rook/R14.svg", "Red 14"),
    ("rook-accessible/Y1.svg", "Yellow 1"),
    ("rook/ROOK.svg", "the Rook"),
    ("standard/AS.svg", "Ace of spades"),
    ("standard/TD.svg", "10 of diamonds"),
    ("standard/QH.svg", "Queen of hearts"),
])
def test_titles_name_the_card(path, title):
    assert title_of(parse(CARDS / path)) == title


@pytest.mark.parametrize("name", SOMERSET)
def test_somerset_faces_show_the_fraction_and_only_count_cards_are_red(name):
    rank, suit = name.split("-")
    root = parse(CARDS / "somerset" / f"{name}.svg")
    labels = [t.text for t in texts(root)]
    assert labels.count(rank) >= 3 and labels.count(suit) >= 3  # centre and two corners
    red_texts = [t.text for t in texts(root) if t.get("fill") == COUNT_RED]
    if name in SOMERSET_COUNT:
        assert rank in red_texts and suit in red_texts
    else:
        assert red_texts == []


@pytest.mark.parametrize("name, points", sorted(SOMERSET_COUNT.items()))
def test_count_cards_show_their_value_in_a_red_circle(name, points):
    root = parse(CARDS / "somerset" / f"{name}.svg")
    rings = [c for c in root.iter(f"{SVG}circle") if c.get("stroke") == COUNT_RED]
    assert rings, name

    def in_a_ring(t: ET.Element) -> bool:  # (the index above it is red too, in the same column)
        return any(t.get("x") == ring.get("cx")
                   and abs(float(t.get("y")) - float(ring.get("cy"))) < float(ring.get("r"))
                   for ring in rings)
    values = [t.text for t in texts(root) if in_a_ring(t) and t.get("fill") == COUNT_RED]
    assert values and set(values) == {str(points)}


def test_doubles_look_different_from_their_neighbours():
    def bars(name: str) -> int:
        return len(list(parse(CARDS / "somerset" / f"{name}.svg").iter(f"{SVG}rect")))
    for suit in (2, 4, 6, 8, 10, 12):
        assert bars(f"{suit}-{suit}") > bars(f"{suit - 1}-{suit}")


@pytest.mark.parametrize("deck", ["rook", "rook-accessible"])
def test_rook_point_cards_show_their_points_and_others_do_not(deck):
    for name in ROOK[:-1]:
        labels = [t.text for t in texts(parse(CARDS / deck / f"{name}.svg"))]
        points = ROOK_POINTS.get(name[1:])
        expected = [f"{points} POINTS"] if points else []
        assert [label for label in labels if label.endswith("POINTS")] == expected, name
    bird = [t.text for t in texts(parse(CARDS / deck / "ROOK.svg"))]
    assert "20 POINTS" in bird


def colour_signature(root: ET.Element, colour: str) -> list[str]:
    """The non-text shapes filled with a colour: what tells the colour apart besides hue."""
    found = []
    for node in root.iter():
        if node.get("fill") == colour and node.tag != f"{SVG}text":
            points = node.get("points")
            found.append(node.tag + (str(len(points.split())) if points else ""))
    return sorted(found)


def test_accessible_rook_colours_each_carry_a_distinct_shape():
    signatures = {}
    for colour in "BRGY":
        root = parse(CARDS / "rook-accessible" / f"{colour}7.svg")
        fill = next(t.get("fill") for t in texts(root) if t.text == "7")
        signatures[colour] = tuple(colour_signature(root, fill))
    assert len(set(signatures.values())) == 4, signatures
    assert all(signatures.values())


def test_accessible_rook_uses_a_different_palette():
    def numeral_fill(deck: str, name: str) -> str:
        return next(t.get("fill") for t in texts(parse(CARDS / deck / f"{name}.svg"))
                    if t.text == name[1:])
    for colour in "RGY":
        assert numeral_fill("rook", f"{colour}3") != numeral_fill("rook-accessible", f"{colour}3")
    assert numeral_fill("rook-accessible", "R3").lower() == "#d55e00"  # Okabe–Ito vermilion


@pytest.mark.parametrize("name", STANDARD)
def test_standard_index_and_suit_colour(name):
    rank, suit = name
    root = parse(CARDS / "standard" / f"{name}.svg")
    index = "10" if rank == "T" else rank
    index_texts = [t for t in texts(root) if t.text == index]
    assert len(index_texts) >= 2  # both corners
    wanted = COUNT_RED if suit in "HD" else "#1d2330"
    assert {t.get("fill") for t in index_texts} == {wanted}


def test_pip_cards_have_as_many_pips_as_their_rank():
    for rank, count in [("2", 2), ("5", 5), ("9", 9), ("T", 10)]:
        root = parse(CARDS / "standard" / f"{rank}H.svg")
        # A pip is a placed group (translate + scale); the two corner pips are smaller.
        pips = [g for g in root.iter(f"{SVG}g")
                if "scale(0.4)" in (g.get("transform") or "")]
        assert len(pips) == count, rank


def test_desktop_entry_names_the_app():
    entry = (ASSETS / "parlour.desktop").read_text().splitlines()
    assert entry[0] == "[Desktop Entry]"
    for line in ["Type=Application", "Name=Parlour", "Exec=parlour", "Icon=parlour",
                 "Categories=Game;CardGame;"]:
        assert line in entry


def test_icon_png_is_256_square():
    data = (ASSETS / "icons" / "parlour.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (256, 256)


# ---------------------------------------------------------------- drawn by QtSvg

@pytest.fixture
def qt_app(qapp):
    """pytest-qt's QApplication: a bare QGuiApplication made here was the process's
    application for every later test, and the first QWidget a later test in the same
    xdist worker made aborted the worker (test_selftest, in ``make check``)."""
    pytest.importorskip("PySide6.QtSvg")
    return qapp


@pytest.mark.parametrize("path", [
    "somerset/S-S.svg", "somerset/0-0.svg", "somerset/12-12.svg", "rook/ROOK.svg",
    "rook-accessible/Y14.svg", "standard/KS.svg", "standard/TD.svg", "back-red.svg",
    "../icons/parlour.svg",
])
def test_qtsvg_draws_the_card(qt_app, path):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(CARDS / path))
    assert renderer.isValid()
    image = QImage(100, 140, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    colours = {image.pixel(x, y) for x in range(0, 100, 3) for y in range(0, 140, 3)}
    assert len(colours) > 4  # not blank, not a single flat fill
