"""What the host found on its way to the table (a ``notice``: "Found a table log that
cannot be resumed (…); kept it as …, and opened a new table") is shown on the table's
setup view, and stays there when the new table's seats come."""

from app.bridge import EventBridge
from app.setup_view import SetupView

NOTICE = {"type": "notice", "message": "Found a table log that cannot be resumed (hand 1 was dealt "
          "privately over edwards25519 by an older Parlour …); kept it as /x/table-1.db and "
          "opened a new table."}
TABLE = {"type": "table", "is_host": True, "you": 0, "started": False, "address": None,
         "settings": {"game": "rook", "name": "Kitchen"},
         "seats": [{"seat": 0, "kind": "human", "name": "Dad"}, {"seat": 1, "kind": "empty", "name": ""},
                   {"seat": 2, "kind": "empty", "name": ""}, {"seat": 3, "kind": "empty", "name": ""}]}


def test_a_notice_is_shown_and_stays_when_the_table_comes(qtbot):
    view = SetupView()
    qtbot.addWidget(view)
    bridge = EventBridge()
    view.attach(None, bridge)
    view.show()
    assert not view.notice.isVisible()
    bridge.notice.emit(NOTICE)
    bridge.table.emit(TABLE)
    assert view.notice.isVisible() and view.notice.text() == NOTICE["message"]
    assert view.title.text() == "Kitchen — Rook"  # (the table came)
    view.attach(None, EventBridge())  # another table: not its notice
    assert not view.notice.isVisible()
