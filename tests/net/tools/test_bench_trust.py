"""bench_trust's counts: the host parses each move once and applies it once."""

from net.tools.bench_trust import count_per_move


def test_the_host_parses_and_applies_each_move_once():
    counts = count_per_move(hands=1, seed=2)
    assert counts["moves"] > 20
    assert counts["parse"] == 1 and counts["apply"] == 1
