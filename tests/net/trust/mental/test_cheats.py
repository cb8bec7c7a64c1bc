"""Every way a party can break the deal is caught, and the party is named, by every
honest party: live where the issue asks for it, at the end-of-hand reveal otherwise."""

import pytest

from engine.rook.rules import POINT_CARDS
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import flows
from net.trust.deals.mental import messages as m
from net.trust.deals.mental import shuffle_proof
from net.trust.deals.mental.group import POINT_BYTES, G, Point, Scalar, base_mul
from net.trust.deals.mental.machine import Audit, Dealt, Played, Redeal, Verified
from net.trust.deals.mental.proofs import prove_key
from tests.net.trust.mental_table import MentalTable, accept_every_shuffle, god_view, make_game

FOUR = [[0], [1], [2], [3]]


def rook_table(**kwargs) -> MentalTable:
    return MentalTable(make_game("rook"), FOUR, dealer=3, **kwargs)


def honest_named(table, cheater, rule, also=()):
    """Every party but the cheater named it for ``rule``."""
    for party in table.parties:
        if party != cheater and party not in also:
            cheat = table.caught.get(party)
            assert cheat is not None, f"party {party} did not catch it"
            assert (cheat.party, cheat.rule) == (cheater, rule), cheat
            assert cheat.seats == tuple(table.setup.parties[cheater].seats)


def tamper_shuffle(table, cheater, change):
    """The cheater's published deck is ``change(deck, joint key)`` of the honest one."""
    def tamper(sender, message):
        if sender == cheater and message["type"] == m.SHUFFLE:
            deck = decks.decode_deck(message["deck"], table.setup.deck_size, validate=True)
            message = dict(message, deck=decks.encode_deck(change(deck, table.machines[0].joint)))
        return message
    table.tamper = tamper


def reencrypt(ciphertext, key, label=b"cheat"):
    r = Scalar.from_hash(b"test", label)
    return decks.Ciphertext(ciphertext.c1 + base_mul(r), ciphertext.c2 + r * key)


def card_positions(table):
    """(position -> seat) for the dealt positions."""
    return {p: seat for seat in range(table.setup.num_players) for p in table.setup.dealt(seat)}


# -- the shuffle ------------------------------------------------------------------------

def honest_shares(table, cheater):
    """The decryption shares any party but ``cheater`` published (its own it may publish)."""
    return [(party, message) for party, message in table.log
            if message["type"] == m.SHARES and party != cheater]


def test_a_duplicated_card_is_refused_before_any_share_and_the_shuffler_named():
    """The last shuffler copies a ciphertext dealt to seat 1 into a position dealt to
    seat 2 — indistinguishable from an honest ciphertext — and publishes its honest proof:
    every other party checks that proof as the deck comes, refuses it, and names it; no
    honest party publishes a share, and nobody learns a card."""
    table = rook_table()
    a, b = table.setup.dealt(1)[0], table.setup.dealt(2)[0]

    def duplicate(deck, key):
        deck = list(deck)
        deck[b] = reencrypt(deck[a], key)
        return deck
    tamper_shuffle(table, 3, duplicate)  # the last shuffler; party 3 plays seat 3
    table.deal()
    honest_named(table, 3, "shuffle")
    assert honest_shares(table, 3) == []
    assert not any(table.events(p, Dealt) for p in (0, 1, 2))


def test_a_replaced_ciphertext_is_refused_before_any_share():
    """The second shuffler replaces a ciphertext with an encryption of a card of its
    choice: the parties after it shuffle on (a shuffle reveals nothing), and every other
    party's check of the proofs, batched, names it once the deck is final."""
    table = rook_table()
    chosen = decks.card_point(0)

    def replace(deck, key):
        r = Scalar.from_hash(b"test", b"r")
        return [decks.Ciphertext(base_mul(r), chosen + r * key) if i == 7 else c
                for i, c in enumerate(deck)]
    tamper_shuffle(table, 1, replace)
    table.deal()
    honest_named(table, 1, "shuffle")
    assert honest_shares(table, 1) == []


def test_a_shuffle_proven_against_another_input_is_refused():
    """Party 2 shuffles the starting deck instead of party 1's, with a true proof of that:
    the proof is checked against the deck logged before it, and fails."""
    table = rook_table()
    machine = table.machines[2]

    def from_the_start(sender, message):
        if sender == 2 and message["type"] == m.SHUFFLE:
            source = decks.initial_deck(table.setup.deck_size, machine.joint)
            out = decks.shuffle(source, machine._pads, machine.secrets.shuffle_seed)
            proof = shuffle_proof.prove(machine._prepared, machine.joint, source, out,
                                        machine.chain.proof_context(2))
            message = dict(message, deck=decks.encode_deck(out), proof=proof)
        return message
    table.tamper = from_the_start
    table.deal()
    honest_named(table, 2, "shuffle")
    assert honest_shares(table, 2) == []


def test_a_proof_replayed_from_another_hand_is_refused():
    """Party 3 logs its shuffle of hand 3 again in hand 4 (the deck it shuffled is not this
    hand's, so it sends the same deck and proof bytes): the proof is bound to its deal."""
    first = rook_table()
    first.deal()
    [(_, old)] = [(p, msg) for p, msg in first.log if p == 3 and msg["type"] == m.SHUFFLE]
    table = rook_table(hand=4)
    table.tamper = lambda sender, message: dict(message, deck=old["deck"], proof=old["proof"]) \
        if sender == 3 and message["type"] == m.SHUFFLE else message
    table.deal()
    honest_named(table, 3, "shuffle")
    assert honest_shares(table, 3) == []


def test_a_shuffle_without_its_proof_is_malformed():
    from net.trust.deals.mental.errors import BadMessage
    table = rook_table()
    table.deal()
    shuffle = next(msg for p, msg in table.log if p == 1 and msg["type"] == m.SHUFFLE)
    bare = {k: v for k, v in shuffle.items() if k != "proof"}
    with pytest.raises(BadMessage) as caught:
        rook_table().machines[0].receive(1, bare)
    assert caught.value.party == 1


# -- belt and braces: the end-of-hand check, were a shuffle's proof to pass wrongly ------

@pytest.fixture
def unsound(monkeypatch):
    accept_every_shuffle(monkeypatch)


def test_a_duplicated_card_is_caught_when_it_is_played_and_the_shuffler_named(unsound):
    table = rook_table()
    seat_a, seat_b = 1, 2  # parties 1 and 2 each get one copy of the same card
    a, b = table.setup.dealt(seat_a)[0], table.setup.dealt(seat_b)[0]

    def duplicate(deck, key):
        deck = list(deck)
        deck[b] = reencrypt(deck[a], key)  # indistinguishable from an honest ciphertext
        return deck
    tamper_shuffle(table, 3, duplicate)  # the last shuffler; party 3 plays seat 3
    table.deal()
    assert not table.caught  # each hand on its own looks fine
    card = table.events(1, Dealt)[0].cards[0]
    assert table.events(2, Dealt)[0].cards[0] == card
    table.run(1, table.machines[1].play(seat_a, card))
    # party 2 holds that very card: it asks for an audit at once, everyone reveals
    assert table.events(2, Audit)
    honest_named(table, 3, "shuffle")


def test_a_duplicated_card_never_played_is_caught_at_the_reveal(unsound):
    table = rook_table()
    a, b = table.setup.dealt(1)[0], list(table.setup.spare())[-1]  # a copy in the widow
    tamper_shuffle(table, 3, lambda deck, key: [reencrypt(deck[a], key) if i == b else c
                                                for i, c in enumerate(deck)])
    table.deal()
    assert not table.caught
    table.everyone(lambda machine: machine.finish())
    honest_named(table, 3, "shuffle")
    assert not any(table.events(p, Verified) for p in table.parties)


def test_a_substituted_card_is_caught_at_the_deal(unsound):
    table = rook_table()
    target = table.setup.dealt(2)[5]
    stranger = Point.from_uniform(b"\x07" * 32)  # a point that is no card

    def substitute(deck, key):
        r = Scalar.from_hash(b"test", b"r")
        deck = list(deck)
        deck[target] = decks.Ciphertext(base_mul(r), stranger + r * key)
        return deck
    tamper_shuffle(table, 3, substitute)  # the last shuffler: its positions are final
    table.deal()
    assert table.events(2, Audit)  # the owner of that position saw no card
    honest_named(table, 3, "shuffle")


def test_bytes_that_are_not_a_point_name_the_shuffler_that_published_them():
    table = rook_table()
    off_curve = Point(b"\x02" + (5).to_bytes(32, "big"))  # no point of secp256k1 has x = 5
    tamper_shuffle(table, 1, lambda deck, key: [decks.Ciphertext(off_curve, c.c2) if i == 0 else c
                                                for i, c in enumerate(deck)])
    table.deal()
    # the next shuffler, whose proof multiplies every point it shuffles, finds it at once
    # (libsecp256k1 cannot parse it) and names the first deck holding it; the deck is never
    # final, so the others' batched check has no verdict yet
    assert set(table.caught) == {2}
    table.everyone(lambda machine: machine.recheck())  # the others, told of the alert
    honest_named(table, 1, "shuffle")


def test_shuffling_out_of_turn_is_named():
    table = rook_table()
    table.deal()
    late = table.log[5][1]  # party 1's shuffle, sent again by party 2
    for party in table.parties:
        table._attempt(party, lambda machine=table.machines[party]: machine.receive(2, late))
    honest_named(table, 2, "order")


@pytest.mark.parametrize("keys_published", [False, True])
def test_a_card_played_before_the_deck_is_final_is_named(keys_published):
    """A play logged while the deal is still at its keys or shuffles (the sequencer logs
    it: it screens keys, shuffles and shares only) is a broken rule, named like shares
    sent too early, not a crash of every machine that reads it."""
    table = rook_table()
    if keys_published:  # every key share, and no shuffle yet
        keys = [(i, machine.start()[0].message) for i, machine in enumerate(table.machines)]
        for machine in table.machines:
            for sender, message in keys:
                machine.receive(sender, message)
    context = table.setup.context
    early = m.make(m.PLAY, context.hand, context.attempt, seat=1,
                   position=table.setup.dealt(1)[0], share=G.raw, proof=bytes(64))
    for party in table.parties:
        table._attempt(party, lambda machine=table.machines[party]: machine.receive(1, early))
    honest_named(table, 1, "order")


# -- keys and decryption shares ---------------------------------------------------------

def test_a_rogue_key_without_a_proof_is_named():
    table = rook_table()
    y = Scalar.from_hash(b"test", b"y")

    def rogue(sender, message):
        if sender == 2 and message["type"] == m.KEY:
            rogue_key = base_mul(y) - table.secrets[0].key  # would cancel party 0's share
            message = dict(message, key=rogue_key.raw, proof=prove_key(y, rogue_key, b"?", b"k"))
        return message
    table.tamper = rogue
    table.deal()
    honest_named(table, 2, "key")


def test_a_wrong_decryption_share_is_named_by_its_recipient_at_once_and_by_all():
    table = rook_table()

    def wrong_share(sender, message):
        if sender == 2 and message["type"] == m.SHARES:
            batches = [dict(b) for b in message["batches"]]
            first = batches[0]  # for party 0
            bad = (Point(first["shares"][:POINT_BYTES]) + G).raw
            first["shares"] = bad + first["shares"][POINT_BYTES:]
            message = dict(message, batches=batches)
        return message
    table.tamper = wrong_share
    table.deal()
    assert table.caught[0].party == 2 and table.caught[0].rule == "share"  # live
    assert not table.events(0, Dealt)  # nothing decrypted with a bad share
    assert set(table.caught) == {0}  # the others had not checked party 0's batches yet
    table.everyone(lambda machine: machine.catch_up())
    honest_named(table, 2, "share")


def test_a_forged_share_on_a_played_card_is_named():
    """Party 1 tries to play a card it does not hold by shifting its share."""
    table = rook_table()
    table.deal()
    hand = table.events(1, Dealt)[0]
    held = set(hand.cards)
    wanted = next(c for c in range(57) if c not in held)
    real = hand.cards[0]

    def forge(sender, message):
        if sender == 1 and message["type"] == m.PLAY:
            shift = decks.card_point(real) - decks.card_point(wanted)
            message = dict(message, share=(Point(message["share"]) + shift).raw)
        return message
    table.tamper = forge
    table.run(1, table.machines[1].play(1, real))
    honest_named(table, 1, "share")
    assert not any(p.card == wanted for party in table.parties for p in table.events(party, Played))


def test_playing_from_another_seats_position_is_named_live():
    table = rook_table()
    table.deal()
    honest = table.machines[1].play(1, table.events(1, Dealt)[0].cards[0])[0].message
    stolen = dict(honest, position=table.setup.dealt(2)[0])  # a position dealt to seat 2
    table._queue.append((1, stolen))
    table.flush()
    honest_named(table, 1, "not-held")
    assert "dealt" not in table.caught[0].detail or "seat 2" in table.caught[0].detail


def test_playing_a_position_twice_is_named():
    table = rook_table()
    table.deal()
    card = table.events(1, Dealt)[0].cards[0]
    message = table.machines[1].play(1, card)[0].message
    table.run(1, table.machines[1].play(1, card))
    table._queue.append((1, message))
    table.flush()
    honest_named(table, 1, "played-twice")


def test_acting_for_a_seat_another_party_plays_is_named():
    table = rook_table()
    table.deal()
    message = table.machines[1].play(1, table.events(1, Dealt)[0].cards[0])[0].message
    table._queue.append((1, dict(message, seat=2)))
    table.flush()
    honest_named(table, 1, "not-held")


# -- the Rook redeal --------------------------------------------------------------------

rook_rule = flows.redeal_rule(make_game("rook"))  # the engine's: no point card


def test_the_redeal_rule_is_the_engines():
    assert rook_rule([c for c in range(57) if not POINT_CARDS >> c & 1][:13])
    assert not rook_rule([c for c in range(57) if POINT_CARDS >> c & 1][:13])
    assert flows.redeal_rule(make_game("somerset")) is None


def test_a_false_redeal_claim_is_named_live():
    table = rook_table(needs_redeal=rook_rule)
    table.deal()
    seat = next(s for s in range(4) if not rook_rule(table.events(s, Dealt)[0].cards))
    table.run(seat, table.machines[seat].claim_redeal(seat))
    honest_named(table, seat, "redeal-claim")


def test_a_true_redeal_claim_redeals_and_a_kept_one_is_named_at_the_reveal():
    holder = {}
    rule = lambda cards: holder.get("card") in cards  # noqa: E731 - a test's own rule
    claimed = rook_table(needs_redeal=rule)
    claimed.deal()
    holder["card"] = claimed.events(2, Dealt)[0].cards[3]  # seat 2's hand "has no point card"
    claimed.run(2, claimed.machines[2].claim_redeal(2))
    assert not claimed.caught
    for party in claimed.parties:
        assert [r.seat for r in claimed.events(party, Redeal)] == [2]
    kept = rook_table(needs_redeal=rule, identities=claimed.identities)
    kept.deal()  # the same deal again (same identities, same attempt)
    assert kept.events(2, Dealt) == claimed.events(2, Dealt)
    kept.everyone(lambda machine: machine.finish())
    honest_named(kept, 2, "redeal-missed")


# -- commitments and the reveal ---------------------------------------------------------

def test_a_bury_that_does_not_open_its_commitment_is_named():
    table = rook_table()
    table.deal()
    hand = table.events(0, Dealt)[0]
    table.run(0, table.machines[0].commit(0, "bury", hand.cards[:5]))
    other = list(hand.positions[5:10])

    def lie(sender, message):
        if sender == 0 and message["type"] == m.REVEAL:
            message = dict(message, openings=[{"seat": 0, "label": "bury", "positions": other}])
        return message
    table.tamper = lie
    table.everyone(lambda machine: machine.finish())
    honest_named(table, 0, "commitment")


def test_a_reveal_that_is_not_the_partys_secret_is_named():
    table = rook_table()
    table.deal()
    table.tamper = lambda sender, message: dict(message, secret=table.secrets[3].signature) \
        if sender == 1 and message["type"] == m.REVEAL else message
    table.everyone(lambda machine: machine.finish())
    honest_named(table, 1, "reveal")


def test_a_false_alarm_is_named():
    table = rook_table()
    table.deal()
    table.run(2, table.machines[2]._reveal("audit", "nothing is wrong"))
    honest_named(table, 2, "false-alarm")


def test_an_honest_hand_verifies_everywhere():
    table = rook_table()
    table.deal()
    table.everyone(lambda machine: machine.finish())
    hands, spare = table.setup.layout(god_view(table))
    for party in table.parties:
        assert table.events(party, Verified) == [Verified(tuple(map(tuple, hands)), tuple(spare))]


@pytest.mark.parametrize("field, value", [("key", b"\x01" * 31), ("proof", "x"), ("hand", 99)])
def test_malformed_messages_are_refused_with_the_sender(field, value):
    from net.trust.deals.mental.errors import BadMessage
    table = rook_table()
    message = dict(table.machines[1].start()[0].message, **{field: value})
    with pytest.raises(BadMessage) as caught:
        table.machines[0].receive(1, message)
    assert caught.value.party == 1


def test_a_commitment_lost_with_its_link_is_made_again_and_a_logged_one_is_final():
    """The seat decides again after a rejoin: a commitment nobody logged (it went with
    its move on a link that was cut) is made anew; one that was logged cannot be."""
    from net.trust.deals.mental.errors import Refused

    table = rook_table()
    table.deal()
    hand = table.events(0, Dealt)[0]
    machine = table.machines[0]
    machine.commit(0, "bury", hand.cards[:5])  # sent, never delivered
    table.run(0, machine.commit(0, "bury", hand.cards[5:10]))  # decided again: logged
    with pytest.raises(Refused, match="already committed"):
        machine.commit(0, "bury", hand.cards[:5])
    assert sorted(machine.committed(0, "bury")) == sorted(hand.cards[5:10])
    table.everyone(lambda m: m.finish())
    assert not table.caught  # the bury opens the commitment that was logged
