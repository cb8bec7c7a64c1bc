"""Arena smoke runs: a couple of seeded hands or a short game, the report's shape, and
counts that add up."""

from __future__ import annotations

import json

import pytest

from engine import arena

KEYS = {"win_rate_a", "ci95", "margin", "decision_ms", "made_rate_a", "games", "hands",
        "wins_a", "ties"}


@pytest.mark.parametrize("game_id,mode", [("rook", None), ("somerset", None),
                                          ("horseshoes", "three"), ("horseshoes", "partners")])
def test_hands_report_shape_and_counts(game_id, mode):
    report = arena.run(game_id, "normal", "easy", hands=2, seed=1, mode=mode)
    assert KEYS <= set(report)
    assert report["games"] == report["hands"] == 2
    assert 0 <= report["wins_a"] <= 2 and report["ties"] <= 2
    lo, hi = report["ci95"]
    assert 0 <= lo <= report["win_rate_a"] <= hi <= 1
    assert set(report["decision_ms"]) == {"median", "p95", "count"}
    assert report["decision_ms"]["count"] > 0 and report["decision_ms_b"]["count"] > 0
    assert report["decision_ms"]["median"] <= report["decision_ms"]["p95"]
    if game_id == "horseshoes":
        assert report["made_rate_a"] is None
        assert report["penalty_a"] >= 0 and report["penalty_b"] >= 0
        # margin is A's average penalty minus B's
        assert report["margin"] == pytest.approx(report["penalty_a"] - report["penalty_b"], abs=0.02)
    else:
        assert report["bids_a"] + report["bids_b"] <= report["hands"]
        for who in ("a", "b"):
            made = report[f"made_rate_{who}"]
            assert made is None or 0 <= made <= 1


def test_seating_alternates_and_results_repeat():
    first = arena.run("horseshoes", "easy", "normal", hands=4, seed=3, mode="four")
    again = arena.run("horseshoes", "easy", "normal", hands=4, seed=3, mode="four")
    for key in ("wins_a", "ties", "margin", "penalty_a", "penalty_b"):
        assert first[key] == again[key]
    game = arena.make_game("rook")
    a = arena.Arena(game, "easy", "normal", bytes(32))
    assert a.lineup(0) == ["a", "b", "a", "b"] and a.lineup(1) == ["b", "a", "b", "a"]
    assert a.table_seed(0) == a.table_seed(1) != a.table_seed(2)
    three = arena.Arena(arena.make_game("horseshoes", None, "three"), "easy", "normal", bytes(32))
    assert [three.lineup(i).index("a") for i in range(4)] == [0, 1, 2, 0]


def test_a_whole_game_and_the_cli_json(capsys):
    code = arena.main(["--game", "horseshoes", "--mode", "three", "--a", "easy", "--b", "random",
                       "--games", "1", "--seed", "4", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["hands"] >= 1
    assert report["wins_a"] in (0, 0.5, 1)


def test_the_cli_text_report(capsys):
    assert arena.main(["--game", "rook", "--a", "normal", "--b", "easy", "--hands", "1"]) == 0
    out = capsys.readouterr().out
    assert "A wins" in out and "95% CI" in out and "p95" in out


def test_wilson_interval():
    lo, hi = arena.wilson(65, 100)
    assert 0.55 < lo < 0.65 < hi < 0.75
    assert arena.wilson(0, 0) == (0.0, 1.0)
