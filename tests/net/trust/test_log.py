"""The hash chain: the host appends, a peer refuses anything but the signed next entry."""

from dataclasses import replace

from net.trust import log
from net.trust.entries import OptionBody
from net.trust.values import SignedEntry, entry_hash
from net.wire.identity import Identity

HOST = Identity.generate("Host")
OTHER = Identity.generate("Other")


def grow(n, table="t"):
    chain, entries = log.Chain(table), []
    for i in range(n):
        signed = chain.make(HOST, OptionBody("live_scores", bool(i % 2)))
        chain.advance(signed)
        entries.append(signed)
    return entries


def test_a_chain_of_entries_checks_in_order():
    peer = log.Chain("t")
    for signed in grow(4):
        assert peer.problem(HOST.public_key, signed) is None
        peer.advance(signed)
    assert peer.seq == 3


def test_each_entry_links_to_the_hash_of_the_signed_one_before():
    a, b = grow(2)
    assert b.entry.prev == a.hash == entry_hash(a.wire)
    resigned = {**a.wire, "sig": OTHER.sign(b"x")}
    assert entry_hash(resigned) != a.hash  # the signature is part of the hash


def rule(peer, signed, key=HOST.public_key):
    problem = peer.problem(key, signed)
    return problem and problem[0]


def test_the_peer_names_what_is_wrong():
    entries = grow(3)
    peer = log.Chain("t")
    assert rule(peer, entries[1]) == "sequence"  # a gap
    peer.advance(entries[0])
    assert rule(peer, entries[1], OTHER.public_key) == "host-signature"
    assert rule(log.Chain("elsewhere"), entries[0]) == "table"
    forged_prev = SignedEntry.sign(HOST, replace(entries[1].entry, prev=bytes(32)))
    assert rule(peer, forged_prev) == "chain"
    odd = SignedEntry.sign(HOST, replace(entries[1].entry, kind="teleport"))
    assert rule(peer, odd) == "kind"
    peer.advance(entries[1])
    assert rule(peer, entries[1]) == "sequence"  # a replay


def test_a_changed_body_breaks_the_host_signature():
    entry = grow(1)[0]
    tampered = SignedEntry.from_wire({"entry": {**entry.entry.wire(), "body": {"name": "live_scores",
                                                                               "value": True}},
                                      "sig": entry.sig})
    assert rule(log.Chain("t"), tampered) == "host-signature"


def test_a_held_log_tells_a_resent_copy_from_a_fork():
    held = log.HeldLog(grow(3))
    assert held.copy_problem(HOST.public_key, held[1]) is None
    other = SignedEntry.sign(HOST, replace(held[1].entry, body={"name": "x", "value": True}))
    assert held.copy_problem(HOST.public_key, other)[0] == "fork"
    forged = SignedEntry.sign(OTHER, replace(held[1].entry, body={"name": "x", "value": True}))
    assert held.copy_problem(HOST.public_key, forged)[0] == "host-signature"


def test_a_held_log_checks_the_hosts_heartbeat_against_what_it_was_sent():
    held = log.HeldLog(grow(3))
    assert held.head_problem(2, held[2].hash) is None and held.head_problem(0, held[0].hash) is None
    assert held.head_problem(3, bytes(32))[0] == "sequence"  # an entry it was never sent
    assert held.head_problem(1, bytes(32))[0] == "fork"
    assert held.hash_at(5) is None
