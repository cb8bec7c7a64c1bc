"""The app's guest carries the table on: its host gone for good mid-hand, a person's
``GuestSession`` — made by ``network.Network.join``, as the app makes it — becomes the
host, and the person plays on through the same session to the end of the game."""

import pytest

from net.sessions.network import Network
from net.sessions.session import GuestSession, HostSession
from net.sessions.takeback import WAIT
from net.trust.deals.mental import log as ml
from net.trust import takeover
from tests.net.session_kit import QUICK, Recorder, ident
from tests.waits import blocking_until

# A short game: horseshoes for four, to 5 penalty points.
SHORT_GAME = {"game": "horseshoes", "mode": "four", "options": {"target": 5}}


def play_as_a_person(session, rec, until, timeout=60.0):
    """What a person does at the table, from the events alone: play the first legal
    move offered, deal on after each hand, let a computer play for a held seat."""
    import time
    deadline = time.monotonic() + timeout
    acted, dealt, stood_in = 0, 0, set()
    while not until():
        assert time.monotonic() < deadline, \
            f"the game did not go on to its end; the person's last events: {rec.events[-12:]}"
        states = rec.of("state")
        if states and states[-1]["legal"] and len(states) > acted:
            acted = len(states)
            session.act(states[-1]["legal"][0])
        if len(rec.of("hand_over")) > dealt:
            dealt = len(rec.of("hand_over"))
            session.next_hand()
        for event in rec.of("takeover"):
            seat = event.get("departed_seat")
            if event["you"] and seat is not None and seat not in stood_in:
                stood_in.add(seat)
                session.stand_in(seat, True)  # "Let a computer play" on the held seat's bar
        time.sleep(0.02)


def grandma_dad_and_maya(tmp_path, private: bool, sessions: list, host_rec, person, follower_rec):
    """Grandma's app hosting (a computer player in seat 3), Dad joined by address as a
    person would (seat 1, his standby known to the host) and Maya's client following;
    each session goes into ``sessions`` as it opens, for the caller to close."""
    settings = {**SHORT_GAME, "private_deal": private}  # the host dialog's "Private deal" box
    host = HostSession(host_rec, settings, ident("Grandma"), state_dir=tmp_path / "host",
                       timings=QUICK, autoplay=True, bots={3: "random"})
    sessions.append(host)
    blocking_until(lambda: host_rec.of("listening"))
    port = host_rec.of("listening")[0]["port"]
    network = Network(interfaces=[], home=tmp_path / "dad", timings=QUICK)
    dad = network.join(f"127.0.0.1:{port}", "Dad", person)
    sessions.append(dad)
    blocking_until(lambda: any(e["you"] == 1 for e in person.of("table")))
    follower = GuestSession(follower_rec, ident("Maya"), address="127.0.0.1", port=port,
                            timings=QUICK, state_dir=tmp_path / "maya", bot_level="random",
                            takeover={})
    sessions.append(follower)
    blocking_until(lambda: len([s for s in host_rec.of("table")[-1]["seats"]
                                if s["kind"] == "human" and s["connected"]]) == 3)
    blocking_until(lambda: len(dad.core.succession.roster) == 1)  # Dad's standby is known to the host
    return host, dad, follower


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_an_app_guest_carries_the_table_on_and_its_person_plays_to_the_end(tmp_path, private):
    host_rec, person, follower_rec = Recorder(), Recorder(), Recorder()
    sessions: list = []
    try:
        host, dad, follower = grandma_dad_and_maya(tmp_path, private, sessions, host_rec, person,
                                                   follower_rec)
        host.start_game()
        # Dad plays a few moves of the first hand; then the host's computer is gone
        play_as_a_person(dad, person, lambda: len(getattr(host.core.authority.state, "history", ())) >= 6)
        host.crash()
        play_as_a_person(dad, person, lambda: person.of("game_over"), timeout=120)
        blocking_until(lambda: follower_rec.of("game_over"))
        carried = dad.core.succession.host
        blocking_until(lambda: follower.core.replica.seq == carried.authority.chain.seq)
        followed = [s.hash for s in follower.core.replica.log]
    finally:
        for session in reversed(sessions):
            session.close()

    # Dad left the table he carried on: his lobby offers no rejoin of Grandma's old one
    from net.sessions.last_table import LastTable
    assert LastTable(tmp_path / "dad").load() is None
    assert carried.you == 1
    [entry] = [e for e in carried.authority.log if e.kind == takeover.KIND]
    assert entry.body["departed_seat"] == 0 and entry.body["abandoned"] == 0
    assert entry.signed_by(dad.core.identity.public_key)
    # the person was told, then saw the table as its host: the held seat, its own address
    hosting = [e for e in person.of("takeover") if e["stage"] == "hosting"]
    assert hosting and hosting[0]["you"] and "Grandma" in hosting[0]["text"]
    last_table = person.of("table")[-1]
    assert last_table["is_host"] and last_table["you"] == 1
    assert last_table["address"] == f"127.0.0.1:{carried.port}"
    # Dad's moves after the takeover went to the carried-on table (no hand is played
    # without them) and were taken: the game reached its end
    after = person.events[person.events.index(hosting[0]):]
    assert len([e for e in after if e["type"] == "state" and e["legal"]]) >= 5
    assert [e for e in after if e["type"] == "hand_over"]
    # nothing refused: a command given while the new host takes back its log is held
    # (the person told to wait a moment) and run after it — the stand-in for Grandma
    assert not [e for e in after if e["type"] == "error" and e["message"] != WAIT]
    assert carried.authority.match.is_over
    assert person.of("game_over")[-1]["scores"] == list(carried.authority.match.scores)
    assert any(e["type"] == "connection" and e["state"] == "stand_in" and e["seat"] == 0
               for e in person.events)
    # the follower reconnected to Dad and verified the same log, with no alert
    assert not follower_rec.of("alert") and not person.of("alert")
    assert followed == [s.hash for s in carried.authority.log][:len(followed)]
    assert len(followed) > carried.authority.log.index(entry)
    assert follower_rec.of("game_over")[-1]["scores"] == person.of("game_over")[-1]["scores"]
    # the carried-on table dealt as Grandma's did: privately, Dad's client holding only its
    # own seat's, the held seat's and the computer player's cards
    deals = [e for e in carried.authority.log[carried.authority.log.index(entry):]
             if e.kind in (ml.DEAL, "commit")]
    assert deals and {e.kind for e in deals} == {ml.DEAL if private else "commit"}
    if private:
        assert all(e.body["parties"][0]["seats"] == [0, 1, 3] for e in deals)


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_an_app_guest_that_carries_the_table_on_can_turn_a_stranger_away(tmp_path, private):
    """The person whose client carries the table on says no to a stranger asking for an
    away player's seat (the "readmit" dialog's No, ``turn_away``): the stranger is sent
    away at once, as at a host's own table — not left waiting, the person told of a bug."""
    host_rec, person, follower_rec, stranger_rec = Recorder(), Recorder(), Recorder(), Recorder()
    sessions: list = []
    try:
        host, dad, _ = grandma_dad_and_maya(tmp_path, private, sessions, host_rec, person,
                                            follower_rec)
        host.start_game()
        blocking_until(lambda: host.core.authority.state is not None)
        host.crash()
        blocking_until(lambda: [e for e in person.of("takeover") if e["stage"] == "hosting"], 60)
        carried = dad.core.succession.host
        blocking_until(lambda: carried.port and not carried.takeback.active, 60)
        stranger = GuestSession(stranger_rec, ident("Stranger"), address="127.0.0.1",
                                port=carried.port, timings=QUICK, state_dir=tmp_path / "stranger")
        sessions.append(stranger)
        blocking_until(lambda: person.of("readmit"), 30)
        asking = person.of("readmit")[0]["new_fingerprint"]
        dad.turn_away(asking)
        blocking_until(lambda: stranger_rec.of("error") or person.of("error"), 30)
    finally:
        for session in reversed(sessions):
            session.close()

    assert any("did not give you a seat" in e["message"] for e in stranger_rec.of("error")), \
        stranger_rec.of("error")
    assert not [e for e in person.of("error") if e["message"] not in (WAIT,)], person.of("error")
