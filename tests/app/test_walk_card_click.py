"""The walk of a guest's card from the click (``net.tools.walk_card`` with the app's part):
the table view shows what the guest's session said, and a mouse click on the offered card
is traced down to the session call and on to every peer's check.

Run with ``-s`` to see the walk's report (docs/benchmarks.md quotes the app's part)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.bridge import EventBridge
from app.table.table_view import TableView
from net.tools import walk_card


def clicking(qtbot, settings):
    """The ``click`` for ``walk_card.walk``: a table view showing the guest's events, and
    the mouse click on the card it is offered."""
    def ready(seat: walk_card.Seat, action: dict):
        view = TableView(settings)
        qtbot.addWidget(view)
        bridge = EventBridge()
        view.attach(seat.session, bridge)
        for event in list(seat.events.events):
            bridge.deliver(event)
        card = action["play"]
        qtbot.waitUntil(lambda: card in view.hand.cards and any(e.get("play") == card for e in view.legal))
        return lambda: qtbot.mouseClick(view.hand.widget_for(card), Qt.LeftButton)
    return ready


def test_a_click_on_the_offered_card_reaches_the_session_and_every_peer(qtbot, settings):
    result = walk_card.walk("rook", click=clicking(qtbot, settings))
    app = result.parts[0]
    assert {"app/table/card_widget.py", "app/table/hand_widget.py", "app/table/table_view.py",
            "net/sessions/session.py"} <= app.files
    assert ("app/table/table_view.py", "net/sessions/session.py") in app.arrows
    assert ("net/sessions/session.py", "GuestSession.act") in app.functions
    # and on from there: the other guest checked the card the click played
    assert ("net/trust/peer/replica.py", "PeerReplica.receive") in result.parts[-1].functions
    walk_card.report(result)
    print(f"  the app's part: files {len(app.files)}, distinct arrows {len(app.arrows)}, "
          f"cross-file calls {app.calls}")
    for (a, b), n in sorted(app.arrows.items()):
        print(f"    {n:4}  {a} -> {b}")
