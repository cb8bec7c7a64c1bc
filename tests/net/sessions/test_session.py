"""Sessions over real connections on loopback: a host core and guest cores in one loop.

Whole hands of each title with every guest verifying every hand; cheating over a real
session (a tampered entry, a seat claimed by another key); the host's options for
dropped players (stand-in bot, re-admission of a lost key); the facade's threads and
events; a clear message on a protocol version mismatch.
"""

import asyncio
import json
import time

import pytest

from engine import make_game
from net.wire import messages as m
from net.constants import PROTOCOL_VERSION
from net.tools.bench import withhold_or_fork
from net.sessions.guest_session import GuestCore
from net.wire.heartbeat import WIRE, Timings
from net.wire.identity import Identity
from net.trust.signing import sign_entry
from net.sessions.session import GuestSession, HostSession
from net.wire.transport import start_server
from tests.net.session_kit import (QUICK, Recorder, Table, assert_all_verified, ident,
                                   play_as_a_person, same_choices)
from tests.waits import blocking_until, until
from tests.net.trust_table import withhold_contributions


@pytest.mark.parametrize("game", ["rook", "somerset", "horseshoes"])
def test_a_hand_of_each_title_verified_by_every_guest(arun, tmp_path, game):
    async def main():
        table = Table(tmp_path, game=game, hands=1)
        await table.start()
        try:
            return await table.finish(), table.head(), table.host.result
        finally:
            await table.close()

    summaries, head, result = arun(main(), timeout=60)
    assert_all_verified(summaries, hands=1, head=head)
    assert {s["seat"] for s in summaries} == {1, 2, 3}
    assert all(s["scores"] == result["scores"] for s in summaries)
    assert result["acked"] == {1: head, 2: head, 3: head}  # every peer acknowledged all


def test_bots_fill_seats_and_hand_records_are_saved(arun, tmp_path):
    async def main():
        table = Table(tmp_path, game="somerset", hands=2, guests=1, bots=2)
        await table.start()
        try:
            return await table.finish()
        finally:
            await table.close()

    [summary] = arun(main(), timeout=60)
    assert_all_verified([summary], hands=2)
    records = sorted((tmp_path / "guest0" / "records").glob("*.json"))
    assert len(records) == 2
    assert json.loads(records[0].read_text())["format"] == "parlour-hand/1"


# -- cheating over real sessions ----------------------------------------------------------

def _tamper_after(start_seq, resign):
    """A dishonest host: from ``start_seq`` on, action entries carry a wrong state hash."""
    host_id = ident("Host")

    def tamper(fp, msg):
        entry = msg["entry"]["entry"]
        if entry["seq"] < start_seq or entry["kind"] != "action" or entry["state_hash"] is None:
            return msg  # (under the private deal some moves sign no state: nothing to forge)
        forged = {**entry, "state_hash": "0" * 64}
        signed = sign_entry(host_id, forged) if resign else {**msg["entry"], "entry": forged}
        return {**msg, "entry": signed}
    return tamper


@pytest.mark.parametrize("resign, rule", [(False, "host-signature"), (True, "state-hash")])
def test_a_tampered_host_entry_raises_an_alert_with_saved_evidence(arun, tmp_path, resign, rule):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=2, bots=1,
                      host_kw={"tamper": _tamper_after(12, resign)})
        await table.start()
        try:
            return await asyncio.wait_for(asyncio.gather(*table.tasks), 30)
        finally:
            await table.close()

    summaries = arun(main(), timeout=45)
    for s in summaries:
        assert s["alerts"], s
        alert = s["alerts"][0]
        assert alert["rule"] == rule and alert["seat"] == 0  # the host's seat
        evidence = json.loads(open(alert["evidence_path"]).read())
        assert evidence["format"] == "parlour-evidence/1" and evidence["rule"] == rule
        assert evidence["evidence"]  # the signed entries that prove it


def test_a_peer_claiming_another_players_seat_is_refused(arun, tmp_path):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, host_kw={"bot_delay": 0.01})
        await table.start()
        try:
            await until(table.hand_started)
            impostor = GuestCore(Identity.generate("Guest1"), address="127.0.0.1",
                                 port=table.host.port, fingerprint=table.host.identity.fingerprint,
                                 timings=QUICK, bot_level="random", claim=(1, table.head()))
            claim = await asyncio.wait_for(impostor.run(), 20)
            return claim, await table.finish(), table.host_events
        finally:
            await table.close()

    claim, summaries, host_events = arun(main(), timeout=60)
    assert claim["fatal"] and "belongs to another player's key" in claim["fatal"]
    assert claim["seat"] is None and claim["hands_verified"] == 0
    assert any(e["type"] == "connection" and e["state"] == "refused" for e in host_events)
    assert_all_verified(summaries, hands=1)  # the real players never noticed


# -- drops: stand-in bots and lost keys ----------------------------------------------------

def test_a_stand_in_bot_plays_a_dropped_seat_and_hands_it_back(arun, tmp_path):
    async def main():
        table = Table(tmp_path, game="somerset", hands=2,
                      host_kw={"stand_in_after": 0.2, "bot_delay": 0.005, "mental_deal": False})  # seeded: under the private deal a player away at the deal is no party of it, and follows that hand unverified (tests/net/sessions/test_mental_drops.py)
        await table.start()
        try:
            await until(table.hand_started)
            leaver = table.guests[0]
            await leaver.stop()
            await until(lambda: 1 in table.host.stand_ins)
            mark = table.head()
            await until(lambda: table.head() > mark + 3)  # the bot is playing seat 1
            table.add_guest(ident("Guest0"))
            await until(lambda: 1 not in table.host.stand_ins)
            seat_info = table.host.authority.seats[1]
            summaries = await table.finish()
            return summaries[1:], seat_info
        finally:
            await table.close()

    summaries, seat_info = arun(main(), timeout=60)
    assert seat_info.kind == "human" and seat_info.key == ident("Guest0").public_key
    assert_all_verified(summaries, hands=2)


def test_a_stand_in_plays_at_the_computer_level_the_host_chose(arun, tmp_path, deal, monkeypatch):
    """The host deals with Expert chosen for its table's computer players (the app's
    setup sends the level with ``start_game``); a player away as the game starts gets a
    stand-in at that level — its seat entry says so, every replica reads it, and the
    host's bot for the seat is one — under both deals. (The expert searches a little
    here: its level is what is tested, and a long search would hold up the host's loop
    past the quick timings on a loaded machine.)"""
    from engine.bots import somerset_expert
    for name, small in (("EXPERT_PLAY_BUDGET", 300), ("BID_SAMPLES", 3), ("TRUMP_SAMPLES", 3)):
        monkeypatch.setattr(somerset_expert, name, small)

    async def main():
        table = Table(tmp_path, game="somerset", hands=1, guests=0,
                      host_kw={"auto_start": False, "stand_in_after": 0.05, "bot_delay": 0.005,
                               "mental_deal": deal})
        await table.start()
        auth = table.host.authority
        try:
            guests = [table.add_guest(ident(f"Guest{i}")) for i in range(3)]
            await until(lambda: all(auth.seats[s].kind == "human" and auth.seats[s].connected
                                    for s in (1, 2, 3)))
            leaver = next(g for g in guests if g.identity.public_key == auth.seats[1].key)
            await leaver.stop()
            await until(lambda: not auth.seats[1].connected)
            table.host.start_game("expert")
            await until(lambda: 1 in table.host.stand_ins, timeout=30)
            await until(lambda: auth.state is not None
                        and any(a.seat == 1 for a in auth.state.history), timeout=60)
            others = [g for g in guests if g is not leaver]
            await until(lambda: all(g.replica.seq == auth.chain.seq for g in others))
            return (auth.seats[1], table.host.bots.players[1],
                    [g.replica.seats[1] for g in others])
        finally:
            await table.close()

    seat, bot, seen = arun(main(), timeout=120)
    assert seat.kind == "bot" and seat.level == "expert" and seat.name.endswith(" (bot)")
    assert bot.level == "expert"
    assert all(s.kind == "bot" and s.level == "expert" for s in seen)


def test_a_player_who_lost_their_key_is_readmitted_by_name(arun, tmp_path):
    async def main():
        # seeded: a seat re-admitted to a new key mid-hand under the private deal is not
        # built (the old key's client holds its cards; the table waits for it)
        table = Table(tmp_path, game="rook", hands=1,
                      host_kw={"readmit_names": True, "bot_delay": 0.005, "mental_deal": False})
        await table.start()
        try:
            await until(table.hand_started)
            await table.guests[1].stop()
            await until(lambda: not table.host.authority.seats[2].connected)
            new_key = Identity.generate("Guest1")  # same name, new key
            table.add_guest(new_key)
            await until(lambda: table.host.authority.seats[2].key == new_key.public_key)
            summaries = await table.finish()
            readmits = [e.body for e in table.host.authority.log
                        if e.kind == "seat" and e.body["readmit"]]
            return [summaries[0], summaries[2], summaries[3]], readmits
        finally:
            await table.close()

    summaries, readmits = arun(main(), timeout=60)
    assert [r["seat"] for r in readmits] == [2]  # logged for everyone to see
    assert_all_verified(summaries, hands=1)
    assert summaries[2]["seat"] == 2


def test_a_seat_readmitted_mid_hand_is_offered_what_the_host_allows(arun, tmp_path):
    """The new key's replica was not dealt the seat's cards (seeded: the deal's private view
    went to the old key), so its replay holds made-up ones for the seat: what its person is
    offered, at each decision, is what the host's rules allow that seat (from the view the
    host sends it), and each move made from it is taken."""
    async def main():
        table = Table(tmp_path, game="rook", hands=1,
                      host_kw={"readmit_names": True, "bot_delay": 0.005, "mental_deal": False})
        await table.start()
        try:
            await until(table.hand_started)
            await table.guests[1].stop()
            await until(lambda: not table.host.authority.seats[2].connected)
            person = table.add_guest(Identity.generate("Guest1"), bot_level=None)  # new key
            offered = await play_as_a_person(person, table.guest_events[len(table.guests) - 1],
                                             table.host, table.host.finished.is_set)
            summaries = await table.finish()
            return [summaries[0], summaries[2], summaries[3]], offered
        finally:
            await table.close()

    summaries, offered = arun(main(), timeout=60)
    assert any("play" in e for legal, _ in offered for e in legal)  # it played cards
    for legal, allowed in offered:
        assert same_choices(legal, allowed), (legal, allowed)
    assert_all_verified(summaries, hands=1)


# -- version mismatch ----------------------------------------------------------------------

def test_a_protocol_version_mismatch_gives_a_clear_message(arun, host_id):
    async def nothing(conn):
        pass

    async def main():
        server = await start_server("127.0.0.1", 0, host_id, nothing, schemas=WIRE,
                                    protocol=PROTOCOL_VERSION + 1)
        try:
            guest = GuestCore(Identity.generate("Old"), address="127.0.0.1", port=server.port,
                              timings=QUICK, bot_level="random")
            return await asyncio.wait_for(guest.run(), 10)
        finally:
            server.close()
            await server.wait_closed()

    summary = arun(main())
    assert f"protocol {PROTOCOL_VERSION + 1}" in summary["fatal"]
    assert "update Parlour" in summary["fatal"]


# -- the facade: threads and events ---------------------------------------------------------

def test_facade_sessions_play_a_hand_across_threads(tmp_path):
    host_rec, guest_rec = Recorder(), Recorder()
    host = HostSession(host_rec, {"game": "horseshoes", "mode": "three"}, ident("Host"),
                       state_dir=tmp_path / "h", timings=QUICK, autoplay=True)
    guests = []
    try:
        blocking_until(lambda: host_rec.of("listening"))
        port = host_rec.of("listening")[0]["port"]
        for i in range(2):
            rec = guest_rec if i == 0 else Recorder()
            guests.append(GuestSession(rec, ident(f"Guest{i}"), address="127.0.0.1", port=port,
                                       timings=QUICK, state_dir=tmp_path / f"g{i}",
                                       bot_level="random" if i else None))
        blocking_until(lambda: len([s for s in host_rec.of("table")[-1]["seats"]
                          if s["kind"] == "human" and s["connected"]]) == 3)
        guests[0].start_game()  # only the host may
        blocking_until(lambda: guest_rec.of("error"))
        host.start_game()
        # The person at guest 0 plays from the "legal" lists the session sends.
        deadline = time.monotonic() + 30
        while not guest_rec.of("hand_over"):
            assert time.monotonic() < deadline
            states = guest_rec.of("state")
            if states and states[-1]["legal"]:
                guests[0].act(states[-1]["legal"][0])
            time.sleep(0.02)
        blocking_until(lambda: host_rec.of("hand_over"))
    finally:
        for g in guests:
            g.close()
        host.close()
    table = guest_rec.of("table")[-1]
    assert table["you"] in (1, 2) and table["is_host"] is False and table["started"]
    assert guest_rec.of("state")[0]["view"]["seat"] == table["you"]
    assert guest_rec.of("hand_over")[0]["result"] == host_rec.of("hand_over")[0]["result"]
    assert not guest_rec.of("alert")
    assert guest_rec.threads == {"parlour-guest"} and host_rec.threads == {"parlour-host"}


def test_a_guest_is_told_why_an_illegal_move_is_refused(tmp_path):
    """The guest's person, offered a decision (to bid, or the widow's "Got it" when the
    bots' auction ended before its turn), answers with a bid the rules refuse. (A move
    made while nothing is offered is refused for what is happening then — the spare on
    its way, another seat's turn — so it waits to be offered one.)"""
    rec = Recorder()
    host = HostSession(Recorder(), {"game": "rook"}, ident("Host"), state_dir=tmp_path / "h",
                       timings=QUICK, autoplay=True, bots={2: "random", 3: "random"})
    guest = None
    try:
        blocking_until(lambda: host.core.server is not None)
        guest = GuestSession(rec, ident("Guest0"), address="127.0.0.1", port=host.core.port,
                             timings=QUICK)
        blocking_until(lambda: rec.of("table") and rec.of("table")[-1]["you"] == 1)
        host.start_game()
        blocking_until(lambda: rec.of("state") and rec.of("state")[-1]["legal"])
        guest.act({"bid": 3})
        blocking_until(lambda: rec.of("error"))
    finally:
        if guest:
            guest.close()
        host.close()
    assert any("bid" in e["message"] or "turn" in e["message"] for e in rec.of("error")), \
        [e["message"] for e in rec.of("error")]  # what it was told instead


# -- withheld entries and forks, caught within a heartbeat -----------------------------------

@pytest.mark.parametrize("how, rule", [("withhold", "sequence"), ("fork", "fork")])
def test_a_withheld_or_forked_entry_is_caught_within_two_seconds(arun, tmp_path, how, rule):
    """Nothing follows the bad entry for 3 s (slow bots), so only the host's heartbeat,
    which carries its head, can tell the guest; it does within a heartbeat (1 s)."""
    when, seen = [], []
    victim = ident("Guest0")

    async def main():
        # The seeded deal: under the private deal the parties' deal messages may follow
        # the bad entry at once, and the next entry tells the guest ("chain") before the
        # heartbeat this test is about can.
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=1, timings=Timings(),
                      host_kw={"bot_delay": 3.0, "mental_deal": False, "tamper": withhold_or_fork(
                          how, victim.fingerprint, ident("Host"), when)})
        await table.start()
        try:
            guest = table.add_guest(victim, bot_delay=3.0)
            guest.emit = lambda event: seen.append((time.monotonic(), event))
            table.add_guest(ident("Guest1"), bot_delay=3.0)
            await until(lambda: any(e["type"] == "alert" for _, e in seen), timeout=60)
        finally:
            await table.close()

    arun(main(), timeout=30)
    [(at, alert)] = [(t, e) for t, e in seen if e["type"] == "alert"]
    assert alert["rule"] == rule and alert["seat"] == 0  # the host's seat
    assert at - when[0] < 2.0, f"told {at - when[0]:.2f} s after the {how}"


# -- a withheld deal contribution ------------------------------------------------------------

class ShuffleWithholder(GuestCore):
    """A seated guest that heartbeats and plays, but never sends its deal contribution."""

    def _on_joined(self, msg):
        super()._on_joined(msg)
        withhold_contributions(self.replica)


def test_a_withheld_contribution_is_skipped_at_the_deadline_and_the_table_goes_on(arun, tmp_path):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=1,  # the seeded deal's contributions
                      host_kw={"bot_delay": 0.005, "mental_deal": False})
        await table.start()
        try:
            table.add_guest(ident("Guest0"))
            events = table.guest_events.setdefault(1, [])
            stubborn = ShuffleWithholder(ident("Guest1"), address="127.0.0.1", port=table.host.port,
                                         fingerprint=table.host.identity.fingerprint, timings=QUICK,
                                         emit=events.append, bot_level="random",
                                         state_dir=tmp_path / "stubborn")
            table.guests.append(stubborn)
            table.tasks.append(asyncio.ensure_future(stubborn.run()))
            await until(lambda: table.host.authority.state is not None, timeout=60)
            return await table.finish(), table.host.authority.log, table.host_events, table.guest_events
        finally:
            await table.close()

    summaries, log, host_events, guest_events = arun(main(), timeout=60)
    assert_all_verified(summaries, hands=1)  # nobody raised an alert: the skip was fair
    kinds = [e.kind for e in log]
    commit, skip = kinds.index("commit"), kinds.index("skip")
    assert kinds[skip + 1] == "deal" and log[skip].body["seat"] == 3
    waiting = [e for e in host_events + guest_events[0] if e["type"] == "waiting"]
    assert {"Waiting for Guest1's shuffle…"} <= {e["detail"] for e in waiting}
    assert all(e.body["seat"] != 3 for e in log[commit:skip]
               if e.kind == "contribution")


# -- a seat given to a new key: only with the host's yes, seen by all, alerted by the old key ----

def test_a_seat_goes_to_a_new_key_only_with_the_hosts_yes_and_its_old_key_is_alerted(arun, tmp_path):
    """A new key that only knows a player's name asks for the seat while they are away:
    the host person is asked (seat, both fingerprints); after their yes every seat is
    told; the real player, back, gets an integrity alert on that entry, with evidence."""
    new_key = Identity.generate("Guest1")  # the same name, another key

    async def main():
        # seeded: a seat given to a new key mid-hand under the private deal is not built
        table = Table(tmp_path, game="rook", hands=1, host_kw={"bot_delay": 0.02, "mental_deal": False})
        await table.start()
        try:
            await until(table.hand_started)
            away = table.guests[1]
            await away.stop()
            await until(lambda: not table.host.authority.seats[2].connected)
            table.add_guest(new_key)
            await until(lambda: any(e["type"] == "readmit" for e in table.host_events))
            asked = next(e for e in table.host_events if e["type"] == "readmit")
            unasked = table.host.authority.seats[2].key  # nothing given before the yes
            table.host.set_seat(2, "human", player=new_key.fingerprint)
            [readmit_seq] = [e.seq for e in table.host.authority.log
                             if e.kind == "seat" and e.body["readmit"]]
            back = GuestCore(ident("Guest1"), address="127.0.0.1", port=table.host.port,
                             fingerprint=table.host.identity.fingerprint, timings=QUICK,
                             bot_level="random", state_dir=tmp_path / "back")
            back.replica, back.host_key, back.table = away.replica, away.host_key, away.table
            returned = await asyncio.wait_for(back.run(), 20)
            summaries = await table.finish()
            return asked, unasked, readmit_seq, returned, summaries, table
        finally:
            await table.close()

    asked, unasked, readmit_seq, returned, summaries, table = arun(main(), timeout=60)
    assert asked["seat"] == 2 and asked["name"] == "Guest1"
    assert asked["old_fingerprint"] == ident("Guest1").fingerprint
    assert asked["new_fingerprint"] == new_key.fingerprint
    assert unasked == ident("Guest1").public_key
    told = f"Guest1's seat was given to a new key (fingerprint {new_key.fingerprint})"
    for events in (table.host_events, table.guest_events[0], table.guest_events[2]):
        assert told in [e.get("detail") for e in events if e["type"] == "connection"]
    [alert] = returned["alerts"]
    assert alert["rule"] == "readmit" and alert["seat"] == 0 and f"entry {readmit_seq}" in alert["detail"]
    evidence = json.loads(open(alert["evidence_path"]).read())
    assert evidence["seq"] == readmit_seq and evidence["evidence"][-1]["entry"]["seq"] == readmit_seq
    assert returned["state"] == "ended"  # it stopped there (and told the others why)
    assert_all_verified([summaries[0], summaries[2], summaries[3]], hands=1)


def test_the_app_host_cannot_readmit_by_name_unasked(tmp_path):
    with pytest.raises(ValueError, match="host person's yes"):
        HostSession(lambda e: None, {"game": "rook"}, ident("Host"), state_dir=tmp_path,
                    readmit_names=True)


def _remembered(store, host, fingerprint=None, port=None):
    store.save({"address": "127.0.0.1", "port": port or host.core.port,
                "fingerprint": fingerprint or host.core.identity.fingerprint,
                "table": host.core.table, "name": "Kitchen table", "host": "Host", "game": "rook",
                "mode": None, "seat": 1, "players": 4, "side": 1, "hand": 1, "scores": [0, 0],
                "started": True})


def test_the_lobby_offers_the_last_table_while_it_answers_at_its_address(tmp_path):
    from net.sessions.last_table import LastTable
    from net.sessions.session import Lobby
    store = LastTable(tmp_path / "dad")
    host = HostSession(Recorder(), {"game": "rook"}, ident("Host"), state_dir=tmp_path / "h",
                       timings=QUICK)
    rec = Recorder()
    lobby = Lobby([], memory=store, identity=lambda: ident("Dad"), probe_every=0.1)
    try:
        blocking_until(lambda: host.core.server is not None)
        _remembered(store, host)
        lobby.start(rec)
        blocking_until(lambda: rec.of("rejoin"))
        offer = rec.of("rejoin")[-1]["table"]
        assert offer["where"] == "address" and offer["port"] == host.core.port
        assert offer["name"] == "Kitchen table" and offer["seat"] == 1
        assert rec.of("tables")[-1]["tables"] == []  # no mDNS here: nothing browsed
        host.close()
        blocking_until(lambda: rec.of("rejoin")[-1]["table"] is None)  # gone: no offer
    finally:
        lobby.stop()
        host.close()


def test_the_lobby_offers_nothing_for_another_key_or_no_memory(tmp_path):
    from net.sessions.last_table import LastTable
    from net.sessions.session import Lobby
    store = LastTable(tmp_path / "dad")
    host = HostSession(Recorder(), {"game": "rook"}, ident("Host"), state_dir=tmp_path / "h",
                       timings=QUICK)
    lobby = Lobby([], memory=store, identity=lambda: ident("Dad"))

    async def offer():
        return await lobby._rejoin_offer()
    try:
        blocking_until(lambda: host.core.server is not None)
        assert asyncio.run(offer()) is None  # nothing remembered
        _remembered(store, host, fingerprint=ident("Impostor").fingerprint)
        assert asyncio.run(offer()) is None  # someone else answers there
        # Found on the network by the host's key: offered where it is advertised now.
        _remembered(store, host, port=1)
        advert = {"fingerprint": host.core.identity.fingerprint, "address": "127.0.0.1",
                  "port": host.core.port, "name": "Kitchen table", "in_game": True,
                  "answering": True}
        lobby._tables = [advert]
        found = asyncio.run(offer())
        assert found["where"] == "network" and found["port"] == host.core.port
        # Still advertised, but its host no longer answers (killed: no mDNS goodbye): not
        # offered (nor at the remembered address, where nothing answers either).
        lobby._tables = [{**advert, "answering": False}]
        assert asyncio.run(offer()) is None
        # The same host with another table (waiting to start, or another name): not ours,
        # and not offered at the address either.
        _remembered(store, host)
        for other in ({"in_game": False}, {"name": "Attic"}):
            lobby._tables = [{**advert, **other}]
            assert asyncio.run(offer()) is None
    finally:
        host.close()


def test_a_host_whose_port_is_taken_is_told_in_words(tmp_path):
    import socket
    rec = Recorder()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        host = HostSession(rec, {"game": "rook"}, ident("Host"), state_dir=tmp_path / "h",
                           timings=QUICK, port=taken.getsockname()[1])
        try:
            blocking_until(lambda: rec.of("error"))
        finally:
            host.close()
    [error] = rec.of("error")
    assert error["fatal"] and error["message"] == \
        "Could not open the table: another program is using the port."
