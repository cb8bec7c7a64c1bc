"""packaging/houses_check.py: the check that the bundle plays a hand across houses
(check_bundle.py runs it on the real bundle; here, that it fails when it should)."""

from __future__ import annotations

import pytest

# Two Twisted servers in a network namespace, then the program: 20 s beside a CPU hog,
# 70 s at load 15, nearly all of it waiting for processes (the slow tier's kind of test).
pytestmark = pytest.mark.slow


def test_a_bundle_that_cannot_play_across_houses_fails_the_check(houses_check, tmp_path,
                                                                  capsys):
    reason = houses_check.unavailable_reason()
    if reason:
        pytest.skip(reason)
    broken = tmp_path / "parlour-bundle"
    broken.mkdir()
    program = broken / "parlour"
    program.write_text("#!/bin/sh\necho 'no wormhole in here' >&2\nexit 3\n")
    program.chmod(0o755)
    assert houses_check.check(broken) is False
    said = capsys.readouterr().out
    assert said.startswith("check-houses: FAILED"), said
    assert "before any invite event" in said and "no wormhole in here" in said, said
