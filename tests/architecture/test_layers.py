"""The layering rule, enforced by reading the source (imports point downward only).

* ``engine/`` imports nothing from ``net/``, ``app/`` or Qt; ``net/`` nothing from
  ``app/`` or Qt.
* Nothing in ``engine/``, ``net/`` or ``app/`` imports ``tests`` (a wheel has none).
* ``app/`` reaches ``net/`` through its one door, ``net.api`` (the bundle's self-test
  excepted: it checks the layers beneath the door on purpose).
* The engine is pure: no clock (``time``, ``datetime``), no ``os``, no ambient
  randomness (``secrets``, or any use of the ``random`` module other than a private,
  seeded ``random.Random``). The command-line entry points (replay, bench, demo, arena)
  are the exceptions that may read files and the clock.
* ``net/trust/``'s rooms say whose side they are on: its top (what both sides use)
  imports neither ``host/`` nor ``peer/``; ``peer/`` never imports ``host/``; ``host/``
  reads ``peer/`` only where listed (the successor, built from a player's replica).

Imports are found with ``ast`` anywhere in a file (inside functions too), including
``importlib.import_module("…")`` and ``__import__("…")`` with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture.trees import parsed

ROOT = Path(__file__).resolve().parents[2]
QT = {"PySide6", "shiboken6", "PyQt5", "PyQt6", "PySide2"}
ENGINE_FORBIDDEN = {"net", "app"} | QT
NET_FORBIDDEN = {"app"} | QT
SHIPPED = ("engine", "net", "app")  # the packages a wheel carries (pyproject.toml)
IMPURE = {"time", "datetime", "os", "secrets"}
# Command-line entry points, listed one by one so that a new exception is a decision.
# The app's modules that may reach past net.api, each a decision.
PAST_THE_DOOR = {"app/selftest.py": "the bundle's self-test: TLS, framing, mDNS adverts and "
                                     "a host and guest core, each checked on its own"}
# The host's modules that may read a peer's side, each a decision.
HOST_READS_PEER = {"net/trust/host/successor.py": "a player's checked replica becomes the "
                                                  "table's authority at a takeover"}
ENGINE_CLI = {"engine/replay.py", "engine/bench.py", "engine/demo.py",
              "engine/arena.py",  # arena: bot-versus-bot matches, times decisions
              "engine/arena_runs.py"}  # a long arena run in resumable chunks, in a file


def imported_modules(source: str | ast.Module) -> list[tuple[int, str]]:
    """(line, absolute top-level-qualified name) for every import in ``source`` (its
    text, or its tree); relative imports come back as "." names (they stay inside
    their own package)."""
    found = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append((node.lineno, "." + (node.module or "")))
            else:
                found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and _is_dynamic_import(node):
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, arg.value))
    return found


def _is_dynamic_import(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def top(name: str) -> str:
    return name.split(".")[0]


def random_misuse(source: str | ast.Module) -> list[tuple[int, str]]:
    """Uses of the ``random`` module other than constructing ``random.Random`` (``source``:
    the text, or its tree)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    aliases = {"random"}
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "random"}
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            bad += [(node.lineno, f"from random import {a.name}")
                    for a in node.names if a.name != "Random"]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr != "Random"):
            bad.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return bad


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def violations(package: str, forbidden: set[str]) -> list[str]:
    out = []
    for path in sources(package):
        for line, name in imported_modules(parsed(path)):
            if top(name) in forbidden:
                out.append(f"{relative(path)}:{line} imports {name}")
    return out


# -- the scanners themselves -----------------------------------------------------------
def test_the_scanner_finds_every_form_of_import():
    source = ("import PySide6.QtCore\nfrom app import cli\nimport os as o\n"
              "def f():\n    import time\n    from net.trust.host.authority import Host\n"
              "    importlib.import_module('datetime')\n    __import__('secrets')\n"
              "from . import state\n")
    names = {top(n) for _line, n in imported_modules(source)}
    assert {"PySide6", "app", "os", "time", "net", "datetime", "secrets"} <= names
    assert "." in {n[:1] for _line, n in imported_modules(source)}


def test_the_random_scanner_allows_only_a_seeded_generator():
    ok = "import random\nrng = random.Random(seed)\nfrom random import Random\n"
    assert random_misuse(ok) == []
    bad = ("import random as r\nx = r.choice([1])\nrandom.shuffle(x)\n"
           "from random import randint\n")
    assert {what for _line, what in random_misuse(bad)} == {
        "r.choice", "random.shuffle", "from random import randint"}


# -- the rules -------------------------------------------------------------------------
def test_there_is_source_to_check():
    assert len(sources("engine")) >= 10 and len(sources("net")) >= 2


def test_engine_imports_nothing_from_net_app_or_qt():
    assert violations("engine", ENGINE_FORBIDDEN) == []


def test_net_imports_nothing_from_app_or_qt():
    assert violations("net", NET_FORBIDDEN) == []


def test_the_shipped_packages_import_nothing_from_tests():
    """A wheel carries engine/, net/ and app/ and no tests/: what a tool or bench needs of
    the tests' machinery (such as the world across houses) lives in net/tools."""
    assert [v for package in SHIPPED for v in violations(package, {"tests"})] == []


def past_the_door(package: str = "app") -> list[str]:
    """Imports of ``net`` modules other than ``net.api`` (and the names it exports)."""
    out = []
    for path in sources(package):
        if relative(path) in PAST_THE_DOOR:
            continue
        for line, name in imported_modules(parsed(path)):
            if top(name) == "net" and name not in ("net", "net.api") \
                    and not name.startswith("net.api."):
                out.append(f"{relative(path)}:{line} imports {name}")
    return out


def test_the_app_reaches_net_only_through_its_door():
    assert past_the_door() == []


def test_the_door_holds_what_it_lists():
    import net.api
    for name in net.api.__all__:
        assert getattr(net.api, name) is not None, name


@pytest.mark.parametrize("path", [p for p in sources("engine") if relative(p) not in ENGINE_CLI],
                         ids=lambda p: relative(p))
def test_engine_module_uses_no_clock_os_or_ambient_randomness(path):
    source = parsed(path)
    impure = [f"line {line}: {name}" for line, name in imported_modules(source)
              if top(name) in IMPURE]
    assert impure == [], f"{relative(path)} is not pure"
    assert random_misuse(source) == [], f"{relative(path)} uses the random module's global state"


@pytest.mark.parametrize("path", [ROOT / p for p in sorted(ENGINE_CLI)], ids=sorted(ENGINE_CLI))
def test_engine_cli_modules_still_avoid_ambient_randomness(path):
    assert random_misuse(parsed(path)) == []


# -- the trust protocol's rooms ---------------------------------------------------------
def room_imports(source: str | ast.Module, rooms: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, name) for every import in ``source`` of a module in one of ``rooms``."""
    return [(line, name) for line, name in imported_modules(source)
            if any(name == room or name.startswith(room + ".") for room in rooms)]


def imports_of(paths: list[Path], rooms: tuple[str, ...]) -> list[str]:
    return [f"{relative(path)}:{line} imports {name}" for path in paths
            for line, name in room_imports(parsed(path), rooms)]


def test_the_room_scanner_finds_a_room_imported_by_any_form():
    source = ("from net.trust import host\nfrom net.trust.peer.replica import PeerReplica\n"
              "from net.trust.peerless import x\n")
    assert {name for _line, name in room_imports(source, ("net.trust.host", "net.trust.peer"))} \
        == {"net.trust.host", "net.trust.peer.replica", "net.trust.peer.replica.PeerReplica"}


def test_what_both_sides_use_imports_neither_sides_room():
    shared = sorted((ROOT / "net" / "trust").glob("*.py"))
    assert len(shared) >= 5
    assert imports_of(shared, ("net.trust.host", "net.trust.peer")) == []


def test_a_peers_side_never_imports_the_hosts():
    assert sources("net/trust/peer")
    assert imports_of(sources("net/trust/peer"), ("net.trust.host",)) == []


def test_the_hosts_side_reads_a_peers_only_where_listed():
    host = [p for p in sources("net/trust/host") if relative(p) not in HOST_READS_PEER]
    assert host and imports_of(host, ("net.trust.peer",)) == []
    for listed in HOST_READS_PEER:
        assert imports_of([ROOT / listed], ("net.trust.peer",)), f"{listed} no longer needs listing"


def test_a_deals_host_side_never_imports_a_peers_room():
    """``deals/host.py`` and each deal's ``host.py`` are the host's side of a hand's deal."""
    host_side = sorted((ROOT / "net" / "trust" / "deals").rglob("host.py"))
    assert len(host_side) >= 3
    assert imports_of(host_side, ("net.trust.peer", "net.trust.replay")) == []


def test_the_replay_sits_below_the_replica_and_the_deals():
    """A hand's replay (``replay/``) is what the replica (``peer/``) and each deal's peer
    half check with: it imports neither, and the deals never import the replica — the two
    once imported each other."""
    assert sources("net/trust/replay")
    assert imports_of(sources("net/trust/replay"),
                      ("net.trust.peer", "net.trust.deals", "net.trust.host")) == []
    assert imports_of(sources("net/trust/deals"), ("net.trust.peer",)) == []


# -- net/'s own floors -------------------------------------------------------------------
#: net/'s rooms, floor by floor from the bottom: a room imports only rooms on a floor below
#: its own (and itself). Rooms on one floor do not import each other.
NET_FLOORS: tuple[tuple[str, ...], ...] = (
    ("net.constants",),
    ("net.wire",),  # connections, frames, addresses: the names of a house address included
    ("net.trust", "net.adverts"),  # the signed log and its checks; what a table advertises
    ("net.houses", "net.discovery"),  # across houses (gives the wire its dialler:
    # transport.reach_houses_with); the lobby's mDNS
    ("net.sessions",),  # a table with sockets, disk and timers
    ("net.cli", "net.api"),  # the command line; the app's one door
    ("net.tools",),  # benches, vectors, test namespaces: apart from the product
)


def net_room(name: str) -> str | None:
    """The room of ``net/`` that the module ``name`` belongs to (None: not net's)."""
    for floor in NET_FLOORS:
        for room in floor:
            if name == room or name.startswith(room + "."):
                return room
    return None


def floor_of(room: str) -> int:
    return next(i for i, floor in enumerate(NET_FLOORS) if room in floor)


def net_arrows_up_or_across() -> list[str]:
    out = []
    for path in sources("net"):
        module = relative(path).removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        here = net_room(module)
        if here is None:
            continue  # net/__init__.py
        for line, name in imported_modules(parsed(path)):
            there = net_room(name)
            if there is not None and there != here and floor_of(there) >= floor_of(here):
                out.append(f"{relative(path)}:{line} ({here}, floor {floor_of(here)}) imports "
                           f"{name} ({there}, floor {floor_of(there)})")
    return out


def test_every_room_of_net_has_a_floor():
    rooms = {p.name.removesuffix(".py") for p in (ROOT / "net").iterdir()
             if p.name != "__init__.py" and p.name != "__pycache__"
             and (p.suffix == ".py" or (p / "__init__.py").exists())}
    placed = {room.split(".")[1] for floor in NET_FLOORS for room in floor}
    assert rooms == placed, f"rooms without a floor: {rooms - placed}; floors without a room: {placed - rooms}"


def test_net_rooms_import_only_floors_below_their_own():
    assert net_arrows_up_or_across() == []


def test_the_floor_scanner_sees_the_wire_reaching_up():
    assert floor_of(net_room("net.houses.links")) > floor_of(net_room("net.wire.transport"))
    assert net_room("net.trustees") is None and net_room("net.trust.host.authority") == "net.trust"
