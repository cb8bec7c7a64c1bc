"""A restarted host takes back the tail of its log it lost, from its peers' copies.

First the state machine alone (``TailRecovery``, what it answers recorded call by call),
then whole tables in memory: the host's store loses its last entries (as a power cut
loses what was written but not fsynced), the host is restored from it, and it either
takes the tail back and goes on without a fork, or stops saying why."""

import pytest

from net.trust.host.authority import HostAuthority
from net.trust.host.recovery import Phase, TailRecovery, can_rebuild, rebuilt_private
from net.trust.signing import sign_entry
from net.trust.store import LogStore, host_only
from net.wire import messages as m
from tests.net.trust.test_store import batched_table
from tests.net.trust_table import TABLE, identity


# -- a table whose host lost its last entries --------------------------------------------------

def played(tmp_path, moves: int = 12):
    """A Rook table with its host's log in a store, ``moves`` moves into the play of
    cards (past the nest, so the last entries are visible moves)."""
    t = batched_table(LogStore(tmp_path / "table.db"), ("rook", None, None))
    while t.host.state is None or not t.host.state.tricks:
        t.step()
    for _ in range(moves):
        t.step()
    assert not t.alerts and t.heads_agree()
    return t


def lose_tail(t, lost: int) -> HostAuthority:
    """The host's disk keeps all but its last ``lost`` entries (the peers hold them): the
    host restarted from what is left."""
    head = t.host.chain.seq
    assert all(can_rebuild(s) for s in t.host.log[head - lost + 1:])
    t.store.truncate_after(head - lost)
    t.store.close()
    t.store = LogStore(t.store.path)
    host = HostAuthority.restore(t.host_id, t.store.load().records, t._bytes, persist=t.store)
    assert host.chain.seq == head - lost
    return host


def recovery_for(t, host) -> TailRecovery:
    return TailRecovery(t.host_id.public_key, TABLE, host.chain.seq, host.chain.head,
                        {t.fp(s): s for s in t.peer_seats})


def run(t, host, rec: TailRecovery, out, replicas=None) -> list:
    """Carry the recovery's messages to the replicas and their tails back, adopting what
    it hands over; every alert raised."""
    replicas = t.replicas if replicas is None else replicas
    alerts, pending = [], [out]
    while pending:
        out = pending.pop(0)
        alerts += out.alerts
        for signed, private in out.adopt:
            host.adopt(signed, private)
        for fp, msg in out.sends:
            assert msg["type"] == m.TAIL_REQUEST
            for tail in replicas[t.seat_of_fp(fp)].tail(msg["after"]):
                pending.append(rec.tail(fp, tail))
    return alerts


def all_join(t, rec: TailRecovery) -> list:
    """Every peer comes back, saying how far its log goes; the recovery's answers."""
    return [rec.joined(t.fp(s), s, t.replicas[s].seq) for s in t.peer_seats]


def go_on(t, host) -> None:
    """The restarted host is the table's host again: the peers rejoin and play a hand."""
    t.host = host
    for seat in t.peer_seats:
        t.deliver(host.rejoin(t.fp(seat), seat, min(t.replicas[seat].seq, host.chain.seq)))
    t.play_hand()


# -- the state machine ----------------------------------------------------------------------------

def test_nothing_lost_nothing_asked_done_once_every_peer_reported(tmp_path):
    t = played(tmp_path)
    rec = recovery_for(t, t.host)
    outs = all_join(t, rec)
    assert [o.sends for o in outs] == [[], [], []]
    assert [o.done for o in outs] == [False, False, True] and rec.phase is Phase.DONE


def test_the_longest_copy_is_asked_for_the_tail_and_it_is_handed_over_in_order(tmp_path):
    t = played(tmp_path)
    tail = t.host.log[-3:]
    host = lose_tail(t, 3)
    rec = recovery_for(t, host)
    first, *_ = t.peer_seats
    out = rec.joined(t.fp(first), first, t.replicas[first].seq)
    assert out.sends == [(t.fp(first), {"type": "tail_request", "after": host.chain.seq})]
    assert rec.phase is Phase.FETCHING
    (fp, _), = out.sends
    got = [rec.tail(fp, msg) for msg in t.replicas[first].tail(host.chain.seq)]
    assert [signed for o in got for signed, _ in o.adopt] == tail
    assert [p for o in got for _, p in o.adopt] == [rebuilt_private(s) for s in tail]
    assert not any(o.done for o in got) and rec.phase is Phase.WAITING  # two peers to hear
    rest = [rec.joined(t.fp(s), s, t.replicas[s].seq) for s in t.peer_seats[1:]]
    assert [o.sends for o in rest] == [[], []] and rest[-1].done


def test_a_forged_entry_is_refused_with_an_alert_naming_the_peer_and_another_is_asked(tmp_path):
    t = played(tmp_path)
    host = lose_tail(t, 3)
    rec = recovery_for(t, host)
    liar, honest = t.peer_seats[0], t.peer_seats[1]
    rec.joined(t.fp(liar), liar, t.replicas[liar].seq)
    msg, = t.replicas[liar].tail(host.chain.seq)
    forged_body = {**msg["entries"][1]["entry"]}
    forged_body["body"] = {**forged_body["body"], "forged": True}
    forged = {**msg["entries"][1], "entry": forged_body}  # the host's signature no longer fits
    out = rec.tail(t.fp(liar), {**msg, "entries": [msg["entries"][0], forged, msg["entries"][2]]})
    assert len(out.adopt) == 1  # the genuine entry before it is kept
    alert, = out.alerts
    assert (alert.party, alert.seat, alert.rule) == ("player", liar, "host-signature")
    assert alert.evidence == [forged] and alert.seq == host.chain.seq + 2
    assert out.disconnect == [t.fp(liar)] and out.sends == []  # nobody else ahead yet
    out = rec.joined(t.fp(honest), honest, t.replicas[honest].seq)
    assert out.sends == [(t.fp(honest), {"type": "tail_request", "after": host.chain.seq + 1})]


def test_an_entry_that_does_not_follow_is_refused_as_a_broken_chain(tmp_path):
    t = played(tmp_path)
    host = lose_tail(t, 2)
    rec = recovery_for(t, host)
    seat = t.peer_seats[0]
    rec.joined(t.fp(seat), seat, t.replicas[seat].seq)
    msg, = t.replicas[seat].tail(host.chain.seq)
    # signed by the host's key, but not the entry that followed: re-linked elsewhere
    entry = {**msg["entries"][1]["entry"], "prev": bytes(32)}
    relinked = sign_entry(identity("host"), entry)
    out = rec.tail(t.fp(seat), {**msg, "entries": [msg["entries"][0], relinked]})
    assert [a.rule for a in out.alerts] == ["chain"] and len(out.adopt) == 1


def test_a_lost_secret_stops_the_table_rather_than_forking(tmp_path):
    t = played(tmp_path, moves=0)
    t.play_hand()
    t.next_hand()  # a new commitment: its secret is only on the host's disk
    commit = max(i for i, s in enumerate(t.host.log) if s.kind == "commit")
    assert host_only(t.host.log[commit], {"secret": t.host.round.secret})
    lost = len(t.host.log) - commit
    t.store.truncate_after(commit - 1)  # a damaged disk lost even what it had fsynced
    t.store.close()
    store = LogStore(t.store.path)
    host = HostAuthority.restore(t.host_id, store.load().records, t._bytes, persist=store)
    rec = recovery_for(t, host)
    seat = t.peer_seats[0]
    out = rec.joined(t.fp(seat), seat, t.replicas[seat].seq)
    out = rec.tail(t.fp(seat), t.replicas[seat].tail(host.chain.seq)[0])
    assert rec.phase is Phase.FAILED and not out.adopt and lost >= 1
    assert f"entry {commit} (commit)" in out.failed and "stops" in out.failed


def test_the_grace_ends_the_wait_for_peers_that_are_not_back(tmp_path):
    t = played(tmp_path)
    rec = recovery_for(t, t.host)
    seat = t.peer_seats[0]
    assert not rec.joined(t.fp(seat), seat, t.replicas[seat].seq).done
    out = rec.grace_over()
    assert out.done and rec.phase is Phase.DONE
    assert not rec.joined(t.fp(t.peer_seats[1]), t.peer_seats[1], 10**6).sends  # too late


def test_a_tail_that_never_comes_is_not_waited_for_past_the_grace(tmp_path):
    t = played(tmp_path)
    host = lose_tail(t, 2)
    rec = recovery_for(t, host)
    outs = all_join(t, rec)
    silent = outs[0].sends[0][0]  # asked, and never answers
    out = rec.grace_over()
    (asked, _), = out.sends  # the next longest copy is asked instead
    assert asked != silent and rec.source == asked
    assert not rec.tail(silent, t.replicas[t.seat_of_fp(silent)].tail(host.chain.seq)[0]).adopt
    out = rec.grace_over()  # … and it is silent too, and so is the last one:
    (third, _), = out.sends
    assert third not in (silent, asked)
    assert rec.grace_over().done and rec.recovered == 0  # the host goes on with what it has


def test_a_peer_that_leaves_mid_tail_is_replaced_by_the_next_longest(tmp_path):
    t = played(tmp_path)
    host = lose_tail(t, 2)
    rec = recovery_for(t, host)
    a, b, c = t.peer_seats
    rec.joined(t.fp(a), a, t.replicas[a].seq)
    rec.joined(t.fp(b), b, t.replicas[b].seq)
    rec.joined(t.fp(c), c, t.replicas[c].seq - 1)
    gone = rec.source
    assert gone in (t.fp(a), t.fp(b))
    out = rec.left(gone)
    (asked, msg), = out.sends
    assert asked == ({t.fp(a), t.fp(b)} - {gone}).pop()
    assert msg == {"type": "tail_request", "after": host.chain.seq}
    ignored = rec.tail(t.fp(c), m.tail_messages([s.wire for s in t.replicas[c].log[-1:]])[0])
    assert not ignored.adopt and rec.source == asked  # a tail nobody asked for


# -- whole tables --------------------------------------------------------------------------------

def test_a_host_that_lost_its_tail_takes_it_back_and_the_game_goes_on_without_a_fork(tmp_path):
    t = played(tmp_path)
    sent = list(t.host.log)
    host = lose_tail(t, 4)
    rec = recovery_for(t, host)
    alerts = []
    for out in all_join(t, rec):
        alerts += run(t, host, rec, out)
    assert not alerts and rec.phase is Phase.DONE and rec.recovered == 4
    assert host.log == sent  # every entry it had sent, the same
    assert [s for s, _ in t.store.load().records] == sent  # … and on its disk again
    go_on(t, host)
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(t.replicas[s].log == host.log for s in t.peer_seats)


def test_without_taking_the_tail_back_the_peers_would_see_a_fork(tmp_path):
    """The control: the same loss, and a host that simply goes on from its disk."""
    t = played(tmp_path)
    t.host = host = lose_tail(t, 4)
    seat = host.state.to_act()[0]
    action = t.choose(seat)
    t.deliver(host.receive(t.fp(seat), t.raw_act(seat, action)) if seat in t.replicas
              else host.act_local(seat, action))
    assert {a.rule for _, a in t.alerts} == {"fork"}


def test_the_host_adopts_nothing_it_did_not_sign(tmp_path):
    t = played(tmp_path)
    host = lose_tail(t, 1)
    stranger = sign_entry(identity("stranger"), t.replicas[1].log[-1].wire["entry"])
    from net.trust.host.authority import RestoreError
    from net.trust.values import SignedEntry
    with pytest.raises(RestoreError, match="not signed by the host"):
        host.adopt(SignedEntry.from_wire(stranger), None)
