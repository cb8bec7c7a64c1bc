"""What the window costs per change of state:
``python -m app.bench [--game G] [--ruleset R] [--mode M] [--hands N] [--size WxH]``.

A local table with bots in every seat (yours too, as in the soak test) plays HANDS
hands offscreen in a W×H window; it prints the CPU the table view spent in its
"state" events (``TableView.on_state``: everything a card played redraws) per state,
and the whole process's CPU per state (the bots and the engine, on the session's thread,
included). Compare the ratios between two trees, not the absolute figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import app  # noqa: E402,F401  (the PySide6 refcount guard)
from PySide6.QtWidgets import QApplication  # noqa: E402

from engine.registry import TITLES  # noqa: E402

TABLE_SEED = bytes(range(32))


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=TITLES, default=TITLES[0])
    parser.add_argument("--ruleset", help="the title's default if not given")
    parser.add_argument("--mode", help="the title's default if not given")
    parser.add_argument("--hands", type=int, default=15)
    parser.add_argument("--size", default="1280x800", help="the window's, WxH")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = arguments(argv)
    game, hands_wanted = args.game, args.hands
    width, height = (int(n) for n in args.size.split("x"))
    choices = {"game": game, **{k: v for k, v in (("ruleset", args.ruleset), ("mode", args.mode)) if v}}
    qapp = QApplication.instance() or QApplication([])
    home = tempfile.mkdtemp(prefix="parlour-bench-")
    os.environ["PARLOUR_HOME"] = home  # (before the window: its games go here, not to yours)
    from app.lobby import StaticDirectory
    from app.settings import Settings
    from app.table.table_view import TableView
    from app.window import MainWindow

    spent = [0.0, 0]
    on_state = TableView.on_state

    def timed(view: TableView, event: dict) -> None:
        start = time.process_time()
        on_state(view, event)
        spent[0] += time.process_time() - start
        spent[1] += 1
    setattr(TableView, "on_state", timed)  # (every state the window is sent passes here)

    settings = Settings.at(os.path.join(home, "parlour.ini"))
    settings.display_name, settings.animation = "Ann", "off"
    window = MainWindow(settings, directory=StaticDirectory(), bot_delay=0)
    window.table.last_trick_hold_ms = 0
    window.resize(width, height)
    window.show()
    session = window.start_local(choices, autoplay=True, table_seed=TABLE_SEED)
    hands: list[dict] = []
    bridge = window.bridge
    assert bridge is not None  # (start_local made it)
    bridge.hand_over.connect(hands.append)
    bridge.game_over.connect(lambda _: window.table.summary.rematch_button.click())
    start = time.process_time()
    session.start_game()
    while len(hands) < hands_wanted:
        qapp.processEvents()
        time.sleep(0.0005)  # (the bots play on the session's thread)
    total = time.process_time() - start
    states = max(spent[1], 1)
    print(f"{game} {width}x{height}: {len(hands)} hands, {spent[1]} states; the table view "
          f"{spent[0]:.2f} s = {1000 * spent[0] / states:.2f} ms a state; the whole process "
          f"{total:.2f} s = {1000 * total / states:.2f} ms a state")
    window.leave_table(to_lobby=False)


if __name__ == "__main__":
    main(sys.argv[1:])
