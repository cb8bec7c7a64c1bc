"""Headless peers: ``parlour host`` and ``parlour join`` (no window, bots play).

    parlour host --game G [--ruleset R] [--mode M] [--table NAME] [--bots N] [--bot LEVEL]
                 [--hands K] [--seed HEX] [--port P] [--bind IP] [--interface IP | --no-advertise]
                 [--resume] [--state-dir DIR]
    parlour join [--table NAME | --address HOST:PORT | --code CODE] --bot LEVEL
                 [--interface IP] [--state-dir DIR]
    parlour join --watch [--table NAME | --address HOST:PORT | --code CODE] …

Across houses (``net.houses``): ``host --invite SEAT`` (repeatable) prints a code for
each of those seats (``{"event": "invite", "seat": …, "code": …, "state": "waiting"}``),
and the next one at once when a code is burnt by a wrong try or spent with nobody come
through it (``"state": "burnt"`` / ``"spent"``); ``join --code CODE`` takes one; ``--mailbox URL`` and ``--relay tcp:HOST:PORT``
choose the servers (default: the public ones).

``host`` opens a table: its own seat and ``N`` more are played by local bots (``--bot``,
or ``--bot-level``, says at which level: random, easy, normal, hard or expert; a stand-in
for a dropped player plays at it too), the other seats wait for peers; the game is
dealt once every seat is taken and runs for ``K`` hands (or to the end of the game). It
prints one JSON object per line — each event (``{"event": "listening", "port": …}``,
``"connection"``, ``"hand_over"``, …) and finally ``{"event": "result", …}``. Run again
with the same ``--state-dir`` after a crash and it resumes the table from its log, on
the same port, and its peers come back by themselves. An unfinished table is resumed
only when its game and table name are the ones asked for, or with ``--resume``;
otherwise the host says what it found, keeps it aside and opens the new table.

``join`` finds a table (by name over mDNS, or at an address), takes a seat, plays it
with a bot, checks every entry and every hand, and prints a JSON summary. It prints the
table talk it hears, checked as the app checks it (``{"event": "talk", "kind": "say" |
"react" | "mute" | "refused", "name": …, "text": …}``), and says nothing itself: a bot
has nothing to say, and a person at a terminal has the app. Exit status:
0 all verified, 1 an integrity alert was raised, 2 could not play (no table, wrong
version, refused).

``join --watch`` watches instead (no seat, no bot): it checks every entry and every hand
as a seated peer does, and prints what anyone at the table sees happen, one JSON line per
engine event (``{"event": "public", "hand": …, "what": "play", "seat": …, "card": …}``),
besides the usual events; a code made for a watcher (``host --invite-watcher``) watches
by itself. ``host --no-watching`` turns watching off, ``--max-watchers N`` caps it
(default 8).

``host`` advertises its table over mDNS on every interface and listens on all addresses,
as the app does; ``--interface IP`` (repeatable) pins both to named interfaces, and
``--no-advertise`` keeps the table off mDNS (listening on 127.0.0.1 unless ``--bind``
says otherwise: join by address). ``join`` finds a table by name only on the interfaces
named with ``--interface`` (``all`` = every interface); otherwise it needs ``--address``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import signal
import sys
import time

import engine
from engine.bots import ALL_LEVELS
from net.constants import MAX_WATCHERS, PRIVATE_DEAL
from net.sessions.facade import Event
from net.wire.heartbeat import Timings

EXIT_OK, EXIT_ALERT, EXIT_FAILED = 0, 1, 2


def emit(event: Event) -> None:
    """One JSON line: the event with ``event`` (its type) first and a monotonic stamp."""
    fields = {k: v for k, v in event.items() if k != "type"}
    line = {"event": event.get("type"), "t": round(time.monotonic(), 4), **fields}
    print(json.dumps(line, default=_plain), flush=True)


def _plain(value):
    return value.hex() if isinstance(value, bytes) else str(value)


def _printer(verbose: bool, watching=lambda: False):
    """What a headless peer prints of its events (``watching()``: it watches — each
    state's engine events too, one "public" line each: what the table shows)."""
    def out(event: Event) -> None:
        if event.get("type") == "state" and watching():
            for happened in event.get("events") or ():
                emit({"type": "public", "hand": event.get("hand_number"), **{
                    k: v for k, v in happened.items() if k != "type"}, "what": happened.get("type")})
        if event.get("type") == "state" and not verbose:
            return
        if event.get("type") == "table" and not verbose:
            event = {"type": "table", "seats": [(s["seat"], s["kind"], s["name"], s["connected"])
                                                for s in event["seats"]],
                     "started": event["started"]}
        emit(event)
    return out


def _interfaces(values: list[str] | None):
    if not values:
        return None
    if values == ["all"]:
        from net.discovery import DEFAULT_INTERFACES
        return DEFAULT_INTERFACES
    return list(values)


def _seeded_rng(hex_seed: str):
    """Deterministic bytes for ``--seed``: reproducible runs."""
    from net.sessions.host_session import seeded_rng
    return seeded_rng(bytes.fromhex(hex_seed))


def state_dir_for(path: str | None, role: str):
    """``--state-dir`` or a directory of that role inside the user's data directory."""
    from pathlib import Path

    from net.wire.identity import data_dir
    directory = Path(path) if path else data_dir() / role
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _timings(args) -> Timings:
    base = Timings.quick() if args.quick else Timings()
    changes = {}
    if args.heartbeat is not None:
        changes["interval"] = args.heartbeat
    if args.timeout is not None:
        changes["timeout"] = args.timeout
    if args.deadline is not None:
        changes["contribution"] = args.deadline
        changes["drop_wait"] = max(args.deadline, base.drop_wait)
    if getattr(args, "takeover_grace", None) is not None:
        changes["takeover_reset"] = changes["takeover_silent"] = args.takeover_grace
    return Timings(**{**base.__dict__, **changes})


# -- parlour host ---------------------------------------------------------------------

def _host_network(args):
    """(mDNS interfaces, listening address) for ``parlour host``: like the app (every
    interface, all addresses) unless ``--interface`` or ``--no-advertise`` says otherwise."""
    if args.no_advertise:
        return None, args.bind or "127.0.0.1"
    interfaces = _interfaces(args.interface or ["all"])
    pinned = args.interface and args.interface != ["all"]
    return interfaces, args.bind or (args.interface[0] if pinned else "0.0.0.0")


def start_up_done() -> None:
    """What start-up made (modules, classes, tables: most of a headless peer's objects)
    stays for good: frozen, the garbage collector's full passes skip it, where walking
    it all took ~30 ms in the middle of a game — a move's worst latency."""
    gc.collect()
    gc.freeze()


def host_levels(args) -> tuple[dict[int, str], str]:
    """The host's bot seats with their level (``--bot``, else easy), and the level its
    own seat and a stand-in for a dropped player play at (``--bot``, else normal)."""
    bots = {seat: args.bot_level or "easy" for seat in range(1, 1 + args.bots)}
    return bots, args.bot_level or "normal"


async def run_host(args) -> int:
    from net.sessions.host_session import HostCore, HostOptions
    from net.wire.identity import load_identity
    state_dir = state_dir_for(args.state_dir, "host")
    identity = load_identity(state_dir, default_name=args.name or "Host").with_name(args.name or "Host")
    interfaces, bind = _host_network(args)
    bots, stand_in_level = host_levels(args)
    printer = _printer(args.verbose)

    def out(event: Event) -> None:
        printer(event)
        if event.get("type") == "invite" and event["state"] in ("burnt", "spent"):
            core.houses.invite(event["seat"])  # nobody came with it: the next code, at once
        elif event.get("type") == "invite" and event.get("watch") and event["state"] == "used":
            core.houses.invite_watcher()  # a watcher is in: the next watcher's code
    core = HostCore(identity, {"game": args.game, "ruleset": args.ruleset, "mode": args.mode,
                               "name": args.table or f"{identity.name}'s table"},
                    state_dir=state_dir, emit=out,
                    rng=_seeded_rng(args.seed) if args.seed else None,
                    options=HostOptions(bind=bind, port=args.port or 0, interfaces=interfaces,
                                        timings=_timings(args), bots=bots, you=0, autoplay=True,
                                        auto_start=True, hands=args.hands,
                                        stand_in_after=args.stand_in,
                                        stand_in_level=stand_in_level,
                                        readmit_names=args.readmit_names, bot_delay=args.delay,
                                        restart_grace=args.restart_grace, resume=args.resume,
                                        mental_deal=args.mental_deal, watching=args.watching,
                                        max_watchers=args.max_watchers))
    start_up_done()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await core.start()
    for seat in args.invite or ():
        core.houses.invite(seat)
    if args.invite_watcher:
        core.houses.invite_watcher()
    try:
        waiter = asyncio.ensure_future(stop.wait())
        finished = asyncio.ensure_future(core.finished.wait())
        await asyncio.wait([waiter, finished], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        finished.cancel()
    finally:
        result = core.result or core.summary("stopped")
        await core.stop()
    emit({"type": "result", **result})
    return EXIT_OK


# -- parlour join ---------------------------------------------------------------------

async def run_join(args) -> int:
    from net.sessions.guest_session import GuestCore
    from net.sessions.last_table import LastTable
    from net.wire.identity import load_identity
    state_dir = state_dir_for(args.state_dir, "guest")
    identity = load_identity(state_dir, default_name=args.name or "Guest")
    if args.name:
        identity = identity.with_name(args.name)
    address = port = None
    if args.code:
        from net.houses import CodeError, code_words, parse_code
        try:
            args.code = parse_code(args.code, code_words())
        except CodeError as exc:
            emit({"type": "error", "message": str(exc)})
            return EXIT_FAILED
    elif args.rejoin:
        record = LastTable(state_dir).load()
        if record is None:
            emit({"type": "error", "message": "no table to rejoin in the state directory"})
            return EXIT_FAILED
        address, port, args.fingerprint = record["address"], record["port"], record["fingerprint"]
        args.seat = record["seat"]
    elif args.address:
        address, _, port_text = args.address.rpartition(":")
        port = int(port_text)
    elif not args.interface:
        emit({"type": "error", "message": "finding a table by name needs --interface "
              "(or use --address HOST:PORT, or --code CODE)"})
        return EXIT_FAILED
    if not args.watch and not args.bot:
        emit({"type": "error", "message": "join needs --bot LEVEL to play a seat (or --watch)"})
        return EXIT_FAILED
    made: list[GuestCore] = []  # (the printer asks the core whether it watches: a code may say so)
    core = GuestCore(identity, address=address, port=port, fingerprint=args.fingerprint,
                     table_name=args.table, interfaces=_interfaces(args.interface),
                     emit=_printer(args.verbose, watching=lambda: bool(made) and made[0].watching),
                     timings=_timings(args),
                     bot_level=None if args.watch else args.bot, watch=args.watch,
                     state_dir=state_dir, seat=args.seat, bot_delay=args.delay,
                     discover_timeout=args.discover_timeout,
                     takeover=_carry_on(args), code=args.code,
                     remember=LastTable(state_dir) if args.remember or args.rejoin else None)
    made.append(core)
    start_up_done()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(core.stop()))
    summary = await core.run()
    emit({"type": "summary", **summary})
    carried = core.succession.host
    if carried is not None:  # we carried the table on: it ended like any hosted table
        emit({"type": "result", **(carried.result or carried.summary("stopped"))})
        return EXIT_ALERT if summary["alerts"] else EXIT_OK
    if summary["alerts"]:
        return EXIT_ALERT
    if summary["fatal"] or summary["ended"] is None:
        return EXIT_FAILED
    return EXIT_OK


def _carry_on(args) -> dict:
    """``--carry-on``: this guest may host the table should its host leave for good;
    without it, it takes part in a takeover by following whoever does (its standing
    counts towards the majority a takeover needs)."""
    if not args.carry_on:
        return {}
    return {"bind": args.standby_bind or "0.0.0.0",
            "host_kw": {"hands": args.hands, "stand_in_after": args.stand_in,
                        "stand_in_level": args.bot, "auto_start": True,
                        "headless": True, "bot_delay": args.delay}}


# -- arguments ------------------------------------------------------------------------

def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--interface", action="append",
                   help="IP address of an interface to use for mDNS (repeatable; 'all')")
    p.add_argument("--state-dir", help="directory for the identity, the log and evidence")
    p.add_argument("--name", help="display name")
    p.add_argument("--delay", type=float, default=0.0, help="seconds a bot waits before moving")
    p.add_argument("--quick", action="store_true", help="short heartbeat timings (tests)")
    p.add_argument("--heartbeat", type=float, help="heartbeat interval, seconds")
    p.add_argument("--timeout", type=float, help="silence before a link counts as dropped")
    p.add_argument("--deadline", type=float,
                   help="seconds the deal waits for a client's part of it (and at least as "
                        "long for a player gone); tests, beside --quick")
    p.add_argument("--verbose", action="store_true", help="print every state event too")
    p.add_argument("--mailbox", help="across houses: the mailbox server (ws://HOST:PORT/v1)")
    p.add_argument("--relay", help="across houses: the transit relay (tcp:HOST:PORT)")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="parlour")
    sub = top.add_subparsers(dest="command", required=True)
    host = sub.add_parser("host", help="host a table without a window")
    host.add_argument("--game", required=True, choices=engine.TITLES)
    host.add_argument("--ruleset")
    host.add_argument("--mode")
    host.add_argument("--table", help="table name shown in lobbies")
    host.add_argument("--bots", type=int, default=0, help="bot seats besides the host's own")
    host.add_argument("--bot-level", "--bot", dest="bot_level", choices=ALL_LEVELS,
                      help="level of the host's bots (default easy), of its own seat's and of a "
                           "stand-in for a dropped player (default normal)")
    host.add_argument("--hands", type=int, help="stop after this many hands")
    host.add_argument("--seed", help="hex seed for the host's secrets (reproducible runs)")
    host.add_argument("--port", type=int, default=0)
    host.add_argument("--private-deal", "--mental-deal", dest="mental_deal", default=PRIVATE_DEAL,
                      action=argparse.BooleanOptionalAction,
                      help="deal by the players' clients, so that the host sees no other human's "
                           "cards (the default at a table of two humans or more; "
                           "--no-private-deal: the seeded deal)")
    host.add_argument("--bind", help="address to listen on")
    host.add_argument("--stand-in", type=float, help="a bot plays a dropped seat after SECONDS")
    host.add_argument("--readmit-names", action="store_true",
                      help="give a dropped seat to a new key with the same name (lost key)")
    host.add_argument("--restart-grace", type=float, default=10.0,
                      help="after a restart, seconds peers get to come back")
    host.add_argument("--resume", action="store_true",
                      help="resume the unfinished table in the state directory, whatever its "
                           "game and name")
    host.add_argument("--no-advertise", action="store_true",
                      help="do not advertise over mDNS (join by address only)")
    host.add_argument("--invite", type=int, action="append", metavar="SEAT",
                      help="print a code for SEAT, for a player in another house (repeatable)")
    host.add_argument("--invite-watcher", action="store_true",
                      help="print a code for someone in another house to watch (the next one "
                           "once it is used)")
    host.add_argument("--watching", default=True, action=argparse.BooleanOptionalAction,
                      help="let people watch the table (--no-watching: nobody may)")
    host.add_argument("--max-watchers", type=int, default=MAX_WATCHERS,
                      help=f"how many may watch at once (default {MAX_WATCHERS})")
    _common(host)
    join = sub.add_parser("join", help="join a table and play it with a bot")
    where = join.add_mutually_exclusive_group()
    where.add_argument("--table", help="table name to look for over mDNS")
    where.add_argument("--address", help="HOST:PORT of the table")
    where.add_argument("--code", help="the code the host read out (a table in another house)")
    where.add_argument("--rejoin", action="store_true",
                       help="the table this state directory last held a seat at (--remember)")
    join.add_argument("--remember", action="store_true",
                      help="keep where this seat is in the state directory, as the app does")
    join.add_argument("--fingerprint", help="the host key's fingerprint to pin")
    join.add_argument("--bot", choices=ALL_LEVELS,
                      help="the level of the bot that plays this seat (needed to play), and, "
                           "carrying the table on, of a stand-in for a dropped player")
    join.add_argument("--watch", action="store_true",
                      help="watch the table instead of playing: check it, print what happens")
    join.add_argument("--seat", type=int, help="preferred seat")
    join.add_argument("--discover-timeout", type=float, default=30.0)
    join.add_argument("--carry-on", action="store_true",
                      help="listen for the other players, and carry the table on with them "
                           "should the host leave for good (without it: follow whoever does)")
    join.add_argument("--standby-bind", help="address the --carry-on listener binds (default: all)")
    join.add_argument("--takeover-grace", type=float,
                      help="seconds after the host is gone (its app, or its computer gone "
                           "silent) before the players carry on")
    join.add_argument("--hands", type=int, help="carrying the table on: stop after this many hands")
    join.add_argument("--stand-in", type=float,
                      help="carrying the table on: a bot plays a dropped seat after SECONDS")
    _common(join)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.mailbox or args.relay:
        from net.houses import configure
        configure(args.mailbox, args.relay)
    runner = run_host if args.command == "host" else run_join
    try:
        return asyncio.run(runner(args))
    except KeyboardInterrupt:
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
