"""A party gone under the mental-poker deal, through the host's authority and every peer's
replica (in process, one clock the test moves). A client connected but silent in the
deal (owing a key share, a shuffle or shares before the cards are dealt; a spare's
shares or its reveal after) is restarted out at the contribution deadline; a party gone
(every seat dropped) is waited for longer (``DROP_WAIT``: its cards are locked with its
key, and it may come back to the same hand), unless the host person deals again without
it — allowed once it has been away for the deadline — or keeps waiting. Either way the
deal restarts ("dropped" before the cards are dealt, "void" after), every replica
accepts it with no alert, and names the host for a restart that comes too soon, drops a
party the deal was not waiting for, or gives the seats to other parties than those left."""

import pytest

from net.constants import CONTRIBUTION_DEADLINE, CONTRIBUTION_SLACK, DROP_WAIT
from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from net.trust.deals.mental.roles import Onlooker, Seated
from net.trust.alerts import HOST
from net.trust.peer.replica import PeerReplica
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import TABLE, forge_entries

GONE = 2  # party 2 plays seat 2 (the host's client is party 0, then seats 1, 2, 3)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table_with_clock(variant=("rook", None, None)):
    table = MentalTrustTable(variant)
    clock = Clock()
    table.host.clock = clock
    for replica in table.replicas.values():
        replica.clock = clock
    return table, clock


def silence(table, seat: int) -> None:
    """Seat ``seat``'s client sends no deal message (it hangs in the shuffle)."""
    replica = table.replicas[seat]
    receive = replica.receive

    def silent(msg):
        out = receive(msg)
        out.sends = [s for s in out.sends if s.get("type") != "mental"]
        return out
    replica.receive = silent


def dropping_restart(table):
    """The restart that dropped a party (not a Rook redeal, which a deal may also have)."""
    return next(s for s in table.host.log if s.kind == ml.RESTART and s.body["seats"])


def assert_host_named(table, words: str, seats=(1, 3)) -> None:
    for seat in seats:
        alert = table.replicas[seat].halted
        assert alert is not None and (alert.party, alert.seat, alert.rule) == (HOST, 0, "deal"), alert
        assert words in alert.detail, alert.detail


def play_out_with_the_gone_player_back(table) -> None:
    """The rest of the hand; the gone seat's player, back, plays from the host's view
    (its cards are the host's party's now)."""
    real = table.choose
    table.choose = lambda seat: real(seat) if seat != GONE else _from_host(table, seat)
    table.play_hand()


def assert_witnessed(table) -> None:
    """The hand verified by every replica: the gone player's, no party of the deal it was
    finished on, followed it as a witness and checked it from the parties' reveals — its
    record (every card open: the summary's buried cards and scoring) is the parties'."""
    assert [len(table.verified[s]) for s in (1, GONE, 3)] == [1, 1, 1]
    records = [table.verified[s][0]["record"] for s in (1, GONE, 3)]
    assert records[1] is not None and records[1] == records[0] == records[2]


def overdue(table) -> list[int]:
    """The parties the host's deal has waited the deadline for."""
    return [late.who for late in table.host.deal.overdue()]


def _from_host(table, seat):
    state = table.host.state
    data = state.game.action_to_json(table.bot.choose(state, seat))
    data.pop("seat")
    return data


def test_a_party_silent_in_the_shuffle_is_restarted_out_at_the_deadline():
    table, clock = table_with_clock()
    silence(table, GONE)
    table.start()
    assert overdue(table) == [] and table.host.deal.due_in() == CONTRIBUTION_DEADLINE
    clock.now += CONTRIBUTION_DEADLINE
    assert overdue(table) == [GONE]
    gone(table)  # the host closes the silent client's link, then logs its drop
    assert isinstance(table.replicas[GONE].deal.role, Seated) and not table.replicas[GONE].deal.held_by_host
    table.deliver(table.host.restart_without([GONE]))
    assert table.alerts == []
    back(table)
    kinds = [s.kind for s in table.host.log]
    assert kinds[-2:] != ["drop", ml.RESTART]  # the host's new key share came after
    restart = dropping_restart(table)
    assert restart.body["seats"] == [GONE] and restart.body["record"]["reason"] == "dropped"
    assert GONE in table.host.deal.setup.parties[0].seats
    assert all(r.deal.setup.context.attempt == 1 for r in table.replicas.values())
    assert table.replicas[GONE].deal.party.onlooker
    # its role is chosen again at the restart: from here its seat's cards are the host's
    assert isinstance(table.replicas[GONE].deal.role, Onlooker) and table.replicas[GONE].deal.held_by_host
    play_out_with_the_gone_player_back(table)
    assert table.alerts == []
    assert_witnessed(table)  # it held no part, and checked the hand from the reveals


@pytest.mark.parametrize("variant", [("somerset", None, None), ("somerset", "widow-keep", None),
                                     ("horseshoes", "horseshoes", "four")], ids=lambda v: "-".join(filter(None, v)))
def test_a_player_restarted_out_of_the_deal_checks_the_hand_from_the_reveals(variant):
    """Issue 28, item 4: the hand's record for a player whose cards were the host's this
    hand (its summary's buried cards and scoring), for each title's hidden cards: the
    kitty the bidder alone sees and discards into, the widow (the test above: Rook's)."""
    table, clock = table_with_clock(variant)
    silence(table, GONE)
    table.start()
    clock.now += CONTRIBUTION_DEADLINE
    gone(table)
    table.deliver(table.host.restart_without([GONE]))
    back(table)
    assert table.replicas[GONE].deal.party.onlooker
    play_out_with_the_gone_player_back(table)
    assert table.alerts == []
    assert_witnessed(table)


def test_a_restart_sooner_than_the_deadline_names_the_host():
    table, clock = table_with_clock()
    silence(table, GONE)
    table.start()
    clock.now += CONTRIBUTION_DEADLINE / 2
    table.deliver(table.host.restart_without([GONE]))
    assert_host_named(table, "it must wait")


def test_a_restart_without_a_party_the_deal_was_not_waiting_for_names_the_host():
    table, clock = table_with_clock()
    silence(table, GONE)
    table.start()
    clock.now += CONTRIBUTION_DEADLINE
    gone(table, 1)
    table.deliver(table.host.restart_without([1]))  # seat 1 sent its key share
    assert_host_named(table, "not waiting for", seats=(GONE, 3))


def test_a_restart_that_gives_a_partys_seats_to_the_host_names_the_host():
    table, clock = table_with_clock()
    silence(table, GONE)

    def grab(kind, body, state_hash):
        if kind == ml.RESTART:  # seat 3's cards to the host's party as well
            record = dict(body["record"])
            parties = [dict(p) for p in record["parties"]]
            moved = parties.pop()
            parties[0] = dict(parties[0], seats=sorted(parties[0]["seats"] + moved["seats"]))
            body = dict(body, record=dict(record, parties=parties))
        return body, state_hash
    forge_entries(table.host.chain, grab)
    table.start()
    table.host.deal.party.client._restart = lambda record: []  # its own client plays along
    clock.now += CONTRIBUTION_DEADLINE
    table.deliver(table.host.restart_without([GONE]))
    assert_host_named(table, "other parties than those left")


@pytest.fixture
def dealt():
    """A hand dealt and a few moves in; then seat 2's player drops."""
    table, clock = table_with_clock()
    table.start()
    for _ in range(4):
        table.step()
    scores = list(table.host.match.scores)
    gone(table)
    table.deliver(table.host.drop(GONE))
    return table, clock, scores


def gone(table, seat=GONE) -> None:
    """Seat ``seat``'s link is down: nothing reaches its replica until it rejoins (a sync)."""
    table.tamper = lambda fp, msg: None if fp == table.fp(seat) and msg.get("type") == "entry" else msg


def restarted(table, clock) -> None:
    """Seat GONE's client starts again from nothing but its key (it reads the whole log)."""
    table.replicas[GONE] = PeerReplica(table.ids[GONE], table.host_id.public_key, TABLE,
                                       table._bytes, clock=clock)


def back(table) -> None:
    """Seat GONE's player is back: it rejoins and is sent what it missed."""
    table.tamper = None
    table.deliver(table.host.rejoin(table.fp(GONE), GONE, table.replicas[GONE].seq))


def voided(table, scores) -> None:
    """The hand was voided without seat GONE (no alert), and is played out with its seat
    the host's party's: every replica verifies it (GONE's as a witness)."""
    assert table.alerts == []
    back(table)
    restart = dropping_restart(table)
    assert restart.body["record"]["reason"] == "void" and restart.body["seats"] == [GONE]
    assert table.host.match.scores == scores and "hand_end" not in [s.kind for s in table.host.log]
    play_out_with_the_gone_player_back(table)
    assert table.alerts == []
    assert_witnessed(table)


def test_a_party_gone_after_the_deal_is_waited_for_then_the_hand_is_void(dealt):
    """Its cards are locked with its key: the hand waits ``DROP_WAIT`` for it, not the
    contribution deadline, and only then is void."""
    table, clock, scores = dealt
    clock.now += CONTRIBUTION_DEADLINE
    assert overdue(table) == [] and table.host.deal.due_in() == pytest.approx(DROP_WAIT - CONTRIBUTION_DEADLINE)
    [away] = table.host.deal.away()
    assert (away.late.who, away.late.seats, away.late.outcome) == (GONE, (GONE,), "void")
    assert away.until == pytest.approx(clock.now - CONTRIBUTION_DEADLINE + DROP_WAIT)
    assert table.host.deal.awaited() == []  # no "Waiting for P2's shuffle…": it is away
    clock.now += DROP_WAIT - CONTRIBUTION_DEADLINE - 1
    assert overdue(table) == []
    clock.now += 1
    assert overdue(table) == [GONE]
    table.deliver(table.host.restart_without([GONE]))
    voided(table, scores)


def test_a_player_back_within_the_wait_plays_on_the_same_hand(dealt):
    """Back after the contribution deadline but within the wait: nothing was voided, its
    client derives its secrets again and holds the same cards, and the hand is played
    out and verified by every replica, its own included."""
    table, clock, scores = dealt
    cards = table.replicas[GONE].deal.party.hands[GONE]
    clock.now += DROP_WAIT / 2
    assert overdue(table) == []
    restarted(table, clock)  # its app was restarted: it knows nothing but its key
    back(table)
    assert table.replicas[GONE].deal.party.hands[GONE] == cards
    clock.now += DROP_WAIT
    assert overdue(table) == [] and table.host.deal.due_in() is None
    assert ml.RESTART not in [s.kind for s in table.host.log]
    table.play_hand()
    assert table.alerts == [] and all(len(v) == 1 for v in table.verified.values())


def test_the_host_may_deal_again_without_a_party_gone_for_the_deadline(dealt):
    """"Deal again without P2": offered once it has been away for the contribution
    deadline, the floor every replica checks on its own clock; done then, every replica
    accepts it."""
    table, clock, scores = dealt
    dropped = clock.now
    [away] = table.host.deal.away()
    assert away.choice_from == pytest.approx(dropped + CONTRIBUTION_DEADLINE)
    clock.now = away.choice_from
    assert overdue(table) == []  # the deal would wait longer by itself
    table.deliver(table.host.restart_without([away.late.who]))
    voided(table, scores)


def test_keep_waiting_starts_the_wait_again(dealt):
    table, clock, scores = dealt
    clock.now += DROP_WAIT - 1
    table.host.deal.keep_waiting([GONE])  # (nothing is logged: the host person's choice)
    kept = clock.now
    clock.now += 1
    assert overdue(table) == [] and table.host.deal.due_in() == pytest.approx(DROP_WAIT - 1)
    [away] = table.host.deal.away()
    assert away.until == pytest.approx(kept + DROP_WAIT)
    clock.now = kept + DROP_WAIT
    assert overdue(table) == [GONE]
    table.deliver(table.host.restart_without([GONE]))
    voided(table, scores)


def test_a_party_gone_during_the_shuffle_is_waited_for_too():
    table, clock = table_with_clock()
    silence(table, GONE)
    table.start()
    gone(table)  # its link closes (the host logs its drop) while the deal awaits its shuffle
    table.deliver(table.host.drop(GONE))
    clock.now += CONTRIBUTION_DEADLINE
    assert overdue(table) == []
    clock.now += DROP_WAIT - CONTRIBUTION_DEADLINE
    assert overdue(table) == [GONE]
    table.deliver(table.host.restart_without([GONE]))
    assert table.alerts == []
    assert dropping_restart(table).body["record"]["reason"] == "dropped"


def test_a_hand_voided_sooner_than_the_deadline_names_the_host(dealt):
    table, clock, _ = dealt
    clock.now += CONTRIBUTION_DEADLINE / 2
    table.deliver(table.host.restart_without([GONE]))
    assert_host_named(table, "voided the hand")


def test_a_hand_voided_for_a_player_still_here_names_the_host():
    """Logged without its drop: the seat is connected as far as every replica knows."""
    table, clock = table_with_clock()
    table.start()
    for _ in range(4):
        table.step()
    clock.now += CONTRIBUTION_DEADLINE
    real = table.host._append

    def no_drop(out, body, *args, **kwargs):
        if body.KIND != "drop":
            return real(out, body, *args, **kwargs)
    table.host._append = no_drop
    table.deliver(table.host.restart_without([GONE]))
    assert_host_named(table, "which is still here")


def test_a_move_made_before_the_deal_was_restarted_is_dropped_quietly():
    """A move in flight when the deal restarts (a Rook redeal claimed after the bidding
    began, a party restarted out) was decided on a void deal: the host drops it without a
    refusal — its player's client reads the restart and decides again — as it drops a
    deal message of an earlier attempt."""
    t = MentalTrustTable()
    t.start()
    while t.host.state.to_act()[0] not in t.replicas:
        t.step()
    seat = t.host.state.to_act()[0]
    in_flight = t.replicas[seat].act(t.choose(seat))
    t.tamper = lambda fp, msg: None  # (the peers' view of the restart is not this test's)
    other = next(i for i, p in enumerate(t.host.deal.setup.parties) if i and seat not in p.seats)
    assert ml.RESTART in [e.kind for e in t.host.restart_without([other]).entries]
    head = t.host.chain.seq
    out = t.host.receive(t.fp(seat), in_flight)
    assert not out.sends and not out.entries and not out.error and t.host.chain.seq == head


def test_a_card_the_rules_refuse_for_a_seat_the_host_holds_leaves_the_seat_playable(dealt):
    """Back after the void, the player's seat is the host's party's: the host's client makes
    the proof of each card it plays. A card the seat holds but may not play now (an app
    that offered the made-up cards' moves did send one) is refused with the rules' reason
    and nothing of it is logged; its proof, logged first, stood in the deal as the seat's
    next card, so that no other card of the seat was ever taken again — its player's nor
    the stand-in's the host then let play for it (the table stuck)."""
    table, clock, _ = dealt
    clock.now += CONTRIBUTION_DEADLINE
    table.deliver(table.host.restart_without([GONE]))
    back(table)
    host = table.host
    while not (GONE in host.state.to_act() and host.state.phase == "play" and refused(host.state)):
        seat = host.state.to_act()[0]
        table.step(seat, _from_host(table, seat) if seat == GONE else None)
    card = refused(host.state)[0]
    reason = host.state.play_reason(GONE, card)
    head = host.chain.seq
    out = host.receive(table.fp(GONE), table.raw_act(GONE, {"play": host.game.deck.name(card)}))
    assert [m["reason"] for _, m in out.sends if m["type"] == "error"] == [reason]
    assert host.chain.seq == head, "the refused card's proof was logged"

    gone(table)  # the player leaves again, and the host lets a computer play for them
    table.deliver(host.drop(GONE))
    table.deliver(host.seat(GONE, "bot", name=f"P{GONE} (bot)", level="random"))
    while host.state is not None and not host.state.is_over:
        seat = host.state.to_act()[0]
        if seat == GONE:
            out = host.act_local(GONE, _from_host(table, GONE))
            assert out.error is None, out.error
            table.deliver(out)
        else:
            table.step(seat)
    assert table.alerts == []
    assert [len(table.verified[s]) for s in (1, 3)] == [1, 1]


def refused(state) -> list[int]:
    """The cards seat GONE holds but may not play now."""
    legal = state.legal_play_mask(GONE)
    return [c for c in range(state.game.deck.size) if state.hands[GONE] >> c & 1 and not legal >> c & 1]


# -- a client connected but silent after the cards are dealt ---------------------------------
def mute(table, seat: int, kind: str, after=lambda: True) -> None:
    """Seat ``seat``'s client stays connected but never sends deal messages of ``kind``
    (once ``after()``): it owes them, and the table would wait for them for ever."""
    replica = table.replicas[seat]
    receive = replica.receive

    def muted(msg):
        out = receive(msg)
        if after():
            out.sends = [s for s in out.sends if s.get("type") != "mental"
                         or s["signed"]["body"]["type"] != kind]
        return out
    replica.receive = muted


def test_a_connected_party_that_never_reveals_is_restarted_out_at_the_deadline():
    """Every card is played; seat 2's client stays connected and never sends its reveal,
    so the hand cannot be scored: at the contribution deadline after the hand last moved
    on, the host treats it as gone (a drop, its link closed) and voids the hand; every
    replica accepts that (the reveal was owed, the hand had not moved for the deadline)."""
    table, clock = table_with_clock()
    mute(table, GONE, mm.REVEAL)
    table.start()
    table.play_hand()
    assert table.host.state.is_over and "hand_end" not in [s.kind for s in table.host.log]
    assert table.host.deal.due_in() == pytest.approx(CONTRIBUTION_DEADLINE)
    clock.now += CONTRIBUTION_DEADLINE
    assert overdue(table) == [GONE] and table.host.deal.away() == []  # silent, not away
    gone(table)  # the session closes its link: it comes back as any dropped player does
    table.deliver(table.host.restart_without([GONE]))
    assert table.alerts == []
    back(table)
    restart = dropping_restart(table)
    assert restart.body["record"]["reason"] == "void" and restart.body["seats"] == [GONE]
    play_out_with_the_gone_player_back(table)
    assert table.alerts == []
    assert_witnessed(table)


def test_a_connected_party_that_never_opens_the_widow_is_restarted_out_at_the_deadline():
    """Rook's widow is turned up after the bidding: every party publishes its shares. Seat
    2's client, connected, never does; no move can be taken until it does. At the deadline
    the hand is void and dealt again without it."""
    table, clock = table_with_clock()
    mute(table, GONE, mm.SHARES, after=lambda: table.host.deal.dealt)
    table.start()
    table.play_until(lambda: ml.spare_pending(table.host.deal.party))
    assert ml.spare_pending(table.host.deal.party)
    clock.now += CONTRIBUTION_DEADLINE - 1
    assert overdue(table) == []
    clock.now += 1
    assert overdue(table) == [GONE]
    gone(table)
    table.deliver(table.host.restart_without([GONE]))
    assert table.alerts == []
    back(table)
    assert dropping_restart(table).body["record"]["reason"] == "void"
    play_out_with_the_gone_player_back(table)
    assert table.alerts == [] and [len(table.verified[s]) for s in (1, 3)] == [1, 1]


def test_voiding_the_hand_for_a_silent_party_sooner_than_the_deadline_names_the_host():
    table, clock = table_with_clock()
    mute(table, GONE, mm.REVEAL)
    table.start()
    table.play_hand()
    clock.now += CONTRIBUTION_DEADLINE / 2
    gone(table)
    table.deliver(table.host.restart_without([GONE]))
    assert_host_named(table, "it must wait")


def test_a_restart_without_a_party_gone_for_the_deadline_is_honest_even_if_not_awaited():
    """Before the cards are dealt a party gone is waited for whatever the deal awaits
    now; once it has been away for the deadline (less the slack a delivery may take)
    every replica accepts a restart without it."""
    table, clock = table_with_clock()
    silence(table, 3)  # the deal waits for seat 3's shuffle; seat 2 sent what it owes so far
    table.start()
    gone(table)
    table.deliver(table.host.drop(GONE))
    assert GONE not in [s for s in table.host.deal.sequencer.awaited()]
    clock.now += CONTRIBUTION_DEADLINE - CONTRIBUTION_SLACK
    table.deliver(table.host.restart_without([GONE]))
    assert table.alerts == [] and dropping_restart(table).body["seats"] == [GONE]
