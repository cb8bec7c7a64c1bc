"""The cheats of the trust protocol under the mental-poker deal, through the host's
authority and every peer's replica (in process): each caught and its author named by
every honest replica. A host that sends a wrong private hand has no equivalent here —
it holds no guest's hand — so what replaces it is a host that sends a private view at
all, forges a guest's deal message, or deals a guest's seat to itself; and the players'
own cheats: a wrong decryption share, a card played from another seat's position, a card
other than the one its proof opened. (A card duplicated in a shuffle is named at the deal
level, tests/net/trust/mental/test_cheats.py; through the sessions the replay of the
duplicated card may first show as another seat's mismatch: not wired yet.)"""

from net.trust import mental_log as ml
from net.trust.alerts import HOST, PLAYER
from net.trust.mental import messages as mm
from tests.net.trust.mental_trust_table import MentalTrustTable


def caught(table, seats):
    """Every alert, by seat, of the given replicas (one each, or none)."""
    return {seat: table.replicas[seat].halted for seat in seats}


def assert_named(table, party, seat, rule="deal", honest=None):
    """Every honest replica halted on an alert naming ``seat`` (``rule``: one rule, or
    a tuple of the rules that may come first)."""
    honest = [s for s in table.replicas if s != seat] if honest is None else honest
    rules = rule if isinstance(rule, tuple) else (rule,)
    alerts = caught(table, honest)
    for replica_seat, alert in alerts.items():
        assert alert is not None, f"seat {replica_seat} caught nothing"
        assert (alert.party, alert.seat) == (party, seat) and alert.rule in rules, (replica_seat, alert)


def dealt_table(**kwargs):
    table = MentalTrustTable(**kwargs)
    table.start()
    return table


def test_a_whole_hand_is_verified_by_every_replica():
    table = dealt_table()
    table.play_hand()
    assert all(len(v) == 1 for v in table.verified.values()) and not table.alerts
    assert table.host.deal.party.hands.keys() == {0}


# -- the host -----------------------------------------------------------------------------

def test_a_private_view_sent_under_the_mental_deal_is_caught():
    table = MentalTrustTable()
    table.host.view = lambda seat: table.host.state.view(seat) if table.host.state else None
    table.start()
    table.play_until(lambda: table.alerts)
    assert_named(table, HOST, 0, "privacy", honest=list(table.replicas))


def test_a_deal_message_the_host_wrote_for_a_guest_is_caught():
    table = dealt_table()
    real = table.host.chain.make

    def forge(signer, kind, body, state_hash=None):
        if kind == ml.MESSAGE and body["party"] == 1 and not table.alerts:
            body = dict(body, signed=dict(body["signed"], sig=bytes(64)))
        return real(signer, kind, body, state_hash)
    table.host.chain.make = forge
    table.play_until(lambda: table.alerts)
    assert_named(table, HOST, 0, honest=list(table.replicas))


def test_a_deal_that_gives_a_guests_seat_to_the_host_is_caught():
    table = MentalTrustTable()
    real = table.host.chain.make

    def grab(signer, kind, body, state_hash=None):
        if kind == ml.DEAL:
            parties = [dict(p) for p in body["parties"]]
            moved = parties.pop(1)  # seat 1's player: its cards to the host's party
            parties[0] = dict(parties[0], seats=sorted(parties[0]["seats"] + moved["seats"]))
            body = dict(body, parties=parties)
        return real(signer, kind, body, state_hash)
    table.host.chain.make = grab
    table.start()
    assert_named(table, HOST, 0, honest=list(table.replicas))


# -- the players ------------------------------------------------------------------------------

def test_a_wrong_decryption_share_is_caught_and_its_player_named():
    table = MentalTrustTable()

    def wrong(body):
        if body["type"] != mm.SHARES:
            return body
        batch = dict(body["batches"][0])
        shares = bytearray(batch["shares"])
        shares[:32] = body["batches"][0]["shares"][32:64]  # the first share: another's
        batch["shares"] = bytes(shares)
        return dict(body, batches=[batch] + body["batches"][1:])
    table.cheat(2, wrong)
    table.start()
    table.play_until(lambda: len(table.alerts) >= 2)
    assert_named(table, PLAYER, 2)


def test_a_card_played_from_another_seats_position_is_caught_live():
    table = dealt_table()
    other = table.host.deal.setup.dealt(3)[0]

    def elsewhere(body):
        return dict(body, position=other) if body["type"] == mm.PLAY else body
    table.cheat(1, elsewhere)
    played = lambda: any("play" in a for a in table.host.state.public_view()["actions"]  # noqa: E731
                         if a.get("seat") == 1)
    table.play_until(lambda: table.alerts or played())
    assert not played()  # the host's own party refused it: never logged as played
    assert table.host.deal.cheat is not None and table.host.deal.cheat.party == 1
    assert_named(table, PLAYER, 1)


def test_a_card_other_than_the_one_its_proof_opened_is_refused_live():
    """A player sends the proof of one of its cards with a move playing another: the
    host's own party finds the card is not the one the proof opened, and logs nothing."""
    table = dealt_table()
    table.play_until(lambda: table.host.state.to_act() == (1,)
                     and table.host.state.public_view()["phase"] == "play")
    replica = table.replicas[1]
    legal = [a for a in replica.deal.state.legal_actions(1) if a.kind == "play"]
    held = sorted(replica.deal.hands[1])
    proven, claimed = legal[0].value, next(c for c in held if c != legal[0].value)
    game = table.host.game
    proof = replica.act({"play": game.deck.name(proven)})["mental"]
    lie = dict(table.raw_act(1, {"play": game.deck.name(claimed)}), mental=proof)
    head = table.host.chain.seq
    out = table.host.receive(table.fp(1), lie)
    assert [m["reason"] for _, m in out.sends if m["type"] == "error"] == \
        [f"played {game.deck.name(claimed)}, which is not the card its proof opened"]
    logged = [s.kind for s in table.host.log[head + 1:]]
    assert "action" not in logged  # the proof alone was logged: that card is open now


def test_a_card_duplicated_in_a_shuffle_is_caught_and_its_shuffler_named():
    """Seat 3's client (the last shuffler) gives seats 1 and 2 the same card: each hand on
    its own looks fine; the first time the copy shows (played, or at the reveal), its
    other holder asks for an audit, every party reveals, and every honest replica names
    seat 3 — not the seat that played the card it was dealt."""
    from net.trust.mental import deck as decks
    from net.trust.mental.group import Scalar, base_mul

    table = MentalTrustTable()
    setup = lambda: table.replicas[3].deal.setup  # noqa: E731
    a, b = None, None

    def duplicate(body):
        nonlocal a, b
        if body["type"] != mm.SHUFFLE:
            return body
        a, b = setup().dealt(1)[0], setup().dealt(2)[0]
        joint = table.replicas[3].deal.client.machine.joint
        deck = decks.decode_deck(body["deck"], setup().deck_size, validate=True)
        r = Scalar.from_hash(b"test", b"cheat")
        deck[b] = decks.Ciphertext(deck[a].c1 + base_mul(r), deck[a].c2 + r * joint)
        return dict(body, deck=decks.encode_deck(deck))
    table.cheat(3, duplicate)
    table.start()
    assert not table.alerts and table.replicas[1].deal.hands[1][0] == table.replicas[2].deal.hands[2][0]
    table.play_until(lambda: table.alerts and all(r.halted for s, r in table.replicas.items() if s != 3),
                     limit=400)
    assert_named(table, PLAYER, 3, honest=[1, 2])
