"""A hosted table's files: the signed log (``table.db``) and a small record beside it.

Every table a host runs — on the network, or against the computer on this machine —
keeps its log in a state directory (``store.LogStore``). ``TableFiles`` opens it:

* an unfinished log of the table asked for is restored (``HostAuthority.restore``), so
  a host that crashed, or a game against the computer that was closed, goes on where
  it stopped;
* a finished log, or one of another table, is kept aside (``table-<time>.db``) with a
  "notice" saying so — or, for a table against the computer, simply replaced — and a
  new table is opened.

The record (``host.json``) says whether the table is done, the port it listened on, and
what a person needs to recognise it: game, name, hand and scores. ``unfinished`` reads
it without opening the log, for the lobby's "Continue your Rook game (hand 4, you 120,
them 85)".
"""

from __future__ import annotations

import asyncio

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from net.constants import CONTRIBUTION_DEADLINE, DROP_WAIT, HOST_LOG_FILE, HOST_META_FILE
from net.trust.host.authority import HostAuthority, RestoreError
from net.trust.host import successor
from net.trust.deals.mental.log import dealt_privately
from net.sessions.events import error_event, notice_event
from net.sessions.facade import EventCallback
from net.sessions.opened import game_of
from net.trust.store import GROUP, LogStore, OlderDealError

log = logging.getLogger(__name__)

# resume: True (whatever unfinished table is there), False (never: start afresh), or
# None (only the table asked for: same game and name).
Resume = bool | None


def describe_table(authority: HostAuthority) -> str:
    """A table as a person recognises it: '“bars-lan” (rook, hand 4, 120–85)'."""
    return f"“{authority.name}” ({game_of(authority).id}, {progress(authority)})"


def progress(authority: HostAuthority) -> str:
    match = authority.match
    if match is None:
        return "not started"
    return f"hand {match.hand_number + 1}, " + "–".join(str(s) for s in match.scores)


class TableFiles:
    def __init__(self, state_dir: str | os.PathLike, emit: EventCallback,
                 keep_old: bool = True):
        self.dir = Path(state_dir)
        self.emit = emit
        self.keep_old = keep_old  # keep a replaced log aside (False: delete it)
        self.sync = GROUP  # the log's durability (store.FULL: the bench's old behaviour)
        self.store: LogStore | None = None
        self.restored = False

    @property
    def log_path(self) -> Path:
        return self.dir / HOST_LOG_FILE

    def meta(self) -> dict:
        return read_meta(self.dir)

    # The class a log is restored as and a new table made as: it deals by the seeded deal,
    # or by the mental-poker deal where the table asks for it.
    authority = HostAuthority

    def new(self, identity, rng, mental_deal: bool, deadline: float,
            drop_wait: float = DROP_WAIT) -> HostAuthority:
        """A new table's authority, writing to this directory's log (where ``open`` found
        none to go on with)."""
        return self.authority(identity, rng=rng, persist=self.store, mental_deal=mental_deal,
                              deadline=deadline, drop_wait=drop_wait)

    def open(self, identity, wanted: Callable[[HostAuthority], bool], resume: Resume,
             rng, mental_deal: bool = False, deadline: float = CONTRIBUTION_DEADLINE,
             drop_wait: float = DROP_WAIT) -> HostAuthority | None:
        """The unfinished table to go on with, or None (a new one is to be opened in
        ``self.store``). A table goes on dealing as its log says it dealt
        (``mental_log.dealt_privately``); ``mental_deal`` holds if it dealt no hand yet. A
        table an older Parlour dealt privately (``OlderDealError``) is kept aside, with a
        notice, even when asked for: this Parlour can never resume it."""
        self.dir.mkdir(parents=True, exist_ok=True)
        meta = self.meta()
        self.store = self._new_store(self.sync)
        loaded = self.store.load()
        found = problem = None
        if loaded.records and not meta.get("done") and resume is not False:
            try:
                found = successor.restore(self.authority, identity, loaded.records, rng=rng,
                                          persist=self.store, mental_deal=mental_deal,
                                          deadline=deadline, drop_wait=drop_wait)
                private = dealt_privately(found.log)
                found.mental_deal = mental_deal if private is None else private
            except OlderDealError as exc:  # not even asked for: no retry can resume it here
                problem = str(exc)
            except RestoreError as exc:
                if resume:
                    raise
                problem = str(exc)  # another key's table, or a log that does not replay
            if found is not None and (resume or wanted(found)):
                self.restored = True
                if loaded.dropped:
                    self.emit(error_event(f"the table log lost {loaded.dropped} damaged "
                                          f"entries at its end ({loaded.problem})"))
                return found
        if loaded.records:  # finished, or not the table asked for: start anew
            self._set_aside(found, problem)
        return None

    def adopt(self, authority: HostAuthority) -> HostAuthority:
        """A table this client carries on from its own copy of the log (``succession``):
        a fresh log here holding every entry so far — the departed host's with what this
        client was sent for them (``successor.seen``), so that the table can be restored
        from it as any host's is (``successor.restore``) — written to from now on."""
        self.dir.mkdir(parents=True, exist_ok=True)
        self.store = self._new_store()
        if self.store.load().records:
            self._set_aside(None, None)
        with self.store.batch():
            for signed in authority.log:
                self.store.append(signed, authority.seen.get(signed.seq))
        authority.persist = self.store
        self.restored = True
        return authority

    def _set_aside(self, found: HostAuthority | None, problem: str | None) -> None:
        if self.store is not None:
            self.store.close()
        if not self.keep_old:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.log_path}{suffix}").unlink(missing_ok=True)
        else:
            kept = self.log_path.with_name(f"table-{int(time.time())}.db")
            self.log_path.rename(kept)
            if found is not None:
                self.emit(notice_event(f"Found an unfinished table, {describe_table(found)}; "
                                       f"kept it as {kept} and opened a new table (resume it "
                                       "with --resume, or by hosting the same game and table "
                                       "name)."))
            elif problem is not None:
                self.emit(notice_event(f"Found a table log that cannot be resumed ({problem}); "
                                       f"kept it as {kept} and opened a new table."))
        self.store = self._new_store(self.sync)

    def _new_store(self, sync: str = GROUP) -> LogStore:
        """The log's store; on the table's loop, its flusher thread is woken after each
        change's sends rather than before them (``LogStore.defer``)."""
        store = LogStore(self.log_path, sync)
        try:
            store.defer = asyncio.get_running_loop().call_soon
        except RuntimeError:  # no loop (tests of the files alone): woken at once
            pass
        return store

    def write_meta(self, authority: HostAuthority, port: int | None, done: bool,
                   side: int = 0, handed: bool = False) -> None:
        """``side``: the host person's side (the lobby shows its score first); ``handed``:
        the host handed the table to a player (never resumed here, but rejoined there)."""
        match = authority.match
        meta = {"table": authority.table, "port": port, "done": done, "side": side,
                "name": authority.name, "game": game_of(authority).key(),
                "hand": match.hand_number + 1 if match else 0,
                "scores": list(match.scores) if match else [],
                "started": match is not None, "over": bool(match is not None and match.is_over),
                "handed": handed}
        write_meta(self.dir, meta)

    def flush(self) -> None:
        """What the log holds, on the disk now (``LogStore.sync``): entries this disk lost
        once and was given back."""
        if self.store is not None:
            self.store.sync()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None


def read_meta(state_dir: Path) -> dict:
    try:
        meta = json.loads((Path(state_dir) / HOST_META_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def write_meta(state_dir: Path, meta: dict) -> None:
    tmp = Path(state_dir) / (HOST_META_FILE + ".tmp")
    tmp.write_text(json.dumps(meta))
    os.replace(tmp, Path(state_dir) / HOST_META_FILE)


def unfinished(state_dir: str | os.PathLike) -> dict | None:
    """The game left unfinished in ``state_dir`` (a crash, or the app closed mid-game),
    as its record says — ``{"table", "name", "game": {game, ruleset, mode, options},
    "hand", "scores", "side", "started", "port", "handed"}`` — or None (a game over, or
    not begun, is nothing to go on with). ``handed``: its host handed it to a player on
    leaving, so it goes on there (to rejoin, never to resume here). The log itself is
    checked only when the table is opened again."""
    meta = read_meta(Path(state_dir))
    game = meta.get("game")
    handed = meta.get("handed") is True
    if (meta.get("done") is not False and not handed) or not meta.get("started") or meta.get("over") \
            or not (Path(state_dir) / HOST_LOG_FILE).exists() \
            or not isinstance(game, dict) or not isinstance(game.get("game"), str):
        return None
    scores = meta.get("scores")
    if not isinstance(scores, list) or not all(isinstance(s, int) for s in scores):
        scores = []
    hand = meta.get("hand") if isinstance(meta.get("hand"), int) else 0
    side = meta.get("side") if isinstance(meta.get("side"), int) else 0
    return {"table": str(meta.get("table") or ""), "name": str(meta.get("name") or ""),
            "side": side,
            "game": game, "hand": hand, "scores": scores, "started": bool(meta.get("started")),
            "port": meta.get("port") if isinstance(meta.get("port"), int) else 0,
            "handed": handed}


def discard(state_dir: str | os.PathLike) -> None:
    """Give up the unfinished table in ``state_dir``: the next table opened there starts
    afresh (a network host keeps the old log aside; the computer's is replaced)."""
    meta = read_meta(Path(state_dir))
    if meta:
        try:
            write_meta(Path(state_dir), {**meta, "done": True, "handed": False})
        except OSError:
            log.warning("could not mark the table in %s done", state_dir, exc_info=True)
