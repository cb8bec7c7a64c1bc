"""Every screen and dialog of the app, set up for a look: the scenes
tests/app/test_app_fit.py checks at the smallest and a large window size.

Table scenes are real engine hands driven by bots (and a few scripted choices for
seat 0, "you") to the moment worth looking at, fed to the table through the same
events a session sends; long player names, because short ones hide clipping.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.screenshots import StubSession, drive
from engine import make_game
from net.sessions.events import hand_breakdown, state_event

SEED = bytes(range(32))
LONG_NAMES = ["Grandma Josephine-Marie", "Uncle Bartholomew Jr.", "Cousin Maximilian", "Aunt Philippa Rose"]
SHORT_NAMES = ["Jo", "Bo", "Cy", "Di"]  # short names make narrow panels: lines must fit those too
FINGERPRINTS = ["3f9a", "b27c", "77d0", "c41e"]
TABLES = [
    {"id": "1", "name": "The long kitchen table at Grandma's house", "game": "horseshoes",
     "ruleset": "horseshoes", "mode": "partners", "host": LONG_NAMES[0], "fingerprint": "3f9a",
     "open_seats": 2, "in_game": False, "address": "192.168.1.20", "port": 4871, "protocol": 1},
    {"id": "2", "name": "Sunday Somerset", "game": "somerset", "ruleset": "widow-keep", "mode": None,
     "host": LONG_NAMES[1], "fingerprint": "b27c", "open_seats": 0, "in_game": True,
     "address": "192.168.1.31", "port": 4871, "protocol": 1, "watchable": True},
]


def settle(app=None) -> None:
    app = app or QApplication.instance()
    for _ in range(4):
        app.processEvents()


def table_event(game, settings: dict, kinds=None, is_host=True, you=0, started=True, options=None,
                names=LONG_NAMES) -> dict:
    kinds = kinds or ["human"] * game.num_players
    seats = []
    for seat, kind in enumerate(kinds):
        seats.append({"seat": seat, "name": "" if kind == "empty" else names[seat],
                      "fingerprint": FINGERPRINTS[seat] if kind == "human" else "", "kind": kind,
                      "level": "hard" if kind == "bot" else None, "connected": kind != "empty"})
    return {"type": "table", "seats": seats, "you": you, "is_host": is_host,
            "settings": {**game.key(), "name": "The long kitchen table at Grandma's house"},
            "table_options": {"live_scores": True, "game_log": True, **(options or {})},
            "started": started}


def my_turn(phase: str):
    return lambda s: s.phase == phase and 0 in s.to_act()


def choose(kind: str, **match):
    """Seat 0's scripted choice: its first legal action of ``kind`` (matching ``match``)."""
    def pick(state):
        for action in state.legal_actions(0):
            if action.kind == kind and all(getattr(action, k) == v for k, v in match.items()):
                return action
        return None
    return pick


def sit_at(window, settings: dict, until, mine=None, dealer: int = 0, hand_number: int = 3,
           scores=None, **table_kw):
    """The window's table showing ``settings``' hand at the first moment ``until`` holds."""
    game = make_game(settings["game"], settings.get("ruleset"), settings.get("mode"), settings.get("options"))
    state = drive(game, game.deal(SEED, dealer), until, mine)
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver(table_event(game, settings, **table_kw))
    bridge.deliver(state_event(game, state, 0, [], scores or [0] * game.num_sides, hand_number))
    settle()
    return bridge, game, state


def deliver_hand_over(bridge, game, state, before: list[int]) -> list[int]:
    """The finished ``state`` as the table sees a hand end: its last state, then the
    hand-over event with the engine's breakdown; the totals after it."""
    result = state.result()
    totals = [a + b for a, b in zip(before, result.score)]
    bridge.deliver(state_event(game, state, 0, [], before, 4))
    bridge.deliver({"type": "hand_over", "scores": totals, "record_path": None,
                    "result": {"taken": list(result.taken), "made": result.made,
                               "score": list(result.score), "thrown_in": result.thrown_in},
                    "breakdown": hand_breakdown(state)})
    settle()
    return totals


GAMES = [
    {"game": "somerset"},
    {"game": "somerset", "ruleset": "widow-keep"},
    {"game": "rook"},
    {"game": "horseshoes", "mode": "three", "options": {"leftover": "dealer"}},
    {"game": "horseshoes", "mode": "four"},
    {"game": "horseshoes", "mode": "partners"},
]


def table_scenes():
    """(name, settings, until, mine, dealer) for the decisions and moments of play."""
    return [
        ("somerset-bid", {"game": "somerset"}, my_turn("bidding"), None, 2),
        ("somerset-discard", {"game": "somerset"}, my_turn("kitty"), choose("bid", value=24), 3),
        ("somerset-trump", {"game": "somerset", "ruleset": "widow-doubled"}, my_turn("trump"),
         choose("bid", value=24), 3),
        ("somerset-play", {"game": "somerset"},
         lambda s: s.phase == "play" and 0 in s.to_act() and len(s.trick) >= 2, None, 1),
        ("rook-bid", {"game": "rook"}, my_turn("bidding"), None, 1),
        ("rook-raise", {"game": "rook"}, my_turn("raise"), choose("bid"), 3),
        ("rook-widow", {"game": "rook"}, my_turn("widow"), choose("pass"), 1),
        ("rook-bury", {"game": "rook"}, my_turn("bury"), choose("bid"), 3),
        ("rook-play", {"game": "rook"},
         lambda s: s.phase == "play" and 0 in s.to_act() and len(s.tricks) >= 4 and len(s.trick) >= 2, None, 2),
        ("horseshoes-leftover", {"game": "horseshoes", "mode": "three", "options": {"leftover": "dealer"}},
         my_turn("leftover"), None, 0),
        ("horseshoes-first-bid", {"game": "horseshoes", "mode": "four"}, my_turn("bidding"), None, 3),
        ("horseshoes-play", {"game": "horseshoes", "mode": "partners"},
         lambda s: s.phase == "play" and 0 in s.to_act() and len(s.trick) >= 1, None, 2),
    ]


def finished(settings: dict, dealer: int = 0):
    game = make_game(settings["game"], settings.get("ruleset"), settings.get("mode"), settings.get("options"))
    for attempt in range(20):  # a hand that is played (not thrown in)
        state = drive(game, game.deal(bytes([attempt]) * 32, dealer), lambda s: False)
        if not state.result().thrown_in:
            return game, state
    raise AssertionError("every hand was thrown in")
