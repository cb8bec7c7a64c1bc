"""A network provider for GUI tests: real HostSession/GuestSession on 127.0.0.1 only.

``LoopbackNetwork`` is what ``MainWindow(network=…)`` gets instead of ``net.sessions.network.
NETWORK`` (which uses every real interface and the user's identity): hosts bind
127.0.0.1 and advertise nothing, guests connect to 127.0.0.1, identities are made per
test and state lives in the test's tmp directory. Timings are the quick test ones.
"""

from __future__ import annotations

import threading
from pathlib import Path

from app.lobby import StaticDirectory
from net.wire.heartbeat import Timings
from tests.net.trust_table import identity as ident  # one key per name per run
from net.sessions.session import GuestSession, HostSession

# Quick timings, but a link silent for 5 s before it counts as dropped (tests/net/session_kit.py
# says why).
QUICK = Timings.quick(timeout=5.0)


class LoopbackNetwork:
    def __init__(self, tmp: Path, host_kw: dict | None = None, guest_kw: dict | None = None,
                 directory=None):
        self.tmp = Path(tmp)
        self.host_kw = dict(host_kw or {})
        self.guest_kw = dict(guest_kw or {})
        self._directory = directory or StaticDirectory()
        self.sessions: list = []

    def host(self, settings: dict, name: str, on_event) -> HostSession:
        session = HostSession(on_event, settings, ident(name or "Host"),
                              state_dir=self.tmp / "gui-host", **{"timings": QUICK, **self.host_kw})
        self.sessions.append(session)
        return session

    def join(self, table, name: str, on_event, watch: bool = False) -> GuestSession:
        if isinstance(table, str):
            address, _, port = table.rpartition(":")
            table = {"address": address, "port": int(port), "fingerprint": None}
        assert table["address"] == "127.0.0.1"  # never anything but loopback here
        kw = {"give_up": 40, "timings": QUICK, **self.guest_kw,
              **({"watch": True, "bot_level": None} if watch else {})}
        session = GuestSession(on_event, ident(name or "Guest"), address="127.0.0.1",
                               port=table["port"], fingerprint=table.get("fingerprint"),
                               table_name=table.get("name"), state_dir=self.tmp / "gui-guest", **kw)
        self.sessions.append(session)
        return session

    def directory(self):
        return self._directory


class Recorder:
    """``on_event`` for a headless session: keeps every event (any thread)."""

    def __init__(self):
        self.events: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, event: dict) -> None:
        with self.lock:
            self.events.append(event)

    def of(self, kind: str) -> list[dict]:
        with self.lock:
            return [e for e in self.events if e.get("type") == kind]




def table_info(host: HostSession, name: str = "Test table") -> dict:
    """A lobby TableInfo for a headless host on loopback."""
    core = host.core
    return {"id": core.table, "name": name, "game": core.game.id, "ruleset": core.game.ruleset.id,
            "mode": core.game.mode, "host": core.identity.name,
            "fingerprint": core.identity.fingerprint, "open_seats": 1, "in_game": False,
            "address": "127.0.0.1", "port": core.port, "protocol": 1}
