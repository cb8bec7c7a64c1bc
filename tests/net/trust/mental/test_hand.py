"""Whole hands where nobody holds every card: each party (the host's client with its
computer players, and each human) replays the hand on what it knows (PartyHand), takes
the deal's steps through the sequencer's log, and its public view is the true one at
every move; at the end each replays the verified deal and scores the same hand, and a
revoke nobody could see live is named then (net/trust/mental/hand.py)."""

import pytest

from engine import IllegalAction
from engine.registry import title
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import flows
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.hand import MoveRefused, PartyHand
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.sequencer import DealSequencer, parties_for
from net.trust.deals.mental.setup import DealSetup
from tests.net.trust.mental_table import first_choice, fixed_identity


class Table:
    """Every party's PartyHand, the sequencer's log delivered to each in order."""

    def __init__(self, variant, seats, hand=3, dealer=1):
        name, ruleset, mode, options = variant
        self.game = title(name).make(ruleset, mode, options)
        self.identities = [fixed_identity(i) for i in range(max(seats) + 1)]
        host = self.identities[0].public_key
        keys = {seat: self.identities[i].public_key for seat, i in enumerate(seats)}
        self.setup = DealSetup.for_game(self.game, DealContext("t-hand", hand), parties_for(host, keys),
                                        dealer, flows.redeal_rule(self.game))
        self.sequencer = DealSequencer(self.setup, 10.0, 0.0)
        self.parties = [PartyHand(self.game, DealClient(self.identity(p.key), self.setup))
                        for p in self.setup.parties]
        self.read = [0] * len(self.parties)
        self.cheats: set[int] = set()  # parties whose client cheats: it checks no move

    def identity(self, key):
        return next(i for i in self.identities if i.public_key == key)

    def send(self, hand, envelopes):
        for envelope in envelopes:
            self.sequencer.submit(hand.client.identity.public_key, envelope, 0.0)

    def flush(self):
        moved = True
        while moved:
            moved = False
            for i, hand in enumerate(self.parties):
                while self.read[i] < len(self.sequencer.log):
                    record = self.sequencer.log[self.read[i]]
                    self.read[i] += 1
                    self.send(hand, hand.logged(*record))
                    moved = True

    def deal(self):
        for hand in self.parties:
            self.send(hand, hand.client.start())
        self.flush()

    def truth(self):
        """The true deal from every party's secrets (the test's view alone)."""
        final = self.parties[0].client.machine.final
        lookup = decks.card_lookup(len(final))
        cards = [lookup[decks.decrypt(c, [p.client.machine.secrets.x * c.c1 for p in self.parties])]
                 for c in final]
        hands, spare = self.setup.layout(cards)
        return self.game.new_hand(hands, spare, self.setup.dealer)

    def play_through(self):
        """The whole hand (first choices), every party's public view checked against the
        truth before each move; the true state at the end."""
        truth = self.truth()
        while truth.to_act():
            for hand in self.parties:
                assert hand.state.public_view() == truth.public_view()
            action = first_choice(truth, truth.to_act()[0])
            self.play(action)
            truth.apply(action)
        return truth

    def play(self, action):
        """``action`` by its seat's party, then logged and taken by every party."""
        owner = self.setup.owner(action.seat)
        self.send(self.parties[owner], self.parties[owner].own_move(action))
        self.flush()
        for i, hand in enumerate(self.parties):
            if i in self.cheats:
                continue
            seen = action
            if i != owner and action.kind in flows.SECRET_LABELS:
                seen = action._replace(value=None)  # another seat's secret cards
            self.send(hand, hand.move(seen))
        self.flush()


VARIANTS = [
    (("rook", "rook", None, None), [0, 1, 0, 2]),  # the host with a computer player
    (("somerset", "kitty-doubled", None, None), [0, 1, 2, 3]),
    (("somerset", "widow-keep", None, None), [0, 1, 0, 2]),
    (("horseshoes", "horseshoes", "three", {"leftover": "down"}), [0, 1, 2]),
    (("horseshoes", "horseshoes", "three", {"leftover": "dealer"}), [0, 1, 2]),
    (("horseshoes", "horseshoes", "four", None), [0, 1, 2, 3]),
]


@pytest.mark.parametrize("variant, seats", VARIANTS, ids=[f"{v[0]}-{v[1]}-{v[2]}" for v, _ in VARIANTS])
def test_nobody_holds_every_card_and_every_party_replays_the_true_public_hand(variant, seats):
    table = Table(variant, seats)
    table.deal()
    truth = table.play_through()
    for hand in table.parties:  # the last card's state needs the deal: verified now
        final = hand.final_state()
        assert final.public_view() == truth.public_view()
        assert final.result() == truth.result()
        for seat, cards in hand.hands.items():  # each party knew its own seats only
            assert hand.client.seats and seat in hand.client.seats
            assert list(cards) == list(truth.dealt[seat])


def test_a_revoke_nobody_could_see_is_named_at_the_end_of_the_hand():
    table = Table(("horseshoes", "horseshoes", "four", None), [0, 1, 2, 3])
    table.deal()
    truth = table.truth()
    cheated = None
    while truth.to_act():
        seat = truth.to_act()[0]
        action = first_choice(truth, seat)
        if cheated is None and action.kind == "play" and seat != 0 and truth.trick:
            legal = {a.value for a in truth.legal_actions(seat)}
            held = [c for c in range(table.game.deck.size) if truth.hands[seat] >> c & 1]
            revoke = next((c for c in held if c not in legal), None)
            if revoke is not None:
                action, cheated = action._replace(value=revoke), seat
                table.cheats.add(table.setup.owner(seat))  # its client lets it through
                table.play(action)  # every party's replay accepts it: it cannot see the hand
                truth.apply_unseen(action)
                continue
        table.play(action)
        truth.apply(action)
    assert cheated is not None
    cheat = table.setup.owner(cheated)
    table.send(table.parties[cheat], table.parties[cheat].client.step(flows.Finish()))  # it reveals, as it must
    table.flush()
    for i, hand in enumerate(table.parties):
        if i in table.cheats:
            continue
        with pytest.raises(IllegalAction) as caught:
            hand.final_state()
        assert caught.value.seat == cheated


def test_a_logged_card_that_is_not_the_one_its_proof_opened_is_refused():
    table = Table(("rook", "rook", None, None), [0, 1, 2, 3])
    table.deal()
    truth = table.truth()
    while truth.phase != "play":
        action = first_choice(truth, truth.to_act()[0])
        table.play(action)
        truth.apply(action)
    seat = truth.to_act()[0]
    owner = table.setup.owner(seat)
    real = first_choice(truth, seat)
    table.send(table.parties[owner], table.parties[owner].own_move(real))
    table.flush()
    other = next(p for p in range(len(table.parties)) if p != owner)
    lie = real._replace(value=next(c for c in truth.dealt[seat] if c != real.value))
    with pytest.raises(MoveRefused) as caught:
        table.parties[other].move(lie)  # the host logged another card than the proven one
    assert caught.value.seat == seat


def test_a_player_who_drops_during_the_shuffle_is_dealt_out_and_the_host_plays_the_seat():
    table = Table(("rook", "rook", None, None), [0, 1, 2, 3])
    del table.parties[2], table.read[2]  # party 2 dropped before its key share
    table.deal()
    assert table.sequencer.awaited() == [2]
    assert table.sequencer.overdue(9.0) == [] and table.sequencer.overdue(10.0) == [2]
    table.sequencer.restart("dropped", 10.0, dropped=[2])
    table.flush()
    table.setup = table.parties[0].client.setup
    assert table.parties[0].client.seats == (0, 2)  # its stand-in plays seat 2 now
    truth = table.play_through()
    for hand in table.parties:
        assert hand.final_state().result() == truth.result()
