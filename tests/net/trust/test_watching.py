"""A watcher at the table, under both deals and in every title (no sockets: the trust
table with a ``watching_kit.Watcher`` fed what the sessions send a watcher).

A watcher's client is a ``PeerReplica`` whose key holds no seat: it checks every entry
as a seated player's does — signatures, the chain, every move, the public view against
the signed state hash (under the private deal too, where its witness opens the spare the
rules turn up for everyone) — and the host sends it nothing private. These tests hold it
to that: it sees exactly the host's public view at every entry, joining before the deal
or in the middle of a hand; it names a host that shows it another public view, a hand,
or another's secret move; and a curious watcher — everything it was sent and everything
it holds — names no card that is not public, and opens none with the deal's messages.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from net.trust.alerts import HOST
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from net.trust.deals.mental.group import POINT_BYTES, Point
from net.trust.values import card_names
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust.watching_kit import Watcher, entries_in
from tests.net.trust_table import Table

TITLES = [("rook", None, None), ("somerset", "kitty-doubled", None),
          ("somerset", "widow-keep", None), ("horseshoes", None, "three"),
          ("horseshoes", None, "four")]
TITLE_IDS = ["rook", "kitty", "widow", "hs3", "hs4"]
DEALS = {"seeded": Table, "private": MentalTrustTable}


def table_for(deal: str, variant, seed: int = 3):
    peers = (1, 2) if variant[2] == "three" else (1, 3)  # a computer player in seat 2 at four
    return DEALS[deal](variant, seed=seed, peers=peers)


def public_now(table) -> dict | None:
    """The public view the host holds after its last entry (None while it is not exact:
    the spare on its way under the private deal)."""
    return table.host.deal.public_view()


def sees_the_public_view(watcher) -> None:
    """After each entry: accepted, no seat, nothing private, and the public view the host
    holds — exactly."""
    replica, host = watcher.replica, watcher.table.host
    assert replica.halted is None and replica.seat is None and replica.view is None
    if replica.seq == host.chain.seq:
        public = public_now(watcher.table)
        if public is not None:
            assert replica.public == public


def exact_replay(watcher) -> None:
    """Under the private deal its own replay of the hand's public view is the host's (its
    witness opened the spare when it was turned up): the state hashes were checked."""
    deal = watcher.replica.deal
    party = getattr(deal, "party", None)
    public = public_now(watcher.table)
    if party is None or public is None or deal.hand is None or not deal.hand.dealt \
            or watcher.replica.seq != watcher.table.host.chain.seq or party.state.is_over:
        return
    assert party.client.witness is not None  # it follows the deal, no party of it
    assert party.state.public_view() == public


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("variant", TITLES, ids=TITLE_IDS)
def test_a_watcher_sees_exactly_the_public_view_at_every_entry(deal, variant):
    """Two watchers of one table, one joining before the deal and one in the middle of
    the hand (the host's authority knows nothing of watchers: each is sent what the
    sessions send it, and neither changes what the table does)."""
    table = table_for(deal, variant)
    early, late = Watcher(table), Watcher(table, name="late watcher")
    for watcher in (early, late):
        watcher.checks += [sees_the_public_view, exact_replay]
    early.join()
    table.start()
    moves = table.host.state.game.hand_size  # a few tricks in, a contract made
    table.play_until(lambda: len(table.host.state.public_view()["actions"]) >= moves)
    assert early.received and not late.received
    late.join()
    table.play_hand()
    table.next_hand()
    assert not table.alerts
    for watcher in (early, late):
        assert not watcher.alerts
        assert watcher.replica.seq == table.host.chain.seq
        assert [v["hand"] for v in watcher.verified] == [0]  # it checked the whole hand at its end
        assert watcher.replica.scores == list(table.host.match.scores)


def lie_in_public_view(message: dict) -> dict:
    """A dishonest host shows the watcher a trick with a card moved to another seat."""
    def bent(entry: dict) -> dict:
        public = entry.get("public")
        if entry["entry"]["entry"]["kind"] != "action" or not public or not public.get("trick"):
            return entry
        (seat, card), *rest = public["trick"]
        return {**entry, "public": {**public, "trick": [[(seat + 1) % 3, card], *rest]}}
    if message.get("type") == "sync":
        return {**message, "entries": [bent(e) for e in message["entries"]]}
    return bent(message)


@pytest.mark.parametrize("deal", DEALS)
def test_a_watcher_names_a_host_that_shows_it_another_public_view(deal):
    """Under the private deal this was not caught before a watcher's witness learned the
    spare: a client no party of the deal took the public view on the host's word."""
    table = table_for(deal, ("rook", None, None))
    watcher = Watcher(table)
    watcher.join()
    watcher.tamper = lie_in_public_view
    table.start()
    table.play_until(lambda: bool(watcher.alerts))
    alert = watcher.alerts[0]
    assert (alert.party, alert.rule) == (HOST, "state-hash")
    assert not table.alerts  # the players were shown the truth


def with_a_hand(message: dict) -> dict:
    """A dishonest host adds a seat's hand to what it sends the watcher."""
    host_view = {"seat": 1, "hand": ["B5"]}
    entries = entries_in(message)
    bent = [{**e, "private": {"view": host_view, "action": None}}
            if e["entry"]["entry"]["kind"] == "action" else e for e in entries]
    return {**message, "entries": bent} if message.get("type") == "sync" else bent[0]


def with_a_secret_move(message: dict) -> dict:
    """A dishonest host echoes a bury's cards to the watcher."""
    def bent(e):
        body = e["entry"]["entry"]["body"]
        if e["entry"]["entry"]["kind"] == "action" and "bury" in body["signed"]["body"]["action"]:
            return {**e, "private": {"view": None, "action": {"seat": 0, "bury": ["B5"], "trump": "B"}}}
        return e
    entries = [bent(e) for e in entries_in(message)]
    return {**message, "entries": entries} if message.get("type") == "sync" else entries[0]


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("lie", [with_a_hand, with_a_secret_move], ids=["a hand", "a secret move"])
def test_a_watcher_names_a_host_that_sends_it_something_private(deal, lie):
    table = table_for(deal, ("rook", None, None))
    watcher = Watcher(table)
    watcher.join()
    watcher.tamper = lie
    table.start()
    table.play_until(lambda: bool(watcher.alerts) or table.host.state.phase == "play")
    table.play_until(lambda: bool(watcher.alerts))
    alert = watcher.alerts[0]
    assert (alert.party, alert.rule) == (HOST, "privacy")


# -- the curious watcher ----------------------------------------------------------------------

def logged_deal_messages(received: list[dict]) -> list[dict]:
    """Every deal message the log a watcher was sent holds: the parties' envelopes, and
    the played cards' proofs the moves carry."""
    found = []
    for message in received:
        for e in entries_in(message):
            entry = e["entry"]["entry"]
            if entry["kind"] == ml.MESSAGE:
                body = entry["body"]
                found.append(body["signed"]["body"] if "signed" in body else body["played"]["body"]["mental"])
            elif entry["kind"] == "action":
                proof = entry["body"]["signed"]["body"].get("mental")
                if proof is not None:
                    found.append(proof)
    return found


def every_way_to_open(messages: list[dict], size: int,
                      opened: dict[tuple, int | None] | None = None) -> dict[int, int]:
    """position -> card for every position of the last deal in ``messages`` that some
    subset of the shares published for it opens (the watcher has no share of its own).

    ``opened`` remembers what each (ciphertext's c₂, subset of shares) decrypted to, for a
    caller that asks again as the messages grow: only the new subsets are decrypted."""
    opened = {} if opened is None else opened
    keys = [msg for msg in messages if msg["type"] == mm.KEY]
    decks_sent = [msg for msg in messages if msg["type"] == mm.SHUFFLE]
    if not decks_sent:
        return {}
    attempt = decks_sent[-1]["hand"], decks_sent[-1]["attempt"]
    messages = [msg for msg in messages if (msg["hand"], msg["attempt"]) == attempt]
    keys = [msg for msg in messages if msg["type"] == mm.KEY]
    final = decks.decode_deck([msg for msg in messages if msg["type"] == mm.SHUFFLE][-1]["deck"],
                              size, validate=True)
    shares: dict[int, list[Point]] = {p: [] for p in range(size)}
    for msg in messages:
        batches = msg["batches"] if msg["type"] == mm.SHARES else [msg] if msg["type"] == mm.SHOW else []
        for batch in batches:
            for i, p in enumerate(batch["positions"]):
                shares[p].append(Point(batch["shares"][POINT_BYTES * i:POINT_BYTES * (i + 1)]))
        if msg["type"] == mm.PLAY and msg["share"] is not None:
            shares[msg["position"]].append(Point(msg["share"]))
    lookup = decks.card_lookup(size)
    assert keys and decks.joint_key(Point(k["key"]) for k in keys) is not None
    found = {}
    for p, ciphertext in enumerate(final):
        for n in range(len(shares[p]) + 1):
            for subset in combinations(shares[p], n):
                key = (ciphertext.c2, subset)
                if key not in opened:
                    opened[key] = lookup.get(decks.decrypt(ciphertext, subset))
                card = opened[key]
                if card is not None:
                    found[p] = card
    return found


class Curious:
    """Before every card played, what the watcher was sent and holds, against what is public."""

    def __init__(self, table, watcher):
        self.table, self.watcher = table, watcher
        self.public_cards: set[int] = set()  # every card a public view has shown so far
        self.checks = 0
        # What the watcher was sent, read as it comes (it only grows): the cards it names,
        # the deal messages its log holds, and what every subset of shares opened so far.
        self.named: set[int] = set()
        self.deal_messages: list[dict] = []
        self.read = 0
        self.opened: dict[tuple, int | None] = {}
        step = table.step

        def step_and_look(seat=None, action=None):
            state = table.host.state
            if state is not None and state.phase == "play" and not state.is_over:
                self.look()
            return step(seat, action)
        table.step = step_and_look
        watcher.checks.append(self.seen)

    def seen(self, watcher) -> None:
        public = public_now(self.table)
        if public is not None:
            self.public_cards |= card_names(self.table.host.game.deck, public)

    def read_new_messages(self) -> None:
        new = self.watcher.received[self.read:]
        self.read += len(new)
        self.named |= card_names(self.table.host.game.deck, new)
        self.deal_messages += logged_deal_messages(new)

    def look(self) -> None:
        deck = self.table.host.game.deck
        self.read_new_messages()
        named = self.named
        assert named <= self.public_cards, \
            f"the watcher was sent {sorted(deck.name(c) for c in named - self.public_cards)}"
        replica = self.watcher.replica
        assert replica.view is None  # it holds no seat's view
        party = getattr(replica.deal, "party", None)
        if party is not None:  # the private deal: nothing opens but what was played or shown
            assert party.onlooker
            size = party.setup.deck_size
            found = every_way_to_open(self.deal_messages, size, self.opened)
            shown = {deck.parse(c) for c in (public_now(self.table) or {}).get("widow") or []}
            played = {p for msg in self.deal_messages
                      if msg["type"] == mm.PLAY for p in [msg["position"]]}
            opened = {p for p, card in found.items() if p not in played}
            assert {found[p] for p in opened} <= shown | self.public_cards, \
                "the watcher opened a card nobody has played or shown"
            witness = party.client.witness
            if witness is not None:  # what its witness decrypted: played or turned up
                assert set(witness.known.values()) <= self.public_cards | shown
        self.checks += 1


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("variant", TITLES, ids=TITLE_IDS)
def test_a_curious_watcher_names_and_opens_no_card_that_is_not_public(deal, variant):
    table = table_for(deal, variant)
    watcher = Watcher(table)
    watcher.join()
    curious = Curious(table, watcher)
    table.start()
    table.play_hand()
    assert not watcher.alerts
    assert curious.checks == table.host.game.hand_size * table.num_players  # before every card
