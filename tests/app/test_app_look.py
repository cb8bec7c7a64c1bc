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
from PySide6.QtCore import QByteArray, QPoint, QRectF
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QLabel

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


# -- item 9: words and small things --------------------------------------------------------

def test_messages_say_what_is_wrong_in_words_not_addresses_or_keys():
    """"Locked with their key" and a raw ws://…/v1 address meant nothing to a person."""
    from net import houses
    from net.houses.links import mailbox_unreachable

    def unreachable_message() -> str:
        return str(mailbox_unreachable())
    from net.sessions.events import away_event
    try:
        houses.configure()  # the default invitation service
        assert "ws://" not in unreachable_message() and "/v1" not in unreachable_message()
        houses.configure("ws://cards.example.org:4000/v1")  # one of the family's own: its name
        said = unreachable_message()
        assert "cards.example.org" in said and "ws://" not in said and ":4000" not in said, said
    finally:
        houses.configure()
    detail = away_event(["Dad"], [2], 30.0)["detail"]
    assert "key" not in detail and detail == "Waiting for Dad to come back — only their computer knows their cards"


def seat_rows_text(setup) -> str:
    return " ".join(label.text() for label in setup.findChildren(QLabel) if label.isVisible())


def test_a_key_fingerprint_is_shown_where_it_is_checked_not_on_every_line(make_window):
    """The host's key: beside Join for the table picked in the lobby, and once under the
    seats (the host reads it out, a guest compares) — not on every seat and lobby line."""
    from engine import make_game
    from fit_scenes import FINGERPRINTS, table_event
    from app.screenshots import StubSession
    window = make_window(size=(1600, 1000))
    lobby = window.lobby
    rows = [lobby.list.itemWidget(lobby.list.item(i)) for i in range(lobby.list.count())]
    shown = " ".join(label.text() for row in rows for label in row.findChildren(QLabel))
    assert rows and not any(t["fingerprint"] in shown for t in TABLES), shown
    assert not lobby.host_key.isVisible()
    lobby.list.setCurrentRow(0)
    assert lobby.host_key.isVisible() and TABLES[0]["fingerprint"] in lobby.host_key.text()
    game = make_game("rook")
    for is_host, you in ((True, 0), (False, 2)):
        bridge = window.new_bridge()
        window.setup.attach(StubSession(), bridge)
        window.stack.setCurrentWidget(window.setup)
        event = {**table_event(game, {"game": "rook"}, is_host=is_host, you=you, started=False),
                 "host_seat": 0, **({"address": "192.168.1.20:4871"} if is_host else {})}
        bridge.deliver(event)
        settle()
        note = window.setup.key_note.text()
        assert window.setup.key_note.isVisible() and FINGERPRINTS[0] in note, note
        assert note.startswith("Your key") if is_host else note.startswith(f"{LONG_NAMES[0]}'s key")
        names = " ".join(window.setup.findChild(QLabel, f"seatName-{s}").text() for s in range(4))
        assert not any(fp in names for fp in FINGERPRINTS), names
        # the host's seat, in a guest's list, is the host's
        if not is_host:
            assert "Host" in [label.text() for label in window.setup.findChildren(QLabel)]


def test_the_contract_reads_the_same_on_the_hosts_screen_and_a_guests(make_window):
    """"Uncle bid 100" on the host's bar (narrower: its address) against "Contract 100 —
    Uncle" on a guest's: one wording, whatever the width."""
    from engine import make_game
    from fit_scenes import table_event
    from net.sessions.events import state_event
    from app.screenshots import StubSession
    game = make_game("rook")
    state = game.deal(bytes(32), 1)
    while state.phase == "bidding":
        state.apply(next(a for a in state.legal_actions(state.to_act()[0]) if a.kind == "bid"))
        if state.phase == "bidding":
            state.apply(next(a for a in state.legal_actions(state.to_act()[0]) if a.kind == "pass"))
    bidder = state.view(0)["contract"]["bidder"]
    amount = state.view(0)["contract"]["amount"]
    forms = set()
    for size in WINDOWS:
        for is_host in (True, False):
            window = make_window(size=size)
            bridge = window.new_bridge()
            window.table.attach(StubSession(), bridge)
            window.stack.setCurrentWidget(window.table)
            bridge.deliver({**table_event(game, {"game": "rook"}, is_host=is_host),
                            **({"address": "192.168.1.20:47311"} if is_host else {})})
            bridge.deliver(state_event(game, state, 0, [], [0, 0], 3, deal="private"))
            settle()
            shown = window.table.bar.contract_label.text()
            match = re.fullmatch(r"(.+) bid (\d+)", shown)
            assert match and LONG_NAMES[bidder].startswith(match[1].rstrip("…")) \
                and int(match[2]) == amount, (size, is_host, shown)
            forms.add(re.sub(r"^.+ bid", "NAME bid", shown))
    assert len(forms) == 1, forms


def test_scores_below_zero_have_one_minus_sign_everywhere(make_window):
    """"-120" beside "−120": the bar, the summary's totals and its chart say "−120"."""
    from fit_scenes import GAMES, deliver_hand_over, finished, table_event
    from app.screenshots import StubSession
    window = make_window(size=(1600, 1000))
    game, state = finished({"game": "rook"})
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver(table_event(game, {"game": "rook"}))
    totals = deliver_hand_over(bridge, game, state, [-300, -120])
    settle()
    texts = [window.table.bar.score_label.text()] + \
        [label.text() for label in window.table.summary.findChildren(QLabel) if label.isVisible()]
    assert any("\u2212" in t for t in texts), texts
    hyphen = [t for t in texts if re.search(r"(?<![\w>])-\d", t)]
    assert not hyphen, hyphen
    assert min(totals) < 0 and window.table.summary.summary.chart.history[-1] == totals


def test_a_hint_points_at_its_card_or_button(make_window):
    """The Hint named a card without pointing at it: now its card says HINT in your hand
    (the cursor on it: Enter plays it), or its button takes the focus."""
    from net.sessions.events import hint_event
    window = make_window(size=(1600, 1000))
    table = window.table
    for name, settings, until, mine, dealer in scenes(["rook-play", "rook-bid", "rook-bury"]):
        bridge, game, state = sit_at(window, settings, until, mine, dealer)
        hint = hint_event(game, state, 0, "look")
        assert hint["action"] is not None, name
        bridge.deliver(hint)
        settle()
        action = hint["action"]
        cards = [action["play"]] if "play" in action else list(action.get("bury") or [])
        hinted = [w.card for w in table.hand.widgets if w.hinted]
        assert sorted(hinted) == sorted(cards), (name, action, hinted)
        if "play" in action:
            assert table.hand.cards[table.hand.cursor] == action["play"] and table.hand.hasFocus()
            assert table.hand.widget_for(action["play"]).tag() == ("HINT", "#1565c0")
        if "bid" in action:
            focused = window.focusWidget()
            assert focused is table.decision.buttons[f"bid-{action['bid']}"], (action, focused)
    # the next position: the hint was for the last one
    bridge, game, state = sit_at(window, {"game": "rook"}, lambda s: s.phase == "play" and 0 in s.to_act())
    assert not any(w.hinted for w in table.hand.widgets)


def test_a_finished_trick_marks_the_card_that_took_it(make_window):
    window = make_window(size=(1600, 1000))
    sit_at(window, {"game": "rook"},
           lambda s: s.phase == "play" and len(s.tricks) >= 2 and not s.trick and 0 in s.to_act())
    trick = window.table.trick
    last = window.table.view["tricks"][-1]
    assert trick.faded and trick.winner == last["winner"]
    took = next(card for seat, card in last["cards"] if seat == last["winner"])
    assert f"{trick._spoken(took)} (took the trick)" in trick.accessibleDescription()
    image = trick.grab().toImage()
    gold = sum(1 for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)
               if image.pixelColor(x, y).name() == "#f4c430")
    assert gold > 40, f"no gold ring round the winning card ({gold} gold pixels)"


def test_an_empty_table_name_says_what_the_table_is_called(qtbot):
    from app.host_dialog import HostDialog
    dialog = HostDialog("Grandma")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.name_edit.setText("")
    assert dialog.name_note.isVisible() and "“Grandma's table”" in dialog.name_note.text()
    assert dialog.settings()["name"] == "Grandma's table"


def test_small_print_is_not_small(make_window):
    """12 px words on the player plates and under the rules' names, 40 px cards in the
    summary: now the table's own size (11 pt), and the hidden cards 64 px wide."""
    from PySide6.QtGui import QFontInfo
    from app.host_dialog import HostDialog
    from fit_scenes import deliver_hand_over, finished, table_event
    from app.screenshots import StubSession
    window = make_window(size=(1600, 1000))
    sit_at(window, {"game": "rook"}, lambda s: s.phase == "play" and 0 in s.to_act())
    sizes = {label.objectName(): QFontInfo(label.font()).pixelSize()
             for label in window.table.findChildren(QLabel)
             if label.objectName() in ("seatDetail", "seatBid", "scoreLabel") and label.isVisible()}
    assert sizes and min(sizes.values()) >= 14, sizes
    dialog = HostDialog("Grandma", parent=window)
    dialog.show()
    settle()
    blurb = dialog.summary
    assert blurb.text() and QFontInfo(blurb.font()).pixelSize() >= 14, QFontInfo(blurb.font()).pixelSize()
    dialog.close()
    game, state = finished({"game": "rook"})
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver(table_event(game, {"game": "rook"}))
    deliver_hand_over(bridge, game, state, [0, 0])
    strip = window.table.summary.summary.hidden_cards
    assert strip.isVisible() and strip.cards and strip.card_width >= 64


def contrast(a, b) -> float:
    def luminance(colour) -> float:
        def channel(c: float) -> float:
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_selected_lobby_row_keeps_its_words_readable(make_window):
    """Light green words on an olive selection: the selected row's words must stand out
    from its background (contrast 4.5:1, the WCAG's for text)."""
    from PySide6.QtGui import QColor
    window = make_window(size=(1600, 1000))
    lobby = window.lobby
    lobby.list.setCurrentRow(0)
    settle()
    rect = lobby.list.visualItemRect(lobby.list.item(0))
    image = window.grab().toImage()  # (the whole window: the felt shows through the list)
    spot = lobby.list.viewport().mapTo(window, rect.bottomLeft()) + QPoint(rect.width() // 2, -4)
    row = lobby.list.itemWidget(lobby.list.item(0))
    seats = row.findChild(QLabel, "lobbySeats")
    background = image.pixelColor(spot)  # below the words, inside the selected row
    words = QColor(seats.palette().color(seats.foregroundRole()))
    assert contrast(words, background) >= 4.5, (words.name(), background.name(), contrast(words, background))


def test_the_lock_by_the_games_name_says_what_it_means(make_window):
    from engine import make_game
    from fit_scenes import table_event
    from net.sessions.events import state_event
    from app.screenshots import StubSession
    window = make_window(size=(1000, 620))
    game = make_game("rook")
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver(table_event(game, {"game": "rook"}))
    for deal, word in (("private", "Private"), ("private, held by the host", "Not private"),
                       ("seeded", "Not private")):
        bridge.deliver(state_event(game, game.deal(bytes(32), 1), 0, [], [0, 0], 1, deal=deal))
        settle()
        lock = window.table.bar.deal_button
        assert lock.isVisible() and lock.text() == word and lock.width() >= lock.sizeHint().width()
    assert fit_problems(window.table.bar) == []
