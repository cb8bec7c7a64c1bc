"""What Grandma sees (issue 28, items 1, 5 and 9): the words and numbers on her cards in
full view at every card size and window size, cards that keep their size when a banner
shows over a decision, and the small things a person reads at the table.

Card text is measured, not assumed: every ``<text>`` of a card's SVG that is not turned
upside down (the copy at the bottom right) is a word or number a person reads; its box
as QtSvg lays it out, scaled to the card on screen, must lie left of where the next card
in the fan begins.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from PySide6.QtCore import QByteArray, QRectF
from PySide6.QtSvg import QSvgRenderer

from app.assets import card_file
from app.lobby import StaticDirectory
from app.settings import Settings
from app.window import MainWindow
from fit_kit import fit_problems
from fit_scenes import LONG_NAMES, TABLES, settle, sit_at, table_scenes

WINDOWS = [(1000, 620), (1600, 1000)]  # the smallest window the app allows, and a large one
SLACK = 0.5  # pixels of rounding


@lru_cache(maxsize=512)
def read_boxes(art: str, card: str) -> tuple[QRectF, ...]:
    """The boxes of the text a person reads on ``card``, in the card's own units (its
    viewBox, 250 wide): every text element but those turned upside down."""
    source = card_file(art, card).read_text()
    count = 0

    def named(match) -> str:
        nonlocal count
        count += 1
        return f'<text id="look-{count}"'
    renderer = QSvgRenderer(QByteArray(re.sub(r"<text\b", named, source).encode()))
    boxes = []
    for i in range(1, count + 1):
        turn = renderer.transformForElement(f"look-{i}")
        if turn.m11() < 0:  # the copy turned half round, at the bottom right
            continue
        boxes.append(turn.mapRect(renderer.boundsOnElement(f"look-{i}")))
    assert boxes, f"{art}/{card} has no text"
    return tuple(boxes)


def on_widget(widget, box: QRectF) -> QRectF:
    """A box in card units, where it is on ``widget`` (a CardWidget: its face drawn at
    the top, or below its lift while it lies down)."""
    scale = widget.face.width() / 250
    top = 0 if widget.is_up() else widget.lift
    return QRectF(box.x() * scale, top + box.y() * scale, box.width() * scale, box.height() * scale)


def covered_text(hand) -> list[str]:
    """Each card's text that the next card in the fan lies over, or that the hand's own
    edge cuts off: what a person sees cut in half."""
    problems = []
    widgets = hand.widgets
    for i, widget in enumerate(widgets):
        if widget.x() < -SLACK or widget.x() + widget.width() > hand.width() + SLACK:
            problems.append(f"{widget.card} at x={widget.x()} sticks out of the hand ({hand.width()} wide)")
        visible = widgets[i + 1].x() - widget.x() if i + 1 < len(widgets) else widget.width()
        for box in read_boxes(widget.deck.art, widget.card):
            right = on_widget(widget, box).right()
            if right > visible + SLACK:
                problems.append(f"{widget.card} ({widget.width()} px wide): text up to {right:.1f} px, "
                                f"the next card from {visible} px")
    return problems


@pytest.fixture
def make_window(qtbot, tmp_path):
    made = []

    def make(card_size: str = "medium", colour_blind: bool = False, size=(1000, 620)) -> MainWindow:
        settings = Settings.at(str(tmp_path / f"look-{len(made)}.ini"))
        settings.display_name = LONG_NAMES[0]
        settings.animation = "off"
        settings.card_size = card_size
        settings.colour_blind_rook = colour_blind
        window = MainWindow(settings, directory=StaticDirectory(TABLES), bot_delay=0)
        window.table.last_trick_hold_ms = 0
        qtbot.addWidget(window)
        window.show()
        window.resize(*size)
        settle()
        made.append(window)
        return window
    yield make
    for window in made:
        window.leave_table(to_lobby=False)


# the moments with the most cards in hand (the kitty, the widow or the left-over card
# taken), and play (the cards you may play lifted), for every title and deck
CROWDED = ["rook-bury", "somerset-discard", "horseshoes-leftover", "rook-play", "somerset-play",
           "horseshoes-play"]


def scenes(names: list[str]):
    return [scene for scene in table_scenes() if scene[0] in names]


@pytest.mark.parametrize("card_size", ["small", "medium", "large"])
def test_every_number_on_every_card_in_your_hand_is_in_full_view(make_window, card_size):
    """Issue 28, item 1: with Large cards the next card hid half of each big number
    ("10" read "1(", "15 POINTS" read "15 POIN")."""
    problems = []
    for colour_blind in (False, True):
        window = make_window(card_size, colour_blind)
        for size in WINDOWS:
            window.resize(*size)
            settle()
            for name, settings, until, mine, dealer in scenes(CROWDED):
                if colour_blind and settings["game"] != "rook":
                    continue
                sit_at(window, settings, until, mine, dealer)
                settle()
                hand = window.table.hand
                assert hand.widgets, name
                where = f"{name} {card_size}{' colour-blind' if colour_blind else ''} {size[0]}×{size[1]}"
                problems += [f"{where}: {p}" for p in covered_text(hand)]
    assert not problems, "\n".join(problems)


def test_a_new_card_is_marked_without_covering_its_numbers(make_window):
    """Issue 28, item 9: the NEW tag on the cards just taken covered their numbers. What
    the tag changes on a card (pixels, the card drawn with and without it) must lie
    outside the card's text, whether the card lies down or is picked (lifted)."""
    problems = []
    for size, card_size in ((1000, 620), "large"), ((1600, 1000), "medium"):
        window = make_window(card_size, size=size)
        for name, settings, until, mine, dealer in scenes(["rook-bury", "somerset-discard",
                                                            "horseshoes-leftover"]):
            sit_at(window, settings, until, mine, dealer)
            hand = window.table.hand
            marked = hand.cards[::3]
            for picked in (False, True):
                hand.set_selecting(len(marked))
                hand.selected = list(marked) if picked else []
                hand.mark_new(())
                hand._refresh()
                plain = {card: hand.widget_for(card).grab().toImage() for card in marked}
                hand.mark_new(marked)
                settle()
                for card in marked:
                    widget = hand.widget_for(card)
                    tagged = widget.grab().toImage()
                    for box in read_boxes(widget.deck.art, card):
                        rect = on_widget(widget, box).toAlignedRect().intersected(widget.rect())
                        changed = [(x, y) for x in range(rect.left(), rect.right() + 1)
                                   for y in range(rect.top(), rect.bottom() + 1)
                                   if tagged.pixel(x, y) != plain[card].pixel(x, y)]
                        if changed:
                            problems.append(f"{name} {card} {'picked' if picked else 'down'}: the tag "
                                            f"covers its text at {changed[0]} ({len(changed)} pixels)")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("card_size", ["medium", "large"])
def test_cards_keep_their_size_under_a_banner_and_get_it_back_after(make_window, card_size):
    """Issue 28, item 5: at 1000×620 a banner over a bid, raise or bury panel shrank the
    cards to about 35 px, and they stayed so after the banner was dismissed."""
    window = make_window(card_size)
    table = window.table
    problems = []
    for name, settings, until, mine, dealer in scenes(["rook-bid", "rook-raise", "rook-bury",
                                                        "somerset-discard"]):
        sit_at(window, settings, until, mine, dealer)
        assert table.decision.isVisible(), name

        def width() -> int:
            settle()
            return table.hand.widgets[0].width()
        before = width()
        table.hand_voided("Uncle Bartholomew Jr. left and did not come back in time",
                          "the cards are dealt again")
        under = width()
        # a big numeral of 24 px or more, every word on the table fitting
        if under < 60:
            problems.append(f"{name}: the cards shrank to {under} px under the banner")
        problems += [f"{name}, under the banner: {p}" for p in fit_problems(window) + covered_text(table.hand)]
        table.notice.dismiss.click()
        after = width()
        if after != before:
            problems.append(f"{name}: {before} px before the banner, {after} px after it went")
    assert not problems, "\n".join(problems)
