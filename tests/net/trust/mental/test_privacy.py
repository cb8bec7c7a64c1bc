"""Nobody sees another human's cards before they are played — not the host, not a guest.

The host's client (party 0: its own seat 0 and a computer player's, seat 2) records
everything it ever receives and holds, its secrets included. Before every card a human
seat plays, ``every_way_to_decrypt`` tries each way a client could open a card with
that record, and finds none of the human's cards still in hand. The same attack finds
the host's own and its computer player's cards (it is not empty-handed), and every card
already played; and against today's commit–reveal deal, the host's record gives every
hand at once.

A guest's client is tried the same way: the last to shuffle (it knows where every card it
shuffled goes), curious — everything it receives and holds, its shuffle's secrets
included, before every card another seat plays — and dishonest: it copies the
ciphertexts dealt to another player into its own positions, which would have given it
that player's whole hand (it does, were the shuffle's proof not checked); every other
party refuses the shuffle before it publishes a share, and the guest learns nothing.
"""

from itertools import combinations

import pytest

from engine.cards import cards_of
from engine.registry import title
from net.trust.deals.seeded import fairdeal
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import messages as m
from net.trust.deals.mental.group import POINT_BYTES, Point, Scalar, base_mul
from net.trust.deals.mental.machine import Dealt, Played
from tests.net.trust.mental_table import MentalTable, accept_every_shuffle, god_view, play_hand
from tests.net.trust_table import TABLE, Table

HOST = 0
PARTIES = [[0, 2], [1], [3]]  # the host with a computer player, and two humans
HUMAN_SEATS = (1, 3)


def every_way_to_decrypt(record, secrets, size, tried: dict | None = None) -> dict[int, int]:
    """position -> card for every position this record opens, trying: every subset of
    the shares received for that position, with and without the holder's own share; the
    same with each share a player published for a card it played (the only shares made
    with its key share, but for another position's base); and the starting deck's
    ciphertexts, compared as they are. ``tried``: what earlier attacks on the same deal
    opened ((ciphertext, shares) -> card or None), kept by the caller to try each
    combination once as the record grows (decryption is a pure function of the two)."""
    lookup = decks.card_lookup(size)
    tried = {} if tried is None else tried

    def opened(ciphertext, shares) -> int | None:
        key = (ciphertext.raw, tuple(shares))
        if key not in tried:
            tried[key] = lookup.get(decks.decrypt(ciphertext, shares))
        return tried[key]
    final = decks.decode_deck([msg for _, msg in record if msg["type"] == m.SHUFFLE][-1]["deck"],
                              size, validate=True)
    shares: dict[int, list[Point]] = {p: [] for p in range(size)}
    stray: list[Point] = []  # the players' own shares, of the cards they played
    for _, msg in record:
        batches = msg["batches"] if msg["type"] == m.SHARES else \
            [msg] if msg["type"] == m.SHOW else []
        for batch in batches:
            for i, p in enumerate(batch["positions"]):
                shares[p].append(Point(batch["shares"][POINT_BYTES * i:POINT_BYTES * (i + 1)]))
        if msg["type"] == m.PLAY and msg["share"] is not None:
            shares[msg["position"]].append(Point(msg["share"]))
            stray.append(Point(msg["share"]))
    start = {c.raw for c in decks.initial_deck(size, decks.joint_key(
        Point(msg["key"]) for _, msg in record if msg["type"] == m.KEY))}
    found = {}
    for p, ciphertext in enumerate(final):
        assert ciphertext.raw not in start  # no ciphertext of the public deck survives
        mine = secrets.x * ciphertext.c1
        candidates = shares[p] + [mine]
        for n in range(len(candidates) + 1):
            for subset in combinations(candidates, n):
                card = opened(ciphertext, subset)
                if card is not None:
                    found[p] = card
        if p not in found:
            for wrong in stray:
                card = opened(ciphertext, shares[p] + [mine, wrong])
                if card is not None:
                    found[p] = card
    return found


# (title, ruleset, mode, options, seats by party): the host's client is party 0
TITLES = [
    ("rook", "rook", None, None, PARTIES),
    ("somerset", "kitty-doubled", None, None, PARTIES),
    ("somerset", "widow-keep", None, None, PARTIES),
    ("horseshoes", "horseshoes", "three", {"leftover": "down"}, [[0], [1], [2]]),
    ("horseshoes", "horseshoes", "four", None, PARTIES),
]


def play_watched_by(table, curious: int, watched: list[int]) -> int:
    """Play the hand; before every card a ``watched`` seat plays, try every way the
    ``curious`` party could open a card with everything its client was sent and holds, and
    find no card still face down in a watched seat's hand — but every card played, and its
    own seats' whole hands. How many cards it was tried before."""
    truth = god_view(table)
    checks = []
    tried: dict = {}  # every combination tried before this card, for the next attacks

    def attack(state, action):
        if action.kind != "play" or action.seat not in watched:
            return
        record = table.received[curious]
        found = every_way_to_decrypt(record, table.secrets[curious], table.setup.deck_size, tried)
        assert all(truth[p] == card for p, card in found.items())
        played = {msg["position"] for _, msg in record if msg["type"] == m.PLAY}
        for seat in watched:
            machine = table.machines[table.setup.owner(seat)]
            face_down = machine.holdings[seat] - played - set(machine.public)  # (Rook's widow: public)
            assert not face_down & set(found), f"party {curious} opened a card of seat {seat}"
        assert set(found) >= played  # what was played, it does know
        for seat in table.setup.parties[curious].seats:  # its own hands, it does know
            assert set(table.setup.dealt(seat)) <= set(found)
        checks.append(len(played))

    play_hand(table, before_action=attack)
    return len(checks)


@pytest.mark.parametrize("name, ruleset, mode, options, parties", TITLES)
def test_the_host_cannot_see_a_human_hand_before_it_is_played(name, ruleset, mode, options, parties):
    game = title(name).make(ruleset, mode, options)
    table = MentalTable(game, parties, dealer=1)
    table.deal()
    humans = [seat for seats in parties[1:] for seat in seats]
    assert play_watched_by(table, HOST, humans) == game.hand_size * len(humans)
    truth = god_view(table)
    assert all(p.card == truth[p.position] for p in table.events(HOST, Played))


def guest_of(parties) -> int:
    """The guest party the tests make curious or dishonest: the last to shuffle."""
    return len(parties) - 1


@pytest.mark.parametrize("name, ruleset, mode, options, parties", TITLES)
def test_a_guest_cannot_see_another_seats_hand_before_it_is_played(name, ruleset, mode, options,
                                                                     parties):
    game = title(name).make(ruleset, mode, options)
    table = MentalTable(game, parties, dealer=1)
    table.deal()
    curious = guest_of(parties)
    others = [seat for i, seats in enumerate(parties) if i != curious for seat in seats]
    # the host's seat, its computer player's, the other guests'
    assert play_watched_by(table, curious, others) == game.hand_size * len(others)


def cards_dealt(table) -> list[int]:
    """The card at every position of the last logged deck, from every party's secrets."""
    size = table.setup.deck_size
    [*_, last] = [msg["deck"] for _, msg in table.log if msg["type"] == m.SHUFFLE]
    lookup = decks.card_lookup(size)
    return [lookup[decks.decrypt(c, [s.x * c.c1 for s in table.secrets])]
            for c in decks.decode_deck(last, size, validate=True)]


def copy_into_own_hand(table, attacker: int, victim: int) -> None:
    """The ``attacker`` party, the last to shuffle, publishes its deck with every position
    dealt to its own seat a re-encryption of one dealt to ``victim``'s seat (each hand
    alone looks fine: thirteen different cards), and its shuffle's proof unchanged."""
    [own] = table.setup.parties[attacker].seats[:1]
    pairs = list(zip(table.setup.dealt(own), table.setup.dealt(victim)))

    def copy(sender, message):
        if sender != attacker or message["type"] != m.SHUFFLE:
            return message
        size, joint = table.setup.deck_size, table.machines[attacker].joint
        deck = decks.decode_deck(message["deck"], size, validate=True)
        r = Scalar.from_hash(b"test", b"copy")
        for mine, theirs in pairs:
            deck[mine] = decks.Ciphertext(deck[theirs].c1 + base_mul(r), deck[theirs].c2 + r * joint)
        return dict(message, deck=decks.encode_deck(deck))
    table.tamper = copy


@pytest.mark.parametrize("name, ruleset, mode, options, parties", TITLES)
def test_a_guest_that_copies_another_hand_into_its_own_learns_nothing(name, ruleset, mode, options,
                                                                      parties):
    game = title(name).make(ruleset, mode, options)
    table = MentalTable(game, parties, dealer=1)
    attacker, victim = guest_of(parties), parties[1][0]
    copy_into_own_hand(table, attacker, victim)
    table.deal()
    victims_cards = {cards_dealt(table)[p] for p in table.setup.dealt(victim)}
    found = every_way_to_decrypt(table.received[attacker], table.secrets[attacker],
                                 table.setup.deck_size)
    assert not victims_cards & set(found.values()), "the attacker read the victim's cards"
    assert not table.events(attacker, Dealt)
    for party in table.parties:  # refused, and named, before any share was published
        if party != attacker:
            assert (table.caught[party].party, table.caught[party].rule) == (attacker, "shuffle")
    assert {p for p, msg in table.log if msg["type"] == m.SHARES} <= {attacker}


def test_the_copy_attack_reads_the_victims_hand_were_the_proof_not_checked(monkeypatch):
    """What the proof prevents: with every shuffle's proof accepted unchecked, the same
    attack deals the attacker the victim's whole hand (caught only later, at the reveal)."""
    accept_every_shuffle(monkeypatch)
    game = title("rook").make("rook", None, None)
    table = MentalTable(game, PARTIES, dealer=1)
    attacker, victim = guest_of(PARTIES), 1
    copy_into_own_hand(table, attacker, victim)
    table.deal()
    [hand] = table.events(attacker, Dealt)
    [victims] = table.events(1, Dealt)
    assert sorted(hand.cards) == sorted(victims.cards) and not table.caught


def test_a_human_cannot_see_another_humans_hand_either():
    game = title("somerset").make("kitty-doubled", None, None)
    table = MentalTable(game, [[0], [1], [2], [3]], dealer=0)
    table.deal()
    found = every_way_to_decrypt(table.received[1], table.secrets[1], table.setup.deck_size)
    assert set(found) == set(table.setup.dealt(1))  # its own hand, nothing else


@pytest.mark.parametrize("variant", [("rook", None, None), ("somerset", "kitty-doubled", None),
                                     ("somerset", "widow-keep", None), ("horseshoes", None, "three"),
                                     ("horseshoes", None, "four")])
def test_the_same_attack_succeeds_on_todays_commit_reveal_deal(variant):
    """Today's deal: the host draws the secret and logs every contribution, so its own
    record gives the seed, and the seed gives every hand."""
    old = Table(variant, peers=(1, 3))  # seat 2 a computer player
    old.start()
    entries = [(signed.wire["entry"], private) for signed, private in old.persisted]
    secret = next(p["secret"] for e, p in entries if e["kind"] == "commit")
    contributions = {e["body"]["seat"]: e["body"]["signed"]["body"]["random"]
                     for e, _ in entries if e["kind"] == "contribution"}
    deal = next(e["body"] for e, _ in entries if e["kind"] == "deal")
    seed = fairdeal.seed(TABLE, deal["hand"], secret, contributions)
    game = old.host.game
    hands = game.deal(seed, deal["dealer"]).hands  # bit masks, Rook's redeals included
    for seat in old.peer_seats:  # each human's hand, exactly as its own replica shows it
        assert [game.deck.name(c) for c in cards_of(hands[seat])] == old.replicas[seat].view["hand"]
