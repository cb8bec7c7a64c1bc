"""The cheats of the trust protocol under the mental-poker deal, through the host's
authority and every peer's replica (in process): each caught and its author named by
every honest replica. A host that sends a wrong private hand has no equivalent here —
it holds no guest's hand — so what replaces it is a host that sends a private view at
all, forges a guest's deal message, or deals a guest's seat to itself; and the players'
own cheats: a wrong decryption share, a card played from another seat's position, a card
other than the one its proof opened (a card copied in a shuffle:
test_mental_shuffle_proofs.py). A host's cheat stops every honest replica; a player's is
named by every honest client and the table goes on: that player's side forfeits the
hand, which is not dealt again (the ruling in
docs/design.md, "Rulings"; on the wire, docs/protocol.md, "A player's proven cheat")."""

import pytest

from engine import IllegalAction
from engine.partial import PartialHand
from net.trust.deals.mental import hand as hand_module
from net.trust.deals.mental import log as ml
from net.trust.deals.mental.group import POINT_BYTES
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.entries import MentalBody
from net.trust.signing import read_action, seal
from net.trust.alerts import HOST, PLAYER
from net.trust.deals.mental import messages as mm
from tests.net.trust.forfeit_kit import assert_forfeited, assert_the_next_hand_is_dealt_as_usual, forfeited
from tests.net.trust.mental_trust_table import MentalTrustTable, wrong_share_to
from tests.net.trust_table import forge_entries


def caught(table, seats):
    """Every alert, by seat, of the given replicas (one each, or none)."""
    return {seat: table.replicas[seat].halted for seat in seats}


def assert_named(table, party, seat, rule="deal", honest=None):
    """Every honest replica halted on an alert naming ``seat`` (``rule``: one rule, or
    a tuple of the rules that may come first): the host's cheats."""
    honest = [s for s in table.replicas if s != seat] if honest is None else honest
    rules = rule if isinstance(rule, tuple) else (rule,)
    alerts = caught(table, honest)
    for replica_seat, alert in alerts.items():
        assert alert is not None, f"seat {replica_seat} caught nothing"
        assert (alert.party, alert.seat) == (party, seat) and alert.rule in rules, (replica_seat, alert)


def assert_named_and_the_table_goes_on(table, seat, rules=("deal",), scores=None):
    """Every honest replica named ``seat``'s player in an alert that does not stop it, and
    the hand was forfeited for that player's side, not dealt again, scored as the rules
    say (``scores``: the scores before it, by default none); then the next hand is dealt
    as usual, the cheater dealt in (and playing honestly now), and played to its end,
    verified by every honest replica, with no alert."""
    assert_forfeited(table, seat, rules, scores or [0] * table.host.game.num_sides)
    table.honest(seat)
    assert_the_next_hand_is_dealt_as_usual(table, seat)


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
    # a host that sends each seat its private view even under the mental deal
    table.host.private_view = lambda seat: \
        table.host.state.private_view(seat) if table.host.state else None
    table.start()
    table.play_until(lambda: table.alerts)
    assert_named(table, HOST, 0, "privacy", honest=list(table.replicas))


@pytest.mark.parametrize("kind", [ml.DEALT, ml.MESSAGE, "action"])
def test_a_private_view_is_caught_whatever_entry_carries_it(kind):
    """Sent only with entries of one kind once the cards are dealt: the same ``privacy``
    alert with the deal's records (the widow's shares, here) and with the moves."""
    table = MentalTrustTable()
    host, carrying = table.host, []
    publish = host._publish

    def publish_carrying(out, signed, events):
        carrying[:] = [signed.kind]
        return publish(out, signed, events)
    host._publish = publish_carrying
    host.private_view = lambda seat: \
        host.state.private_view(seat) if host.state and carrying == [kind] else None
    table.start()
    table.play_until(lambda: table.alerts)
    assert_named(table, HOST, 0, "privacy", honest=list(table.replicas))


def test_a_deal_message_the_host_wrote_for_a_guest_is_caught():
    table = dealt_table()

    def forge(kind, body, state_hash):
        if kind == ml.MESSAGE and body["party"] == 1 and not table.alerts:
            body = dict(body, signed=dict(body["signed"], sig=bytes(64)))
        return body, state_hash
    forge_entries(table.host.chain, forge)
    table.play_until(lambda: table.alerts)
    assert_named(table, HOST, 0, honest=list(table.replicas))


def test_a_deal_that_gives_a_guests_seat_to_the_host_is_caught():
    table = MentalTrustTable()

    def grab(kind, body, state_hash):
        if kind == ml.DEAL:
            parties = [dict(p) for p in body["parties"]]
            moved = parties.pop(1)  # seat 1's player: its cards to the host's party
            parties[0] = dict(parties[0], seats=sorted(parties[0]["seats"] + moved["seats"]))
            body = dict(body, parties=parties)
        return body, state_hash
    forge_entries(table.host.chain, grab)
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
        shares[:POINT_BYTES] = body["batches"][0]["shares"][POINT_BYTES:2 * POINT_BYTES]  # the first share: another's
        batch["shares"] = bytes(shares)
        return dict(body, batches=[batch] + body["batches"][1:])
    table.cheat(2, wrong)
    table.start()
    table.play_until(lambda: forfeited(table))
    assert_named_and_the_table_goes_on(table, 2, ("share",))


def test_a_card_played_from_another_seats_position_is_caught_live():
    table = dealt_table()
    other = table.host.deal.setup.dealt(3)[0]

    def elsewhere(body):
        return dict(body, position=other) if body["type"] == mm.PLAY else body
    table.cheat(1, elsewhere)
    hand = lambda: table.host.state or table.host.match.last_hand  # noqa: E731  (forfeited: banked)
    played = lambda: any("play" in a for a in hand().public_view()["actions"]  # noqa: E731
                         if a.get("seat") == 1)
    table.play_until(lambda: forfeited(table) or played())
    assert not played()  # the host's own party refused it: never logged as played
    assert_named_and_the_table_goes_on(table, 1, ("not-held",))


def test_a_card_other_than_the_one_its_proof_opened_is_refused_live():
    """A player sends the proof of one of its cards with a move playing another: the
    host's own party finds the card is not the one the proof opened, and logs nothing."""
    table = dealt_table()
    table.play_until(lambda: table.host.state.to_act() == (1,)
                     and table.host.state.public_view()["phase"] == "play")
    replica = table.replicas[1]
    legal = [a for a in replica.deal.party.state.legal_actions(1) if a.kind == "play"]
    held = sorted(replica.deal.party.hands[1])
    proven, claimed = legal[0].value, next(c for c in held if c != legal[0].value)
    game = table.host.game
    proof = replica.act({"play": game.deck.name(proven)})["signed"]["body"]["mental"]
    lie = table.raw_act(1, {"play": game.deck.name(claimed)}, mental=proof)
    head = table.host.chain.seq
    out = table.host.receive(table.fp(1), lie)
    assert [m["reason"] for _, m in out.sends if m["type"] == "error"] == \
        [f"played {game.deck.name(claimed)}, which is not the card its proof opened"]
    logged = [s.kind for s in table.host.log[head + 1:]]
    assert "action" not in logged
    assert logged == []  # the proof rides in the move: refused with it, no card opened


# -- a played card: one signed move, each proof checked once by each party but its maker ---

def test_each_played_cards_proof_is_checked_once_by_every_party_but_its_maker(monkeypatch):
    """The host checks a peer's proof before it logs the move and does not check it again
    when the move is applied; the player's own client, and the host for its own seat,
    check nothing they made: a face-down card costs one check at each other party."""
    from net.trust.deals.mental import machine as mental_machine
    checks = []
    real = mental_machine.verify_dleq
    monkeypatch.setattr(mental_machine, "verify_dleq",  # a single share's: a play's (not a batch's)
                        lambda *a: (len(a[1]) == 1 and checks.append(1)) or real(*a))
    table = dealt_table()
    parties = len(table.host.deal.setup.parties)
    per_card, face_down = [], 0
    while table.host.state is not None and not table.host.state.is_over:
        seat = table.host.state.to_act()[0]
        playing = table.host.state.public_view()["phase"] == "play"
        before = len(checks)
        played = dict(table.host.deal.party.client.machine.played)
        table.step(seat)
        if playing and table.host.state is not None and not table.host.state.is_over:
            [(position, _)] = set(table.host.deal.party.client.machine.played.items()) - set(played.items())
            face_down += position not in table.host.deal.party.client.machine.public
            per_card.append(len(checks) - before)
    assert not table.alerts and face_down > 20
    assert sorted(set(per_card)) in ([parties - 1], [0, parties - 1])
    assert per_card.count(parties - 1) == face_down


def test_the_host_checks_the_others_share_batches_once_the_cards_are_out_not_inside_the_deal():
    """Not inside the deal (its critical path) nor at the first card each batch serves: in
    idle time, once the change that dealt the cards has gone out (the session's
    ``DealWatch`` runs ``idle``), while the table bids; then no card waits for a batch."""
    table = MentalTrustTable()
    at_idle, idle = [], table.host.idle

    def first_idle_after_the_deal():
        deal = table.host.deal
        if getattr(deal, "dealt", False) and not at_idle:
            machine = deal.party.client.machine
            at_idle.append(len(machine._unchecked))
            check = machine._check_batch
            machine._check_batch = lambda batch: checked.append(batch) or check(batch)
        return idle()
    checked = []
    table.host.idle = first_idle_after_the_deal
    table.start()
    machine = table.host.deal.party.client.machine
    assert at_idle and at_idle[0] > 0  # the batches for the guests, left by the deal
    assert len(checked) == at_idle[0] and not machine._unchecked  # checked at once, in idle time
    table.play_until(lambda: table.host.state.phase == "play")
    before = len(checked)
    for _ in range(table.host.game.num_players):  # the first trick, every seat's first card
        table.step(table.host.state.to_act()[0])
    assert not table.alerts and len(checked) == before


def test_a_played_cards_proof_is_inside_its_move_and_logged_once():
    table = dealt_table()
    table.play_hand()
    plays = [s for s in table.host.log if s.kind == "action" and "play" in s.body["signed"]["body"]["action"]]
    assert plays and all(s.body["signed"]["body"]["mental"]["type"] == mm.PLAY for s in plays)
    dealt = next(i for i, s in enumerate(table.host.log) if s.kind == ml.DEALT)
    logged = [s.body.get("signed", {}).get("body", {}).get("type") for s in table.host.log[dealt:]
              if s.kind == ml.MESSAGE]
    assert mm.PLAY not in logged  # no separate entry per card


def test_a_players_old_move_logged_again_as_a_broken_proof_names_the_host():
    """A host that logs a player's earlier signed move as a proof that broke a rule (its
    position is played already) to have that player named: the move's binding gives it
    away, and every replica names the host."""
    table = dealt_table()
    table.play_until(lambda: any(s.kind == "action" and s.body["signed"]["body"]["action"].get("seat") == 1
                                 and "play" in s.body["signed"]["body"]["action"] for s in table.host.log))
    old = next(s for s in table.host.log if s.kind == "action"
               and s.body["signed"]["body"]["action"].get("seat") == 1
               and "play" in s.body["signed"]["body"]["action"])
    party = table.host.deal.setup.owner(1)
    table.deliver(table.host._run(lambda out: table.host._append(
        out, MentalBody(party, played=old.content.signed))))
    assert_named(table, HOST, 0, "action-binding", honest=list(table.replicas))


def test_a_restored_host_replays_the_moves_with_their_proofs():
    from net.trust.host.authority import HostAuthority
    table = dealt_table()
    table.play_until(lambda: len([a for a in table.host.state.public_view()["actions"] if "play" in a]) >= 9)
    again = HostAuthority.restore(table.host_id, table.persisted, rng=table._bytes)
    assert again.state.state_hash() == table.host.state.state_hash()
    assert again.deal.party.played == table.host.deal.party.played


def test_no_party_checks_a_share_batch_it_made(monkeypatch):
    from net.trust.deals.mental.machine import MentalDeal
    checked = []
    real = MentalDeal._check_batch
    monkeypatch.setattr(MentalDeal, "_check_batch",
                        lambda self, batch: checked.append((self.me, batch.prover)) or real(self, batch))
    table = dealt_table()
    table.play_hand()
    assert not table.alerts and checked
    assert [(me, prover) for me, prover in checked if me == prover] == []


# -- what the host cannot see live: a revoke ---------------------------------------------------

class _Unchecking(PartialHand):
    """A client that does not check its own plays against the rules (a cheating one)."""

    def _apply(self, state, excluded, action, hidden, plays, played):
        try:
            return super()._apply(state, excluded, action, hidden, plays, played)
        except IllegalAction:
            return state.apply_unseen(action)


def revoke_chance(table, seat):
    """A card ``seat`` holds that the rules forbid it to play now (it holds the led suit)."""
    state = table.replicas[seat].deal.party.state
    if state.phase != "play" or seat not in state.to_act() or not state.trick:
        return None
    legal = {a.value for a in state.legal_actions(seat)}
    held = [c for c in range(table.host.game.deck.size) if state.hands[seat] >> c & 1]
    return next((c for c in held if c not in legal), None)


@pytest.mark.parametrize("variant", [("rook", None, None), ("somerset", None, None),
                                     ("horseshoes", "horseshoes", "four")], ids=["rook", "somerset", "horseshoes"])
def test_a_revoke_nobody_could_see_live_is_named_at_the_hands_end_and_the_table_goes_on(variant, monkeypatch):
    """Under the private deal the host cannot see a revoke as it is played: it is found once
    every party reveals its secrets. Every honest client names the player, whose side
    forfeits the hand — ended at the revoke, not dealt again, scored as the rules say on
    every replica — and the table goes on to the next hand; it never freezes."""
    monkeypatch.setattr(hand_module, "PartialHand", _Unchecking)
    table = MentalTrustTable(variant)
    table.start()
    scores, cheater, card = list(table.host.match.scores), None, None
    for _ in range(400):
        state = table.host.state
        if state is None or state.is_over or forfeited(table):
            break
        seat = state.to_act()[0]
        if cheater is None and seat in table.replicas:
            card = revoke_chance(table, seat)
            if card is not None:
                cheater = seat
                name = table.host.game.deck.name(card)
                proof = table.replicas[seat].deal.party.own_play(read_action(table.host.game, {"play": name}, seat))
                out = table.host.receive(table.fp(seat), table.raw_act(seat, {"play": name}, mental=proof))
                assert [e.kind for e in out.entries][:1] == ["action"]  # the host cannot tell
                table.deliver(out)
                continue
        table.step(seat)
    assert cheater is not None, "no revoke came up with this seed"
    assert_named_and_the_table_goes_on(table, cheater, ("illegal-action",), scores)
    forfeit = table.host.match.results[0]
    assert len(forfeit.tricks) < len(table.host.match.last_hand.dealt[0])  # (ended at the revoke)


def test_a_second_key_share_from_a_player_is_refused_and_the_table_goes_on():
    """The host refuses what it can check before it logs it: a party's second, different
    key share for the same deal would otherwise be logged, and every client name that
    player and stop."""
    table = MentalTrustTable()
    first = []

    def second_key(body):
        if body["type"] == mm.KEY:
            first.append(body)
        return body
    table.cheat(2, second_key)
    table.start()
    assert first
    replica = table.replicas[2]
    other = dict(first[0], key=bytes(reversed(first[0]["key"])))
    out = table.host.receive(table.fp(2), {"type": "mental", "signed": seal(replica.identity, MENTAL_DOMAIN, other)})
    assert [m["reason"] for _, m in out.sends if m["type"] == "error"] == \
        ["the deal message was not logged: you have already published your key share for this deal"]
    assert not out.entries
    table.play_hand()
    assert not table.alerts and not table.named and all(len(v) == 1 for v in table.verified.values())


def test_no_view_sent_shows_a_made_up_widow():
    """Until every party's shares for it are logged, nobody knows the widow turned up: the
    host's replay holds made-up cards there (the lowest it does not hold, which would tell
    a guest where the host's low cards are not). A public view is exact or absent: every
    widow any message to a guest shows is the real one."""
    table = MentalTrustTable(("rook", None, None), seed=3)
    shown = []

    def watch(fp, msg):
        if msg["type"] == "entry" and (msg.get("public") or {}).get("widow"):
            shown.append(tuple(msg["public"]["widow"]))
        return msg
    table.tamper = watch
    table.start()
    table.play_hand()
    assert not table.alerts and shown  # the widow was turned up, and shown
    real = set(table.verified[1][0]["record"]["spare"])
    assert all(set(widow) <= real for widow in shown), (shown, real)


def test_a_secret_move_without_its_commitment_is_refused_and_never_logged():
    """A bury or discard leaves its player's hand face down: its cards are sealed in the
    deal (a ``mental-commit`` carried with the move) and opened at the hand's end. One
    sent without it would bind nothing before the reveal: the host refuses it, and a
    host that logged it anyway is named by every replica."""
    table = MentalTrustTable(("rook", None, None), seed=2)  # seat 3, a guest, takes the bid
    table.start()
    table.play_until(lambda: table.host.state.phase == "bury")
    seat = table.host.state.to_act()[0]
    assert seat in table.replicas, "the bidder must be a guest with this seed"
    message = dict(table.replicas[seat].act(table.choose(seat)), mental=[])  # its commitment left out
    out = table.host.receive(table.fp(seat), message)
    assert [m["reason"] for _, m in out.sends if m["type"] == "error"] == \
        ["a bury comes with its commitment (its cards, sealed in the deal)"]
    assert not out.entries
    # a host that logs it all the same
    table.host.deal.party.sealed = lambda action: True
    table.deliver(table.host.receive(table.fp(seat), message))
    assert_named(table, HOST, 0, "kind", honest=list(table.replicas))


# -- a share that does not check out, and whose it is ------------------------------------------

def test_a_wrong_share_from_the_hosts_party_is_the_hosts_cheat_named_by_every_peer(monkeypatch):
    """The host's own client makes a wrong share for seat 2's hand: seat 2's client, whose
    hand cannot open, and the others, checking every batch, each name the host for the
    share's rule (not ``kind``: none of them breaks reading its own unopened hand), and
    stop — no restart can drop the host's party, and none waits for one."""
    wrong_share_to(monkeypatch, 0, 2)
    table = dealt_table()
    table.play_until(lambda: all(r.halted for r in table.replicas.values()))
    assert_named(table, HOST, 0, "share", honest=list(table.replicas))
    assert all("the host's client broke the deal's rule 'share'" in r.halted.detail
               for r in table.replicas.values())
    assert not any(r.failed for r in table.replicas.values())


def test_a_wrong_share_from_a_player_to_another_is_named_and_the_table_goes_on():
    """Seat 3's client publishes a wrong share for seat 2's hand: seat 2 cannot open its
    hand, and takes the hand's dealt entry unread (it does not read the hand it holds no
    cards of: that broke, and named the host's "kind"); every honest client names seat 3's
    player, whose side forfeits the hand, and the next is dealt as usual."""
    table = MentalTrustTable()

    def wrong(body):
        if body["type"] != mm.SHARES:
            return body
        batches = [dict(b) for b in body["batches"]]
        for batch in batches:
            if batch["to"] == 2:  # seat 2's client (party 2: the host's is 0, then seat by seat)
                batch["shares"] = batch["shares"][POINT_BYTES:2 * POINT_BYTES] + batch["shares"][POINT_BYTES:]
        return dict(body, batches=batches)
    table.cheat(3, wrong)
    table.start()
    table.play_until(lambda: forfeited(table))
    assert not any(r.failed for r in table.replicas.values())
    assert_named_and_the_table_goes_on(table, 3, ("share",))
