"""``LocalSession``: "Play against the computer" — a hosted table with no network.

A game against the computer is the same table as one hosted on the network
(``host_session.HostCore``): the same signed log on disk, the same events, the same bot
driver — only nobody can connect. So it survives the app closing. Each title keeps its
own: the log lives in ``<data dir>/local/<title>`` (``local/rook``, ``local/somerset``,
…), so a new Somerset game never throws the saved Rook one away. While a title's game is
unfinished, ``unfinished_local`` describes it for the lobby's "Continue your Rook game
(hand 4, you 120, them 85)", and ``LocalSession(..., resume=True)`` goes on with it; a
new game of the same title replaces it (the app asks first). The one game saved before
there was a place per title (``local/`` itself) is moved into its title's place the first
time the saved games are looked for.

The computer players decide after ``bot_delay`` seconds (twice that while a finished
trick is on the table), so a person can follow the play; 0 in tests.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from engine.bots import ALL_LEVELS

from net.constants import HOST_LOG_FILE, HOST_META_FILE, LOCAL_DIR
from net.sessions.facade import Event, EventCallback
from net.sessions.session import HostedSession
from net.sessions.table_files import discard, read_meta, unfinished
from net.wire.identity import data_dir, load_identity

log = logging.getLogger(__name__)

BOT_LEVELS = ALL_LEVELS  # "random", "easy", "normal", "hard"
DEFAULT_LEVEL = "normal"


TITLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")  # a title's id, as a directory name
# The files of one saved game: the log (SQLite, with its write-ahead files) and its record.
SAVED_FILES = (HOST_LOG_FILE, f"{HOST_LOG_FILE}-wal", f"{HOST_LOG_FILE}-shm", HOST_META_FILE)


def local_dir(home: str | os.PathLike | None = None, title: str | None = None) -> Path:
    """Where the game against the computer of ``title`` ("rook", …) keeps its log
    (``home``: the data directory; no title: the directory holding every title's)."""
    root = data_dir(home) / LOCAL_DIR
    if title is None:
        return root
    if not TITLE_ID.fullmatch(title):
        raise ValueError(f"not a title's id: {title!r}")
    return root / title


def unfinished_local(home: str | os.PathLike | None = None) -> list[dict]:
    """Every game against the computer left unfinished, one per title
    (``table_files.unfinished``), the one played last first."""
    root = local_dir(home)
    _move_the_old_slot(root)
    found = []
    for place in root.iterdir() if root.is_dir() else ():
        offer = unfinished(place) if place.is_dir() and TITLE_ID.fullmatch(place.name) else None
        if offer is not None and offer["game"].get("game") == place.name:
            found.append((-(place / HOST_META_FILE).stat().st_mtime_ns, place.name, offer))
    return [offer for *_order, offer in sorted(found, key=lambda f: f[:2])]


def discard_local(title: str, home: str | os.PathLike | None = None) -> None:
    """Give up the unfinished game of ``title`` against the computer: the next one starts
    afresh (the other titles' saved games are kept)."""
    discard(local_dir(home, title))


def _move_the_old_slot(root: Path) -> None:
    """The one game saved before each title had its own place lived in ``root`` itself:
    move it into its title's place, unless that place holds a game already (then the one
    there is newer, and the old one stays where it was, offered nowhere)."""
    meta = read_meta(root)
    game = meta.get("game")
    title = game.get("game") if isinstance(game, dict) else None
    if not isinstance(title, str) or not TITLE_ID.fullmatch(title):
        return
    place = root / title
    if (place / HOST_META_FILE).exists():
        return
    try:
        place.mkdir(parents=True, exist_ok=True)
        for name in SAVED_FILES:  # the record last: a move cut short is finished next time
            if (root / name).exists():
                os.replace(root / name, place / name)
    except OSError:  # a read-only disk: the old game is not offered, nothing breaks
        log.warning("could not move the saved game in %s to %s", root, place, exc_info=True)


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
        from net.sessions.host_session import HostCore, HostOptions
        level = level if level in BOT_LEVELS else DEFAULT_LEVEL
        _move_the_old_slot(local_dir(home))  # (the lobby has done it, unless none showed)
        identity = load_identity(data_dir(home)).with_name(name)
        settings = {"game": settings["game"], "ruleset": settings.get("ruleset"),
                    "mode": settings.get("mode"), "options": dict(settings.get("options") or {}),
                    "name": settings.get("name") or f"{name}'s table"}
        super().__init__(on_event, "parlour-local", lambda emit: HostCore(
            identity, settings, state_dir=local_dir(home, settings["game"]), emit=emit,
            options=HostOptions(listen=False, you=seat,
                                bots={s: level for s in range(_players(settings)) if s != seat},
                                bot_delay=bot_delay, autoplay=autoplay, headless=False,
                                table_seed=table_seed, resume=resume, fresh=not resume)))

    def _emit(self, event: Event) -> None:
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
