"""The bundle plays a hand across houses: a code, the mailbox, Dilation's connection.

The self-test cannot reach magic-wormhole (it needs a mailbox and a relay), yet the
bundle carries the whole stack for it — Twisted, autobahn, spake2, noise, PyNaCl — and a
module left out would break only this. So ``check_bundle.py`` runs this: in a private
network namespace holding only ``lo``, the mailbox (``twist wormhole-mailbox``) and the
transit relay (``twist transitrelay``) listen on 127.0.0.1, the bundle's ``parlour host``
invites seat 3 of a Rook table (its other seats its bots), and the bundle's ``parlour
join --code`` takes that seat by the code the host printed. It passes when the host has
played its hand to the end, the code is used, and the guest verified the hand with no
alert and the host's scores.

    python packaging/houses_check.py dist/parlour

``twist`` and the two servers come with the test extra (``make`` installs it into .venv);
without them, or without a network namespace, the check is skipped, saying why.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
import xdesktop  # noqa: E402 - next to this file: private_network()

LOOPBACK = "127.0.0.1"
SERVER_WAIT = 60.0   # seconds for a server to listen: Twisted starts in about one
HAND_WAIT = 240.0    # seconds for the whole hand; it takes a few


def twist() -> str | None:
    """Twisted's ``twist`` beside this Python (the test extra brings it and the servers)."""
    here = Path(sys.executable).with_name("twist")
    return str(here) if here.exists() else shutil.which("twist")


def unavailable_reason() -> str | None:
    if twist() is None:
        return "Twisted's `twist` is not beside this Python (the test extra brings it)"
    for module in ("wormhole_mailbox_server", "wormhole_transit_relay"):
        if subprocess.run([sys.executable, "-c", f"import {module}"],
                          capture_output=True).returncode:
            return f"{module} is not installed (the test extra brings it)"
    if xdesktop.private_network() is None:
        return "cannot make a private network namespace (unshare --net)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def wait_listening(port: int, timeout: float = SERVER_WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {LOOPBACK}:{port} after {timeout:.0f} s")


class Program:
    """A bundle command whose JSON lines (``parlour host``/``join``) are read as they come."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env, cwd=cwd)
        self.events: list[dict] = []
        self.stderr: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self) -> None:
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.changed:
                self.events.append(event)
                self.changed.notify_all()

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

    def wait_for(self, kind: str, where: Callable[[dict], bool] = lambda e: True,
                 timeout: float = 60.0) -> dict:
        def found() -> dict | None:
            return next((e for e in self.events if e.get("event") == kind and where(e)), None)
        with self.changed:
            if not self.changed.wait_for(lambda: found() or self.proc.poll() is not None,
                                         timeout):
                raise RuntimeError(f"no {kind} event after {timeout:.0f} s; "
                                   f"stderr: {''.join(self.stderr)[-1500:]}")
        event = found()
        if event is None:
            self.proc.wait(5)
            time.sleep(0.2)  # the reader may still hold the last lines
            event = found()
        if event is None:
            raise RuntimeError(f"exited {self.proc.returncode} before any {kind} event; "
                               f"stderr: {''.join(self.stderr)[-1500:]}")
        return event

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def play(bundle: Path, work: Path) -> str:
    """Inside the namespace: the servers, then the host and the guest; what it saw, or
    RuntimeError saying what went wrong."""
    subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True)
    mailbox_port, relay_port = free_port(), free_port()
    servers = []
    # the bundle is the program under test: nothing of this checkout's Python reaches it
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    programs: list[Program] = []
    try:
        for name, args, port in (
                ("mailbox", ["wormhole-mailbox", f"--port=tcp:{mailbox_port}:interface={LOOPBACK}",
                             f"--channel-db={work / 'mailbox.sqlite'}"], mailbox_port),
                ("relay", ["transitrelay", f"--port=tcp:{relay_port}:interface={LOOPBACK}"],
                 relay_port)):
            log = open(work / f"{name}.log", "wb")
            servers.append(subprocess.Popen([twist(), *args], stdout=log,
                                            stderr=subprocess.STDOUT, cwd=work))
            wait_listening(port)
        houses = ["--mailbox", f"ws://{LOOPBACK}:{mailbox_port}/v1",
                  "--relay", f"tcp:{LOOPBACK}:{relay_port}"]
        parlour = str(bundle / "parlour")
        host = Program([parlour, "host", "--game", "rook", "--table", "Across houses",
                        "--bind", LOOPBACK, "--no-advertise", "--bots", "2",
                        "--bot-level", "random", "--invite", "3", "--hands", "1", "--quick",
                        "--state-dir", str(work / "host"), *houses], env, work)
        programs.append(host)
        code = host.wait_for("invite", lambda e: e.get("state") == "waiting")["code"]
        guest = Program([parlour, "join", "--code", code, "--bot", "random", "--quick",
                         "--state-dir", str(work / "guest"), *houses], env, work)
        programs.append(guest)
        result = host.wait_for("result", timeout=HAND_WAIT)
        summary = guest.wait_for("summary", timeout=HAND_WAIT)
        used = [e for e in host.events if e.get("event") == "invite" and e.get("state") == "used"]
        if summary.get("alerts") or summary.get("hands_verified") != 1:
            raise RuntimeError(f"the guest did not verify the hand: {summary}")
        if summary.get("scores") != result.get("scores") or not used:
            raise RuntimeError(f"the host's result {result} and the guest's {summary} "
                               f"disagree, or the code was never used ({len(used)} used)")
        return (f"a Rook hand by code through the mailbox and Dilation, verified by the "
                f"guest (seat {summary.get('seat')}, scores {result['scores']}, "
                f"{result['head'] + 1} log entries)")
    finally:
        for program in programs:
            program.stop()
        for server in servers:
            server.terminate()
            server.wait(10)


def check(bundle: Path) -> bool:
    """Run ``play`` in a private network namespace; print one line, ``check-houses: …``."""
    reason = unavailable_reason()
    if reason:
        print(f"check-houses: skipped — {reason}", flush=True)
        return True
    command = [*xdesktop.private_network(), sys.executable, __file__, "--inside",
               str(bundle.resolve())]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=HAND_WAIT + 120)
    except subprocess.TimeoutExpired:
        print("check-houses: FAILED — the hand across houses did not end in time", flush=True)
        return False
    said = (done.stdout.strip().splitlines() or [""])[-1]
    ok = done.returncode == 0 and said.startswith("ok")
    print(f"check-houses: {said if ok else 'FAILED — ' + (said or done.stderr[-1500:])}",
          flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--inside", action="store_true",
                        help="(internal) already in the private network namespace")
    args = parser.parse_args(argv)
    if not args.inside:
        return 0 if check(args.bundle) else 1
    with tempfile.TemporaryDirectory(prefix="parlour-houses-") as tmp:
        try:
            print(f"ok — {play(args.bundle, Path(tmp))}", flush=True)
        except (RuntimeError, OSError, KeyError) as exc:
            print(f"{type(exc).__name__}: {exc}", flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
