"""Helpers for tests that run ``parlour host`` / ``parlour join`` as real processes.

A ``Peer`` is one process whose stdout (JSON lines) is read by a thread into a list, so
tests poll for the lines they need with bounded deadlines. Everything is killed at the
end, whatever happened.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Beside ``--quick``, for a test whose subject is no timing: a healthy peer starved of CPU
# (a loaded machine, CI beside a CPU hog) is neither dropped (the quick timings: 1 s of
# silence) nor gone on without by the deal (a 2 s deadline): under the private deal that
# restarted healthy guests out of deals, and a whole game took minutes longer.
PATIENT = ("--timeout", "5", "--deadline", "60")


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), e.get("PYTHONPATH")) if p)
    e["PYTHONUNBUFFERED"] = "1"
    return e


class Peer:
    """``python -m net.cli ARGS`` — or ``python SCRIPT ARGS`` — with its JSON lines read."""

    def __init__(self, args: list[str], ns=None, name: str = "", script: str | None = None):
        self.name = name
        argv = [sys.executable, *([script] if script else ["-m", "net.cli"]), *args]
        if ns is not None:
            argv = ns.argv(*argv)
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env(), cwd=str(REPO))
        self.lines: list[dict] = []
        self.stderr: list[str] = []
        self._threads = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._read_err, daemon=True)]
        for t in self._threads:
            t.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                self.stderr.append("stdout: " + line)

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

    def events(self, kind: str) -> list[dict]:
        return [e for e in list(self.lines) if e.get("event") == kind]

    def wait_event(self, kind: str, timeout: float = 30.0, where=lambda e: True) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [e for e in self.events(kind) if where(e)]
            if found:
                return found[0]
            if self.proc.poll() is not None and not [e for e in self.events(kind) if where(e)]:
                time.sleep(0.05)  # let the reader thread drain the last lines
                found = [e for e in self.events(kind) if where(e)]
                if found:
                    return found[0]
                raise AssertionError(f"{self.name} exited ({self.proc.returncode}) without "
                                     f"{kind}: {''.join(self.stderr)[-2000:]}")
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no {kind} within {timeout}s; "
                             f"stderr: {''.join(self.stderr)[-2000:]}")

    def wait(self, timeout: float = 60.0) -> int:
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {timeout}s; "
                                 f"last lines {self.lines[-3:]}; stderr {''.join(self.stderr)[-2000:]}")
        for t in self._threads:
            t.join(5)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def summary(self) -> dict:
        return self.wait_event("summary", timeout=1)


class Peers:
    """Every process a test started, killed at exit."""

    def __init__(self):
        self.all: list[Peer] = []

    def start(self, args, ns=None, name="", script=None) -> Peer:
        peer = Peer([str(a) for a in args], ns=ns, name=name or args[0], script=script)
        self.all.append(peer)
        return peer

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for peer in self.all:
            peer.kill()




def check_summaries(joiners: list[Peer], hands: int, head: int | None = None) -> list[dict]:
    summaries = []
    for j in joiners:
        code = j.wait()
        s = j.summary()
        assert code == 0, (code, s, "".join(j.stderr)[-2000:])
        assert s["alerts"] == [] and s["hands_verified"] == hands, s
        if head is not None:
            assert s["head"] == head, s
        summaries.append(s)
    return summaries
