"""The walk of one played card through the code.  ``python -m net.tools.walk_card``

Issue 21 asked how many files and hops a card played by a guest crosses under the
private deal, from the person's click to every peer's check. This tool measures it
instead of reading it: a table on loopback (127.0.0.1) — a ``HostSession`` with the
private deal (its own seat and one more played by bots) and two ``GuestSession``s, the
app's own session classes, each running its core on its own loop thread as in the app —
plays on (each guest choosing as a bot would, from the "state" events its session
emits) until a guest is offered a card in the tricks. Then, with a profiler on every
thread of the table (``sys.setprofile``, installed on each loop thread from inside it),
it makes the call the app's table view makes, ``session.act({"play": card})``, and
records, thread by thread:

* the app's thread: ``GuestSession.act`` (it hands the move to the guest's loop);
* the playing guest's loop: its move (checked, proved and signed by its replica, sent),
  until ``GuestCore.act`` returns; then its own check of the entry the host logged,
  until the ``GuestCore.receive`` that took it returns;
* the host's loop: the move read off the wire, admitted, logged, signed and sent to
  every guest, until the ``HostCore.receive`` that took it returns;
* the other guest's loop: its check of the entry, until its ``GuestCore.receive`` returns.

Counted over the project's own files (``app/``, ``net/``, ``engine/``; not this tool,
the standard library or site-packages), for each part and in all:

* files: the distinct files whose code ran;
* arrows: the distinct (caller file, callee file) pairs of the calls between two of
  them — the caller being the nearest frame of a project file beneath the callee
  (a call through a standard-library or C function, ``sorted``'s key say, is an arrow
  from the file that made it);
* calls: every such call whose caller's file is not the callee's (a generator or
  coroutine resumed counts as a call each time it is entered, as the profiler sees it);
* entries: where project code was entered with no project frame beneath it but the
  event loop's (a task resumed, a callback) or from another thread: the hand-offs the
  arrows cannot see (the post from the app's thread to the loop, a frame off the wire).
  Code generated at run time (a dataclass's or NamedTuple's ``__init__``) is no file's.

Not traced here: the Qt click down to ``session.act`` (net may not import Qt;
``tests/app/test_walk_card_click.py`` passes ``walk`` a ``click`` that makes it in a table
view, offscreen), the host's log flusher thread (it puts the entries on the disk after
they are sent: off the path), and whatever runs after each part's end (the
acknowledgements' arrival at the host, the next seat's decision).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from engine.bots import make_bot
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from net.sessions.last_table import LastTable
from net.sessions.network import CARRY_ON
from net.sessions.session import GuestSession, HostSession
from net.tools import hosts
from net.wire.heartbeat import Timings
from net.wire.identity import Identity

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("app/", "net/", "engine/")
NOT_COUNTED = ("net/tools/",)  # the measuring tools themselves
# A generator's or a coroutine's code: its frame is entered again at each resumption.
RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE \
    | inspect.CO_ASYNC_GENERATOR
# The event loop's own files: a frame of theirs beneath project code is the loop running
# a callback or a task's step, so that code has no caller (the loop itself runs inside a
# project frame, the session thread's loop runner in net/sessions/session.py).
LOOP = str(Path(asyncio.__file__).parent) + "/"
WAIT = 30.0  # seconds for the table to reach a guest's card, and for the card's walk


# -- the trace ------------------------------------------------------------------------------
@dataclass
class Part:
    """What ran in one part of the walk (one thread, between two moments)."""

    name: str
    files: set[str] = field(default_factory=set)
    functions: set[tuple[str, str]] = field(default_factory=set)  # (file, qualified name) that ran
    arrows: Counter = field(default_factory=Counter)  # (caller file, callee file) -> calls
    entries: Counter = field(default_factory=Counter)  # (file, function) entered from outside
    resumed: int = 0  # of the cross-file calls, generator or coroutine frames resumed

    @property
    def calls(self) -> int:
        return sum(self.arrows.values())


class Files:
    """Which code objects are the project's own, by their file relative to the repo."""

    def __init__(self, root: Path = ROOT):
        self.root = str(root) + "/"
        self._known: dict[object, str | None] = {}

    def of(self, code) -> str | None:
        try:
            return self._known[code]
        except KeyError:
            name = code.co_filename
            rel = name[len(self.root):] if name.startswith(self.root) else None
            if rel is not None and (not rel.startswith(PROJECT) or rel.startswith(NOT_COUNTED)):
                rel = None
            self._known[code] = rel
            return rel


End = Callable[[FrameType], bool]  # a test on a returning frame: does the part end here?


class ThreadTrace:
    """The profiler of one thread: its parts in turn, each ended by ``ends(frame)`` on a
    function's return (the last part with no end runs until the profiler is removed)."""

    def __init__(self, files: Files, parts: list[tuple[str, End | None]], on_done: Callable[[], None]):
        self.files = files
        self.parts = [Part(name) for name, _ in parts]
        self.ends = [ends for _, ends in parts]
        self.index = 0
        self.on_done = on_done
        self.seen: dict[int, object] = {}  # resumable frames already entered (kept alive: ids stay theirs)

    @property
    def done(self) -> bool:
        return self.index >= len(self.parts)

    def __call__(self, frame, event: str, arg) -> None:
        if self.index >= len(self.parts):
            return
        if event == "call":
            self._called(frame, self.parts[self.index])
        elif event == "return":
            ends = self.ends[self.index]
            if ends is not None and ends(frame):
                self.index += 1
                if self.done:
                    self.on_done()

    def _called(self, frame, part: Part) -> None:
        callee = self.files.of(frame.f_code)
        if callee is None:
            return
        part.files.add(callee)
        part.functions.add((callee, frame.f_code.co_qualname))
        caller, below = None, frame.f_back
        while below is not None and caller is None and not below.f_code.co_filename.startswith(LOOP):
            caller, below = self.files.of(below.f_code), below.f_back
        if caller is None:
            part.entries[(callee, frame.f_code.co_qualname)] += 1
        elif caller != callee:
            part.arrows[(caller, callee)] += 1
            if frame.f_code.co_flags & RESUMABLE:
                if id(frame) in self.seen:
                    part.resumed += 1
                self.seen[id(frame)] = frame
        elif frame.f_code.co_flags & RESUMABLE:
            self.seen[id(frame)] = frame


def returning(function) -> End:
    """A test on a frame: is it ``function``'s (a plain function or method)?"""
    code = function.__code__
    return lambda frame: frame.f_code is code


# -- the table ------------------------------------------------------------------------------
class Recorder:
    """A session's ``on_event``: every event, and a condition the driver waits on."""

    def __init__(self, changed: threading.Condition):
        self.events: list[Mapping] = []
        self.changed = changed

    def __call__(self, event: Mapping) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()


class OnItsLoop:
    """A session that runs a function on its own loop thread (the tool installs its
    profiler there: a thread's profiler is set from inside that thread)."""

    def run_on_loop(self, fn: Callable[[], None]) -> None:
        self._thread.post(fn)  # type: ignore[attr-defined]  # (the session's own loop)


class TracedHost(OnItsLoop, HostSession):
    pass


class TracedGuest(OnItsLoop, GuestSession):
    pass


@dataclass
class Seat:
    """A guest at the table, played from the events its session emits."""

    session: TracedGuest
    events: Recorder
    name: str
    answered: int = -1  # the index of the last event we decided on

    @property
    def core(self) -> GuestCore:
        return self.session.core

    def offer(self) -> tuple[int, Mapping] | None:
        """The latest "state" event, if it offers a decision we have not answered."""
        for index in range(len(self.events.events) - 1, self.answered, -1):
            event = self.events.events[index]
            if event.get("type") == "state":
                return (index, event) if event.get("legal") else None
        return None


@dataclass
class Walk:
    """The measured walk of one card."""

    game: str
    card: str
    player: str  # the guest that played it
    seq: int  # the entry that logged it
    parts: list[Part]

    def files(self) -> set[str]:
        return set().union(*(p.files for p in self.parts))

    def arrows(self) -> Counter:
        total: Counter = Counter()
        for part in self.parts:
            total.update(part.arrows)
        return total

    def calls(self) -> int:
        return sum(p.calls for p in self.parts)

    def entries(self) -> int:
        return sum(sum(p.entries.values()) for p in self.parts)


class Table:
    """A host with the private deal (bots in seats 0 and 3) and two guests, on loopback."""

    def __init__(self, tmp: Path, game: str, timings: Timings):
        self.game = game
        self.changed = threading.Condition()
        self.host_events = Recorder(self.changed)
        self.host = TracedHost(self.host_events, {"game": game}, Identity.generate("Host"),
                               state_dir=tmp / "host", bind="127.0.0.1", timings=timings,
                               autoplay=True, auto_start=True, mental_deal=True, bots={3: "random"})
        self.wait(lambda: self.host.core.port, "the host to listen")
        self.seats: list[Seat] = []
        for i in (1, 2):
            home, events = tmp / f"guest{i}", Recorder(self.changed)
            session = TracedGuest(
                events, Identity.generate(f"Guest{i}"), address="127.0.0.1", port=self.host.core.port,
                fingerprint=self.host.core.identity.fingerprint, state_dir=home, give_up=3,
                remember=LastTable(home), timings=timings, takeover=CARRY_ON)  # as the app joins
            self.seats.append(Seat(session, events, f"Guest{i}"))
        self.bot = make_bot("easy", b"walk_card")

    def wait(self, ready: Callable[[], object], what: str, timeout: float = WAIT):
        deadline = time.monotonic() + timeout
        with self.changed:
            while not (found := ready()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"gave up waiting for {what} ({self.problems()})")
                self.changed.wait(min(left, 0.05))  # (some conditions change without an event)
        return found

    def problems(self) -> str:
        errors = [e.get("message") for r in [self.host_events] + [s.events for s in self.seats]
                  for e in r.events if e.get("type") in ("error", "alert")]
        return f"errors: {errors[-3:]}" if errors else "no error reported"

    def until_a_guest_plays(self) -> tuple[Seat, dict]:
        """Play on as bots would until a guest is offered a card in the tricks: that seat
        and the first card it may play."""
        def turn():
            for seat in self.seats:
                offered = seat.offer()
                if offered is not None:
                    return seat, offered
            return None
        while True:
            seat, (index, event) = self.wait(turn, "a guest's turn")
            seat.answered = index
            plays = [a for a in event["legal"] if "play" in a]
            if plays and event["view"].get("phase") == "play":
                return seat, plays[0]
            seat.session.act(self.bot.choose_json(seat.core.replica.game, event["view"]))

    def close(self) -> None:
        for seat in self.seats:
            seat.session.close()
        self.host.close()


# What the app does to play ``action`` at ``seat``, made ready (untraced): the call to trace.
Click = Callable[[Seat, dict], Callable[[], None]]


def session_act(seat: Seat, action: dict) -> Callable[[], None]:
    """The app's call on a click (app/table/table_view.py): ``session.act``."""
    return lambda: seat.session.act(action)


def play_card(table: Table, seat: Seat, action: dict, click: Click = session_act) -> Walk:
    """Trace ``seat``'s ``action`` from the app's call (``click``, on this thread) to
    every peer's check."""
    call = click(seat, action)
    host: HostCore = table.host.core
    authority = hosts.authority(host)
    before = hosts.chain(host).seq
    logged: list[int] = []  # the entry that logged the card, once the host has it
    files = Files()
    all_done = threading.Event()
    traces: list[ThreadTrace] = []

    def logged_at() -> int | None:
        """The card's entry, once the host has logged it (read from any thread: the host
        records an entry before it sends it, so a guest may well ask before the host's
        ``receive`` has returned)."""
        if not logged:
            for signed in authority.archive.log[before + 1:]:
                if signed.kind == "action" and "play" in signed.body["signed"]["body"]["action"]:
                    logged.append(signed.seq)
                    break
        return logged[0] if logged else None

    def host_took_it(frame) -> bool:
        return frame.f_code is HostCore.receive.__code__ and logged_at() is not None

    def checked_by(core: GuestCore) -> End:
        code = GuestCore.receive.__code__

        def checked(frame) -> bool:
            if frame.f_code is not code or frame.f_locals.get("self") is not core:
                return False
            seq = logged_at()
            return seq is not None and core.replica is not None and core.replica.seq >= seq
        return checked

    def finished() -> None:
        if all(t.done for t in traces):
            all_done.set()

    others = [s for s in table.seats if s is not seat]
    plan: list[tuple[OnItsLoop, list[tuple[str, End | None]]]] = [(table.host, [("the host: admit, log, sign, send", host_took_it)]),
            (seat.session, [(f"{seat.name} (playing): its move, to the wire", returning(GuestCore.act)),
                            (f"{seat.name} (playing): its check of the entry", checked_by(seat.core))])]
    plan += [(o.session, [(f"{o.name}: its check of the entry", checked_by(o.core))]) for o in others]
    installed = threading.Barrier(len(plan) + 1)
    for session, ends in plan:
        trace = ThreadTrace(files, ends, finished)
        traces.append(trace)

        def install(trace=trace):
            sys.setprofile(trace)
            installed.wait(WAIT)
        session.run_on_loop(install)
    installed.wait(WAIT)

    name = "the app's thread: GuestSession.act" if click is session_act else "the app's thread: the click"
    app = ThreadTrace(files, [(name, None)], lambda: None)
    sys.setprofile(app)
    try:
        call()
    finally:
        sys.setprofile(None)
    try:
        if not all_done.wait(WAIT):
            raise TimeoutError(f"the card's walk did not end: {[t.index for t in traces]} "
                               f"({table.problems()})")
    finally:
        for session, _ in plan:
            session.run_on_loop(lambda: sys.setprofile(None))
    parts = app.parts + [p for t in traces for p in t.parts]
    return Walk(table.game, action["play"], seat.name, logged[0], parts)


def walk(game: str = "rook", timings: Timings | None = None, click: Click = session_act) -> Walk:
    """Open the table, play to a guest's card, and trace that card's walk (from
    ``click``: by default the session call the app's table view makes)."""
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Path(tmp), game, timings or Timings())
        try:
            seat, action = table.until_a_guest_plays()
            return play_card(table, seat, action, click)
        finally:
            table.close()


# -- the report -----------------------------------------------------------------------------
def room(path: str) -> str:
    return path.rpartition("/")[0]


def report(result: Walk, out=print) -> None:
    files, arrows = result.files(), result.arrows()
    out(f"{result.game}: {result.player} plays {result.card} (entry {result.seq}), private deal")
    out(f"  files {len(files)}, distinct arrows {len(arrows)}, cross-file calls {result.calls()} "
        f"(of which {sum(p.resumed for p in result.parts)} resumed a generator or coroutine), "
        f"entries from the loop or another thread {result.entries()}")
    out("  by part: files / arrows / calls / entries")
    for part in result.parts:
        out(f"    {part.name:48} {len(part.files):3} / {len(part.arrows):3} / {part.calls:4} / "
            f"{sum(part.entries.values()):3}")
    out("  files by room (the parts each ran in: a = app's thread, h = host, "
        "p = playing guest's move, c = its check, o = the other guest's check)")
    marks = "ahpco"
    by_room: dict[str, list[str]] = {}
    for path in sorted(files):
        by_room.setdefault(room(path), []).append(path)
    for name in sorted(by_room):
        out(f"    {name}/ ({len(by_room[name])})")
        for path in by_room[name]:
            ran = "".join(m if path in p.files else "." for m, p in zip(marks, result.parts))
            out(f"      {ran}  {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.tools.walk_card",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="rook", help="the title (default rook)")
    parser.add_argument("--runs", type=int, default=1, help="walks, each at a new table (default 1)")
    parser.add_argument("--arrows", action="store_true", help="list every arrow with its calls")
    args = parser.parse_args(argv)
    results = []
    for _ in range(args.runs):
        result = walk(args.game)
        results.append(result)
        report(result)
        if args.arrows:
            for (a, b), n in sorted(result.arrows().items()):
                print(f"    {n:4}  {a} -> {b}")
    if args.runs > 1:
        def span(values):
            return f"{min(values)}–{max(values)}"
        print(f"over {args.runs} walks: files {span([len(r.files()) for r in results])}, arrows "
              f"{span([len(r.arrows()) for r in results])}, calls {span([r.calls() for r in results])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
