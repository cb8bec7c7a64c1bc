"""``python -m engine.replay FILE`` as a user runs it: a real process, real files.

Exit 0 with the result as JSON for any readable record (an illegal action included);
exit 2 with one line on stderr, and nothing on stdout, for a file that is no record.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).parent / "records"
REPO = Path(__file__).resolve().parents[2]
FULL = RECORDS / "rook-bidder-takes-all.json"
ILLEGAL = RECORDS / "rook-must-play-the-rook.json"


def run_replay(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.replay", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def expected(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def test_a_full_hand_prints_its_result_and_exits_0():
    proc = run_replay(str(FULL))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected(FULL)
    assert proc.stderr == ""


def test_an_illegal_action_is_still_exit_0_with_the_error():
    proc = run_replay(str(ILLEGAL))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == expected(ILLEGAL)
    assert out["error"]["reason"] == "you must follow trump (Red or the Rook)"


def test_a_record_can_come_from_standard_input():
    proc = subprocess.run([sys.executable, "-m", "engine.replay", "--compact", "-"], cwd=REPO,
                          input=FULL.read_text(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    assert json.loads(proc.stdout) == expected(FULL)


def _rook_record() -> dict:
    return json.loads(FULL.read_text())


def _with(**changes) -> dict:
    record = _rook_record()
    record.update(changes)
    return record


def _duplicate() -> dict:
    record = _rook_record()
    record["hands"][3][0] = record["hands"][0][0]
    return record


def _short_hand() -> dict:
    record = _rook_record()
    record["hands"][1] = record["hands"][1][:12]
    return record


def _unknown_card() -> dict:
    record = _rook_record()
    record["hands"][2][5] = "P7"
    return record


BAD_FILES = [
    # (id, file text or None for a missing file, words the message must contain)
    ("missing-file", None, "cannot read"),
    ("not-json", "{\"format\": \"parlour-hand/1\",", "not JSON"),
    ("empty-file", "", "not JSON"),
    ("json-but-not-an-object", "[1, 2, 3]", "object"),
    ("unknown-game", json.dumps(_with(game="euchre")), "unknown game"),
    ("wrong-card-count", json.dumps(_short_hand()), "seat 1 holds 12 cards"),
    ("duplicate-cards", json.dumps(_duplicate()), "dealt twice"),
    ("unknown-card-name", json.dumps(_unknown_card()), "'P7' is not a card"),
    ("float-number", FULL.read_text().replace('"bid": 120', '"bid": 120.0'), "whole number"),
]


@pytest.mark.parametrize("case_id, text, words", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_a_file_that_is_no_record_exits_2_with_one_line(tmp_path, case_id, text, words):
    path = tmp_path / "hand.json"
    if text is not None:
        path.write_text(text)
    proc = run_replay(str(path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert words.lower() in proc.stderr.lower()
    assert "Traceback" not in proc.stderr


def test_parlour_replay_subcommand_runs_the_same_code(capsys):
    """``parlour replay FILE`` goes through app/cli.py without importing Qt."""
    from app.cli import main

    assert main(["replay", str(FULL)]) == 0
    assert json.loads(capsys.readouterr().out) == expected(FULL)


def test_parlour_replay_does_not_import_qt():
    code = ("import sys; from app.cli import main; main(['replay', %r]); "
            "sys.exit(3 if 'PySide6' in sys.modules else 0)" % str(FULL))
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected(FULL)


# -- the engine's other command-line tools ---------------------------------------------
@pytest.mark.parametrize("game, mode", [("somerset", None), ("rook", None), ("horseshoes", "three")])
def test_demo_prints_a_whole_hand(capsys, game, mode):
    from engine.demo import main

    assert main(["--game", game] + (["--mode", mode] if mode else [])) == 0
    out = capsys.readouterr().out
    assert out.startswith(game) and "Dealer: seat 0" in out
    assert "Score per" in out or "Thrown in" in out


def test_bench_json_gives_a_rate_per_title(capsys, monkeypatch):
    from engine import bench

    monkeypatch.setattr(bench, "spades_contender", lambda chance: None)  # OpenSpiel is optional
    assert bench.main(["--seconds", "0.05", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"somerset", "rook", "horseshoes"}
    assert all(f["hands_per_s"] > 0 for f in figures.values())


def test_bench_compares_each_title_with_spades_in_one_interleaved_run(capsys, monkeypatch):
    """The comparison logic, with a stand-in for OpenSpiel (an optional extra)."""
    from engine import bench

    order = []

    def spades_hand():
        order.append("spades")
    monkeypatch.setattr(bench, "spades_contender",
                        lambda chance: bench.Contender(bench.SPADES, spades_hand))
    assert bench.main(["--seconds", "0.04"]) == 0
    out = capsys.readouterr().out
    assert "openspiel-spades" in out and out.count("x spades") == 3
    results = bench.with_ratios({"rook": {"hands_per_s": 50.0}, bench.SPADES: {"hands_per_s": 40.0}})
    assert results["rook"]["vs_spades"] == 1.25
    log = []
    contenders = [bench.Contender(name, lambda name=name: log.append(name)) for name in "ab"]
    figures = bench.measure(contenders, seconds=0.04, slice_seconds=0.01)
    assert figures["a"]["hands"] == log.count("a") and figures["b"]["hands"] == log.count("b")
    switches = sum(1 for x, y in zip(log, log[1:]) if x != y)
    assert switches >= 7  # four rounds of two slices each: interleaved, not one after the other


def test_bench_clones_measures_state_clone_for_each_title(capsys, monkeypatch):
    from engine import bench

    monkeypatch.setattr(bench, "spades_positions", lambda: None)  # OpenSpiel is optional
    assert bench.main(["--clones", "--seconds", "0.03", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"somerset", "rook", "horseshoes"}
    assert all(f["clones_per_s"] > 0 for f in figures.values())


def test_bench_positions_are_every_position_of_the_hands_each_kept_apart():
    from engine import bench
    from engine.registry import make_game

    kept = bench.positions(make_game("rook"), hands=2)
    assert kept[0].history == [] and kept[0].phase == "bidding"
    # each position is one action further on than the one before, within a hand
    steps = [len(s.history) for s in kept]
    assert steps[:3] == [0, 1, 2] and steps.count(0) == 2
    assert all(s.to_act() for s in kept)  # every kept position is one where someone acts
