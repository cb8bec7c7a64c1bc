"""Stand-ins: a bot keeps a dropped player's seat, and gives it back when their key
returns (a recording table around a real HostAuthority, a fake clock)."""

from tests.net.sessions.parts_kit import RecordingTable
from tests.net.trust_table import identity


def dropped_player(t: RecordingTable):
    peer = identity("peer2")
    t.authority.seat(2, "human", peer.public_key, "Dad")
    t.authority.start_game()
    t.authority.drop(2)
    return peer


def test_a_bot_stands_in_after_the_wait_and_hands_the_seat_back():
    t = RecordingTable(stand_in_after=30)
    peer = dropped_player(t)
    t.stand_ins.arm(2)
    assert [e[0] for e in t.clock.live()] == [30]
    t.clock.run_all()
    seat = t.authority.seats[2]
    assert seat.kind == "bot" and seat.name == "Dad (bot)" and 2 in t.stand_ins
    assert t.events == [{"type": "connection", "seat": 2, "state": "stand_in",
                         "detail": "a bot plays for Dad until they come back"}]
    assert t.stand_ins.away(2) == (peer.public_key, "Dad")  # still Dad's seat
    assert t.stand_ins.hand_back(peer.public_key) == 2
    assert t.authority.seats[2].key == peer.public_key and 2 not in t.stand_ins
    assert ("forget_bot", 2) in t.calls


def test_no_stand_in_before_the_game_nor_for_a_connected_player_nor_when_told_to_wait():
    t = RecordingTable(stand_in_after=30)
    t.stand_ins.arm(1)
    assert not t.clock.live()  # not in game
    dropped_player(t)
    t.stand_ins.stand_in(2, False)  # the host person: keep waiting
    t.stand_ins.stand_in(0, True)  # the host's own seat: never
    assert t.authority.seats[2].kind == "human" and not t.events


def test_a_player_away_when_the_game_starts_gets_a_stand_in_after_the_wait():
    """Dropped before the first deal: nothing to arm then; the wait starts with the game
    (HostCore.start_game), for that seat alone (the host's own and a connected one wait
    for nobody)."""
    t = RecordingTable(stand_in_after=30)
    peer = identity("peer2")
    t.authority.seat(2, "human", peer.public_key, "Dad")
    t.authority.seat(1, "human", identity("peer1").public_key, "Pat")
    t.authority.drop(2)
    t.stand_ins.arm(2)  # the drop, before the game: nothing armed
    assert not t.clock.live()
    t.authority.start_game()
    t.stand_ins.game_started()
    assert [e[0] for e in t.clock.live()] == [30]
    t.clock.run_all()
    assert t.authority.seats[2].kind == "bot" and t.stand_ins.away(2) == (peer.public_key, "Dad")
    assert t.authority.seats[1].kind == "human"


def test_seats_a_new_key_could_have_name_the_asked_for_player_first():
    t = RecordingTable()
    dropped_player(t)
    t.authority.seat(1, "human", identity("peer1").public_key, "Pat")
    t.authority.drop(1)
    assert t.stand_ins.readmittable() == [1, 2]
    assert t.stand_ins.readmittable("Dad") == [2, 1]


def test_under_the_mental_deal_a_stand_in_waits_until_the_seats_cards_are_the_hosts():
    """A bot of the host's can play only cards the host's client holds: while the dropped
    seat's cards are its player's own client's, the stand-in waits; once the deal is
    restarted without that player (its cards the host's), it takes the seat."""
    t = RecordingTable(stand_in_after=30)
    dropped_player(t)
    host_dealt = {2: False}
    t.authority.deal.host_dealt = lambda seat: host_dealt[seat]
    t.stand_ins.arm(2)
    t.clock.run_all()
    assert t.authority.seats[2].kind == "human" and 2 not in t.stand_ins and not t.events
    host_dealt[2] = True  # the deal restarted without seat 2's player
    t.stand_ins.resume()
    assert t.authority.seats[2].kind == "bot" and 2 in t.stand_ins
    t.stand_ins.resume()  # nothing left to do
    assert len(t.events) == 1


def test_a_stand_in_plays_at_the_level_the_host_chose():
    """The level the host chose (the host option, or the one picked as the game started)
    is the stand-in's, in the seat entry every replica reads."""
    t = RecordingTable(stand_in_after=30, stand_in_level="expert")
    dropped_player(t)
    t.stand_ins.stand_in(2, True)
    assert t.authority.seats[2].kind == "bot" and t.authority.seats[2].level == "expert"


def test_without_a_chosen_level_a_stand_in_plays_as_the_strongest_computer_at_the_table():
    """A table restored from its log, or carried on by another player, has no chosen
    level in memory: the table's own computer players say it (else "normal")."""
    t = RecordingTable(stand_in_after=30)
    t.authority.seat(1, "bot", name="Bot 2", level="easy")
    t.authority.seat(3, "bot", name="Bot 4", level="hard")
    dropped_player(t)
    assert t.stand_ins.level_now() == "hard"
    t.stand_ins.stand_in(2, True)
    assert t.authority.seats[2].level == "hard"
    alone = RecordingTable(stand_in_after=30)
    assert alone.stand_ins.level_now() == "normal"
    alone.stand_ins.level = "no such level"
    assert alone.stand_ins.level_now() == "normal"
