"""The loopback benchmark of the mental-poker deal runs (one process: a smoke run)."""

from net.tools import bench_mental_loopback


def test_the_loopback_benchmark_deals_plays_and_prints_its_figures(capsys):
    assert bench_mental_loopback.main(["--runs", "1", "--plays", "3", "--one-process"]) == 0
    out = capsys.readouterr().out
    for line in ("A four-human deal on loopback", "rook ", "somerset ", "horseshoes ",
                 "A played card", "critical path", "mental-shuffle", "mental-play"):
        assert line in out


def test_each_partys_proof_costs_and_the_four_together():
    """Separate processes: the host's and a guest's medians, then all four parties' CPU
    (the host's + 3 × a guest's), in ms from the µs each party reported."""
    proofs = {"host": {"rook": [[10_000, 20_000, 100_000, 200_000]]},
              "guests": {"rook": [[10_000, 30_000, 150_000, 250_000]] * 3}}
    lines = bench_mental_loopback._proof_lines({"deal": {"rook": [0.2]}, "proofs": proofs}, False)
    assert "the host" in lines[0] and "proving  30.0 ms" in lines[0] and "checking 100.0 ms" in lines[0]
    assert "a guest" in lines[1] and "the whole deal  250.0 ms" in lines[1]
    assert lines[2].endswith(" 950.0 ms")
