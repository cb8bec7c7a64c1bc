"""``LocalSession``: "Play against the computer" — a table whose other seats are bots.

No network: the session owns an ``engine.Match`` and runs it on its own asyncio loop in
a background thread, exactly as a networked session would, so the app cannot tell the
difference. Commands from the GUI are posted onto the loop with
``call_soon_threadsafe``; bots decide on the loop after a short, natural pause per card
(``bot_delay`` seconds, 0 in tests); every change is reported through ``on_event`` with
the facade's event dicts (see ``net.sessions.facade``).
The "state" event is shaped by ``net.sessions.events``, as for the network sessions.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable

from engine import IllegalAction, Match, RecordError, make_game
from engine.bots import ALL_LEVELS
from engine.bots import make_bot as engine_bot
from engine.deal import derive_seed

from net.sessions.facade import EventCallback, Session
from net.sessions.events import hand_breakdown, state_event

log = logging.getLogger(__name__)

BOT_LEVELS = ALL_LEVELS  # "random", "easy", "normal", "hard"
DEFAULT_LEVEL = "normal"


def make_bot(level: str | None, seed: bytes):
    """A bot of ``level`` for one seat (an unknown level plays at the default)."""
    return engine_bot(level if level in BOT_LEVELS else DEFAULT_LEVEL, seed)


class LocalSession(Session):
    """You against bots on this machine, driven by the same events as a network table."""

    def __init__(self, on_event: EventCallback, settings: dict, name: str = "You", seat: int = 0,
                 level: str = DEFAULT_LEVEL, table_seed: bytes | None = None, bot_delay: float = 0.6,
                 autoplay: bool = False):
        super().__init__(on_event)
        self.settings = {"game": settings["game"], "ruleset": settings.get("ruleset"),
                         "mode": settings.get("mode"), "options": dict(settings.get("options") or {}),
                         "name": settings.get("name") or f"{name}'s table"}
        self.game = make_game(self.settings["game"], self.settings["ruleset"], self.settings["mode"],
                              self.settings["options"])
        self.settings["ruleset"] = self.game.ruleset.id
        self.settings["options"] = dict(self.game.options)
        self.name = name
        self.you = seat
        self.table_seed = table_seed or os.urandom(32)
        self.bot_delay = bot_delay
        self.autoplay = autoplay  # debug/soak: a bot plays your seat too
        self.seats = [self._bot_seat(s, level) for s in range(self.game.num_players)]
        self.seats[seat] = {"seat": seat, "name": name, "fingerprint": "", "kind": "human",
                            "level": None, "connected": True}
        self.table_options = {"live_scores": False, "game_log": False}
        self.match: Match | None = None
        self.last_hand = None
        self.games_started = 0
        self.bots: dict[int, object] = {}
        self._pending: set[int] = set()  # seats whose bot move is already scheduled
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="parlour-local", daemon=True)
        self.thread.start()
        self._post(self._emit_table)

    # -- the loop thread -----------------------------------------------------------
    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        self.loop.close()

    def _post(self, fn: Callable, *args) -> None:
        try:
            self.loop.call_soon_threadsafe(self._guarded, fn, *args)
        except RuntimeError:  # the session is closed; a late click changes nothing
            pass

    def _guarded(self, fn: Callable, *args) -> None:
        """Run a command; a bug becomes an "error" event instead of a dead session."""
        try:
            fn(*args)
        except Exception:  # report, keep the table alive
            log.exception("local table command failed")
            self._emit({"type": "error", "message": "Something went wrong inside Parlour "
                        "(the details are in its log); the game goes on."})

    def _emit(self, event: dict) -> None:
        self.on_event(event)

    def _bot_seat(self, seat: int, level: str) -> dict:
        return {"seat": seat, "name": f"Bot {seat + 1}", "fingerprint": "", "kind": "bot",
                "level": level, "connected": True}

    # -- commands (any thread) -------------------------------------------------------
    def sit(self, seat: int) -> None:
        self._post(self._sit, seat)

    def set_seat(self, seat: int, kind: str, level: str | None = None, player: str | None = None) -> None:
        self._post(self._set_seat, seat, kind, level)

    def start_game(self) -> None:
        self._post(self._start_game)

    def act(self, action: dict) -> None:
        self._post(self._act, self.you, dict(action))

    def set_table_option(self, name: str, value: bool) -> None:
        self._post(self._set_table_option, name, bool(value))

    def next_hand(self) -> None:
        self._post(self._next_hand)

    def rematch(self) -> None:
        self._post(self._rematch)

    def hint(self) -> None:
        """Ask a bot what it would do in your place: a "hint" event with one sentence."""
        self._post(self._hint)

    def stand_in(self, seat: int, bot: bool) -> None:
        """Nobody drops at a local table; nothing to do."""

    def close(self) -> None:
        if self.loop.is_closed():
            return
        self.on_event = lambda event: None
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout=5)

    # -- table setup (loop thread) -----------------------------------------------------
    def _emit_table(self) -> None:
        self._emit({"type": "table", "seats": [dict(s) for s in self.seats], "you": self.you,
                    "is_host": True, "settings": {**self.settings, "options": dict(self.settings["options"])},
                    "table_options": dict(self.table_options), "started": self.match is not None})

    def _sit(self, seat: int) -> None:
        if self.match is not None or not 0 <= seat < len(self.seats) or seat == self.you:
            return
        me = self.seats[self.you]
        self.seats[self.you] = self._bot_seat(self.you, self.seats[seat]["level"] or DEFAULT_LEVEL)
        self.you = seat
        self.seats[seat] = {**me, "seat": seat}
        self._emit_table()

    def _set_seat(self, seat: int, kind: str, level: str | None) -> None:
        if 0 <= seat < len(self.seats) and seat != self.you and kind in ("bot", "empty"):
            self.seats[seat] = self._bot_seat(seat, level or DEFAULT_LEVEL)
            self._emit_table()

    def _set_table_option(self, name: str, value: bool) -> None:
        if name in self.table_options:
            self.table_options[name] = value
            self._emit_table()

    def _start_game(self) -> None:
        if self.match is not None:
            return
        seed = derive_seed(self.table_seed, "game", self.games_started)
        self.games_started += 1
        self.match = Match(self.game, seed)
        self.bots = {s: make_bot(self.seats[s]["level"], derive_seed(seed, "bot", s))
                     for s in range(len(self.seats))}
        self._emit_table()
        self._deal()

    def _rematch(self) -> None:
        self.match = None
        self._start_game()

    def _next_hand(self) -> None:
        match = self.match
        if match is None or match.is_over or match.state is not None:
            return
        self._deal()

    def _deal(self) -> None:
        self._pending.clear()
        self.match.start_hand()
        self._after_change([])

    # -- play (loop thread) -----------------------------------------------------------
    def _act(self, seat: int, data: dict) -> None:
        state = self.match.state if self.match else None
        if state is None:
            self._emit({"type": "error", "message": "there is no hand in progress"})
            return
        try:
            action = self.game.action_from_json({**data, "seat": seat})
            if state.repeats(action):
                return  # a second "Got it": accepted, changes nothing
            events = state.apply(action)
        except (IllegalAction, RecordError) as exc:
            self._emit({"type": "error", "message": str(exc)})
            return
        self._after_change(events)

    def _after_change(self, events: list[dict]) -> None:
        state = self.match.state
        self._emit(self._state_event(state, events))
        if state.is_over:
            self._finish_hand()
        else:
            self._schedule_bots()

    def _finish_hand(self) -> None:
        self.last_hand = self.match.state  # kept for checking (tests, a future export)
        result = self.match.finish_hand()
        scores = list(self.match.scores)
        self._emit({"type": "hand_over", "scores": scores, "record_path": None,
                    "result": {"taken": list(result.taken), "made": result.made,
                               "score": list(result.score), "thrown_in": result.thrown_in},
                    "breakdown": hand_breakdown(self.last_hand)})
        if self.match.winner is not None:
            self._emit({"type": "game_over", "winner": self.match.winner, "scores": scores})

    def _state_event(self, state, events: list[dict]) -> dict:
        return state_event(self.game, state, self.you, events, self.match.scores, self.match.hand_number + 1)

    def _hint(self) -> None:
        state = self.match.state if self.match else None
        if state is None or self.you not in state.to_act():
            self._emit({"type": "hint", "text": "Nothing to decide just now."})
            return
        bot = make_bot(DEFAULT_LEVEL, derive_seed(self.table_seed, "hint", len(state.history)))
        explain = getattr(bot, "explain", None)
        if explain is None:
            return
        self._emit({"type": "hint", "text": explain(self.game, state.view(self.you))})

    # -- bots (loop thread) ------------------------------------------------------------
    def _is_bot(self, seat: int) -> bool:
        return seat != self.you or self.autoplay

    def _schedule_bots(self) -> None:
        state = self.match.state
        for seat in state.to_act():
            if self._is_bot(seat) and seat not in self._pending:
                self._pending.add(seat)
                delay = self.bot_delay * (2 if not state.trick and state.tricks else 1)
                token = (self.match.hand_number, len(state.history))
                self.loop.call_later(delay, self._guarded, self._bot_move, seat, token)

    def _bot_move(self, seat: int, token: tuple) -> None:
        self._pending.discard(seat)
        state = self.match.state if self.match else None
        if state is None or (self.match.hand_number, len(state.history)) != token:
            if state is not None:
                self._schedule_bots()  # the table moved on (Rook's "Got it"); decide afresh
            return
        if seat not in state.to_act():
            return
        action = self.bots[seat].choose(state, seat)
        events = state.apply(action)
        self._after_change(events)
