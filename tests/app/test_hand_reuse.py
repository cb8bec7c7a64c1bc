"""Your hand keeps the widget of each card it still holds: a card played or discarded
takes only its own widget away, a card taken (the kitty, a new deal) gets one, and
only a new deck or card size makes them all again. Whatever is reused, the hand shows
exactly the cards it holds, each with its own state (lifted, dimmed and why, picked)."""

from __future__ import annotations

import pytest

from app import assets
from app.table.card_widget import CardWidget
from app.table.hand_widget import HandWidget
from engine import make_game

ROOK = make_game("rook").info
DEAL = ["R1", "R5", "R9", "G2", "G7", "B3", "B12", "Y4", "Y14", "ROOK"]


@pytest.fixture
def hand(qtbot):
    widget = HandWidget(assets.deck_for(ROOK), 84)
    qtbot.addWidget(widget)
    widget.resize(1000, 200)
    widget.show()
    widget.set_cards(list(DEAL))
    return widget


def shown_cards(hand: HandWidget) -> list[str]:
    """The cards on screen, left to right: every card widget in the hand not hidden
    (one let go is hidden at once, freed later)."""
    shown = [w for w in hand.findChildren(CardWidget) if not w.isHidden()]
    return [w.card for w in sorted(shown, key=lambda w: w.x())]


def test_a_card_played_takes_only_its_own_widget(hand):
    before = dict(zip(hand.cards, hand.widgets))
    hand.set_cards([c for c in DEAL if c != "G7"])
    assert all(hand.widget_for(card) is before[card] for card in hand.cards), \
        "a card still held was given a new widget"
    assert before["G7"].isHidden(), "the played card's widget is still on screen"
    assert shown_cards(hand) == [c for c in DEAL if c != "G7"]


def test_a_new_deal_shows_exactly_the_new_cards(hand):
    new_deal = ["R1", "R2", "G7", "G8", "B1", "Y4", "Y5", "Y6", "R14", "B9"]  # some held before
    hand.set_cards(new_deal)
    assert [w.card for w in hand.widgets] == new_deal
    assert shown_cards(hand) == new_deal
    assert len(set(map(id, hand.widgets))) == len(new_deal)


def test_a_new_card_size_draws_every_card_again(hand):
    before = list(hand.widgets)
    hand.set_cards(list(DEAL), card_width=100)
    assert not set(before) & set(hand.widgets)
    assert {w.width() for w in hand.widgets} == {100}
    assert shown_cards(hand) == DEAL


def test_a_kept_widget_shows_its_cards_state_now(hand, qtbot):
    """After a card is played the next turn's legal cards are lifted and the rest dimmed
    with their reason — on the widgets kept from the turn before."""
    hand.set_playable({"R1", "R5"}, {c: "follow red" for c in DEAL if c not in ("R1", "R5")})
    assert hand.widget_for("G2").dimmed and "follow red" in hand.widget_for("G2").toolTip()
    held = [c for c in DEAL if c != "R5"]
    hand.set_cards(held)
    hand.set_playable({"G2", "G7"}, {c: "follow green" for c in held if c not in ("G2", "G7")})
    assert hand.widget_for("G2").playable and not hand.widget_for("G2").dimmed
    assert hand.widget_for("G2").toolTip() == "Green 2"
    assert hand.widget_for("R1").dimmed and "follow green" in hand.widget_for("R1").toolTip()


def test_picked_cards_and_the_cursor_stay_on_cards_still_held(hand):
    hand.setFocus()
    hand.set_selecting(2)
    hand.choose("B3")
    hand.choose("Y4")
    hand.cursor = hand.cards.index("Y4")
    hand.set_cards([c for c in DEAL if c != "B3"])
    assert hand.selected == ["Y4"]
    assert hand.widget_for("Y4").selected and not any(
        w.selected for w in hand.widgets if w.card != "Y4")
    assert hand.cards[hand.cursor] == "Y4"


def test_every_state_is_shown_though_parts_left_alone_skip_their_redraw(qtbot, window):
    """The plates, the bar and the hand skip a redraw when what they say is the same:
    at every state of two local hands each still says what that state says."""
    from app_driver import TABLE_SEED
    from app.table.trick_area import relative_position
    from app.table.viewmodel import points
    seen, wrong, hands = [], [], []
    session = window.start_local({"game": "rook"}, autoplay=True, table_seed=TABLE_SEED)
    table = window.table

    def check(event: dict) -> None:  # (connected after the table: it has redrawn by now)
        view = event.get("view") or {}
        if not view:
            return
        seen.append(event)
        data = table.data
        for seat, left in enumerate(view.get("cards_left") or []):
            plate = table.my_panel if relative_position(seat, data.you, data.players) == "bottom" \
                else table.panels[relative_position(seat, data.you, data.players)]
            if f"{left} card" not in plate.detail.variants[0]:
                wrong.append((len(seen), seat, left, plate.detail.variants[0]))
            if plate.property("turn") != (seat in (view.get("to_act") or [])):
                wrong.append((len(seen), seat, "turn", plate.property("turn")))
        tip = table.bar.score_label.toolTip()
        if not all(f": {points(s)}" in tip for s in data.scores):
            wrong.append((len(seen), "scores", data.scores, tip))
        if sorted(table.hand.cards) != sorted(view.get("hand") or []):
            wrong.append((len(seen), "hand", table.hand.cards, view.get("hand")))
        if shown_cards(table.hand) != table.hand.cards:
            wrong.append((len(seen), "shown", shown_cards(table.hand), table.hand.cards))

    window.bridge.state.connect(check)
    window.bridge.hand_over.connect(hands.append)
    session.start_game()
    qtbot.waitUntil(lambda: len(hands) >= 2)
    assert len(seen) > 50 and wrong == [], wrong[:5]
