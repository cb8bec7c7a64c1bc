"""``LocalSession``: "Play against the computer" — a hosted table with no network.

A game against the computer is the same table as one hosted on the network
(``host_session.HostCore``): the same signed log on disk, the same events, the same bot
driver — only nobody can connect. So it survives the app closing: the log lives in
``<data dir>/local`` and, while its game is unfinished, ``unfinished_local`` describes it
for the lobby's "Continue your Rook game (hand 4, 120–85)", and ``LocalSession(...,
resume=True)`` goes on with it. Choosing a new game instead replaces it.

The computer players decide after ``bot_delay`` seconds (twice that while a finished
trick is on the table), so a person can follow the play; 0 in tests.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.bots import ALL_LEVELS

from net.constants import LOCAL_DIR
from net.sessions.facade import EventCallback
from net.sessions.session import HostedSession
from net.sessions.table_files import discard, unfinished
from net.wire.identity import data_dir, load_identity

BOT_LEVELS = ALL_LEVELS  # "random", "easy", "normal", "hard"
DEFAULT_LEVEL = "normal"


def local_dir(home: str | os.PathLike | None = None) -> Path:
    """Where the game against the computer keeps its log (``home``: the data directory)."""
    return data_dir(home) / LOCAL_DIR


def unfinished_local(home: str | os.PathLike | None = None) -> dict | None:
    """The game against the computer left unfinished (``table_files.unfinished``), or None."""
    return unfinished(local_dir(home))


def discard_local(home: str | os.PathLike | None = None) -> None:
    """Give up the unfinished game against the computer: the next one starts afresh."""
    discard(local_dir(home))


class LocalSession(HostedSession):
    """You against bots on this machine, driven by the same core and events as a
    network table."""

    local = True

    def __init__(self, on_event: EventCallback, settings: dict, name: str = "You", seat: int = 0,
                 level: str = DEFAULT_LEVEL, table_seed: bytes | None = None,
                 bot_delay: float = 0.6, autoplay: bool = False,
                 home: str | os.PathLike | None = None, resume: bool = False):
        """``resume``: go on with the unfinished game (see ``unfinished_local``) instead
        of starting a new one; ``table_seed`` (tests): the deals follow from it."""
        from net.sessions.host_session import HostCore
        level = level if level in BOT_LEVELS else DEFAULT_LEVEL
        identity = load_identity(data_dir(home)).with_name(name)
        settings = {"game": settings["game"], "ruleset": settings.get("ruleset"),
                    "mode": settings.get("mode"), "options": dict(settings.get("options") or {}),
                    "name": settings.get("name") or f"{name}'s table"}
        super().__init__(on_event, "parlour-local", lambda emit: HostCore(
            identity, settings, state_dir=local_dir(home), emit=emit, listen=False, you=seat,
            bots={s: level for s in range(_players(settings)) if s != seat},
            bot_delay=bot_delay, autoplay=autoplay, headless=False, table_seed=table_seed,
            resume=resume, fresh=not resume))

    def _emit(self, event: dict) -> None:
        if event.get("type") == "table":  # nobody else is here: a key means nothing to show
            event = {**event, "seats": [{**seat, "fingerprint": ""} for seat in event["seats"]]}
        super()._emit(event)

    def close(self) -> None:
        """Leave: the game is kept, to be continued from the lobby."""
        self.on_event = lambda event: None
        self._thread.stop(self.core.stop())


def _players(settings: dict) -> int:
    from engine import make_game
    return make_game(settings["game"], settings["ruleset"], settings["mode"],
                     settings["options"]).num_players
