"""The test world across houses: two houses behind NAT routers, an "internet" namespace
running the mailbox (``twist wormhole-mailbox``) and the transit relay (``twist
transitrelay``) on its own address, nothing routed anywhere else (net/tools/netns.py).

``World`` starts and stops the two servers (``mailbox_down``/``mailbox_up`` for the test
of an unreachable mailbox), and gives the ``parlour`` command-line arguments that point
at them; ``unavailable_reason`` says why it cannot be made here (namespaces, iptables or
the servers missing). Used by the tests across houses (tests/net/houses, whose fixture
skips for that reason), by ``net.tools.bench_houses``, and by hand (``main``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from net.tools import netns

MAILBOX_PORT = 4000
RELAY_PORT = 4001


def unavailable_reason() -> str | None:
    reason = netns.houses_unavailable_reason()
    if reason:
        return reason
    for module, package in (("wormhole", "magic-wormhole[dilate]"),
                            ("wormhole_mailbox_server", "magic-wormhole-mailbox-server"),
                            ("wormhole_transit_relay", "magic-wormhole-transit-relay")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed (`make .venv/.installed` installs it)"
    if _twist() is None:
        return "Twisted's `twist` command is not next to this Python"
    return None


def _twist() -> str | None:
    here = Path(sys.executable).with_name("twist")
    return str(here) if here.exists() else shutil.which("twist")


class World:
    def __init__(self, houses: netns.Houses, tmp: Path):
        self.houses = houses
        self.tmp = tmp
        self.internet = houses.internet
        self.servers: dict[str, subprocess.Popen] = {}

    @property
    def mailbox(self) -> str:
        return f"ws://{self.internet.address}:{MAILBOX_PORT}/v1"

    @property
    def relay(self) -> str:
        return f"tcp:{self.internet.address}:{RELAY_PORT}"

    def args(self) -> list[str]:
        """What ``parlour host``/``join`` are told to use."""
        return ["--mailbox", self.mailbox, "--relay", self.relay]

    def start(self) -> None:
        self.mailbox_up()
        self._serve("relay", ["transitrelay", f"--port=tcp:{RELAY_PORT}:interface={self.internet.address}"],
                    RELAY_PORT)

    def mailbox_up(self) -> None:
        self._serve("mailbox", ["wormhole-mailbox",
                                f"--port=tcp:{MAILBOX_PORT}:interface={self.internet.address}",
                                f"--channel-db={self.tmp / 'mailbox.sqlite'}"], MAILBOX_PORT)

    def mailbox_down(self) -> None:
        self._stop("mailbox")

    def said_at(self, nameplate: str) -> dict[str, set[str]]:
        """What the sides at a code's nameplate (its number) have said in its mailbox so
        far: each phase ("pake": a side's key; "version": its confirmation, sent once it
        has the other's key), and the sides that said it. A test sees by it how far a
        guest got while its host could not answer."""
        uri = f"file:{self.tmp / 'mailbox.sqlite'}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=5)) as db:
            rows = db.execute("SELECT m.phase, m.side FROM messages m JOIN nameplates n"
                              " ON n.mailbox_id = m.mailbox_id AND n.app_id = m.app_id"
                              " WHERE n.name = ?", (nameplate,)).fetchall()
        said: dict[str, set[str]] = {}
        for phase, side in rows:
            said.setdefault(str(phase), set()).add(str(side))
        return said

    def _serve(self, name: str, args: list[str], port: int) -> None:
        twist = _twist()
        if twist is None:  # (``unavailable_reason`` says so before a world is made)
            raise RuntimeError("Twisted's `twist` command is not next to this Python")
        log = open(self.tmp / f"{name}.log", "ab")
        self.servers[name] = self.internet.popen(twist, *args, stdout=log, stderr=subprocess.STDOUT,
                                                 cwd=str(self.tmp))
        deadline = time.monotonic() + 30
        while not self._listening(port):
            if self.servers[name].poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the {name} did not start: "
                                     f"{(self.tmp / f'{name}.log').read_text()[-2000:]}")
            time.sleep(0.1)

    def _listening(self, port: int) -> bool:
        out = self.internet.run("ss", "-ltnH", check=False).stdout
        return f"{self.internet.address}:{port} " in out

    def _stop(self, name: str) -> None:
        proc = self.servers.pop(name, None)
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def stop(self) -> None:
        for name in list(self.servers):
            self._stop(name)


def main() -> int:
    """``python -m net.tools.houses_world``: the world kept up to try Parlour across houses
    by hand (root needed); prints the namespaces and the servers' addresses, and takes it
    all down again on Ctrl-C (or SIGTERM)."""
    import signal
    import tempfile
    reason = unavailable_reason()
    if reason:
        print(f"the houses' world cannot be made here: {reason}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    with netns.houses((2, 2)) as houses, tempfile.TemporaryDirectory() as tmp:
        world = World(houses, Path(tmp))
        world.start()
        try:
            for h, home in enumerate(houses.homes):
                for ns in home:
                    print(f"house {'AB'[h]}: ip netns {ns.name} at {ns.address}")
            print(f"Settings -> Invitation service: {world.mailbox}")
            print(f"Settings -> Relay: {world.relay}", flush=True)
            signal.pause()
        except KeyboardInterrupt:
            pass
        finally:
            world.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
