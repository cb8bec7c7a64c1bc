"""The registry of log-entry kinds: each body typed, parsed once, refused where it arrives."""

import pytest

from net.trust import entries
from net.trust.alerts import HOST
from net.trust.entries import BODIES, EntryError, MentalBody, OptionBody, RevealBody, SeatBody
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import Table, forge_entries


def logged_bodies(table) -> dict[str, dict]:
    """The first body of each kind a table logged while playing a hand out."""
    seen: dict[str, dict] = {}
    for signed in table.host.log:
        seen.setdefault(signed.kind, signed.body)
    return seen


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_every_body_a_hand_logs_reads_back_as_it_was_signed(private):
    t = MentalTrustTable() if private else Table(("rook", None, None))
    t.start()
    t.play_hand()
    for kind, body in logged_bodies(t).items():
        typed = entries.parse(kind, body)
        assert type(typed) is BODIES[kind] and typed.wire() == body, kind
    assert not t.alerts and not t.errors


def test_every_kind_has_one_class_and_the_kinds_are_the_registrys():
    assert len(set(BODIES.values())) == len(BODIES) == len(entries.KINDS)
    assert {"table", "seat", "action", "takeover", "mental-deal", "mental-restart"} <= set(BODIES)


def test_an_optional_field_is_written_only_when_set():
    assert RevealBody(3).wire() == {"hand": 3}  # the mental deal's reveal: the number alone
    assert RevealBody(3, bytes(32), []).wire() == {"hand": 3, "secret": bytes(32), "hidden": []}
    assert entries.parse("reveal", {"hand": 3}) == RevealBody(3)


@pytest.mark.parametrize("kind, body, says", [
    ("seat", {"seat": "1", "kind": "human", "key": None}, "'seat' is malformed"),
    ("seat", {"seat": True, "kind": "human", "key": None}, "'seat' is malformed"),  # not an int
    ("seat", {"kind": "human", "key": None}, "has no 'seat'"),
    ("option", {"name": "x", "value": 1}, "'value' is malformed"),
    ("mental", {"party": 1}, "a deal message or a played move"),
    ("action", {"signed": {"body": {}}}, "not a signed action"),
    ("takeover", {"departed": b"k", "departed_seat": 0, "host_key": b"k", "seat": 1,
                  "standings": [], "abandoned": None, "reason": ""}, "no standings"),
    ("nonsense", {}, "no entry kind 'nonsense'"),
    ("option", ["name", "x"], "not a map"),
    ("table", {"protocol": "parlour-trust/2", "host_key": bytes(32), "game": {}, "version": 7},
     "says protocol 7, older than any that says one"),  # (a host dating its table back)
])
def test_a_body_that_does_not_fit_its_kind_says_what(kind, body, says):
    with pytest.raises(EntryError, match=says):
        entries.parse(kind, body)


def test_a_table_entry_says_the_protocol_that_opened_it_from_protocol_12():
    """A table opened today says its protocol; one from before 12 said none, and may be
    as old as any (``opened_before``: what an old ruling in its log is read by)."""
    from net.constants import PROTOCOL_VERSION
    t = Table(("rook", None, None))
    opened = entries.parse("table", t.host.log[0].body)
    assert opened.version == PROTOCOL_VERSION >= 12 and not opened.opened_before(8)
    old = entries.parse("table", {"protocol": "parlour-trust/2", "host_key": bytes(32), "game": {}})
    assert old.version is None and old.opened_before(8) and "version" not in old.wire()


def test_a_field_the_kind_does_not_list_is_not_read():
    assert entries.parse("option", {"name": "x", "value": True, "later": 1}) == OptionBody("x", True)


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_a_hosts_entry_whose_body_does_not_fit_is_refused_where_it_arrives(private):
    """A dishonest host signs a seat entry whose seat is no number: every peer refuses it
    at the chain's check (rule "kind", the host named), before anything reads it."""
    t = MentalTrustTable() if private else Table(("rook", None, None))
    t.start()
    t.play_until(lambda: t.host.state is not None and len(t.host.state.history) >= 2)

    def garble(kind, body, state_hash):
        return ({**body, "seat": str(body["seat"])} if kind == "drop" else body), state_hash
    forge_entries(t.host.chain, garble)
    seat = next(iter(t.replicas))
    t.deliver(t.host.drop(seat))
    caught = {s: a for s, a in t.alerts}
    assert set(caught) == set(t.replicas) - {seat} or set(caught) == set(t.replicas)
    for alert in caught.values():
        assert (alert.rule, alert.party, alert.seat) == ("kind", HOST, 0)
        assert "'drop' entry's 'seat' is malformed" in alert.detail


def test_the_seat_class_reads_its_entry():
    body = SeatBody(2, "human", bytes(32), "Ann", readmit=True)
    assert entries.parse("seat", body.wire()) == body
    assert MentalBody(1, signed={"body": {}, "sig": b""}).wire() == {"party": 1,
                                                                     "signed": {"body": {}, "sig": b""}}
