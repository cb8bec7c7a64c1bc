"""The lobby finding a real ``parlour host`` over mDNS — run *inside* a private network
namespace by test_app_lobby_netns.py, never on its own (it refuses to run elsewhere).

In the namespace there is only ``lo`` (multicast on), so the headless host advertises
and the window's lobby browses on 127.0.0.1 and nothing can reach a real interface.
Steps: the table appears in the lobby; joining it from the list seats us (the row then
shows one open seat fewer); the host stops and the row goes away. Then a second host is
killed (SIGKILL: no mDNS goodbye, its records stay in zeroconf's cache): its row says
"not answering" and cannot be joined, then leaves the list. Prints one JSON line with
what it saw; exit status 0 when every step happened.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO), str(HERE)]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TABLE = "Namespace table"
KILLED = "Killed table"
#: The lobby's checks of the tables it lists, quick (the app's are net.constants.ANSWER_*).
CHECKS = dict(every=0.5, again=0.2, timeout=1.0, misses=2, forget_after=2.0)


def links() -> list[str]:
    """The network interfaces this process can see (only ``lo`` in our namespace)."""
    return sorted(name for _, name in socket.if_nameindex())


def main(tmp: Path) -> int:
    if links() != ["lo"]:
        print(json.dumps({"ok": False, "why": f"not in a private namespace: {links()}"}))
        return 3
    import app  # noqa: F401  (the PySide6 refcount guard, as in the app)
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.settings import Settings
    from app.window import MainWindow
    from net.sessions.session import Lobby
    from net_kit import LoopbackNetwork

    qapp = QApplication.instance() or QApplication(["parlour-test"])
    settings = Settings.at(str(tmp / "parlour.ini"))
    settings.display_name = "Ann"
    seen: dict = {}

    def until(what: str, predicate, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; saw {seen}")
            QTest.qWait(20)

    from net.sessions.answering import CheckTimings

    def hosting(table: str, state: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "net.cli", "host", "--game", "rook", "--table", table,
             "--interface", "127.0.0.1", "--state-dir", str(tmp / state), "--quick", "--name", "Hostess"],
            cwd=str(REPO), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)})
    host = hosting(TABLE, "host")
    killed = None
    lobby_directory = Lobby(["127.0.0.1"], checks=CheckTimings(**CHECKS))
    window = MainWindow(settings, network=LoopbackNetwork(tmp, directory=lobby_directory),
                        bot_delay=0)
    try:
        window.show()
        started = time.monotonic()
        lobby = window.lobby

        def row():
            return next((t for t in lobby.tables if t.get("name") == TABLE), None)
        until("the table in the lobby", lambda: row() is not None)
        seen["appeared_after_ms"] = round((time.monotonic() - started) * 1000)
        seen["listed"] = lobby.list.item(0).text()
        seen["open_before"] = row()["open_seats"]
        lobby.list.setCurrentRow(lobby.tables.index(row()))
        QTest.mouseClick(lobby.join_button, Qt.LeftButton)
        until("a seat at the table", lambda: any(
            s["name"] == "Ann" for s in window.setup.table.get("seats") or []))
        seen["setup_title"] = window.setup.title.text()
        until("the lobby row to count one seat fewer",
              lambda: row() is not None and row()["open_seats"] == seen["open_before"] - 1)
        seen["open_after_join"] = row()["open_seats"]
        window.leave_table()
        host.send_signal(signal.SIGTERM)  # the host closes: its advert is withdrawn
        until("the table to leave the lobby", lambda: row() is None)
        seen["gone"] = True

        killed = hosting(KILLED, "killed")

        def killed_row():
            return next((t for t in lobby.tables if t.get("name") == KILLED), None)
        until("the second table, answering", lambda: (killed_row() or {}).get("answering"))
        lobby.list.setCurrentRow(lobby.tables.index(killed_row()))
        seen["joinable_before"] = lobby.join_button.isEnabled()
        killed.kill()  # SIGKILL: no goodbye
        killed.wait(10)
        at = time.monotonic()
        until("the killed host's row to say it does not answer",
              lambda: killed_row() is not None and killed_row()["answering"] is False)
        seen["marked_after_ms"] = round((time.monotonic() - at) * 1000)
        index = lobby.tables.index(killed_row())
        lobby.list.setCurrentRow(index)
        seen["marked"] = lobby.list.item(index).text()
        seen["joinable_after"] = lobby.join_button.isEnabled()
        until("the killed host's row to leave the list", lambda: killed_row() is None)
        seen["killed_gone_after_ms"] = round((time.monotonic() - at) * 1000)
        seen["ok"] = True
        print(json.dumps(seen), flush=True)
        return 0
    except AssertionError as exc:
        print(json.dumps({"ok": False, "why": str(exc)}), flush=True)
        return 1
    finally:
        window.close()
        for process in (host, killed):
            if process is not None and process.poll() is None:
                process.kill()
            if process is not None:
                process.wait(10)
        qapp.processEvents()


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
