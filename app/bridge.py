"""Session events → Qt signals, delivered on the GUI thread.

A ``Session`` calls ``on_event`` on its own (asyncio) thread. Widgets must only be
touched on the GUI thread, so ``EventBridge.deliver`` — the callback handed to the
session — does nothing but emit a signal. The bridge lives in the GUI thread, so Qt
queues that emission and the connected slots run later in the GUI event loop.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal, Slot

from net.api import EVENTS

# One signal per event type the facade defines (net/sessions/facade.py: EVENTS).
EVENT_TYPES = tuple(EVENTS)


class EventBridge(QObject):
    """One per session (or table directory). Connect to ``event`` or to a typed signal."""

    # Emitted from any thread; carries the raw event dict across to the GUI thread.
    _incoming = Signal(object)

    event = Signal(object)  # every event, in order, on the GUI thread
    tables = Signal(object)
    rejoin = Signal(object)  # the lobby's offer to rejoin the last table (or None)
    table = Signal(object)
    state = Signal(object)
    hand_over = Signal(object)
    game_over = Signal(object)
    connection = Signal(object)
    alert = Signal(object)
    error = Signal(object)
    hint = Signal(object)  # a session that can advise: {"type": "hint", "text": str}
    waiting = Signal(object)  # the deal waits for someone's shuffle: {"detail": str, …}
    readmit = Signal(object)  # host: a new key asks for an away player's seat
    notice = Signal(object)  # something to know that is not a problem
    takeover = Signal(object)  # the host left for good: who carries the table on
    invite = Signal(object)  # host: a code for a player in another house, and what became of it
    watchers = Signal(object)  # who watches the table ("Watching: Leo, Maya"), on every change
    shown = Signal(object)  # (a watcher) a player shows you their cards, or stops
    talk = Signal(object)  # table talk: a message, a reaction, a mute or a refusal

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.closed = False
        # A queued connection even when the sender is the GUI thread itself: a session
        # answering synchronously must not re-enter the widget that called it.
        self._incoming.connect(self._dispatch, Qt.QueuedConnection)

    def deliver(self, event: dict) -> None:
        """The ``on_event`` callback: safe to call from any thread."""
        if not self.closed:
            self._incoming.emit(event)

    def close(self) -> None:
        """Ignore anything a closing session still sends."""
        self.closed = True

    @Slot(object)
    def _dispatch(self, event: dict) -> None:
        if self.closed:
            return
        self.event.emit(event)
        kind = event.get("type")
        if kind in EVENT_TYPES:
            getattr(self, kind).emit(event)
