"""The app's one door into the network layer: commands in, events out.

The Qt client never touches sockets, asyncio or the engine's replicas directly. It
holds a ``Session`` and

* calls its command methods from any thread (each is posted to the session's own
  asyncio loop, which runs in a background thread and never blocks the GUI);
* receives events, plain dicts, through the ``on_event`` callback it passed in. The
  callback is called on the session's thread; the app re-posts each event to the GUI
  thread (a Qt signal with a queued connection does exactly that).

Actions are given in hand-record form without the seat (the session knows whose seat
is yours): ``{"bid": 14}``, ``{"play": "8/8"}``, ``{"play": "AS", "ace": "high"}``,
``{"bury": ["R5", …], "trump": "G"}``.

Events (``type`` first; every field plain JSON-able values)::

  {"type": "tables", "tables": [TableInfo, …]}           lobby list, whole list each time
      TableInfo = {"id", "name", "game", "ruleset", "mode", "host", "fingerprint",
                   "open_seats", "in_game", "address", "port", "protocol"}
  {"type": "rejoin", "table": LastTable | None}          lobby: the table this key holds a
      seat at, reachable now (net/sessions/last_table.py fields + "where": "network" | "address")
  {"type": "table", "seats": [SeatInfo, …], "you": seat | None, "is_host": bool,
   "settings": {"game", "ruleset", "mode", "options", "name"},
   "table_options": {"live_scores": bool, "game_log": bool}, "started": bool,
   "address": "192.168.1.20:47311"}                      address: a network host's only,
      what others type in Join by address
      SeatInfo = {"seat", "name", "fingerprint", "kind": "human" | "bot" | "empty",
                  "level": str | None, "connected": bool}
  {"type": "state", "view": <engine State.view(you)>, "events": [engine events],
   "scores": [per side], "hand_number": int, "legal": [action dicts for you]}
  {"type": "hand_over", "result": {"taken", "made", "score", "thrown_in"},
   "scores": [per side], "record_path": str | None, "breakdown": dict | None}
      ``breakdown``: how the hand was scored and the cards it kept hidden until now
      (``engine.scoring.breakdown``); None for a hand thrown in
  {"type": "game_over", "winner": side, "scores": [per side]}
  {"type": "connection", "seat": int, "state": "connected" | "reconnecting" | "dropped"
   | "stand_in" | "readmitted", "detail": str, "attempt": int, "attempts": int | None}
      "reconnecting" is your own link coming back: ``attempt`` of ``attempts`` (None:
      no limit) — optional; "stand_in": a bot plays a dropped seat for now;
      "readmitted": "Dad's seat was given to a new key (fingerprint …)"
  {"type": "readmit", "seat": int, "name": str, "old_fingerprint": str,
   "new_fingerprint": str, "new_name": str}           (host only) a new key asks for
      an away player's seat: the host person says yes (``set_seat(seat, "human",
      player=new_fingerprint)``) or no (``HostSession.turn_away(new_fingerprint)``)
  {"type": "alert", "seat": int | None, "rule": str, "detail": str,
   "evidence_path": str | None}                           integrity alert
  {"type": "error", "message": str, "fatal": bool}        a person-readable problem
      about this player's own action (others' refusals are logged, not sent);
      ``fatal`` (optional, default false): the session has ended (wrong key, wrong
      version, refused, table full, host gone or closed) — go back to the lobby
  {"type": "hint", "text": str}                           answer to ``hint()``
  {"type": "waiting", "for": "shuffle", "names": [str], "detail": str}
      the deal has waited a while for these players' contributions: "Waiting for
      Dad's shuffle…" (or, at the deadline, "Dealt without Dad's shuffle: …")
  {"type": "notice", "message": str}                      something a person should
      know that is not a problem (a host found an unfinished table and kept it aside)

Sessions that can advise also have ``hint()``: a "hint" event with one sentence from
a bot's ``explain`` for your own seat, computed on the session's thread.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

EventCallback = Callable[[dict], None]


class Session(ABC):
    """One player's connection to one table (hosted, joined, or local against bots)."""

    def __init__(self, on_event: EventCallback):
        self.on_event = on_event

    # -- table setup ---------------------------------------------------------------
    @abstractmethod
    def sit(self, seat: int) -> None:
        """Ask for a seat (the host arranges; a guest asks)."""

    @abstractmethod
    def set_seat(self, seat: int, kind: str, level: str | None = None,
                 player: str | None = None) -> None:
        """Host only: put a bot of ``level``, a joined player (by fingerprint), or nobody
        in ``seat``."""

    @abstractmethod
    def start_game(self) -> None:
        """Host only: deal the first hand (empty seats are filled with bots)."""

    # -- in game -------------------------------------------------------------------
    @abstractmethod
    def act(self, action: dict) -> None:
        """Your decision, in hand-record form without the seat."""

    @abstractmethod
    def set_table_option(self, name: str, value: bool) -> None:
        """Host only: ``live_scores`` or ``game_log``, shown to everyone."""

    @abstractmethod
    def next_hand(self) -> None:
        """Deal the next hand once everyone has seen the summary (host)."""

    @abstractmethod
    def rematch(self) -> None:
        """Host only: a new game at the same table."""

    @abstractmethod
    def stand_in(self, seat: int, bot: bool) -> None:
        """Host only: let a bot play a dropped seat (True) or keep waiting (False)."""

    @abstractmethod
    def close(self) -> None:
        """Leave the table and stop the session's thread."""
