"""What a headless ``parlour`` process imports to start: not the libraries only some
paths use. A guest joining by address and a host that does not advertise (most of the
suite's ~250 process starts, and a table across houses before its code) import neither
zeroconf (mDNS: ~25 ms of CPU) nor Twisted and magic-wormhole (across houses: ~0.4 s),
nor ``importlib.metadata`` (read only for a bug report)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.net.proc_kit import REPO, env

ONLY_WHEN_USED = ("zeroconf", "ifaddr", "twisted", "wormhole", "importlib.metadata")


def test_a_peer_starts_without_the_libraries_of_paths_it_does_not_take():
    probe = ("import json, sys\n"
             "import net.cli, net.sessions.host_session, net.sessions.guest_session\n"
             f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
             f"{ONLY_WHEN_USED!r} or m in {ONLY_WHEN_USED!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env(), cwd=str(REPO), timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded == [], f"imported at start: {loaded}"

