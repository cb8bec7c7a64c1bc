"""The lobby lists a table a headless ``parlour host`` advertises over mDNS, and drops
it when the host closes — in a private network namespace (only ``lo``, multicast on),
so the browse and the advert never touch a real interface. The Qt side runs in a child
process inside the namespace (tests/app/lobby_in_namespace.py) with the host."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from net.tools import netns

SCRIPT = Path(__file__).with_name("lobby_in_namespace.py")


def test_the_lobby_lists_a_table_advertised_in_the_namespace_and_drops_it(tmp_path):
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(f"network namespaces unavailable: {reason}")
    with netns.private_namespace() as ns:
        proc = ns.python(str(SCRIPT), str(tmp_path), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        try:
            out, err = proc.communicate(timeout=90)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, (out, err[-3000:])
    seen = json.loads(lines[-1])
    assert seen["ok"] and seen["gone"]
    assert "Namespace table" in seen["listed"] and "host Hostess" in seen["listed"]
    assert seen["open_after_join"] == seen["open_before"] - 1 == 2
    assert seen["setup_title"] == "Namespace table — Rook"
    print("table visible in the lobby after", seen["appeared_after_ms"], "ms")
