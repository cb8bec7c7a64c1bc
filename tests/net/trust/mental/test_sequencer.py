"""The host's sequencer and each client's reading of its log: a whole deal, messages the
host refuses or cannot forge, a player who drops during the shuffle, a client that
restarts, a Rook redeal, and a player's cheats — signed by that player, logged, and
named by every other client (net/trust/mental/sequencer.py, client.py)."""

import pytest

from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import flows
from net.trust.deals.mental import messages as m
from net.trust.deals.mental.client import DealClient, Forged
from net.trust.deals.mental.errors import Cheat
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.machine import Dealt, Redeal
from net.trust.deals.mental.group import POINT_BYTES, G, Point, Scalar, base_mul
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN, DealSequencer, NotLogged, parties_for
from net.trust.deals.mental.setup import DealSetup
from net.trust.signing import seal
from tests.net.trust.mental_table import fixed_identity, make_game

DEADLINE = 10.0


class Hub:
    """The host's sequencer and every client, the log delivered in order."""

    def __init__(self, game, keys_by_seat, identities, host=0, dealer=0, hand=3):
        self.identities = identities
        host_key = identities[host].public_key
        seats = {seat: identities[i].public_key for seat, i in enumerate(keys_by_seat)}
        self.setup = DealSetup.for_game(game, DealContext("t-seq", hand), parties_for(host_key, seats),
                                        dealer, flows.redeal_rule(game))
        self.now = 0.0
        self.sequencer = DealSequencer(self.setup, DEADLINE, self.now)
        self.clients = {i.public_key: DealClient(i, self.setup) for i in identities}
        self.read = {key: 0 for key in self.clients}
        self.gone: set[bytes] = set()  # clients that hear nothing (dropped)
        self.tamper = None  # tamper(reader, party, envelope): the host rewrites what it relays
        self.cheat = None  # cheat(key, body) -> body: a client signs a dishonest message
        self.caught: dict[bytes, Cheat] = {}  # client -> the cheat it named (it stops then)

    def send(self, key, envelopes):
        for envelope in envelopes:
            if self.cheat is not None:
                body = self.cheat(key, envelope["body"])
                if body is not envelope["body"]:
                    identity = next(i for i in self.identities if i.public_key == key)
                    envelope = seal(identity, MENTAL_DOMAIN, body)
            self.sequencer.submit(key, envelope, self.now)

    def flush(self):
        moved = True
        while moved:
            moved = False
            for key, client in self.clients.items():
                while key not in self.gone and key not in self.caught \
                        and self.read[key] < len(self.sequencer.log):
                    party, envelope = self.sequencer.log[self.read[key]]
                    self.read[key] += 1
                    if self.tamper is not None:
                        envelope = self.tamper(key, party, envelope)
                    try:
                        self.send(key, client.logged(party, envelope))
                    except Cheat as cheat:
                        self.caught[key] = cheat
                    moved = True

    def start(self):
        for key, client in self.clients.items():
            if key not in self.gone:
                self.send(key, client.start())
        self.flush()

    def named(self, cheater: int, rule: str) -> None:
        """Every client but the cheater's named party ``cheater`` for ``rule``."""
        for index, identity in enumerate(self.identities):
            if index != cheater:
                cheat = self.caught.get(identity.public_key)
                assert cheat is not None, f"client {index} did not catch it"
                assert (cheat.party, cheat.rule) == (cheater, rule), cheat
                assert cheat.seats == self.setup.parties[cheater].seats

    def hands(self, key):
        return [h for h in self.clients[key].learned if isinstance(h, Dealt)]


# With these keys, hand 2's deal gives a seat a Rook hand with no point card; hand 3's does not.
NO_POINT_CARD_HAND = 2


def four_humans(game="rook", hand=3):
    identities = [fixed_identity(i) for i in range(4)]
    return Hub(make_game(game), [0, 1, 2, 3], identities, hand=hand)


def test_a_whole_deal_through_the_log():
    hub = four_humans()
    hub.start()
    assert hub.sequencer.awaited() == []
    for identity in hub.identities:
        [hand] = hub.hands(identity.public_key)
        assert hand.seat in hub.clients[identity.public_key].seats
    kinds = [env["body"]["type"] for _, env in hub.sequencer.log]
    assert kinds == ["mental-key"] * 4 + ["mental-shuffle"] * 4 + ["mental-shares"] * 4


def test_the_host_and_its_bots_are_one_party_and_shuffle_first():
    identities = [fixed_identity(i) for i in range(3)]
    hub = Hub(make_game("rook"), [1, 0, 2, 0], identities, host=0)  # seats 1, 3: the host's
    assert [p.seats for p in hub.setup.parties] == [(1, 3), (0,), (2,)]
    hub.start()
    assert [h.seat for h in hub.hands(identities[0].public_key)] == [1, 3]


def test_the_sequencer_refuses_what_is_not_a_partys_signed_deal_message():
    hub = four_humans()
    me = hub.identities[1]
    [key_message] = hub.clients[me.public_key].start()
    with pytest.raises(NotLogged, match="not a party"):
        hub.sequencer.submit(fixed_identity(9).public_key, key_message, 0)
    with pytest.raises(NotLogged, match="signed by your key"):
        hub.sequencer.submit(hub.identities[2].public_key, key_message, 0)
    with pytest.raises(NotLogged, match="fields"):
        hub.sequencer.submit(me.public_key, seal(me, "parlour-mental-message/1", {"type": "mental-key"}), 0)
    wrong = dict(key_message["body"], attempt=4)
    with pytest.raises(NotLogged, match="attempt 0"):
        hub.sequencer.submit(me.public_key, seal(me, "parlour-mental-message/1", wrong), 0)
    assert hub.sequencer.submit(me.public_key, key_message, 0) == 0
    assert hub.sequencer.submit(me.public_key, key_message, 0) is None  # a copy: not again


def test_a_message_the_host_rewrote_is_refused_by_every_client():
    hub = four_humans()

    def forge(reader, party, envelope):
        if party == 2 and envelope["body"]["type"] == "mental-shuffle":
            deck = envelope["body"]["deck"]
            return {"body": dict(envelope["body"], deck=deck[64:128] + deck[:64] + deck[128:]),
                    "sig": envelope["sig"]}
        return envelope

    hub.tamper = forge
    with pytest.raises(Forged, match="party 2"):
        hub.start()


def test_a_player_who_drops_during_the_shuffle_is_dealt_out_after_the_deadline():
    hub = four_humans()
    dropped = hub.identities[2].public_key
    hub.gone.add(dropped)
    hub.start()
    assert hub.sequencer.awaited() == [2]  # the keys are in, its key share is not
    hub.now = DEADLINE - 0.5
    assert hub.sequencer.overdue(hub.now) == []
    hub.now = DEADLINE
    assert hub.sequencer.overdue(hub.now) == [2]
    record = hub.sequencer.restart("dropped", hub.now, dropped=[2])
    assert record["attempt"] == 1 and record["dropped"] == [2]
    hub.flush()
    assert hub.sequencer.awaited() == []
    host = hub.identities[0].public_key
    assert sorted(h.seat for h in hub.hands(host)) == [0, 2]  # the host plays its seat now
    assert hub.clients[host].setup.context.attempt == 1


def test_a_client_that_restarts_in_the_middle_of_the_deal_goes_on_from_the_log():
    hub = four_humans()
    late = hub.identities[3].public_key
    hub.gone.add(late)
    hub.start()
    before = len(hub.sequencer.log)
    hub.gone.discard(late)
    hub.send(late, hub.clients[late].start())
    hub.flush()  # it shuffles, shares, and so on
    hub.clients[late] = DealClient(hub.identities[3], hub.setup)  # the process restarts
    hub.read[late] = 0
    hub.send(late, hub.clients[late].start())
    hub.flush()
    assert len(hub.sequencer.log) > before
    assert hub.hands(late) and hub.sequencer.awaited() == []
    logged = [env["sig"] for _, env in hub.sequencer.log]
    assert len(logged) == len(set(logged))  # nothing it sent again was logged twice


def test_a_hand_with_no_point_card_is_claimed_at_once_and_every_client_checks_it():
    hub = four_humans(hand=NO_POINT_CARD_HAND)
    hub.start()
    kinds = [env["body"]["type"] for _, env in hub.sequencer.log]
    assert kinds[-1] == "mental-show"  # the claim, proven with the hand's shares
    [holder] = [k for k in hub.clients if any(flows.must_claim(hub.setup, h) for h in hub.hands(k))]
    for client in hub.clients.values():  # every client checked the proof: a true claim
        [redeal] = [x for x in client.learned if isinstance(x, Redeal)]
        assert redeal.seat in hub.clients[holder].seats
        assert hub.setup.needs_redeal(list(redeal.cards))
    hub.sequencer.restart("redeal", hub.now)
    hub.flush()
    assert hub.sequencer.awaited() == [] and all(len(hub.hands(k)) == 2 for k in hub.clients)


def test_a_rook_redeal_restarts_the_deal_with_the_same_parties():
    hub = four_humans()
    hub.start()
    [hand] = hub.hands(hub.identities[1].public_key)
    seq = hub.sequencer
    record = seq.restart("redeal", hub.now)
    assert record["dropped"] == [] and [p["seats"] for p in record["parties"]] == [[0], [1], [2], [3]]
    hub.flush()
    [_, again] = hub.hands(hub.identities[1].public_key)
    assert again.seat == hand.seat and again.cards != hand.cards  # fresh secrets, a fresh deal


def test_a_false_redeal_claim_through_the_log_is_named():
    hub = four_humans()
    hub.start()
    key = hub.identities[1].public_key
    [hand] = hub.hands(key)
    assert not flows.must_claim(hub.setup, hand)  # these fixed keys deal no such hand
    hub.send(key, hub.clients[key].claim_redeal(hand.seat))
    hub.flush()
    hub.named(1, "redeal-claim")
    assert not any(isinstance(x, Redeal) for x in hub.clients[key].learned)


# -- cheats signed by their player, caught and named by every other client -------------

def reencrypt(ciphertext, key):
    r = Scalar.from_hash(b"test", b"cheat")
    return decks.Ciphertext(ciphertext.c1 + base_mul(r), ciphertext.c2 + r * key)


def test_a_player_who_duplicates_a_card_in_its_shuffle_is_named_before_any_share():
    hub = four_humans()
    keys = [i.public_key for i in hub.identities]
    a, b = hub.setup.dealt(1)[0], hub.setup.dealt(2)[0]  # seats 1, 2: one copy each

    def duplicate(key, body):
        if key == keys[3] and body["type"] == m.SHUFFLE:  # the last shuffler
            deck = decks.decode_deck(body["deck"], hub.setup.deck_size, validate=True)
            deck[b] = reencrypt(deck[a], hub.clients[keys[0]].machine.joint)
            return dict(body, deck=decks.encode_deck(deck))
        return body
    hub.cheat = duplicate
    hub.start()
    hub.named(3, "shuffle")  # its proof does not check out: refused as it was logged
    shared = {party for party, envelope in hub.sequencer.log
              if party is not None and envelope["body"]["type"] == m.SHARES}
    assert shared <= {3}  # no honest client published a share of that deck
    assert not any(hub.hands(key) for key in keys[:3])


def test_a_player_who_publishes_a_wrong_decryption_share_is_named():
    hub = four_humans()
    keys = [i.public_key for i in hub.identities]

    def wrong_share(key, body):
        if key == keys[2] and body["type"] == m.SHARES:
            batches = [dict(batch) for batch in body["batches"]]
            shares = batches[0]["shares"]  # its shares for party 0 (the host)
            batches[0]["shares"] = (Point(shares[:POINT_BYTES]) + G).raw + shares[POINT_BYTES:]
            return dict(body, batches=batches)
        return body
    hub.cheat = wrong_share
    hub.start()
    assert hub.caught[keys[0]].party == 2  # its recipient, at once
    assert not hub.hands(keys[0])  # nothing decrypted with a bad share
    for key, client in hub.clients.items():  # the others, in their idle time
        if key not in hub.caught and key != keys[2]:
            with pytest.raises(Cheat) as caught:
                client.catch_up()
            hub.caught[key] = caught.value
    hub.named(2, "share")


def test_a_player_who_plays_a_card_from_another_seats_position_is_named():
    hub = four_humans()
    keys = [i.public_key for i in hub.identities]
    hub.start()

    def steal(key, body):
        if key == keys[1] and body["type"] == m.PLAY:
            return dict(body, position=hub.setup.dealt(2)[0])  # a position dealt to seat 2
        return body
    hub.cheat = steal
    [hand] = hub.hands(keys[1])
    hub.send(keys[1], hub.clients[keys[1]].step(flows.PlayCard(1, hand.cards[0])))
    hub.flush()
    hub.named(1, "not-held")
    assert "seat 2" in hub.caught[keys[0]].detail


def test_a_seat_whose_player_is_away_is_the_hosts_for_the_deal():
    host, a, b = (fixed_identity(i).public_key for i in range(3))
    parties = parties_for(host, {0: host, 1: a, 2: b, 3: host}, away=frozenset({2}))
    assert [(p.key, p.seats) for p in parties] == [(host, (0, 2, 3)), (a, (1,))]


def test_the_host_cannot_drop_its_own_party():
    hub = four_humans()
    with pytest.raises(ValueError, match="host's own party"):
        hub.sequencer.restart("dropped", 0, dropped=[0])
