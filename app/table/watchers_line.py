"""The line under the table's bar that says who watches ("Watching: Leo, Maya"), and the
*Watchers* menu button beside the Talk button.

Drawn from the session's "watchers" events (and, for a watcher, its "shown" events). The
line shows only while someone watches (the table's room is the cards'); the button —
which the table puts in its status row, so it costs no height — shows whenever its menu
holds something, and the menu's entries depend on who you are:

* a seated player: *Show my cards to Leo* for each watcher (checked while you show them);
* the host, besides, from the moment the table opens (before anyone watches too): *Ask
  Leo to stop watching*, *Invite a watcher from another house…* (a code, as for a seat),
  *Let people watch* on or off, and *How many may watch* (the cap);
* a watcher: no menu — the line says you watch, and whose cards you are shown.

The commands go to the session (``show_hand``, ``remove_watcher``, ``set_watching``);
the line itself holds no state beyond the last events.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMenu, QPushButton

from app.menus import keep_inside_window
from net.api import MAX_WATCHERS

CAPS = (1, 2, 4, 8, 12, 16)  # the host's choices of how many may watch at once


def watching_text(event: dict, shown: dict[int, str]) -> str:
    """The line's words: who watches, and (a watcher) what you are shown."""
    names = [w["name"] for w in event.get("watchers") or []]
    if event.get("you_watch"):
        words = "You are watching this table"
        if shown:
            words += " · " + " · ".join(shown[s] for s in sorted(shown))
        others = len(names) - 1
        return words + (f" (with {others} other{'s' if others != 1 else ''})" if others > 0 else "")
    if not names:
        return ""
    return "Watching: " + ", ".join(names)


class WatchersLine(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("watchersLine")
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 0, 10, 0)
        self.label = QLabel()
        self.label.setObjectName("watchingLabel")
        row.addWidget(self.label, 1)
        # (a push button: the theme's secondary look; laid out by the table, in its status row)
        self.button = QPushButton("Watchers")
        self.button.setObjectName("watchersMenu")
        self.button.setProperty("role", "secondary")
        self.button.setProperty("compact", True)
        self.button.setToolTip("Who may watch, and your cards shown to someone watching")
        self.button.setFocusPolicy(Qt.TabFocus)
        self.button.hide()
        self.menu = QMenu(self.button)
        self.button.setMenu(self.menu)
        keep_inside_window(self.menu, self.button)  # (the button sits at the window's right edge)
        self.session = None
        self.bridge = None
        self.invite_dialog = None
        self.event: dict = {}
        self.shown: dict[int, str] = {}  # (a watcher) seat -> "Grandma is showing you her cards"
        self.is_host = False  # the "table" event's: the host's entries too
        self.hide()

    def set_host(self, is_host: bool) -> None:
        if is_host != self.is_host:
            self.is_host = is_host
            self.redraw()

    def attach(self, session, bridge) -> None:
        self.session, self.bridge, self.event, self.shown, self.is_host = session, bridge, {}, {}, False
        self.hide()
        self.button.hide()
        if hasattr(bridge, "watchers"):
            bridge.watchers.connect(self.on_watchers)
            bridge.shown.connect(self.on_shown)

    def on_watchers(self, event: dict) -> None:
        self.event = event
        self.redraw()

    def on_shown(self, event: dict) -> None:
        if event.get("showing"):
            self.shown[event["seat"]] = event["text"]
        else:
            self.shown.pop(event["seat"], None)
        self.redraw()

    def redraw(self) -> None:
        text = watching_text(self.event, self.shown)
        self.label.setText(text)
        self._fill_menu()
        self.button.setVisible(not self.menu.isEmpty())
        self.setVisible(bool(text))  # only while someone watches: the table's room is the cards'

    def _fill_menu(self) -> None:
        self.menu.clear()
        session, event = self.session, self.event
        if session is None or event.get("you_watch"):
            return
        showing = set(event.get("showing") or [])
        for watcher in event.get("watchers") or []:
            fp, name = watcher["fingerprint"], watcher["name"]
            if callable(getattr(session, "show_hand", None)):
                show = QAction(f"Show my cards to {name}", self.menu)
                show.setObjectName(f"show-{fp}")
                show.setCheckable(True)
                show.setChecked(fp in showing)
                show.toggled.connect(lambda on, fp=fp: session.show_hand(fp, on))
                self.menu.addAction(show)
            if self.is_host:
                remove = QAction(f"Ask {name} to stop watching", self.menu)
                remove.setObjectName(f"remove-{fp}")
                remove.triggered.connect(lambda _=False, fp=fp: session.remove_watcher(fp))
                self.menu.addAction(remove)
        if self.is_host and callable(getattr(session, "set_watching", None)):
            self.menu.addSeparator()
            if callable(getattr(session, "invite_watcher", None)):
                invite = QAction("Invite a watcher from another house…", self.menu)
                invite.setObjectName("inviteWatcher")
                invite.triggered.connect(self._invite)
                self.menu.addAction(invite)
            allow = QAction("Let people watch", self.menu)
            allow.setObjectName("allowWatching")
            allow.setCheckable(True)
            allow.setChecked(bool(event.get("open", True)))
            allow.toggled.connect(lambda on: session.set_watching(on))
            self.menu.addAction(allow)
            self._cap_menu(session, bool(event.get("open", True)), int(event.get("cap", MAX_WATCHERS)))

    def _cap_menu(self, session, open_: bool, cap: int) -> None:
        """*How many may watch*: the host's cap, one of ``CAPS`` (or the one it has)."""
        caps = self.menu.addMenu("How many may watch")
        caps.setObjectName("watcherCap")
        keep_inside_window(caps, self.menu, within=self.button)  # (to the menu's left)
        caps.setEnabled(open_)
        for choice in sorted({*CAPS, cap}):
            action = caps.addAction(f"At most {choice}")
            action.setObjectName(f"cap-{choice}")
            action.setCheckable(True)
            action.setChecked(choice == cap)
            action.triggered.connect(lambda _=False, n=choice: session.set_watching(True, n))

    def _invite(self) -> None:
        """A code for someone in another house to watch (``houses_dialogs.InviteDialog``)."""
        from app.houses_dialogs import InviteDialog
        self.invite_dialog = InviteDialog(self.session, self.bridge, None, "", self.window())
        self.invite_dialog.open()
