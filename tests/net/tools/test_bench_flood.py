"""bench_flood's per-connection figure runs: a flood of idle connections that join, and
the host's memory divided by the connections it holds in its waiting room."""

import json

from net.tools import bench_flood


def test_the_memory_per_idle_connection_is_measured(capsys):
    assert bench_flood.main(["per-connection", "--count", "20"]) == 0
    measured = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(measured) == {"kib"} and isinstance(measured["kib"], float)
