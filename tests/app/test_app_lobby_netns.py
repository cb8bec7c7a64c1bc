"""The lobby lists a table a headless ``parlour host`` advertises over mDNS, and drops
it when the host closes; a host killed without a goodbye is marked "not answering",
cannot be joined, and leaves the list — in a private network namespace (only ``lo``, multicast on),
so the browse and the advert never touch a real interface. The Qt side runs in a child
process inside the namespace (tests/app/lobby_in_namespace.py) with the host."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from net.tools import netns

SCRIPT = Path(__file__).with_name("lobby_in_namespace.py")


@pytest.fixture(scope="module")
def namespace_run(tmp_path_factory) -> dict:
    """What the script saw, run once in a namespace of its own for this module's tests."""
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(f"network namespaces unavailable: {reason}")
    with netns.private_namespace() as ns:
        proc = ns.python(str(SCRIPT), str(tmp_path_factory.mktemp("lobby")), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        try:
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, (out, err[-3000:])
    return json.loads(lines[-1])


def test_the_lobby_lists_a_table_advertised_in_the_namespace_and_drops_it(namespace_run):
    seen = namespace_run
    assert seen["ok"] and seen["gone"]
    assert "Namespace table" in seen["listed"] and "host Hostess" in seen["listed"]
    assert seen["open_after_join"] == seen["open_before"] - 1 == 2
    assert seen["setup_title"] == "Namespace table — Rook"
    print("table visible in the lobby after", seen["appeared_after_ms"], "ms")


def test_a_killed_hosts_table_is_marked_not_answering_then_leaves_the_lobby(namespace_run):
    """Seen as a family plays: a host's laptop closed (or its program killed) sends no mDNS
    goodbye, and its table stayed "game in progress", Join clickable, for many minutes."""
    seen = namespace_run
    assert seen["joinable_before"] is True
    assert "Killed table" in seen["marked"] and "not answering" in seen["marked"], seen
    assert seen["joinable_after"] is False
    assert seen["killed_gone_after_ms"] >= seen["marked_after_ms"]
    print("killed host marked after", seen["marked_after_ms"], "ms, gone after",
          seen["killed_gone_after_ms"], "ms (quick checks)")
