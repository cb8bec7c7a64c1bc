"""A guest's Parlour as its own process, for the rejoin-after-restart test
(test_app_rejoin.py): the real main window and the real network provider
(``net.sessions.network.Network``), with mDNS off (the table is reached by address only, as on
a network that blocks multicast) and everything kept in HOME (identity, settings, the
last table). Offscreen Qt; never run on its own.

    guest_app.py join HOME HOST:PORT   join by address (what the Join dialog does); print
                                       a JSON line per position; wait to be killed
    guest_app.py rejoin HOME           start as the app does (net loads after the window
                                       shows), click Rejoin in the lobby once it is
                                       offered, and print how long from the window showing
                                       to the offer and to the hand back on screen

Output: one JSON object per line on stdout.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1])]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

NAME = "Dad"


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


def main(mode: str, home: Path, address: str | None) -> int:
    import app  # noqa: F401  (the PySide6 refcount guard, as in the app)
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.settings import Settings
    from app.window import MainWindow

    def network():
        from net.sessions.network import Network
        return Network(interfaces=[], home=home)

    qapp = QApplication.instance() or QApplication(["parlour"])
    settings = Settings.at(str(home / "parlour.ini"))
    settings.display_name = NAME
    settings.animation = "off"
    window = MainWindow(settings, network_loader=network, bot_delay=0)
    table = window.table

    def report_state(event: dict) -> None:
        view = event.get("view") or {}
        say(event="state", hand=sorted(view.get("hand") or []), legal=len(event.get("legal") or []),
            hand_number=event.get("hand_number"), phase=view.get("phase"))

    if mode == "join":
        window.show()
        window.join(address)
        window.bridge.state.connect(report_state)
        return qapp.exec()

    window.show()
    shown = time.perf_counter()
    offered: list[float] = []

    def ms(since: float) -> int:
        return round((time.perf_counter() - since) * 1000)

    def watch() -> None:
        button = window.lobby.rejoin_button
        if not offered:
            if button.isVisible() and button.isEnabled():
                offered.append(ms(shown))
                say(event="offered", after_ms=offered[0], text=button.text())
                QTest.mouseClick(button, Qt.LeftButton)  # the one click
            return
        if window.stack.currentWidget() is table and table.hand.cards:
            timer.stop()
            say(event="rejoined", shown_to_offer_ms=offered[0], shown_to_hand_ms=ms(shown),
                hand=sorted(table.view.get("hand") or []), legal=len(table.legal))
            window.bridge.state.connect(report_state)
    timer = QTimer()
    timer.timeout.connect(watch)
    timer.start(10)
    return qapp.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
