"""bench_takeover's restart figure: a restarted guest reads most of the log from its own
copy, and is sent the rest (its copy deleted: all of it)."""

import asyncio

from net.tools.bench_takeover import restart_once


def test_a_restarted_guest_is_measured_reading_its_copy_and_fetching_the_rest(tmp_path):
    kept = asyncio.run(restart_once(tmp_path / "kept", after_hands=1))
    assert kept["disk"] > kept["fetched"] > 0 and kept["disk"] + kept["fetched"] >= kept["head"]
    gone = asyncio.run(restart_once(tmp_path / "gone", after_hands=1, copy=False))
    assert gone["disk"] == 0 and gone["fetched"] >= gone["head"]
