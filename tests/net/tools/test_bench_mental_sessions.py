"""The sessions' benchmark of the mental deal runs (a smoke run: one hand of one title)."""

from net.tools import bench_mental_sessions


def test_the_sessions_benchmark_deals_plays_and_prints_its_figures(capsys):
    assert bench_mental_sessions.main(["--hands", "1", "--game", "horseshoes"]) == 0
    out = capsys.readouterr().out
    for line in ("horseshoes: 4 humans", "one process", "mental deal (mental-deal -> mental-dealt)",
                 "a card, mental deal", "a card, seeded deal", "a card, one human, local",
                 "extra cost per card", "CPU per card (all parties)", "CPU per card by part",
                 "host, a peer's move:", "guests, each entry:", "bots, deciding:"):
        assert line in out
