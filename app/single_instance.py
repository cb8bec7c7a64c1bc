"""One Parlour per identity: a second start brings the first window forward.

Two copies of the app with one identity (started twice, or from a menu and a terminal)
would both take the same seat at a table, each taking it from the other on every
reconnection. So the first copy of an identity listens on a local socket named after
its key's fingerprint (``QLocalServer``; a file only this user may open, in the temp
directory on Linux, a named pipe on Windows); a later start with that identity finds it
there, asks it to come forward, and stops. A socket left by a copy that crashed answers
nobody: it is removed and listened on afresh.

(One identity on two computers — a copied data directory — cannot be seen here; the host
turns the second connection for a seat away: ``net.sessions.arrivals``.)
"""

from __future__ import annotations

import hashlib
import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

ANSWER_WITHIN_MS = 500  # a live first copy answers a local socket at once
COME_FORWARD = b"come forward\n"


def identity_key(home=None) -> str:
    """What names this installation's identity: its key's fingerprint, or — when the
    key cannot be read (the app says so later, where it uses the key) — its data
    directory."""
    from net.api import IdentityError, data_dir, load_identity
    try:
        return load_identity(home).fingerprint.replace("-", "")
    except (IdentityError, OSError, ValueError):
        return hashlib.sha256(str(data_dir(home).resolve()).encode()).hexdigest()[:16]


class SingleInstance(QObject):
    """``claim()``: True for the first copy of an identity (it listens from then on, and
    emits ``come_forward`` when a later start asks), False for a later one (the first
    has been asked to come forward)."""

    come_forward = Signal()

    def __init__(self, key: str, parent: QObject | None = None):
        super().__init__(parent)
        self.name = f"parlour-{key}"
        self.server: QLocalServer | None = None

    def claim(self) -> bool:
        if self._ask_the_first():
            return False
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.UserAccessOption)
        if not server.listen(self.name):
            QLocalServer.removeServer(self.name)  # left by a copy that crashed
            if not server.listen(self.name):
                if self._ask_the_first():  # another copy was starting at the same moment
                    return False
                log.warning("cannot listen for another start of Parlour (%s): %s",
                            self.name, server.errorString())
                return True  # this copy plays on; only the check is lost
        server.newConnection.connect(self._asked)
        self.server = server
        return True

    def _ask_the_first(self) -> bool:
        socket = QLocalSocket(self)
        socket.connectToServer(self.name)
        if not socket.waitForConnected(ANSWER_WITHIN_MS):
            return False
        socket.write(COME_FORWARD)
        socket.waitForBytesWritten(ANSWER_WITHIN_MS)
        socket.disconnectFromServer()
        return True

    def _asked(self) -> None:
        """A later start connected: it says "come forward" as soon as it has, so its
        words are read here and then (no socket outlives this call)."""
        while self.server is not None and self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            said = bytes(socket.readAll())
            while COME_FORWARD not in said and socket.waitForReadyRead(ANSWER_WITHIN_MS):
                said += bytes(socket.readAll())
            socket.abort()
            socket.deleteLater()
            if COME_FORWARD in said:
                log.info("Parlour was started again with this identity: this window comes forward")
                self.come_forward.emit()

    def release(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
