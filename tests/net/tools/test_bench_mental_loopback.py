"""The loopback benchmark of the mental-poker deal runs (one process: a smoke run)."""

from net.tools import bench_mental_loopback


def test_the_loopback_benchmark_deals_plays_and_prints_its_figures(capsys):
    assert bench_mental_loopback.main(["--runs", "1", "--plays", "3", "--one-process"]) == 0
    out = capsys.readouterr().out
    for line in ("A four-human deal on loopback", "rook ", "somerset ", "horseshoes ",
                 "A played card", "critical path", "mental-shuffle", "mental-play"):
        assert line in out
