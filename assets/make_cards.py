"""Draw Parlour's own card art as SVG: Somerset, Rook (plain and accessible), a
standard 52-card deck, two backs and the app icon.

Stdlib only and deterministic: every run writes the same bytes, so the committed files
under assets/ can be checked against a fresh run (tests/assets/test_cards.py does).
Nothing here is third-party art: every shape is drawn from coordinates in this file.

Every word and number a person reads on a face (its index, its big numeral, "15 POINTS")
has an id starting ``read-`` (``READ``); the copies turned upside down at the bottom
right do not. The app measures those elements to know how much of a card must stay in
view where the next card in a fanned hand lies over it (``app.assets.reading_width``).

    python assets/make_cards.py                # rewrite assets/cards/** and the icon SVG
    python assets/make_cards.py --icon-png     # also render assets/icons/parlour.png (PySide6)
    python assets/make_cards.py --out DIR      # write into DIR instead of assets/
"""

from __future__ import annotations

import argparse
import math
import pathlib
import re
from xml.sax.saxutils import escape, quoteattr

WIDTH, HEIGHT = 250, 350
CENTRE_X, CENTRE_Y = WIDTH / 2, HEIGHT / 2
FONT = "DejaVu Sans, Arial, sans-serif"
INK = "#1d2330"
RED = "#c8102e"
BORDER = "#8a8f99"
PAPER = "#ffffff"

ASSETS_DIR = pathlib.Path(__file__).resolve().parent
READ = "read-"  # the id prefix of text a person reads (the turned copies have no id)


# ---------------------------------------------------------------- SVG primitives

def num(value: float) -> str:
    """Format a coordinate compactly and identically on every platform."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def element(name: str, content: str | None = None, **attrs) -> str:
    """One SVG element; `stroke_width=2` becomes stroke-width="2", `class_` becomes class."""
    rendered = []
    for key, value in attrs.items():
        if value is None:
            continue
        attr = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, (int, float)) else str(value)
        rendered.append(f" {attr}={quoteattr(text)}")
    opening = f"<{name}{''.join(rendered)}"
    if content is None:
        return opening + "/>"
    return f"{opening}>{content}</{name}>"


def group(parts: list[str], transform: str | None = None, **attrs) -> str:
    return element("g", "".join(parts), transform=transform, **attrs)


def text(x: float, y: float, label: str, size: float, fill: str, anchor: str = "middle",
         weight: str = "bold", **attrs) -> str:
    """Text on an explicit baseline; QtSvg ignores dominant-baseline, so none is used."""
    return element("text", escape(label), x=x, y=y, font_family=FONT, font_size=size,
                   font_weight=weight, fill=fill, text_anchor=anchor, **attrs)


def polygon(points: list[tuple[float, float]], **attrs) -> str:
    coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return element("polygon", points=coords, **attrs)


def turned(parts: list[str]) -> str:
    """The same drawing turned half round the card centre (the bottom-right index),
    without its ids: ids are unique, and the copy upside down is not what is read."""
    unnamed = [re.sub(r' id="[^"]*"', "", part) for part in parts]
    return group(unnamed, transform=f"rotate(180 {num(CENTRE_X)} {num(CENTRE_Y)})")


def placed(parts: list[str], x: float, y: float, scale: float = 1.0, rotate: float = 0) -> str:
    transform = f"translate({num(x)} {num(y)})"
    if rotate:
        transform += f" rotate({num(rotate)})"
    if scale != 1.0:
        transform += f" scale({num(scale)})"
    return group(parts, transform=transform)


def document(title: str, parts: list[str], width: int = WIDTH, height: int = HEIGHT) -> str:
    body = "\n".join(parts)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">\n'
        f"<title>{escape(title)}</title>\n{body}\n</svg>\n"
    )


def card(title: str, parts: list[str], paper: str = PAPER) -> str:
    """A card face: rounded white blank, the drawing, then the border on top of it."""
    blank = element("rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=14, fill=paper)
    edge = element("rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=14, fill="none",
                   stroke=BORDER, stroke_width=2)
    return document(title, [blank, *parts, edge])


def star_points(cx: float, cy: float, outer: float, inner: float, tips: int,
                turn: float = -90) -> list[tuple[float, float]]:
    points = []
    for i in range(tips * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(turn + i * 180 / tips)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def tint(colour: str, paleness: float) -> str:
    """Mix a #rrggbb colour towards white; paleness 0 keeps it, 1 gives white."""
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(c + (255 - c) * paleness) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)


# ---------------------------------------------------------------- Somerset

SOMERSET_SUITS = (0, 2, 4, 6, 8, 10, 12)
SOMERSET_COUNT_POINTS = {"1/2": 1, "2/4": 1, "3/6": 1, "4/8": 2, "5/10": 2, "6/12": 2, "S/S": 3}
# One pale tint per suit, painted on the two side bands so a fanned hand reads by colour.
SOMERSET_TINTS = {
    "0": "#e1e4ea", "2": "#d3e4f6", "4": "#d6eed2", "6": "#f5eac2",
    "8": "#f8d9c4", "10": "#ecd3ec", "12": "#cdeaea", "S": "#f3e3b3",
}
BAND = 48  # width of the tinted side bands that carry the indices


def somerset_cards() -> list[tuple[str, str]]:
    cards = [(str(rank), str(suit)) for suit in SOMERSET_SUITS for rank in range(suit + 1)]
    return cards + [("S", "S")]


def somerset_title(rank: str, suit: str) -> str:
    if rank == "S":
        return "the S/S"
    if rank == suit == "0":
        return "0/0, the Rover"
    return f"{rank} of the /{suit} suit"


def side_bands(colour: str) -> list[str]:
    """Tinted strips down both long edges, rounded to follow the card's corners."""
    left = (f"M15,1 H{BAND} V349 H15 A14,14 0 0 1 1,335 V15 A14,14 0 0 1 15,1 Z")
    return [element("path", d=left, fill=colour), turned([element("path", d=left, fill=colour)])]


def fraction_bars(cx: float, y: float, width: float, thickness: float, doubled: bool,
                  colour: str) -> list[str]:
    """The fraction's bar; a double gets two bars, a gap the bar's own thickness apart."""
    if not doubled:
        return [element("rect", x=cx - width / 2, y=y - thickness / 2, width=width,
                        height=thickness, rx=thickness / 2, fill=colour)]
    offset = thickness * 0.9
    return [element("rect", x=cx - width / 2, y=y + shift - thickness * 0.35, width=width,
                    height=thickness * 0.7, rx=thickness * 0.35, fill=colour)
            for shift in (-offset, offset)]


def somerset_index(rank: str, suit: str, colour: str, doubled: bool) -> list[str]:
    cx = BAND / 2 + 0.5
    return [text(cx, 40, rank, 26, colour, id=READ + "index-rank"),
            *fraction_bars(cx, 49, 32, 4, doubled, colour),
            text(cx, 78, suit, 26, colour, id=READ + "index-suit")]


def points_badge(points: int) -> list[str]:
    """The count value in a red ring, in the left band under the index (and, turned, in
    the right band): where a fanned hand leaves it in view."""
    cx = BAND / 2 + 0.5
    badge = [element("circle", cx=cx, cy=112, r=17, fill=PAPER, stroke=RED, stroke_width=3),
             text(cx, 120, str(points), 21, RED, id=READ + "points")]
    return [*badge, turned(badge)]


def compass_rose(cx: float, cy: float, size: float) -> list[str]:
    """The Rover's mark: a faint eight-point rose behind its fraction."""
    faint, fainter = "#c5ccd9", "#e3e7ee"
    return [element("circle", cx=cx, cy=cy, r=size * 0.78, fill="none", stroke=faint,
                    stroke_width=3),
            polygon(star_points(cx, cy, size * 0.72, size * 0.2, 4, turn=-45), fill=fainter),
            polygon(star_points(cx, cy, size, size * 0.2, 4), fill=faint)]


def somerset_face(rank: str, suit: str) -> str:
    name = f"{rank}/{suit}"
    points = SOMERSET_COUNT_POINTS.get(name)
    colour = RED if points else INK
    doubled = rank == suit and rank != "S"
    parts = side_bands(SOMERSET_TINTS[suit])
    if rank == "S":
        parts.append(polygon(star_points(CENTRE_X, 178, 100, 42, 5), fill="#f6e7b8"))
    elif rank == "0" and suit == "0":
        parts += compass_rose(CENTRE_X, 178, 96)
    index = somerset_index(rank, suit, colour, doubled)
    parts += [*index, turned(index)]
    parts += [text(CENTRE_X, 158, rank, 88, colour, id=READ + "rank"),
              *fraction_bars(CENTRE_X, 182, 128, 10, doubled, colour),
              text(CENTRE_X, 270, suit, 88, colour, id=READ + "suit")]
    if points:
        parts += points_badge(points)
    caption = "ROVER" if rank == suit == "0" else "DOUBLE" if doubled else None
    if caption:
        parts.append(text(CENTRE_X, 322, caption, 14, colour, id=READ + "caption"))
    return card(somerset_title(rank, suit), parts)


# ---------------------------------------------------------------- Rook

ROOK_COLOURS = ("B", "R", "G", "Y")
ROOK_COLOUR_NAMES = {"B": "Black", "R": "Red", "G": "Green", "Y": "Yellow"}
ROOK_POINTS = {1: 15, 14: 10, 10: 10, 5: 5}
ROOK_BIRD_POINTS = 20
ROOK_PALETTE = {"B": "#1d1d1f", "R": "#cf2030", "G": "#1f8a3c", "Y": "#e3a700"}
# Okabe–Ito colours, chosen to stay apart under the common colour-vision deficiencies;
# each colour also carries its own shape so no one has to rely on hue at all.
ROOK_ACCESSIBLE_PALETTE = {"B": "#000000", "R": "#d55e00", "G": "#009e73", "Y": "#e69f00"}
ROOK_SYMBOLS = {"B": "circle", "R": "triangle", "G": "square", "Y": "diamond"}


def rook_cards() -> list[str]:
    return [f"{colour}{number}" for colour in ROOK_COLOURS for number in range(1, 15)] + ["ROOK"]


def rook_title(name: str) -> str:
    if name == "ROOK":
        return "the Rook"
    return f"{ROOK_COLOUR_NAMES[name[0]]} {name[1:]}"


def symbol(shape: str, cx: float, cy: float, size: float, colour: str) -> list[str]:
    """A colour's shape (circle, triangle, square, diamond) of about the same visual weight."""
    half = size / 2
    if shape == "circle":
        return [element("circle", cx=cx, cy=cy, r=half, fill=colour)]
    if shape == "square":
        side = size * 0.88
        return [element("rect", x=cx - side / 2, y=cy - side / 2, width=side, height=side,
                        fill=colour)]
    if shape == "triangle":
        return [polygon([(cx, cy - half * 1.1), (cx + half * 1.1, cy + half * 0.8),
                         (cx - half * 1.1, cy + half * 0.8)], fill=colour)]
    return [polygon([(cx, cy - half * 1.2), (cx + half, cy), (cx, cy + half * 1.2),
                     (cx - half, cy)], fill=colour)]


def rook_numeral_style(colour_letter: str, colour: str) -> dict:
    """Yellow on white needs a dark edge to stay readable; the others stand alone."""
    if colour_letter == "Y":
        return {"stroke": "#6e5200", "stroke_width": 1.2}
    return {}


def rook_index(name: str, colour: str, accessible: bool) -> list[str]:
    letter, number = name[0], name[1:]
    style = rook_numeral_style(letter, colour)
    size = 30 if len(number) == 2 else 34
    parts = [text(36, 50, number, size, colour, id=READ + "index", **style)]
    if accessible:
        parts += symbol(ROOK_SYMBOLS[letter], 36, 70, 16, colour)
    else:
        parts.append(element("rect", x=24, y=60, width=24, height=5, rx=2.5, fill=colour))
    return parts


def rook_face(name: str, accessible: bool) -> str:
    if name == "ROOK":
        return rook_bird_face()
    palette = ROOK_ACCESSIBLE_PALETTE if accessible else ROOK_PALETTE
    letter, number = name[0], int(name[1:])
    colour = palette[letter]
    index = rook_index(name, colour, accessible)
    parts = [element("rect", x=12, y=12, width=WIDTH - 24, height=HEIGHT - 24, rx=9,
                     fill="none", stroke=colour, stroke_width=3),
             *index, turned(index),
             element("circle", cx=CENTRE_X, cy=CENTRE_Y, r=82, fill=tint(colour, 0.85)),
             text(CENTRE_X, 216, str(number), 112 if number < 10 else 100, colour,
                  id=READ + "numeral", **rook_numeral_style(letter, colour))]
    if accessible:
        parts += symbol(ROOK_SYMBOLS[letter], CENTRE_X, 80, 26, colour)
    points = ROOK_POINTS.get(number)
    if points:
        parts.append(text(CENTRE_X, 290, f"{points} POINTS", 15, INK, id=READ + "points"))
    return card(rook_title(name), parts)


def rook_bird(ink: str = "#17171a") -> list[str]:
    """A rook in profile, facing left, in a 200 x 170 box: our own drawing."""
    body = ("M46,70 C52,46 84,40 112,48 C140,56 160,76 174,100 L204,128 C206,132 202,136 198,134"
            " L170,122 C150,138 118,146 92,140 C66,134 44,110 46,70 Z")
    head = element("circle", cx=58, cy=60, r=24, fill=ink)
    beak = element("path", d="M38,52 C26,54 14,60 2,70 C16,70 28,70 40,68 Z", fill="#3a3a40")
    wing = ("M86,78 C112,66 146,78 168,110 C150,116 128,116 108,108 C96,102 88,92 86,78 Z")
    legs = [element("path", d=d, fill="none", stroke=ink, stroke_width=4, stroke_linecap="round",
                    stroke_linejoin="round")
            for d in ("M104,140 L98,166 M98,166 L86,170 M98,166 L104,172",
                      "M124,140 L126,166 M126,166 L114,170 M126,166 L134,171")]
    return [*legs, element("path", d=body, fill=ink), head, beak,
            element("path", d=wing, fill="#4a4a55"),
            element("path", d="M112,92 C128,90 146,98 158,110", fill="none", stroke="#6a6a78",
                    stroke_width=2.5, stroke_linecap="round"),
            element("circle", cx=52, cy=54, r=6, fill=PAPER),
            element("circle", cx=50.5, cy=54, r=3, fill=ink)]


def rook_bird_face() -> str:
    corner = [text(40, 40, "ROOK", 14, INK, id=READ + "index-name"),
              text(40, 58, "20", 14, RED, id=READ + "index-points")]
    parts = [element("rect", x=12, y=12, width=WIDTH - 24, height=HEIGHT - 24, rx=9,
                     fill="none", stroke=INK, stroke_width=3),
             *corner, turned(corner),
             element("circle", cx=CENTRE_X, cy=160, r=90, fill="#e7ecf2"),
             placed(rook_bird(), 28, 78),
             text(CENTRE_X, 288, "ROOK", 34, INK, id=READ + "name"),
             text(CENTRE_X, 312, f"{ROOK_BIRD_POINTS} POINTS", 15, RED, id=READ + "points")]
    return card(rook_title("ROOK"), parts)


# ---------------------------------------------------------------- standard deck

STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
STANDARD_SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
RED_SUITS = ("H", "D")
GOLD = "#e0b23a"


def standard_cards() -> list[str]:
    return [rank + suit for suit in STANDARD_SUITS for rank in STANDARD_RANKS]


def standard_title(name: str) -> str:
    rank, suit = name[0], name[1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def suit_colour(suit: str) -> str:
    return RED if suit in RED_SUITS else INK


def suit_shape(suit: str, colour: str) -> list[str]:
    """The suit symbol drawn as paths, centred on the origin, about 100 units tall."""
    if suit == "H":
        return [element("path", fill=colour, d=(
            "M0,46 C-22,26 -50,6 -50,-16 C-50,-34 -38,-44 -25,-44 C-12,-44 -4,-36 0,-26"
            " C4,-36 12,-44 25,-44 C38,-44 50,-34 50,-16 C50,6 22,26 0,46 Z"))]
    if suit == "D":
        return [element("path", fill=colour, d=(
            "M0,-50 C10,-32 22,-16 36,0 C22,16 10,32 0,50 C-10,32 -22,16 -36,0"
            " C-22,-16 -10,-32 0,-50 Z"))]
    if suit == "S":
        return [element("path", fill=colour, d=(
            "M0,-50 C-20,-30 -48,-10 -48,12 C-48,28 -36,36 -24,36 C-14,36 -6,31 -3,24"
            " C-5,36 -10,44 -20,50 L20,50 C10,44 5,36 3,24 C6,31 14,36 24,36"
            " C36,36 48,28 48,12 C48,-10 20,-30 0,-50 Z"))]
    return [element("circle", cx=0, cy=-24, r=22, fill=colour),
            element("circle", cx=-24, cy=12, r=22, fill=colour),
            element("circle", cx=24, cy=12, r=22, fill=colour),
            element("path", fill=colour, d=(
                "M-8,-4 L8,-4 L8,14 C8,32 12,42 22,50 L-22,50 C-12,42 -8,32 -8,14 Z"))]


def pip(suit: str, x: float, y: float, scale: float, upside_down: bool = False) -> str:
    return placed(suit_shape(suit, suit_colour(suit)), x, y, scale, 180 if upside_down else 0)


# Pip centres for 2–10: three columns, rows spread from y=72 to y=278.
LEFT, MIDDLE, RIGHT = 78, 125, 172
TOP, BOTTOM = 72, 278
ROW_THIRD, ROW_TWO_THIRDS = 140.67, 209.33
PIP_LAYOUTS = {
    2: [(MIDDLE, TOP), (MIDDLE, BOTTOM)],
    3: [(MIDDLE, TOP), (MIDDLE, 175), (MIDDLE, BOTTOM)],
    4: [(LEFT, TOP), (RIGHT, TOP), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    5: [(LEFT, TOP), (RIGHT, TOP), (MIDDLE, 175), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    6: [(x, y) for y in (TOP, 175, BOTTOM) for x in (LEFT, RIGHT)],
    7: [(x, y) for y in (TOP, 175, BOTTOM) for x in (LEFT, RIGHT)] + [(MIDDLE, 123.5)],
    8: [(x, y) for y in (TOP, 175, BOTTOM) for x in (LEFT, RIGHT)]
       + [(MIDDLE, 123.5), (MIDDLE, 226.5)],
    9: [(x, y) for y in (TOP, ROW_THIRD, ROW_TWO_THIRDS, BOTTOM) for x in (LEFT, RIGHT)]
       + [(MIDDLE, 175)],
    10: [(x, y) for y in (TOP, ROW_THIRD, ROW_TWO_THIRDS, BOTTOM) for x in (LEFT, RIGHT)]
        + [(MIDDLE, 106.33), (MIDDLE, 243.67)],
}


def standard_index(rank: str, suit: str) -> list[str]:
    label = "10" if rank == "T" else rank
    size = 26 if label == "10" else 32
    return [text(25, 44, label, size, suit_colour(suit), id=READ + "index"), pip(suit, 25, 66, 0.2)]


def pip_body(rank: str, suit: str) -> list[str]:
    count = 10 if rank == "T" else int(rank)
    # Pips below the middle are printed upside down, as on a real card.
    return [pip(suit, x, y, 0.4, upside_down=y > CENTRE_Y) for x, y in PIP_LAYOUTS[count]]


def ace_body(suit: str) -> list[str]:
    scale = 1.35 if suit == "S" else 1.1
    parts = [pip(suit, CENTRE_X, CENTRE_Y, scale)]
    if suit == "S":  # the ace of spades keeps its traditional flourish: a ring round it
        parts.insert(0, element("circle", cx=CENTRE_X, cy=CENTRE_Y, r=88, fill="none",
                                stroke=INK, stroke_width=2))
    return parts


def headgear(rank: str) -> list[str]:
    """A crown for the King, a coronet for the Queen, a feathered cap for the Jack."""
    edge = {"stroke": INK, "stroke_width": 2.5, "stroke_linejoin": "round"}
    if rank == "K":
        return [polygon([(-38, 22), (-44, -18), (-22, 2), (0, -30), (22, 2), (44, -18),
                         (38, 22)], fill=GOLD, **edge),
                element("rect", x=-38, y=16, width=76, height=10, fill=GOLD, **edge)]
    if rank == "Q":
        tips = [(-36, -10), (-18, -22), (0, -28), (18, -22), (36, -10)]
        return [element("path", fill=GOLD, **edge, d=(
                    "M-38,22 L-36,-10 L-22,6 L-18,-22 L-8,2 L0,-28 L8,2 L18,-22 L22,6"
                    " L36,-10 L38,22 Z")),
                *[element("circle", cx=x, cy=y, r=5, fill=RED, **edge) for x, y in tips]]
    return [element("path", fill="#3b6fb6", **edge,
                    d="M-40,22 C-40,-10 -18,-22 4,-22 C26,-22 40,-8 40,22 Z"),
            element("path", fill=GOLD, **edge, d="M20,-16 C34,-44 52,-46 60,-40 C48,-34 36,-22 28,-8 Z"),
            element("rect", x=-42, y=16, width=84, height=9, fill=GOLD, **edge)]


def court_body(rank: str, suit: str) -> list[str]:
    colour = suit_colour(suit)
    return [element("rect", x=52, y=52, width=146, height=246, rx=10, fill=tint(colour, 0.92),
                    stroke=colour, stroke_width=3),
            element("rect", x=58, y=58, width=134, height=234, rx=7, fill="none",
                    stroke=colour, stroke_width=1),
            placed(headgear(rank), CENTRE_X, 106),
            text(CENTRE_X, 218, rank, 92, colour, id=READ + "rank"),
            pip(suit, CENTRE_X, 258, 0.36)]


def standard_face(name: str) -> str:
    rank, suit = name[0], name[1]
    index = standard_index(rank, suit)
    if rank == "A":
        body = ace_body(suit)
    elif rank in "JQK":
        body = court_body(rank, suit)
    else:
        body = pip_body(rank, suit)
    return card(standard_title(name), [*index, turned(index), *body])


# ---------------------------------------------------------------- the Parlour mark, backs, icon

def parlour_mark() -> list[str]:
    """Three fanned cards, the front one with a red heart; centred on the origin, ~100 wide."""
    def one_card(angle: float, fill: str) -> str:
        shape = element("rect", x=-22, y=-62, width=44, height=62, rx=6, fill=fill,
                        stroke=INK, stroke_width=2.5)
        return group([shape], transform=f"translate(0 30) rotate({num(angle)})")

    heart = placed(suit_shape("H", RED), 0, 0, 0.22)
    front = group([element("rect", x=-22, y=-62, width=44, height=62, rx=6, fill=PAPER,
                           stroke=INK, stroke_width=2.5),
                   placed([heart], 0, -31)], transform="translate(0 30)")
    return [one_card(-30, "#2f6db3"), one_card(30, GOLD), front]


def lattice(x0: float, y0: float, x1: float, y1: float, step: float, colour: str) -> list[str]:
    """Small diamonds on a grid, only those wholly inside the box (QtSvg lacks <pattern>)."""
    half = step / 2 - 1.5
    shapes = []
    rows = int((y1 - y0) // (step / 2))
    for row in range(rows + 1):
        cy = y0 + row * step / 2
        offset = 0 if row % 2 == 0 else step / 2
        cx = x0 + offset
        while cx <= x1:
            if x0 + half <= cx <= x1 - half and y0 + half <= cy <= y1 - half:
                shapes.append(polygon([(cx, cy - half), (cx + half, cy), (cx, cy + half),
                                       (cx - half, cy)], fill=colour))
            cx += step
    return shapes


def back(colour: str, title: str) -> str:
    inner = [element("rect", x=12, y=12, width=WIDTH - 24, height=HEIGHT - 24, rx=9, fill=colour),
             *lattice(20, 20, WIDTH - 20, HEIGHT - 20, 18, tint(colour, 0.22)),
             element("circle", cx=CENTRE_X, cy=CENTRE_Y, r=62, fill=colour),
             element("circle", cx=CENTRE_X, cy=CENTRE_Y, r=54, fill="#fbf7ee",
                     stroke=tint(colour, 0.5), stroke_width=4),
             placed(parlour_mark(), CENTRE_X, CENTRE_Y - 2, 0.8)]
    return card(title, inner)


ICON_SIZE = 256


def icon() -> str:
    size = ICON_SIZE
    parts = [element("rect", x=8, y=8, width=size - 16, height=size - 16, rx=44, fill="#1e5b45"),
             element("rect", x=18, y=18, width=size - 36, height=size - 36, rx=36, fill="none",
                     stroke="#2f7a5e", stroke_width=4),
             placed(parlour_mark(), size / 2, size / 2 + 6, 1.9)]
    return document("Parlour", parts, size, size)


# ---------------------------------------------------------------- writing the files

def all_files() -> dict[str, str]:
    """Every generated SVG by its path relative to assets/, in a fixed order."""
    files = {}
    for rank, suit in somerset_cards():
        files[f"cards/somerset/{rank}-{suit}.svg"] = somerset_face(rank, suit)
    for name in rook_cards():
        files[f"cards/rook/{name}.svg"] = rook_face(name, accessible=False)
        files[f"cards/rook-accessible/{name}.svg"] = rook_face(name, accessible=True)
    for name in standard_cards():
        files[f"cards/standard/{name}.svg"] = standard_face(name)
    files["cards/back-blue.svg"] = back("#1f4e8c", "Card back, blue")
    files["cards/back-red.svg"] = back("#a3212b", "Card back, red")
    files["icons/parlour.svg"] = icon()
    return files


def write_all(out_dir: pathlib.Path) -> int:
    files = all_files()
    for relative, content in files.items():
        path = out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))
    return len(files)


def render_icon_png(out_dir: pathlib.Path) -> pathlib.Path:
    """Rasterise the icon at 256 x 256 with QtSvg (the one step that needs PySide6)."""
    import os
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (keeps Qt alive)
    renderer = QSvgRenderer(str(out_dir / "icons/parlour.svg"))
    image = QImage(ICON_SIZE, ICON_SIZE, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    target = out_dir / "icons/parlour.png"
    image.save(str(target), "PNG")
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ASSETS_DIR,
                        help="directory to write cards/ and icons/ into (default: assets/)")
    parser.add_argument("--icon-png", action="store_true",
                        help="also render icons/parlour.png from the icon SVG (needs PySide6)")
    args = parser.parse_args(argv)
    count = write_all(args.out)
    print(f"wrote {count} SVG files under {args.out}")
    if args.icon_png:
        print(f"rendered {render_icon_png(args.out)}")


if __name__ == "__main__":
    main()
