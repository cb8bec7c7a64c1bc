"""Takeover: the host is gone for good, a player carries the table on from its copy of
the log, and the others check that it does so honestly (no sockets, messages by hand)."""

import pytest

from net.trust import takeover
from net.trust.host import successor
from net.trust.peer.replica import PeerReplica
from net.trust.values import Entry, SignedEntry
from net.wire import messages as m
from tests.net.trust_table import TABLE, Table

ROOK = ("rook", None, None)


class Recording:
    """A table (a ``Table`` or one of its kind) whose replicas' accepted entry messages
    are kept (a guest's session keeps them too: a replica past the takeover point is
    rebuilt from them)."""

    def open(self):
        self.accepted = {seat: [] for seat in self.replicas}
        for seat in self.replicas:
            self._record(seat)
        super().open()

    def _record(self, seat):
        replica = self.replicas[seat]
        receive = replica.receive

        def recording(message):
            out = receive(message)
            self.accepted[seat] += out.accepted
            return out
        replica.receive = recording

    def restore(self, seat):
        """How ``seat``'s replica is rebuilt from its messages (from the table entry on,
        whose host key is the one that opened the table)."""
        origin = self.replicas[seat].log[0].body["host_key"]
        kind = type(self.replicas[seat])
        return lambda messages: kind.restore(self.ids[seat], origin, TABLE, messages, self._bytes)


    def old_host_returns(self, old, kind=PeerReplica):
        """The departed host (``old``) starts again: the new host gives it its seat back
        (the stand-in leaves), and it follows the whole log as a guest (a ``kind``
        replica), the takeover included. Its replica."""
        self.deliver(self.host.seat(0, "human", old.public_key, "Host"))
        self.ids[0] = old
        self.peer_seats.append(0)
        self.replicas[0] = kind(old, old.public_key, TABLE, self._bytes)
        self.accepted[0], self.verified[0] = [], []
        self._record(0)
        self.tamper = None
        self.deliver(self.host.rejoin(self.fp(0), 0, -1))
        return self.replicas[0]


class Recorded(Recording, Table):
    def __init__(self, variant=ROOK, seed=5, **kw):
        super().__init__(variant, seed=seed, **kw)


def stand_all(t, seats=None):
    return [takeover.stand(t.replicas[s]) for s in sorted(seats or t.replicas)]


def hand_over(t, standings=None, stand_in=True, handover=None):
    """The host is gone: every remaining player stands, the lowest seat (or the one the
    host's ``handover`` names) hosts from its log, the others roll back to what they all
    hold and rejoin it; a bot stands in for the departed host's seat. Returns the
    takeover entry."""
    departed = t.host_seat
    standings = standings or stand_all(t)
    seat = takeover.successor_seat(standings, handover)
    base = takeover.common_seq(standings)
    for s in list(t.replicas):
        t.replicas[s], t.accepted[s] = t.replicas[s].rolled_back(t.accepted[s], base)
        t._record(s)
    host, _ = successor.succeed(t.ids[seat], t.replicas[seat], standings, t.accepted[seat],
                                rng=t._bytes, handover=handover)
    t.host, t.host_id, t.host_seat = host, t.ids[seat], seat
    del t.replicas[seat]
    t.peer_seats.remove(seat)
    live = {t.fp(s) for s in t.peer_seats}
    t.tamper = lambda fp, msg: msg if fp in live else None  # the departed host hears nothing
    for s in t.peer_seats:
        t.deliver(host.rejoin(t.fp(s), s, t.replicas[s].seq))
    if stand_in:
        t.deliver(host.seat(departed, "bot", name="Stand-in", level="random"))
    return next(e for e in host.log if e.kind == takeover.KIND)


def play_on(t, hands=1):
    for _ in range(hands):
        if t.host.state is None:
            t.next_hand()
        t.play_hand()


def test_the_successor_is_the_lowest_seat_among_the_standings():
    t = Recorded()
    t.start()
    standings = stand_all(t, [3, 2])
    assert takeover.successor_seat(standings) == 2
    assert takeover.successor_seat(stand_all(t)) == 1


def test_a_player_who_only_follows_is_never_the_successor():
    t = Recorded()
    t.start()
    t.step()
    standings = [takeover.stand(t.replicas[1], can_host=False)] + stand_all(t, [2, 3])
    assert takeover.successor_seat(standings) == 2
    assert takeover.successor_seat(standings[:1]) is None  # nobody can host
    entry = hand_over(t, standings)
    assert entry.body["seat"] == 2 and not t.alerts and not t.errors
    assert t.replicas[1].host_key == t.ids[2].public_key  # seat 1 checked and followed
    t.next_hand()
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_takeover_mid_hand_redeals_that_hand_and_the_game_goes_on():
    t = Recorded()
    t.start()
    for _ in range(6):
        t.step()
    hand, scores = t.replicas[1].hand_number, list(t.replicas[1].scores)
    entry = hand_over(t)
    assert not t.alerts and not t.errors
    assert entry.signed_by(t.ids[1].public_key) and not entry.signed_by(t.host.log[0].body["host_key"])
    assert entry.body["abandoned"] == hand and entry.body["seat"] == 1 and entry.body["departed_seat"] == 0
    assert "dealt again" in entry.body["reason"] and "Scores are unchanged" in entry.body["reason"]
    for replica in t.replicas.values():
        assert replica.host_key == t.ids[1].public_key and replica.scores == scores
        assert replica.round is None  # the abandoned hand's round is gone
        assert replica.seats[0].kind == "bot" and replica.seats[0].key == t.ids[1].public_key
    t.next_hand()  # the redeal: the same hand number, a new commitment
    commits = [e for e in t.host.log if e.kind == "commit"]
    assert [c.body["hand"] for c in commits] == [hand, hand]
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()
    for seat in t.replicas:
        [verified] = t.verified[seat]  # the redealt hand, checked with every card known
        assert verified["scores"] == t.host.match.scores
    play_on(t, 2)
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_takeover_between_hands_just_goes_on():
    t = Recorded()
    t.start()
    t.play_hand()
    scores = list(t.host.match.scores)
    entry = hand_over(t)
    assert entry.body["abandoned"] is None and "dealt again" not in entry.body["reason"]
    assert t.host.match.scores == scores and t.host.match.hand_number == 1
    play_on(t)
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(r.hand_number == 2 for r in t.replicas.values())


def test_a_player_holding_more_than_the_others_rolls_back_to_what_they_all_hold():
    t = Recorded()
    t.start()
    t.step()
    t.tamper = lambda fp, msg: None if fp == t.fp(2) else msg  # seat 2 misses the last move
    t.step()
    t.tamper = None
    assert t.replicas[3].seq == t.replicas[2].seq + 1
    common = t.replicas[2].seq
    entry = hand_over(t, stand_in=False)
    assert entry.seq == common + 1 == t.replicas[2].seq == t.replicas[3].seq
    assert entry.entry.prev == t.replicas[3].log.hash_at(common)  # seat 3's extra move is gone
    t.deliver(t.host.seat(0, "bot", name="Stand-in", level="random"))
    t.next_hand()
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_replica_rolled_back_is_rebuilt_as_it_was_made_from_what_it_accepted_up_to_there():
    """``PeerReplica.rolled_back``, which a follower and a watcher both use: the copy of
    the log up to the entry a takeover extends, made as the replica was (its key,
    randomness, deadlines, standing), and the entry messages kept; itself when it holds
    nothing past that entry."""
    t = Recorded()
    t.start()
    t.step()
    t.step()
    replica, accepted = t.replicas[1], t.accepted[1]
    replica.deadline, replica.slack, replica.standing = 7.5, 0.25, {"seat": 1}
    base = replica.seq - 1
    rolled, kept = replica.rolled_back(accepted, base)
    assert rolled is not replica and rolled.seq == base
    assert rolled.log.hash_at(base) == replica.log.hash_at(base)
    assert kept == [a for a in accepted if a.entry.seq <= base] and kept[-1].entry.seq == base
    assert (rolled.identity, rolled.rng, rolled.table) == (replica.identity, replica.rng, replica.table)
    assert (rolled.deadline, rolled.slack, rolled.standing) == (7.5, 0.25, {"seat": 1})
    assert rolled.host_key == t.replicas[2].log[0].body["host_key"]  # the first host's
    same, all_kept = replica.rolled_back(accepted, replica.seq)
    assert same is replica and all_kept is accepted


def test_the_departed_host_seat_is_held_and_bots_are_the_new_hosts():
    t = Recorded(("somerset", "kitty-doubled", None))  # seat 3 is a peer: no bots here
    t.start()
    hand_over(t, stand_in=False)
    seats = t.host.seats
    assert seats[0].kind == "human" and not seats[0].connected
    assert seats[0].key == t.host.log[0].body["host_key"]  # held for the departed key


# -- a dishonest successor -------------------------------------------------------------------
def forged_takeover(t, seat, standings, *, seq, prev, body_edit=None):
    """A takeover entry signed by ``seat``'s key, made by hand (a cheating successor)."""
    replica = t.replicas[seat]
    body = takeover.takeover_body(replica, standings, t.ids[seat].public_key).wire()
    if body_edit:
        body_edit(body)
    return SignedEntry.sign(t.ids[seat], Entry(TABLE, seq, prev, takeover.KIND, body))


def receive_takeover(t, seat, signed):
    replica = takeover.rolled_back(t.replicas[seat], t.accepted[seat], signed.seq - 1,
                                   t.restore(seat))
    return replica.receive(m.entry_message(signed.wire))


def one_move_in(moves=1):
    """A table a move into its first hand, every player's standing signed."""
    t = Recorded()
    t.start()
    for _ in range(moves):
        t.step()
    standings = stand_all(t)
    return t, standings, takeover.common_seq(standings)


def test_a_successor_that_forges_the_last_entry_is_caught():
    t, standings, base = one_move_in()
    forged = forged_takeover(t, 1, standings, seq=base + 1, prev=bytes(32))
    for seat in (2, 3):
        [alert] = receive_takeover(t, seat, forged).alerts
        assert alert.rule == "chain" and alert.seq == base + 1


def test_a_successor_that_skips_an_entry_is_caught():
    t, standings, base = one_move_in()
    skipping = forged_takeover(t, 1, standings, seq=base, prev=t.replicas[1].log.hash_at(base - 1))
    for seat in (2, 3):
        [alert] = receive_takeover(t, seat, skipping).alerts
        assert alert.rule == "takeover" and alert.seat == 1 and "skips or forges" in alert.detail


def test_a_takeover_without_a_majority_of_the_players_is_caught():
    """Seats 2 and 3 alone are two of the table's four persons: the host may be alive
    with seat 1 (a partition), so they may not make a second table of it."""
    t = Recorded()
    t.start()
    standings = stand_all(t)
    without_1 = [s for s in standings if s["body"]["seat"] != 1]
    base = takeover.common_seq(standings)
    with pytest.raises(ValueError, match="not a majority"):
        successor.succeed(t.ids[2], t.replicas[2], without_1)
    grab = forged_takeover(t, 2, without_1, seq=base + 1, prev=t.replicas[2].chain.head)
    for seat in (1, 3):
        [alert] = receive_takeover(t, seat, grab).alerts
        assert alert.rule == "takeover" and "not a majority (3)" in alert.detail


def test_a_table_of_two_persons_is_carried_on_only_by_a_handover():
    t = Recorded(peers=(1,))  # the host and one player; seats 2 and 3 are the host's bots
    t.start()
    t.step()
    [standing] = stand_all(t)
    assert takeover.majority(t.replicas[1].seats) == 2
    with pytest.raises(ValueError, match="not a majority"):
        successor.succeed(t.ids[1], t.replicas[1], [standing])
    handover = takeover.hand_over(t.host_id, TABLE, 1, t.host.chain.seq, t.host.chain.head)
    host, _ = successor.succeed(t.ids[1], t.replicas[1], [standing], handover=handover)
    [entry] = [e for e in host.log if e.kind == takeover.KIND]
    assert entry.body["handover"] == handover and "handed the table to" in entry.body["reason"]


def test_a_handover_names_the_successor_and_counts_as_the_host_standing():
    """The host leaving on purpose hands the table to seat 2 (not the lowest); seat 3's
    standing came late and is not in the entry: seat 3 follows all the same, seat 1
    too, and a handover the host did not sign is refused."""
    t = Recorded()
    t.start()
    for _ in range(3):
        t.step()
    handover = takeover.hand_over(t.host_id, TABLE, 2, t.host.chain.seq, t.host.chain.head)
    on_time = stand_all(t, [1, 2])
    takeover.stand(t.replicas[3])  # seat 3's standing, too late for the entry
    entry = hand_over(t, on_time, handover=handover)
    assert entry.body["seat"] == 2 and entry.body["handover"] == handover
    assert not t.alerts and not t.errors
    assert t.replicas[1].host_key == t.replicas[3].host_key == t.ids[2].public_key
    t.next_hand()
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_handover_the_host_did_not_sign_is_caught():
    t, standings, base = one_move_in()
    forged = takeover.hand_over(t.ids[3], TABLE, 3, base, t.replicas[3].chain.head)
    forged["body"]["departed"] = t.host_id.public_key  # seat 3 claims the host handed it over

    def with_forged(body):
        body["handover"] = forged
    grab = forged_takeover(t, 3, standings, seq=base + 1, prev=t.replicas[3].chain.head,
                           body_edit=with_forged)
    [alert] = receive_takeover(t, 1, grab).alerts
    assert alert.rule == "takeover" and "not signed by the departed host's key" in alert.detail


def test_a_successor_that_is_not_the_lowest_seat_or_forges_a_standing_is_caught():
    t = Recorded()
    t.start()
    standings = stand_all(t)
    base = takeover.common_seq(standings)
    head = t.replicas[2].chain.head
    not_lowest = forged_takeover(t, 2, standings, seq=base + 1, prev=head)
    [alert] = receive_takeover(t, 3, not_lowest).alerts
    assert alert.rule == "takeover" and "lowest seat" in alert.detail

    def forge_sig(body):
        body["standings"][2] = {**body["standings"][2], "sig": bytes(64)}
    forged = forged_takeover(t, 1, standings, seq=base + 1, prev=head, body_edit=forge_sig)
    [alert] = receive_takeover(t, 2, forged).alerts
    assert "not signed by its key" in alert.detail


def test_a_takeover_signed_by_a_key_other_than_the_one_it_names_is_caught():
    t = Recorded()
    t.start()
    standings = stand_all(t)
    base = takeover.common_seq(standings)
    entry = forged_takeover(t, 1, standings, seq=base + 1, prev=t.replicas[2].chain.head)
    resigned = SignedEntry.sign(t.ids[3], entry.entry)
    [alert] = receive_takeover(t, 2, resigned).alerts
    assert alert.rule == "host-signature"


def test_a_successor_must_hold_exactly_what_everyone_holds():
    t = Recorded()
    t.start()
    t.step()
    t.tamper = lambda fp, msg: None if fp == t.fp(2) else msg
    t.step()
    standings = stand_all(t)
    with pytest.raises(ValueError, match="last entry every player holds"):
        successor.succeed(t.ids[1], t.replicas[1], standings)  # not rolled back
    with pytest.raises(ValueError, match="not the lowest seat"):
        successor.succeed(t.ids[2], t.replicas[2], standings)


def test_the_departed_host_comes_back_as_a_guest():
    t = Recorded()
    t.start()
    for _ in range(5):
        t.step()
    old = t.host_id
    hand_over(t)
    t.next_hand()
    for _ in range(3):
        t.step()
    returned = t.old_host_returns(old)
    assert not t.alerts and not t.errors and t.heads_agree()
    assert returned.host_key == t.ids[1].public_key and returned.seat == 0
    play_on(t, 2)
    assert not t.alerts and not t.errors and t.heads_agree()
    assert t.verified[0]  # it checked hands as a guest, with every card known


def test_the_table_outlives_its_second_host_too():
    """The player who carried the table on is gone as well: the next lowest seat carries
    it on from its copy, which now holds two hosts' entries, and the game goes on."""
    t = Recorded()
    t.start()
    for _ in range(6):
        t.step()
    hand_over(t)
    t.next_hand()
    for _ in range(5):
        t.step()
    hand_over(t)
    second = [e for e in t.host.log if e.kind == takeover.KIND][-1]
    assert not t.alerts and not t.errors
    assert second.body["seat"] == 2 and second.body["departed_seat"] == 1
    assert t.replicas[3].host_key == t.ids[2].public_key
    play_on(t, 2)
    assert not t.alerts and not t.errors and t.heads_agree()
