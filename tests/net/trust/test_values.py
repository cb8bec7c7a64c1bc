"""The typed values the trust code reads: built once from the plain data that travels,
and the same bytes when they go out again."""

import copy
from dataclasses import FrozenInstanceError

import pytest

from net.trust.entries import OptionBody, SeatBody
from net.trust.log import Chain
from net.trust.signing import entry_signed_by
from net.trust.values import NOBODY, EntryMessage, Seat, Seats, SignedEntry, entry_hash
from net.wire import messages as m
from tests.net.trust_table import Table, identity

HOST = identity("host")
HOST_KEY = HOST.public_key
KEY = bytes(range(32))


def test_a_seat_is_read_from_its_entry_body_and_never_changed_in_place():
    seat = Seat.from_body(SeatBody(2, "human", KEY, "Ann", None, readmit=True))
    assert (seat.kind, seat.key, seat.name, seat.connected, seat.readmit) == ("human", KEY, "Ann", True, True)
    assert seat.is_player and seat.held_by(KEY) and not seat.held_by(HOST.public_key)
    away = seat.with_connection(False)
    assert not away.connected and seat.connected  # a new value; the old one stands
    with pytest.raises(FrozenInstanceError):
        seat.connected = False
    bot = Seat.from_body(SeatBody(1, "bot", KEY, "Bot 2", "hard"))
    assert not bot.is_player and not bot.held_by(KEY) and bot.level == "hard"
    assert not NOBODY.is_player and NOBODY.kind == "empty"


def test_the_seats_answer_who_sits_where():
    seats = Seats({3: Seat("human", KEY), 1: Seat("bot", KEY), 0: Seat("human", HOST.public_key),
                   2: Seat("empty", connected=False)})
    assert seats.held_by(KEY) == 3 and seats.held_by(HOST.public_key) == 0
    assert seats.held_by(bytes(32)) is None
    assert seats.of_fingerprint(HOST.fingerprint) == 0
    assert seats.players() == {0: HOST.public_key, 3: KEY}
    assert seats.players(besides=HOST.public_key) == {3: KEY}  # the host's peers
    seats.reconnected(3, False)
    assert seats.away() == {2, 3} and not seats[3].connected
    moved = seats.after(SeatBody(3, "empty", None))
    assert moved.held_by(KEY) is None and seats.held_by(KEY) == 3  # a copy


def test_a_seat_entry_body_is_checked_before_it_stands():
    def body(seat=1, kind="human", key=KEY):
        return SeatBody(seat, kind, key)
    host = HOST.public_key
    assert Seat.body_problem(body(), 4, host) is None
    assert Seat.body_problem(body(kind="bot", key=host), 4, host) is None
    assert Seat.body_problem(body(kind="empty", key=None), 4, host) is None
    assert Seat.body_problem(body(seat=4), 4, host) == "a seat entry names no seat"
    assert Seat.body_problem(body(), 0, host) == "a seat entry names no seat"  # no game yet
    assert Seat.body_problem(body(kind="robot"), 4, host) == "a seat entry names no seat"
    assert Seat.body_problem(body(kind="bot"), 4, host) == "a bot must play with the host's key"
    assert Seat.body_problem(body(key=KEY[:8]), 4, host) == "a player's seat needs a key"


def test_only_the_key_seated_there_may_rejoin_a_players_seat():
    seats = Seats({0: Seat("human", HOST.public_key), 1: Seat("bot", HOST.public_key),
                   2: Seat("human", KEY)})
    assert seats.rejoin_problem(0, HOST.fingerprint) is None
    assert seats.rejoin_problem(1, HOST.fingerprint) == "seat 1 is not a player's seat"
    assert seats.rejoin_problem(3, HOST.fingerprint) == "seat 3 is not a player's seat"
    assert "belongs to another player's key" in seats.rejoin_problem(2, HOST.fingerprint)


def test_a_signed_entry_hashes_and_travels_as_the_wire_form_it_was_made_as():
    signed = Chain("t").make(HOST, OptionBody("live_scores", True))
    assert signed.seq == 0 and signed.kind == "option" and signed.entry.prev == m.GENESIS_PREV
    assert signed.wire == {"entry": signed.entry.wire(), "sig": signed.sig}
    assert signed.hash == entry_hash(signed.wire) == entry_hash({**signed.wire})
    assert entry_hash({**signed.wire, "sig": bytes(64)}) != signed.hash  # the signature counts
    assert signed.signed_by(HOST.public_key) and not signed.signed_by(KEY)
    again = SignedEntry.from_wire(signed.wire)
    assert again == signed and again.wire is signed.wire


def test_a_signed_entrys_hash_and_signature_check_made_once_match_the_plain_ones():
    """``SignedEntry`` makes an entry's canonical form once for its hash and its
    signature check: over a played hand's log, made by the host or read from the wire,
    they answer as ``entry_hash`` and ``entry_signed_by`` do on the plain wire form."""
    t = Table(("rook", None, None), seed=4)
    t.start()
    t.play_hand()
    made = t.host.log
    assert len(made) > 40
    for signed in made:
        read = SignedEntry.from_wire(copy.deepcopy(signed.wire))
        for one in (signed, read):
            assert one.hash == entry_hash(signed.wire)
            assert one.signed_by(HOST_KEY) is entry_signed_by(HOST_KEY, signed.wire) is True
            assert one.signed_by(KEY) is entry_signed_by(KEY, signed.wire) is False
        forged = copy.deepcopy(signed.wire)
        forged["entry"]["seq"] += 1
        assert not SignedEntry.from_wire(forged).signed_by(HOST_KEY)
        assert SignedEntry.from_wire(forged).hash == entry_hash(forged) != signed.hash


def test_an_entry_message_is_read_once_with_its_private_part():
    signed = Chain("t").make(HOST, OptionBody("x", False))
    wire = m.check(m.entry_message(signed.wire, [{"type": "note"}], None, {"seat": 1}, None))
    message = EntryMessage.from_wire(wire)
    assert message.entry == signed.entry and message.events == [{"type": "note"}]
    assert (message.public, message.view, message.action) == (None, {"seat": 1}, None)
    assert message.wire is wire
