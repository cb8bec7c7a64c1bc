"""A soak of whole headless games, one per title, ruleset and mode: ``parlour host``
and a ``parlour join`` bot per other seat, each its own process on 127.0.0.1 (separate
processes are what shows the timing of a real table: a guest's move and another
player's can cross on the wire, as Rook's "Got it" does).

Every game must end with a winner, zero integrity alerts and zero refusals of an
honest player: no error reply from the host to any guest, no error from the host's
own seat. The counts are printed (``pytest -s``)."""

from __future__ import annotations

import pytest

from engine import make_game
from engine.registry import TITLES, rulesets
from tests.net.proc_kit import PATIENT, Peers

pytestmark = pytest.mark.slow


def variants() -> list:
    out = []
    for title in TITLES:
        for ruleset in rulesets(title).values():
            for mode in ruleset.modes or (None,):
                name = "-".join(p for p in (title, ruleset.id if title != ruleset.id else "", mode) if p)
                out.append(pytest.param(title, ruleset.id, mode, id=name))
    return out


@pytest.mark.parametrize("game, ruleset, mode", variants())
def test_a_whole_game_has_no_alert_and_refuses_no_honest_player(tmp_path, game, ruleset, mode):
    players = make_game(game, ruleset, mode).num_players
    extra = ["--ruleset", ruleset] + (["--mode", mode] if mode else [])
    with Peers() as peers:
        host = peers.start(["host", "--game", game, *extra, "--state-dir", tmp_path / "host",
                            "--quick", *PATIENT, "--bot-level", "easy", "--no-advertise"],
                           name="host")
        port = host.wait_event("listening")["port"]
        joiners = [peers.start(["join", "--address", f"127.0.0.1:{port}", "--bot", "easy",
                                "--state-dir", tmp_path / f"guest{i}", "--quick", *PATIENT],
                               name=f"join{i}")
                   for i in range(players - 1)]
        assert host.wait(240) == 0, "".join(host.stderr)[-2000:]
        result = host.wait_event("result", timeout=1)
        summaries = []
        for joiner in joiners:
            assert joiner.wait(60) == 0, "".join(joiner.stderr)[-2000:]
            summaries.append(joiner.summary())
    alerts = sum(len(s["alerts"]) for s in summaries)
    refusals = sum(s["error_count"] for s in summaries)
    host_errors = host.events("error")
    print(f"\n{game} {ruleset} {mode or ''}: {result['hands']} hands, {alerts} alerts, "
          f"{refusals} refusals of guests, {len(host_errors)} host errors")
    assert result["reason"] == "the game is over" and result["winner"] is not None
    assert all(s["hands_verified"] == result["hands"] and s["winner"] == result["winner"]
               for s in summaries)
    assert alerts == 0 and refusals == 0 and host_errors == [], (
        [s["errors"] for s in summaries], host_errors)
