"""The host signs what it sends each seat with an entry (``net.trust.sent``): every
entry message a peer receives, live or in a catch-up sync, under either deal, carries
the host's signature over that seat's events, public view and private part, bound to
the seat, its player's key and how it came — and nothing else checks out against it."""

import pytest

from net.trust import sent
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import Table

DEALS = {"seeded": Table, "private": MentalTrustTable}
#: Both deals; the private one's hands cost mental poker's CPU (seconds): the slow tier.
BOTH = [pytest.param("seeded"), pytest.param("private", marks=pytest.mark.slow)]


def recording(table):
    """Every message the host sends, by seat, as the seat receives it."""
    got: dict[int, list] = {seat: [] for seat in table.peer_seats}

    def keep(fp, msg):
        got[table.seat_of_fp(fp)].append(msg)
        return msg
    table.tamper = keep
    return got


def entry_messages(msg):
    """The entry messages a host message carries (an "entry", or a "sync" of them)."""
    if msg["type"] == "entry":
        return [(msg, True)]
    return [(e, False) for e in msg.get("entries", [])]


@pytest.mark.slow  # a whole hand, either deal
@pytest.mark.parametrize("deal", BOTH)
def test_every_entry_message_carries_the_hosts_signature_for_its_seat(deal):
    table = DEALS[deal]()
    got = recording(table)
    table.start()
    table.play_hand()
    key = table.host_id.public_key
    for seat, messages in got.items():
        me = table.ids[seat].public_key
        sent_here = [pair for msg in messages for pair in entry_messages(msg)]
        assert any(live for _, live in sent_here) and any(
            msg["private"]["view"] or msg["public"] for msg, _ in sent_here)
        for msg, live in sent_here:
            assert sent.problem(key, msg, seat, me, live) is None, msg["entry"]["entry"]["seq"]
            assert sent.problem(key, msg, seat, me, not live) is not None  # how it came is signed
            other = next(s for s in table.peer_seats if s != seat)
            assert sent.problem(key, msg, other, table.ids[other].public_key, live) is not None


@pytest.mark.parametrize("deal", BOTH)
def test_a_sync_is_signed_for_the_seat_it_goes_to_as_a_catch_up(deal):
    table = DEALS[deal]()
    table.start()
    for _ in range(6):
        table.step()
    key, seat = table.host_id.public_key, 2
    me = table.ids[seat].public_key
    messages = [e for chunk in table.host.sync(seat, -1) for e in chunk["entries"]]
    assert len(messages) == table.host.chain.seq + 1
    assert all(sent.problem(key, msg, seat, me, False) is None for msg in messages)
    assert all(sent.problem(key, msg, seat, me, True) is not None for msg in messages)


def test_anything_changed_in_what_was_sent_no_longer_checks_out():
    table = Table()
    got = recording(table)
    table.start()
    table.step()
    key, seat = table.host_id.public_key, 1
    me = table.ids[seat].public_key
    msg = next(m for m in got[seat] if m["type"] == "entry" and m["private"]["view"])
    assert sent.problem(key, msg, seat, me, True) is None
    view = msg["private"]["view"]
    changes = [
        {**msg, "private": {**msg["private"], "view": {**view, "seat": 3}}},
        {**msg, "private": {**msg["private"], "action": {"seat": 1, "bury": ["R5"]}}},
        {**msg, "events": msg["events"] + [{"type": "play", "seat": 2, "card": "G14"}]},
        {**msg, "public": {**msg["public"], "dealer": 3}},
        {**msg, "public": None},
        {**msg, "sent": bytes(64)},
        {k: v for k, v in msg.items() if k != "sent"},
    ]
    for changed in changes:
        assert sent.problem(key, changed, seat, me, True) is not None
    assert sent.problem(table.ids[2].public_key, msg, seat, me, True) is not None  # not the host
