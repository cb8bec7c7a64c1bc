"""The mental-poker benchmark runs and prints every section (figures are not judged here)."""

from net.tools import bench_mental


def test_the_benchmark_prints_every_section(capsys, monkeypatch):
    # Each group operation timed 5 x 3 times, not 5 x 300-1000: the figures are not judged
    # here, and the operations are run all the same.
    timed = bench_mental.micro
    monkeypatch.setattr(bench_mental, "micro", lambda call, number=300: timed(call, 3))
    assert bench_mental.main(["--runs", "1", "--plays", "2"]) == 0
    out = capsys.readouterr().out
    for heading in ("1. Group operations", "2. A deal among 4 human players", "Rook (57 cards)",
                    "Somerset (50 cards)", "Horseshoes (52 cards)", "variable-base mult",
                    "checking the others' shuffles", "the party's whole deal",
                    "3. A played card", "4. At one party", "5. Message sizes", "mental-shuffle"):
        assert heading in out
