"""Write PNGs of the main screens: ``python -m app.screenshots OUTDIR``.

Each table scene is a real engine hand, driven by bots (and a few scripted choices for
seat 0, "you") up to the moment worth showing, then fed to the table through the same
event path a session uses. Nothing here touches the network.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import app  # noqa: E402,F401  (the PySide6 refcount guard)
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from engine import make_game  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from net.api import hand_breakdown, state_event, takeover_event  # noqa: E402

from app.host_dialog import HostDialog  # noqa: E402
from app.lobby import StaticDirectory  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.window import MainWindow  # noqa: E402

SEED = bytes(range(32))
NAMES = ["Ann", "Grandpa", "Maya", "Uncle Joe"]
TABLES = [
    {"id": "1", "name": "Kitchen table", "game": "rook", "ruleset": "rook", "mode": None, "host": "Dad",
     "fingerprint": "3f9a", "open_seats": 2, "in_game": False, "address": "192.168.1.20", "port": 4871,
     "protocol": 1},
    {"id": "2", "name": "Sunday Somerset", "game": "somerset", "ruleset": "kitty-doubled", "mode": None,
     "host": "Grandma", "fingerprint": "b27c", "open_seats": 1, "in_game": False, "address": "192.168.1.31",
     "port": 4871, "protocol": 1},
    {"id": "3", "name": "Den", "game": "horseshoes", "ruleset": "horseshoes", "mode": "partners", "host": "Maya",
     "fingerprint": "77d0", "open_seats": 0, "in_game": True, "address": "192.168.1.44", "port": 4871,
     "protocol": 1},
]


class StubSession:
    """Accepts the table's commands and does nothing: the scenes are fed by hand."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


FINGERPRINTS = ["3f9a", "b27c", "77d0", "c41e"]


def table_event(game, settings: dict, options: dict | None = None) -> dict:
    """A family table: four people (the setup screenshot shows the computer players)."""
    seats = [{"seat": s, "name": NAMES[s], "fingerprint": FINGERPRINTS[s], "kind": "human", "level": None,
              "connected": True} for s in range(game.num_players)]
    return {"type": "table", "seats": seats, "you": 0, "is_host": True, "settings": settings,
            "table_options": {"live_scores": False, "game_log": False, **(options or {})}, "started": True}


def drive(game, state, until, mine=None, seed: int = 7):
    """Bots act (seat 0 through ``mine`` when given) until ``until(state)`` holds."""
    bot = RandomBot(seed)
    while not state.is_over and not until(state):
        seat = state.to_act()[0]
        action = mine(state) if seat == 0 and mine else None
        state.apply(action or bot.choose(state, seat))
    return state


class Shooter:
    def __init__(self, outdir: Path):
        self.outdir = outdir
        self.app = QApplication.instance() or QApplication([])
        scratch = Path(tempfile.mkdtemp())
        # The game against the computer keeps its log in the data directory: a scratch
        # one here, never the user's (nor a game of theirs offered in the lobby shot).
        os.environ["PARLOUR_HOME"] = str(scratch / "home")
        settings = Settings.at(str(scratch / "shots.ini"))
        settings.display_name = "Ann"
        settings.animation = "off"
        self.directory = StaticDirectory(TABLES)
        self.window = MainWindow(settings, directory=self.directory, bot_delay=0)
        self.window.table.last_trick_hold_ms = 0  # the summary at once: each scene is one moment
        self.window.resize(1280, 820)
        self.window.show()

    def settle(self) -> None:
        for _ in range(5):
            self.app.processEvents()

    def save(self, widget: QWidget, name: str) -> None:
        self.settle()
        widget.grab().save(str(self.outdir / f"{name}.png"))
        print(self.outdir / f"{name}.png")

    # -- scenes ------------------------------------------------------------------------
    def lobby(self) -> None:
        self.window.stack.setCurrentWidget(self.window.lobby)
        self.settle()  # the directory's list arrives through the event bridge
        self.window.lobby.list.setCurrentRow(0)
        self.save(self.window, "lobby")

    def host_dialog(self) -> None:
        dialog = HostDialog("Ann", parent=self.window)
        dialog.select_game("horseshoes")
        dialog.show()
        self.save(dialog, "host-dialog")
        dialog.close()

    def setup(self) -> None:
        self.window.start_local({"game": "rook"})
        self.app.processEvents()
        import time
        for _ in range(100):  # the session answers from its thread
            self.settle()
            if self.window.setup.start_button.isEnabled():
                break
            time.sleep(0.01)
        self.save(self.window, "table-setup")
        self.window.leave_table()

    def table(self, settings: dict, state, name: str | None, game, scores=None, events=(), hand_number=3,
              options: dict | None = None):
        bridge = self.window.new_bridge()
        self.window.table.attach(StubSession(), bridge)
        self.window.stack.setCurrentWidget(self.window.table)
        bridge.deliver(table_event(game, {**settings, "name": "Kitchen table"}, options))
        scores = scores or [0] * game.num_sides
        bridge.deliver(state_event(game, state, 0, [], scores, hand_number))
        for event in events:
            bridge.deliver(event)
        if name:
            self.save(self.window, name)
        return bridge

    def scene(self, settings: dict, until, name: str, mine=None, dealer: int = 0, **kw):
        game = make_game(settings["game"], settings.get("ruleset"), settings.get("mode"), settings.get("options"))
        state = drive(game, game.deal(SEED, dealer), until, mine)
        return self.table(settings, state, name, game, **kw), game, state


def ace_declared(state) -> bool:
    """An ace declared high or low is on the trick (Horseshoes), and it is your turn."""
    played = state.history[len(state.history) - len(state.trick):] if state.trick else []
    return 0 in state.to_act() and any(action.extra for action in played)


def my_turn(phase: str):
    return lambda s: s.phase == phase and 0 in s.to_act()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    outdir = Path(argv[0] if argv else "screenshots")
    outdir.mkdir(parents=True, exist_ok=True)
    shot = Shooter(outdir)
    shot.lobby()
    shot.host_dialog()
    shot.setup()
    shot.scene({"game": "somerset"}, my_turn("bidding"), "bid-somerset", dealer=2, scores=[18, 7])
    shot.scene({"game": "rook"}, my_turn("bidding"), "bid-rook", dealer=1, scores=[120, 85])
    shot.scene({"game": "horseshoes", "mode": "four"}, my_turn("bidding"), "bid-horseshoes", dealer=3)
    pass_all = lambda s: next((a for a in s.legal_actions(0) if a.kind == "pass"), None)  # noqa: E731
    shot.scene({"game": "rook"}, my_turn("widow"), "rook-widow", mine=pass_all, dealer=1)
    take_it = lambda s: next((a for a in s.legal_actions(0) if a.kind == "bid" and a.value == 24), None)  # noqa: E731
    shot.scene({"game": "somerset", "ruleset": "widow-doubled"}, my_turn("trump"), "somerset-trump",
               mine=take_it, dealer=3)
    mid = lambda s: s.phase == "play" and 0 in s.to_act() and len(s.trick) >= 2  # noqa: E731
    shot.scene({"game": "somerset"}, mid, "mid-trick", dealer=1, scores=[31, 22])
    shot.scene({"game": "horseshoes", "mode": "four"}, ace_declared, "ace-declared", dealer=0,
               scores=[2, 5, 1, 3], options={"game_log": True})
    finish(shot)
    return 0


def finish(shot: Shooter) -> None:
    """Hand summary, game over, integrity alert, reconnecting."""
    settings = {"game": "rook"}
    game = make_game("rook")
    state = drive(game, game.deal(SEED, 0), lambda s: False)
    result = state.result()
    hand_over = {"type": "hand_over", "record_path": None,
                 "result": {"taken": list(result.taken), "made": result.made, "score": list(result.score),
                            "thrown_in": result.thrown_in},
                 "breakdown": hand_breakdown(state)}
    # Hand 3 of a game still under way: the totals stay below 500.
    before = [[120, 85], [250, 130]]
    totals = [250 + result.score[0], 130 + result.score[1]]
    bridge = shot.table(settings, state, None, game, scores=before[-1], hand_number=3)
    shot.window.table.history = [list(h) for h in before]
    bridge.deliver({**hand_over, "scores": totals})
    shot.save(shot.window, "hand-summary")
    # Hand 4 takes Team B past 500: the session sends the summary, then game over,
    # exactly as a real table does.
    before = [[120, 85], [250, 130], [330, 410]]
    totals = [330 + result.score[0], 410 + result.score[1]]
    bridge = shot.table(settings, state, None, game, scores=before[-1], hand_number=4)
    shot.window.table.history = [list(h) for h in before]
    bridge.deliver({**hand_over, "scores": totals})
    bridge.deliver({"type": "game_over", "winner": 1 if totals[1] >= totals[0] else 0, "scores": totals})
    shot.save(shot.window, "game-over")
    mid = lambda s: s.phase == "play" and 0 in s.to_act() and len(s.trick) >= 1  # noqa: E731
    alert = {"type": "alert", "seat": 3, "rule": "a card was played that was not in the committed deal",
             "detail": "Uncle Joe's play of R9 does not match the hand revealed at the end of hand 3.",
             "evidence_path": "~/.local/share/parlour/evidence/hand-3.json"}
    shot.scene({"game": "rook"}, mid, "integrity-alert", dealer=2, events=[alert])
    waiting = {"type": "connection", "seat": 2, "state": "reconnecting",
               "detail": "Maya's computer stopped answering 6 seconds ago. Her seat is held."}
    shot.scene({"game": "rook"}, mid, "waiting-for-player", dealer=2, events=[waiting])
    dropped = {"type": "connection", "seat": 0, "state": "reconnecting", "attempt": 2, "attempts": 5,
               "detail": "The connection to Kitchen table dropped. Your seat is held while we try again."}
    shot.scene({"game": "rook"}, mid, "reconnecting", dealer=2, events=[dropped])
    searching = takeover_event("searching", "Grandpa", "", None, None)
    shot.scene({"game": "rook"}, mid, "takeover-searching", dealer=2, events=[searching])
    carried = takeover_event("done", "Grandpa", "Maya", 2, "", departed_seat=1)
    shot.scene({"game": "rook"}, my_turn("bidding"), "takeover", dealer=1, scores=[120, 85],
               events=[carried])
    later = lambda s: s.phase == "play" and 0 in s.to_act() and len(s.tricks) >= 4 and len(s.trick) >= 2  # noqa: E731
    shot.scene({"game": "rook"}, later, "live-scores-and-log", dealer=2, scores=[215, 160],
               options={"live_scores": True, "game_log": True})


if __name__ == "__main__":
    sys.exit(main())
