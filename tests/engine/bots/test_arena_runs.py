"""The arena's line-ups mixed by phase, and a long run in resumable chunks
(``engine.arena_runs``): chunks played in two sittings sum to the one-sitting run."""

from __future__ import annotations

import json

import pytest

from engine import arena, arena_runs
from engine.bots import make_bot
from engine.deal import derive_seed
from engine.registry import make_game


def test_a_mixed_lineup_decides_each_phase_at_its_own_level():
    game = make_game("somerset")
    seed = derive_seed(bytes(32), "bot", 0, 0)
    mixed = arena.lineup_bot("normal,play=easy", seed)
    normal, easy = make_bot("normal", seed), make_bot("easy", seed)
    state = game.deal(derive_seed(bytes(32), "hand", 0), 0)
    phases_seen: set[str] = set()
    while state.to_act():
        seat = state.to_act()[0]
        view = state.view(seat)
        phases_seen.add(view["phase"])
        expected = (easy if view["phase"] == "play" else normal).choose(game, view)
        assert mixed.choose(game, view) == expected, f"{view['phase']} at seat {seat}"
        state.apply(expected)
    assert {"bidding", "play"} <= phases_seen
    assert type(arena.lineup_bot("hard", seed)) is type(make_bot("hard", seed))  # a plain level: its own bot


@pytest.mark.parametrize("spec", ["grand", "hard,bidding", "hard,bidding=master", "hard,=expert"])
def test_a_bad_lineup_is_refused_before_any_play(spec):
    with pytest.raises(ValueError, match="line-up"):
        arena.run("somerset", spec, "normal", hands=2)
    with pytest.raises(SystemExit):
        arena.main(["--game", "somerset", "--a", spec, "--b", "normal", "--hands", "2"])


def test_chunks_played_in_two_sittings_sum_to_the_whole_run(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    common = ["run", str(out), "--game", "somerset", "--a", "normal", "--b", "easy", "--seed", "7",
              "--chunk", "2"]
    assert arena_runs.main(common + ["--games", "2"]) == 0
    with out.open("a") as f:
        f.write('{"config": {"game": "somer')  # a line cut short when a run was killed
    assert arena_runs.main(common + ["--games", "6", "--max-chunks", "1"]) == 0  # taking turns
    said = capsys.readouterr().out
    assert "1 chunks already in" in said and "1 to play" in said and "games 2-3" in said, said
    assert arena_runs.main(common + ["--games", "4"]) == 0
    assert "0 to play" in capsys.readouterr().out

    assert arena_runs.main(["summary", str(out), "--json"]) == 0
    [summed] = json.loads(capsys.readouterr().out)
    whole = arena.run("somerset", "normal", "easy", games=4, seed=7)
    for key in ("games", "hands", "wins_a", "ties", "margin", "margin_ci95", "bids_a", "bids_b",
                "made_rate_a", "made_rate_b"):
        assert summed[key] == whole[key], key
    for key in ("decision_ms", "decision_cpu_ms", "decision_ms_b"):
        assert summed[key]["count"] == whole[key]["count"], key
    assert summed["chunks"] == 2 and summed["covered"] == [[0, 3]]
    assert arena_runs.main(["summary", str(out)]) == 0
    assert "A=normal vs B=easy, 4 games" in capsys.readouterr().out

    assert arena_runs.main(common + ["--games", "2", "--label", "other code"]) == 0
    assert "0 chunks already in" in capsys.readouterr().out  # another label: another run
    assert arena_runs.main(["summary", str(out), "--json"]) == 0
    assert [(r["games"], r["label"]) for r in json.loads(capsys.readouterr().out)] == [
        (4, None), (2, "other code")]


def test_a_chunk_keeps_a_seat_rotation_whole(tmp_path, capsys):
    code = arena_runs.main(["run", str(tmp_path / "x.jsonl"), "--game", "rook", "--a", "normal",
                            "--b", "easy", "--games", "4", "--chunk", "3"])
    assert code == 2 and "multiple of 2" in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_the_margins_interval_pairs_the_seatings():
    assert arena.margin_interval([10.0, -10.0], 2) is None  # one deal: no spread to measure
    # the deals' means are 2, 2, 2: the seatings' swings are the deal's, not noise
    assert arena.margin_interval([10.0, -6.0, 3.0, 1.0, 5.0, -1.0], 2) == [2.0, 2.0]
    # means 2 and 0: centre 1, standard error 1
    assert arena.margin_interval([4.0, 0.0, 0.0, 0.0], 2) == [-0.96, 2.96]


def test_common_seeds_make_a_pair_differ_only_where_the_lineups_do(tmp_path, capsys):
    """With --common-seeds a seat's bot has one seed in both games of a pair: the same
    level on both sides is exactly even (every pair's margins cancel), and a line-up
    mixed by phase meets the same auction as its opponent on each deal (hard's bids are
    drawn from its seed: without common seeds this deal's two auctions differ). Without
    it, the seatings of one deal part."""
    even = arena.run("somerset", "random", "random", hands=8, seed=3, common_seeds=True)
    assert even["margin"] == 0 and even["margin_ci95"] == [0.0, 0.0], even
    apart = arena.run("somerset", "random", "random", hands=8, seed=3)
    assert apart["margin_ci95"] != [0.0, 0.0], apart

    game = make_game("somerset")
    pair = arena.Arena(game, "hard,play=random", "hard", bytes(32), common_seeds=True)
    auctions = []
    for index in (0, 1):
        state = game.deal(derive_seed(pair.table_seed(index), "hand", 0), game.first_dealer(pair.table_seed(index)))
        pair.play_hand(state, pair.bots(index, pair.lineup(index)), pair.lineup(index))
        view = state.view(0)
        auctions.append([a for a in view["actions"] if "play" not in a])
    assert auctions[0] == auctions[1] and any("bid" in a for a in auctions[0]), auctions

    out = tmp_path / "run.jsonl"
    assert arena_runs.main(["run", str(out), "--game", "somerset", "--a", "random", "--b", "random",
                            "--hands", "2", "--chunk", "2", "--seed", "3", "--common-seeds"]) == 0
    [line] = arena_runs.read_lines(out)
    assert line["config"]["common_seeds"] is True and sum(line["counted"]["margins"]) == 0
    capsys.readouterr()
