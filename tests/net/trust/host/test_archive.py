"""Archive on its own: a returning seat is sent the log as it would have had it live,
its private parts only while its key held the seat."""

from net.trust.entries import parse as parse_body
from net.trust.host.archive import Archive
from net.trust.log import Chain
from net.wire import messages as m
from tests.net.trust_table import identity

HOST, ANN, BEN = identity("host"), identity("peer1"), identity("peer2")


def seat_body(key, readmit=False):
    return {"seat": 1, "kind": "human", "key": key, "name": "", "level": None, "readmit": readmit}


def archive_of(entries):
    """(kind, body, private for seat 1) in order, recorded as the host does."""
    archive, chain = Archive(HOST), Chain("t")
    for kind, body, private in entries:
        signed = chain.make(HOST, parse_body(kind, body))
        chain.advance(signed)
        archive.record(signed, [{"type": kind}])
        archive.published(signed.seq, {"seq": signed.seq}, {1: private})
    return archive


def privates_sent(archive, key, last_seq=-1):
    return [(msg["entry"]["entry"]["seq"], msg["private"]["view"])
            for sync in archive.sync(1, last_seq, key) for msg in sync["entries"]]


def test_a_seat_gets_its_private_parts_only_from_when_its_key_held_it():
    archive = archive_of([
        ("seat", seat_body(ANN.public_key), {"view": {"ann": 1}, "action": None}),
        ("option", {"name": "x", "value": True}, {"view": {"ann": 2}, "action": None}),
        ("seat", seat_body(BEN.public_key, readmit=True), {"view": {"ben": 3}, "action": None}),
        ("option", {"name": "x", "value": False}, {"view": {"ben": 4}, "action": None})])
    assert privates_sent(archive, ANN.public_key) == [(0, {"ann": 1}), (1, {"ann": 2}), (2, None), (3, None)]
    assert privates_sent(archive, BEN.public_key) == [(0, None), (1, None), (2, {"ben": 3}), (3, {"ben": 4})]
    assert privates_sent(archive, BEN.public_key, last_seq=2) == [(3, {"ben": 4})]
    assert archive.taken_from(ANN.public_key) == (1, 2) and archive.taken_from(BEN.public_key) is None


def test_the_log_goes_in_chunks_each_with_its_events_and_public_view():
    archive = archive_of([("option", {"name": "x", "value": i % 2 == 0}, {"view": None, "action": None})
                          for i in range(m.SYNC_CHUNK + 3)])
    chunks = archive.sync(1, -1, ANN.public_key)
    assert [len(c["entries"]) for c in chunks] == [m.SYNC_CHUNK, 3]
    assert [c["last"] for c in chunks] == [False, True]
    first = chunks[0]["entries"][0]
    assert m.check(first) and first["events"] == [{"type": "option"}] and first["public"] == {"seq": 0}
    assert archive.sync(1, archive.log[-1].seq, ANN.public_key) == [m.sync_message([], last=True)]
    assert archive.hash_at(0) == archive.log[0].hash and archive.hash_at(99) is None
