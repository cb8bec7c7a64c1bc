"""``parlour host`` and ``parlour join`` as processes on loopback: JSON lines, exit codes."""

import gc
import json

import pytest

from net.tools import bench_discovery as lobby
from net.cli import _carry_on, _host_network, _timings, host_levels, parser, start_up_done
from tests.net.proc_kit import Peers, check_summaries


def test_the_command_line_takes_the_documented_options():
    args = parser().parse_args(["host", "--game", "somerset", "--ruleset", "kitty-doubled",
                                "--table", "Friday", "--bots", "1", "--hands", "2", "--seed",
                                "00ff", "--port", "0", "--bind", "127.0.0.1", "--interface",
                                "10.231.0.1", "--state-dir", "/tmp/x"])
    assert (args.game, args.bots, args.hands, args.interface) == ("somerset", 1, 2, ["10.231.0.1"])
    args = parser().parse_args(["join", "--address", "127.0.0.1:4000", "--bot", "easy"])
    assert args.address == "127.0.0.1:4000" and args.bot == "easy"


def test_every_bot_level_is_offered_and_a_stand_in_plays_at_the_chosen_one(capsys):
    """``--bot expert`` (or ``--bot-level``) for the host's bots, its own seat and its
    stand-ins; ``join --bot expert`` for the joiner's seat and, should it carry the table
    on, its stand-ins. A level that is not one is refused with the choices."""
    for flag in ("--bot", "--bot-level"):
        args = parser().parse_args(["host", "--game", "rook", "--bots", "2", flag, "expert"])
        assert host_levels(args) == ({1: "expert", 2: "expert"}, "expert")
    default = parser().parse_args(["host", "--game", "rook", "--bots", "1"])
    assert host_levels(default) == ({1: "easy"}, "normal")
    join = parser().parse_args(["join", "--address", "127.0.0.1:4000", "--bot", "expert",
                                "--carry-on"])
    assert join.bot == "expert" and _carry_on(join)["host_kw"]["stand_in_level"] == "expert"
    for argv in (["host", "--game", "rook", "--bot", "grandmaster"],
                 ["join", "--address", "127.0.0.1:4000", "--bot", "grandmaster"]):
        with pytest.raises(SystemExit) as exit_:
            parser().parse_args(argv)
        assert exit_.value.code == 2
        assert "expert" in capsys.readouterr().err  # the choices are named


def test_the_quick_timings_take_a_patient_deadline_and_timeout():
    """``--deadline`` (tests beside ``--quick``): the deal waits that long for a client's
    part, and for a player gone at least as long (never less than the deadline)."""
    quick = _timings(parser().parse_args(["host", "--game", "rook", "--quick"]))
    patient = _timings(parser().parse_args(["host", "--game", "rook", "--quick", "--timeout", "5",
                                                  "--deadline", "60"]))
    assert (patient.timeout, patient.contribution, patient.drop_wait) == (5.0, 60.0, 60.0)
    assert (patient.interval, patient.contribution_slack) == (quick.interval, quick.contribution_slack)
    assert quick.contribution == 2.0 and quick.drop_wait == 2.0


def test_host_and_joiners_play_a_hand_and_print_json(tmp_path):
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--bots", "1", "--hands", "1",
                            "--state-dir", tmp_path / "h", "--quick", "--seed", "ab" * 16,
                            "--no-advertise"],
                           name="host")
        listening = host.wait_event("listening")
        address = f"127.0.0.1:{listening['port']}"
        joiners = [peers.start(["join", "--address", address, "--fingerprint",
                                listening["fingerprint"], "--bot", level, "--state-dir",
                                tmp_path / f"j{i}", "--quick"], name=f"join{i}")
                   for i, level in enumerate(["random", "easy"])]
        assert host.wait() == 0
        result = host.wait_event("result", timeout=1)
        check_summaries(joiners, hands=1, head=result["head"])
    assert result["hands"] == 1 and result["reason"] == "1 hand(s) played"
    assert host.events("hand_over") and host.events("connection")
    for line in host.lines:  # every line is one JSON object with its event first
        assert list(line)[0] == "event"
    records = list((tmp_path / "j0" / "records").glob("*.json"))
    assert records and json.loads(records[0].read_text())["format"] == "parlour-hand/1"


def test_join_with_the_wrong_fingerprint_exits_2(tmp_path):
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--state-dir", tmp_path / "h", "--quick",
                            "--no-advertise"], name="host")
        port = host.wait_event("listening")["port"]
        join = peers.start(["join", "--address", f"127.0.0.1:{port}", "--fingerprint",
                            "0000-0000-0000-0000", "--bot", "random", "--state-dir",
                            tmp_path / "j", "--quick"], name="join")
        assert join.wait(30) == 2
        assert "0000-0000-0000-0000" in join.summary()["fatal"]


def test_join_by_name_without_an_interface_is_refused():
    with Peers() as peers:
        join = peers.start(["join", "--table", "Friday", "--bot", "random"], name="join")
        assert join.wait(30) == 2
        assert "--interface" in join.events("error")[0]["message"]


@pytest.mark.netns
def test_parlour_host_advertises_on_every_interface_by_default(bridged_ns, tmp_path):
    """Like the app: no --interface needed to be found (and joined) from another machine."""
    host_ns, guest_ns = bridged_ns
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Found by default",
                            "--state-dir", tmp_path / "h", "--quick"], ns=host_ns, name="host")
        listening = host.wait_event("listening")
        assert listening["address"] == "0.0.0.0"
        browser = lobby.start_peer(guest_ns, "browse", "--interface", guest_ns.address)
        try:
            seen = browser.expect("tables", lobby.has_table(listening["fingerprint"]), timeout=15)
        finally:
            browser.close()
        [table] = seen["tables"]
        assert (table["name"], table["address"]) == ("Found by default", host_ns.address)
        joiner = peers.start(["join", "--address", f"{host_ns.address}:{listening['port']}",
                              "--bot", "random", "--state-dir", tmp_path / "j", "--quick"],
                             ns=guest_ns, name="join")
        joiner.wait_event("connection", where=lambda e: e["state"] == "connected")


def test_parlour_host_networks_by_default_pinned_or_unadvertised():
    from net.discovery import DEFAULT_INTERFACES

    def network(*argv):
        return _host_network(parser().parse_args(["host", "--game", "rook", *argv]))
    assert network() == (DEFAULT_INTERFACES, "0.0.0.0")
    assert network("--interface", "10.231.0.1") == (["10.231.0.1"], "10.231.0.1")
    assert network("--no-advertise") == (None, "127.0.0.1")
    assert network("--no-advertise", "--bind", "10.231.0.1") == (None, "10.231.0.1")
    assert parser().parse_args(["host", "--game", "rook", "--resume"]).resume


def test_a_hand_under_the_mental_deal_with_each_player_in_its_own_process(tmp_path):
    """``parlour host --mental-deal`` and three joiners, each its own process: the hand is
    dealt by the four clients and verified by every joiner."""
    with Peers() as peers:
        host = peers.start(["host", "--game", "somerset", "--hands", "1", "--mental-deal",
                            "--state-dir", tmp_path / "h", "--quick", "--no-advertise"], name="host")
        listening = host.wait_event("listening")
        address = f"127.0.0.1:{listening['port']}"
        joiners = [peers.start(["join", "--address", address, "--fingerprint",
                                listening["fingerprint"], "--bot", "random", "--state-dir",
                                tmp_path / f"j{i}", "--quick"], name=f"join{i}")
                   for i in range(3)]
        assert host.wait() == 0
        result = host.wait_event("result", timeout=1)
        check_summaries(joiners, hands=1, head=result["head"])
    assert result["hands"] == 1


def test_start_up_objects_are_kept_out_of_the_collectors_full_passes():
    before = gc.get_freeze_count()
    try:
        start_up_done()
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("mental", [False, True], ids=["seeded deal", "private deal"])
def test_join_watch_prints_the_public_events_and_verifies_the_hand(tmp_path, mental):
    """``parlour join --watch``: no seat, no bot; one JSON line for each thing the table
    shows (a "public" event), every hand checked as a seated peer checks it."""
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--bots", "2", "--hands", "1",
                            "--state-dir", tmp_path / "h", "--quick", "--no-advertise",
                            *(["--mental-deal"] if mental else [])], name="host")
        listening = host.wait_event("listening")
        address = f"127.0.0.1:{listening['port']}"
        watcher = peers.start(["join", "--watch", "--address", address, "--fingerprint",
                               listening["fingerprint"], "--state-dir", tmp_path / "w",
                               "--quick"], name="watcher")
        watcher.wait_event("watchers", timeout=60, where=lambda e: e["you_watch"])
        joiner = peers.start(["join", "--address", address, "--fingerprint",
                              listening["fingerprint"], "--bot", "random", "--state-dir",
                              tmp_path / "j", "--quick"], name="join")
        assert host.wait(180) == 0, "".join(host.stderr)[-2000:]
        result = host.wait_event("result", timeout=1)
        check_summaries([joiner], hands=1, head=result["head"])
        [summary] = check_summaries([watcher], hands=1, head=result["head"])
    assert summary["seat"] is None
    public = watcher.events("public")
    plays = [e for e in public if e["what"] == "play"]
    assert plays and all(e["seat"] in range(4) and e["card"] for e in plays), public[-5:]
    assert [e["what"] for e in public].count("trick") * 4 == len(plays), public[-5:]
