"""Whole hands of every title on the mental-poker deal, each party its own machine, every
message through one ordered log (tests/net/trust/mental_table.py)."""

import msgpack
import pytest

from engine.registry import title
from net.trust.deals.mental import messages as m
from net.trust.deals.mental.errors import Refused
from net.trust.deals.mental.machine import Dealt, Opened, Played, Send, Verified
from tests.net.trust.mental_table import MentalTable, god_view, make_game, play_hand

# (title, ruleset, mode, options, seats by party): four humans, and the host's client
# playing its own seat and a computer player's (party 0 holds seats 0 and 2).
GAMES = [
    ("rook", "rook", None, None, [[0], [1], [2], [3]]),
    ("rook", "rook", None, None, [[0, 2], [1], [3]]),
    ("somerset", "kitty-doubled", None, None, [[0], [1], [2], [3]]),
    ("somerset", "kitty-keep", None, None, [[0, 2], [1], [3]]),
    ("somerset", "widow-doubled", None, None, [[0], [1], [2], [3]]),
    ("horseshoes", "horseshoes", "three", {"leftover": "up"}, [[0], [1], [2]]),
    ("horseshoes", "horseshoes", "three", {"leftover": "down"}, [[0], [1], [2]]),
    ("horseshoes", "horseshoes", "three", {"leftover": "dealer"}, [[0], [1], [2]]),
    ("horseshoes", "horseshoes", "four", None, [[0], [1], [2], [3]]),
    ("horseshoes", "horseshoes", "partners", None, [[0, 1, 2, 3]]),  # the host alone
]


def game_of(name, ruleset, mode, options):
    return title(name).make(ruleset, mode, options)


@pytest.mark.parametrize("name, ruleset, mode, options, seats", GAMES)
def test_a_whole_hand(name, ruleset, mode, options, seats):
    game = game_of(name, ruleset, mode, options)
    table = MentalTable(game, seats, dealer=1)
    table.deal()
    true_hands, true_spare = table.setup.layout(god_view(table))
    for party, party_seats in enumerate(seats):  # each party learned exactly its seats
        hands = table.events(party, Dealt)
        assert [h.seat for h in hands] == party_seats
        for hand in hands:
            assert list(hand.cards) == true_hands[hand.seat]
    state = play_hand(table, finish=True)  # the hand's end steps every party to its reveal
    assert state.phase == "done"
    for party in table.parties:
        plays = [(p.seat, p.card) for p in table.events(party, Played)]
        assert plays == [(s, c) for t in state.tricks for s, c in t.cards]
    assert not table.caught
    for party in table.parties:
        [verified] = table.events(party, Verified)
        assert [list(h) for h in verified.hands] == true_hands
        assert list(verified.spare) == true_spare
        assert verified.hands == state.dealt  # the deal the engine played


def opened_for(table, party):
    return [(o.positions, o.cards, o.public) for o in table.events(party, Opened)]


def test_spare_flows_reach_exactly_their_audience():
    # Somerset kitty: opened to the bidder's party only; Rook widow: to everyone.
    kitty = MentalTable(game_of("somerset", "kitty-doubled", None, None), [[0], [1], [2], [3]], dealer=3)
    kitty.deal()
    play_hand(kitty)
    bidder_party = [p for p in kitty.parties if opened_for(kitty, p)]
    assert len(bidder_party) == 1 and opened_for(kitty, bidder_party[0])[0][2] is False
    widow = MentalTable(game_of("rook", "rook", None, None), [[0], [1], [2], [3]])
    widow.deal()
    play_hand(widow)
    assert all(opened_for(widow, p) and opened_for(widow, p)[0][2] for p in widow.parties)
    down = MentalTable(game_of("horseshoes", "horseshoes", "three", {"leftover": "down"}),
                       [[0], [1], [2]])
    down.deal()
    play_hand(down)
    assert not any(opened_for(down, p) for p in down.parties)  # face down until the end


def test_a_party_never_opens_a_dealt_position():
    table = MentalTable(game_of("rook", "rook", None, None), [[0], [1], [2], [3]])
    table.deal()
    machine = table.machines[0]
    with pytest.raises(Refused):
        machine.open_to_all(list(table.setup.dealt(1))[:1])
    with pytest.raises(Refused):
        machine.open_to(list(table.setup.dealt(1))[:1], 2)
    with pytest.raises(Refused):
        machine.play(1, 0)  # not its seat
    with pytest.raises(Refused):
        machine.play(0, 999)  # not a card it holds
    with pytest.raises(Refused):
        machine.give(list(table.setup.spare()), 0)  # the widow is not face up yet


def test_a_restarted_client_goes_on_with_the_same_messages():
    game = game_of("rook", "rook", None, None)
    table = MentalTable(game, [[0], [1], [2], [3]], dealer=2)
    plays = []

    def restart_party_two(state, action):
        plays.append(action)
        if len(plays) != 20:
            return
        before = table.events(2, Dealt)
        outputs = table.restart(2)
        sent = [o.message for o in outputs if isinstance(o, Send)]
        logged = [msg for sender, msg in table.log if sender == 2]
        assert sent and all(msg in logged for msg in sent)  # byte-identical, nothing new
        assert [o for o in outputs if isinstance(o, Dealt)] == before
        played = [o for o in outputs if isinstance(o, Played)]
        assert played == table.events(0, Played)  # the same cards, checked again

    table.deal()
    play_hand(table, before_action=restart_party_two)
    table.everyone(lambda machine: machine.finish())
    assert not table.caught and all(table.events(p, Verified) for p in table.parties)


def test_the_message_flow_of_a_rook_hand():
    """What goes on the log, in order, for a four-human Rook hand (recorded)."""
    table = MentalTable(game_of("rook", "rook", None, None), [[0], [1], [2], [3]])
    table.deal()
    play_hand(table)
    table.everyone(lambda machine: machine.finish())
    kinds = [(sender, message["type"]) for sender, message in table.log]
    assert kinds[:4] == [(p, m.KEY) for p in range(4)]
    assert kinds[4:8] == [(p, m.SHUFFLE) for p in range(4)]  # in turn
    assert kinds[8:12] == [(p, m.SHARES) for p in range(4)]  # each: 3 batches of 13
    assert all(len(msg["batches"]) == 3 for _, msg in table.log[8:12])
    assert kinds[12:16] == [(p, m.SHARES) for p in range(4)]  # the widow, to everyone
    assert sum(1 for k in kinds if k[1] == m.COMMIT) == 1  # the bury
    assert sum(1 for k in kinds if k[1] == m.PLAY) == 52
    assert kinds[-4:] == [(p, m.REVEAL) for p in range(4)]


def test_message_sizes():
    """The sizes docs/protocol.md states (msgpack; Rook, 57 cards)."""
    table = MentalTable(game_of("rook", "rook", None, None), [[0], [1], [2], [3]])
    table.deal()
    play_hand(table)
    table.everyone(lambda machine: machine.finish())
    sizes = {}
    for _, message in table.log:
        sizes.setdefault(message["type"], set()).add(len(msgpack.packb(message, use_bin_type=True)))
    assert sizes[m.KEY] == {143}
    assert sizes[m.SHUFFLE] == {164 * 57 + 411}  # the deck (66·N), and its proof (98·N + 358)
    # a batch of n positions: 34·n + 98 bytes (97 with n ≤ 7); 44 for the rest
    assert sizes[m.SHARES] == {3 * (34 * 13 + 98) + 44, 34 * 5 + 97 + 44}
    assert sizes[m.PLAY] == {63, 162}  # a face-up widow card; a card with share and proof
    assert sizes[m.COMMIT] == {100}
    assert sizes[m.REVEAL] <= {129, 163}


def test_a_party_checks_the_others_shuffles_without_multiplying_its_own_deck(monkeypatch):
    """Each party's batched check of the other shuffles folds its own deck (logged as it
    made it) onto the deck it shuffled: no point of it goes through a multiplication —
    while the decks of the others do — and every honest party still gets its hand."""
    from net.trust.deals.mental import chain as chains
    from net.trust.deals.mental import group

    monkeypatch.setattr(chains, "PROVEN", chains.Proven(size=0))  # every party checks it all
    checking: list[int] = []  # the party whose check runs now
    multiplied: dict[int, set[bytes]] = {p: set() for p in range(4)}
    multiply = group._multiply

    def recorded(point, scalar):
        if checking:
            multiplied[checking[-1]].add(point.format(compressed=True))
        return multiply(point, scalar)
    monkeypatch.setattr(group, "_multiply", recorded)
    check = chains.ShuffleChain.check

    def checked(chain):
        checking.append(chain._own)
        try:
            check(chain)
        finally:
            checking.pop()
    monkeypatch.setattr(chains.ShuffleChain, "check", checked)
    table = MentalTable(make_game("rook"), [[0], [1], [2], [3]], dealer=3)
    table.deal()

    def points(party: int) -> set[bytes]:
        raw = table.machines[0].chain.decks[party]
        return {raw[i:i + group.POINT_BYTES] for i in range(0, len(raw), group.POINT_BYTES)}
    assert all(table.events(p, Dealt) for p in table.parties)
    for party in table.parties:
        others = set().union(*(points(q) for q in table.parties if q != party))
        assert not multiplied[party] & points(party), f"party {party} multiplied its own deck"
        missed = others - multiplied[party]
        assert not missed, f"party {party} never multiplied {len(missed)} points of the others' decks"
