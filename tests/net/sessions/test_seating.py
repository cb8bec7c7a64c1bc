"""Seating before the deal: bots, nobody, swaps logged so no key is ever in two seats
(a recording table around a real HostAuthority; no I/O)."""

from net.sessions.seating import Seating, swap_steps
from net.trust.values import NOBODY, Seat
from tests.net.sessions.parts_kit import FakeLink, RecordingTable
from tests.net.trust_table import identity


def seating_at(t: RecordingTable, bot_levels=None) -> Seating:
    return Seating(lambda: t.authority, t.key, t.fingerprint, you=lambda: t.you,
                   connected=t.connected, emit=t.emit, apply=t.apply, log_only=t.log_only,
                   settled=t.settled, reseated=t.reseated, bot_levels=bot_levels)


def test_swap_steps_never_show_one_key_in_two_seats():
    ann = Seat("human", b"a" * 32, "Ann")
    bob = Seat("human", b"b" * 32, "Bob")
    bot = Seat("bot", None, "Bot", "hard")
    assert swap_steps(ann, bob, 0, 2) == [(0, NOBODY), (2, ann), (0, bob)]
    assert swap_steps(ann, bot, 0, 2) == [(0, bot), (2, ann)]
    assert swap_steps(bot, ann, 0, 2) == [(2, bot), (0, ann)]


def test_the_host_sits_elsewhere_and_the_bot_there_moves_with_its_level():
    t = RecordingTable()
    seating = seating_at(t)
    seating.set_seat(2, "bot", "hard")
    seating.sit(2)
    seats = t.authority.seats
    assert seats[2].key == t.key and seats[0].kind == "bot" and seats[0].level == "hard"
    assert seating.bot_levels == {0: "hard"} and t.names()[-1] == "reseated"


def test_a_seat_a_connected_player_holds_is_not_given_away():
    t = RecordingTable()
    peer = identity("peer1")
    t.authority.seat(1, "human", peer.public_key, "Pat")
    t.outbox.attach(peer.fingerprint, FakeLink(), -1)
    seating = seating_at(t)
    seating.set_seat(1, "bot", "easy")
    seating.set_seat(0, "empty")
    assert [e["message"] for e in t.events] == [
        "Pat is sitting there: move them to another seat first",
        "You are sitting there: sit somewhere else first"]
    assert t.authority.seats[1].kind == "human" and t.names() == ["settled", "settled"]
    seating.move_player(3, peer.fingerprint)  # moved, swapping with nobody
    assert t.authority.seats[3].key == peer.public_key and t.authority.seats[1].kind == "empty"


def test_the_first_deal_fills_empty_seats_with_bots_at_their_chosen_levels():
    t = RecordingTable()
    seating = seating_at(t, {2: "easy"})
    seating.fill()
    levels = {s: i.level for s, i in t.authority.seats.items() if i.kind == "bot"}
    assert levels == {1: "normal", 2: "easy", 3: "normal"}
    assert t.names() == ["log_only"] * 3


def test_a_new_table_seats_the_host_its_chosen_bots_and_nobody_elsewhere():
    t = RecordingTable()
    t.you = 2
    seating = seating_at(t, {0: "hard", 2: "easy"})  # the host's own seat wins over a bot
    assert seating.first_seats(4, "Mum") == [
        (0, "bot", None, "Bot 1", "hard"), (1, "empty", None, "", None),
        (2, "human", t.key, "Mum", None), (3, "empty", None, "", None)]
    t.you = None  # a host that plays no seat: the bot chosen for seat 2 sits there
    assert [kind for _, kind, *_ in seating.first_seats(3, "Mum")] == ["bot", "empty", "bot"]
