"""Start the desktop app: ``main(argv)`` creates the QApplication and shows the lobby.

One copy per identity (``single_instance``): a second start brings the first window
forward and stops. ``--autoplay`` (a debug aid) lets a bot play your seat at a local
table.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from app.assets import app_icon
from app.settings import FirstStartDialog, Settings
from app.single_instance import SingleInstance, identity_key


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    app = QApplication.instance() or QApplication(["parlour", *argv])
    app.setApplicationName("Parlour")
    app.setOrganizationName("Parlour")
    app.setWindowIcon(app_icon())
    instance = SingleInstance(identity_key(), app)
    if not instance.claim():
        return 0  # Parlour runs already with this identity: its window came forward
    settings = Settings()
    settings.apply_houses()  # the servers for playing across houses (net.houses: light)
    if not settings.has_name and FirstStartDialog(settings).exec() == 0:
        return 0  # closed the welcome dialog: nothing to show
    from app.window import MainWindow, default_network
    # net (zeroconf, cryptography) loads just after the window shows: see MainWindow.
    window = MainWindow(settings, network_loader=default_network)
    window.debug_autoplay = "--autoplay" in argv
    instance.come_forward.connect(window.come_forward)
    window.show()
    return app.exec()
