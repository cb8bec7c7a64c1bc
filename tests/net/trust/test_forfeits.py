"""A cheat is no free mulligan (issue 27, item 3): through the host's authority and every
peer's replica (in process), under both deals.

Under the private deal a player's proven cheat — a false claim that a Rook hand must be
dealt again, a false alarm about the deal (an audit nothing explains), a revoke found at
the reveal (``test_mental_cheating``) — used to void the hand and deal it again, the
scores unchanged. Now that player's side forfeits it: the hand ends there, is not dealt
again, and is scored as the rules and the ruling say (``forfeit_kit.forfeit_change``) on
every replica; the next hand is dealt as usual, the cheater dealt in.

Under the seeded deal the same attempts are refused: the host deals and checks every
hand itself, so a revoke is refused as it is played and there is no redeal to claim nor
deal to audit; nothing is logged, the hand is neither voided nor dealt again, and it is
played to its end and scored as usual.
"""

from __future__ import annotations

import pytest

from net.constants import PROTOCOL_VERSION
from net.trust.deals.mental.group import POINT_BYTES
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.signing import seal
from tests.net.trust.forfeit_kit import (assert_forfeited, assert_the_next_hand_is_dealt_as_usual,
                                         forfeited)
from tests.net.trust.mental_table import accept_every_shuffle
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import Table, forge_entries

ROOK = ("rook", None, None)
CHEATER = 2  # a guest, team A's (seats 0 and 2: the host's partner)


def dealt(deal: str, variant=ROOK):
    table = MentalTrustTable(variant) if deal == "private" else Table(variant)
    table.start()
    assert table.host.state is not None and not table.host.state.is_over
    return table


def send_deal_messages(table, seat: int, envelopes) -> list:
    """``seat``'s client sends deal messages (signed with its key) to the host; what each
    got back, as the host's ``Out``."""
    outs = []
    for envelope in envelopes:
        out = table.host.receive(table.fp(seat), {"type": "mental", "signed": envelope})
        outs.append(out)
        table.deliver(out)
    return outs


def refusals(out) -> list[str]:
    return [m["reason"] for _, m in out.sends if m["type"] == "error"]


def deals_of(table) -> list[str]:
    """The kinds of the entries that deal a hand, in log order (a hand dealt again shows)."""
    return [e.kind for e in table.host.log if e.kind in ("commit", "deal", "mental-deal",
                                                          "mental-dealt", "mental-restart")]


def assert_played_out_as_usual(table, deals_before: list[str]) -> None:
    """The hand under way is played to its end and scored by its rules, with no alert:
    not voided, not dealt again, nobody forfeiting."""
    table.play_hand()
    assert not table.alerts and not table.named, (table.alerts, table.named)
    assert deals_of(table) == deals_before
    [end] = [e for e in table.host.log if e.kind == "hand_end"]
    assert "forfeit" not in end.body and "forfeit" not in end.body["result"]
    assert table.host.match.scores == end.body["scores"]


# -- a false claim that the hand must be dealt again (Rook) ------------------------------------------
def test_a_false_redeal_claim_forfeits_the_hand_under_the_private_deal():
    """Seat 2's client shows its hand claiming it holds no point card: every party's check
    of the claim refuses it, and team A forfeits the hand before any contract — team B
    scores 180, team A nothing — instead of the hand being dealt again."""
    table = dealt("private")
    claim = table.replicas[CHEATER].deal.party.client.claim_redeal(CHEATER)
    send_deal_messages(table, CHEATER, claim)
    assert forfeited(table)
    end = assert_forfeited(table, CHEATER, ("redeal-claim",), [0, 0])
    assert end["result"]["score"] == [0, 180] and end["result"]["made"] is None
    assert_the_next_hand_is_dealt_as_usual(table, CHEATER)


def fake_deal_message(table, seat: int, body: dict) -> dict:
    """A private-deal message for the hand under way, signed by ``seat``'s key."""
    return seal(table.ids[seat], MENTAL_DOMAIN, {"hand": table.host.match.hand_number, "attempt": 0,
                                                 **body})


def test_a_redeal_claim_under_the_seeded_deal_is_refused_and_gains_nothing():
    table = dealt("seeded")
    before, state = deals_of(table), table.host.state.state_hash()
    claim = fake_deal_message(table, CHEATER, {"type": "mental-show", "seat": CHEATER,
                                               "positions": list(range(13)), "shares": bytes(POINT_BYTES * 13),
                                               "proof": bytes(64)})
    [out] = send_deal_messages(table, CHEATER, [claim])
    assert not out.entries and refusals(out) == [
        "this hand is dealt by the host's computer, which redeals and checks every hand itself: "
        "it takes no private-deal message"]
    assert table.host.state.state_hash() == state
    assert_played_out_as_usual(table, before)


# -- a false alarm about the deal -------------------------------------------------------------------
def play_into_the_hand(table, tricks: int = 2) -> None:
    """Moves until ``tricks`` tricks are taken (the contract made, a bury behind)."""
    table.play_until(lambda: len(table.host.state.tricks) >= tricks)


@pytest.mark.parametrize("variant", [ROOK, ("somerset", "kitty-keep", None),
                                     ("horseshoes", "horseshoes", "partners")],
                         ids=["rook", "somerset", "horseshoes"])
def test_a_false_audit_forfeits_the_hand_under_the_private_deal(variant):
    """Two tricks in, seat 2's client asks every party to reveal, with nothing to explain:
    every shuffle, share and play checks out, so the audit names its asker
    (``false-alarm``) and seat 2's side forfeits the hand — the contract standing as bid
    — on every replica; the hand is not dealt again."""
    table = dealt("private", variant)
    play_into_the_hand(table)
    scores = list(table.host.match.scores)
    played = len(table.host.state.history)
    alarm = table.replicas[CHEATER].deal.party.client.audit("a card seen twice (it was not)")
    send_deal_messages(table, CHEATER, alarm)
    assert forfeited(table)
    assert_forfeited(table, CHEATER, ("false-alarm",), scores)
    assert len(table.host.match.last_hand.history) == played  # ended where it was proven
    assert_the_next_hand_is_dealt_as_usual(table, CHEATER)


# -- a player's message that does not fit the deal: refused, never logged -------------------------
def misfits(table, seat: int) -> dict:
    """Deal messages from ``seat``'s client, well formed and signed, that do not fit the
    deal: a hand shown with other positions than its seat's, shares for the sender
    itself or for a party that does not exist."""
    setup = table.replicas[seat].deal.setup
    hand, attempt = setup.context.hand, setup.context.attempt
    dealt = list(setup.dealt(seat))

    def signed(body):
        return seal(table.ids[seat], MENTAL_DOMAIN, {"hand": hand, "attempt": attempt, **body})
    show = {"type": "mental-show", "seat": seat, "shares": bytes(POINT_BYTES * 3), "proof": bytes(64)}
    return {
        "a hand shown too soon or with the wrong cards": signed(dict(show, positions=dealt[:3])),
        "shares for itself": signed({"type": "mental-shares", "batches": [
            {"to": 2, "positions": dealt[:1], "shares": bytes(POINT_BYTES), "proof": bytes(64)}]}),
        "shares for no party": signed({"type": "mental-shares", "batches": [
            {"to": 9, "positions": dealt[:1], "shares": bytes(POINT_BYTES), "proof": bytes(64)}]}),
    }


@pytest.mark.parametrize("when", ["the deck not final", "the cards dealt"])
@pytest.mark.parametrize("misfit", ["a hand shown too soon or with the wrong cards", "shares for itself",
                                    "shares for no party"])
def test_a_deal_message_that_does_not_fit_is_refused_and_the_table_goes_on(when, misfit):
    """A player's client sends a signed deal message the deal cannot take. The host used
    to log it; every deal client then refused it as malformed — naming nobody —, so
    every guest named the host, which had logged it, and the host's deal stopped, the
    table waiting for ever. Now the host refuses it, saying why, before it is logged:
    nothing is logged, nobody is named, and the hand is dealt and played out as usual."""
    table = MentalTrustTable()
    cheater = table.replicas[CHEATER]
    receive, sent = cheater.receive, []

    def sending_it_then(msg):  # right after its key share, or once the cards are dealt
        out = receive(msg)
        types = {s["signed"]["body"]["type"] for s in out.sends if s.get("type") == "mental"}
        if not sent and when == "the deck not final" and "mental-key" in types:
            sent.append(misfits(table, CHEATER)[misfit])
            out.sends.append({"type": "mental", "signed": sent[0]})
        return out
    cheater.receive = sending_it_then
    table.start()
    if when == "the cards dealt":
        assert table.host.state is not None and table.host.state.phase != "deal"
        sent.append(misfits(table, CHEATER)[misfit])
        send_deal_messages(table, CHEATER, sent)  # (the host's refusal: the table's errors)
    refused, table.errors = table.errors, []
    assert len(sent) == len(refused) == 1 and "the deal message was not logged" in refused[0], refused
    assert not [e for e in table.host.log if e.kind == "mental" and e.body.get("signed") == sent[0]]
    table.play_hand()
    assert not table.alerts and not table.named and not table.errors, (table.alerts, table.named, table.errors)
    [end] = [e for e in table.host.log if e.kind == "hand_end"]
    assert "forfeit" not in end.body and table.host.match.scores == end.body["scores"]


def test_a_bad_share_logged_once_the_cards_are_dealt_forfeits_and_nobody_names_the_host():
    """Once the cards are dealt (the host has checked every batch so far), seat 2's
    client publishes shares of the widow for seat 1 that do not check out. Every guest
    proves it as it is logged; the host used to check it only at the first card it
    served, and logged the next move first — and every guest named the honest host
    ('a move logged on a deal proven broken'). Now the host checks each batch as it is
    logged once the cards are dealt: seat 2's team forfeits the hand, nobody names the
    host, and the next hand is dealt as usual."""
    table = dealt("private")
    assert table.host.deal.checked == table.host.deal.party.attempt  # (checked ahead already)
    spare = list(table.replicas[CHEATER].deal.setup.spare())
    bad = fake_deal_message(table, CHEATER, {"type": "mental-shares", "batches": [
        {"to": 1, "positions": spare[:1], "shares": bytes(POINT_BYTES), "proof": bytes(64)}]})
    send_deal_messages(table, CHEATER, [bad])
    table.play_until(lambda: forfeited(table) or bool(table.alerts), limit=40)
    assert not table.alerts, table.alerts
    assert_forfeited(table, CHEATER, ("share", "malformed"), [0, 0])
    assert_the_next_hand_is_dealt_as_usual(table, CHEATER)


def test_an_audit_under_the_seeded_deal_is_refused_and_gains_nothing():
    table = dealt("seeded")
    play_into_the_hand(table)
    before, state = deals_of(table), table.host.state.state_hash()
    alarm = fake_deal_message(table, CHEATER, {"type": "mental-reveal", "reason": "audit",
                                               "secret": bytes(64), "openings": []})
    [out] = send_deal_messages(table, CHEATER, [alarm])
    assert not out.entries and len(refusals(out)) == 1
    assert table.host.state.state_hash() == state
    assert_played_out_as_usual(table, before)


# -- a revoke (the private deal's: test_mental_cheating) -----------------------------------------------
def test_a_revoke_under_the_seeded_deal_is_refused_as_it_is_played_and_gains_nothing():
    """The host knows every hand: the revoke is refused with the rule it breaks, nothing is
    logged, and the player, still to play, plays a card the rules allow."""
    table = dealt("seeded")
    before = deals_of(table)

    def chance():
        state = table.host.state
        seat = state.to_act()[0] if state.to_act() else None
        if seat not in table.replicas or state.phase != "play" or not state.trick:
            return None
        legal = state.legal_play_mask(seat)
        held = state.hands[seat]
        return next(((seat, c) for c in range(state.deck.size) if held >> c & 1 and not legal >> c & 1),
                    None)
    table.play_until(lambda: chance() is not None)
    seat, card = chance()
    state, length = table.host.state.state_hash(), len(table.host.log)
    out = table.host.receive(table.fp(seat), table.raw_act(seat, {"play": table.host.game.deck.name(card)}))
    [reason] = refusals(out)
    assert reason == table.host.state.play_reason(seat, card)
    assert not out.entries and len(table.host.log) == length and table.host.state.state_hash() == state
    assert table.host.state.to_act() == (seat,)
    assert_played_out_as_usual(table, before)


# -- a host restarted after a forfeit -------------------------------------------------------------
@pytest.mark.parametrize("cheat", ["redeal-claim", "false-alarm"])
def test_a_host_restored_after_a_forfeit_replays_it_to_the_same_scores_and_deals_on(cheat):
    """The stored ``hand_end`` of a forfeited hand is ended again as the forfeit ends it
    (the verdict, where the hand stood, the engine's scores) and must make the same body;
    the restored host banks it and deals the next hand as usual."""
    from tests.net.trust.test_mental_restore import restart
    table = dealt("private")
    client = table.replicas[CHEATER].deal.party.client
    if cheat == "false-alarm":
        play_into_the_hand(table, 1)
        send_deal_messages(table, CHEATER, client.audit("nothing to explain"))
    else:
        send_deal_messages(table, CHEATER, client.claim_redeal(CHEATER))
    end = assert_forfeited(table, CHEATER, (cheat,), [0, 0])
    old = restart(table)
    assert table.host.match.scores == old.match.scores == end["scores"]
    assert table.host.match.last_hand.result() == old.match.last_hand.result()
    assert not table.alerts and table.heads_agree()
    assert_the_next_hand_is_dealt_as_usual(table, CHEATER)


# -- a dishonest host: every honest replica checks the forfeit itself -------------------------------
def forfeit_by_a_redeal_claim(table) -> None:
    send_deal_messages(table, CHEATER, table.replicas[CHEATER].deal.party.client.claim_redeal(CHEATER))


def assert_host_named(table, rule: str, honest=(1, 3)) -> None:
    for seat in honest:
        alert = table.replicas[seat].halted
        assert alert is not None and (alert.party, alert.seat, alert.rule) == ("host", 0, rule), alert


@pytest.mark.parametrize("lie", ["scores", "seat"])
def test_a_host_whose_forfeit_is_not_the_one_proven_is_named_by_every_honest_replica(lie):
    """A host that forfeits the hand with other scores than the engine's forfeit, or names
    a seat other than the one every party proves cheated, is named by every honest
    replica."""
    table = dealt("private")

    def rewrite(kind, body, state_hash):
        if kind == "hand_end" and body.get("forfeit"):
            body = dict(body, result=dict(body["result"]))
            if lie == "scores":
                body["result"]["score"] = [body["result"]["score"][1], body["result"]["score"][0]]
                body["scores"] = list(body["result"]["score"])
            else:
                body["forfeit"] = dict(body["forfeit"], seat=3, party=3)
                body["result"]["forfeit"] = dict(body["result"]["forfeit"], seat=3, side=1)
        return body, state_hash
    forge_entries(table.host.chain, rewrite)
    forfeit_by_a_redeal_claim(table)
    assert_host_named(table, "score" if lie == "scores" else "deal")


def test_a_host_that_deals_a_cheats_hand_again_instead_is_named_by_every_honest_replica(monkeypatch):
    """The mulligan back: a host (its partner the cheater, say) that voids the hand and
    deals it again for the cheat, as before protocol 8, instead of forfeiting it."""
    from net.trust.deals.mental.host import MentalHost
    from net.trust.entries import MentalRestartBody

    def void_instead(self, log, verdict):
        record = self.sequencer.restart("cheat", self.table.now(), [verdict.party])
        log(MentalRestartBody(record, list(self.setup.parties[verdict.party].seats), verdict.body()))
    monkeypatch.setattr(MentalHost, "_forfeit", void_instead)
    table = dealt("private")
    forfeit_by_a_redeal_claim(table)
    assert_host_named(table, "deal")
    assert "forfeits the hand" in table.replicas[1].halted.detail


@pytest.mark.parametrize("opened", ["today", "before protocol 12"])
def test_a_cheat_restart_a_guest_who_was_away_catches_up_reads_only_in_a_log_that_may_be_that_old(
        monkeypatch, opened):
    """The same restart for a cheat, sent to seat 3 only in the sync that catches it up
    after it was away — where a log written before protocol 8 may hold one, and still
    reads. A table opened today says its protocol (the table entry's ``version``): seat
    3 names the host as it would live. A table opened before protocol 12 does not say it,
    and may be that old: seat 3 reads the restart as it was read then, and names the
    cheater itself (it proves the claim false)."""
    from net.trust.deals.mental.host import MentalHost
    from net.trust.entries import MentalRestartBody
    from net.trust.host import authority

    def void_instead(self, log, verdict):
        record = self.sequencer.restart("cheat", self.table.now(), [verdict.party])
        log(MentalRestartBody(record, list(self.setup.parties[verdict.party].seats), verdict.body()))
    monkeypatch.setattr(MentalHost, "_forfeit", void_instead)
    if opened != "today":  # the host opens its table as before protocol 12: no version said
        monkeypatch.setattr(authority, "PROTOCOL_VERSION", None)
    table = dealt("private")
    assert table.host.log[0].body.get("version") == (None if opened != "today" else PROTOCOL_VERSION)
    away = table.replicas[3]
    table.tamper = lambda fp, msg: None if fp == table.fp(3) and msg.get("type") == "entry" else msg
    forfeit_by_a_redeal_claim(table)
    assert [e.body["record"]["reason"] for e in table.host.log if e.kind == "mental-restart"] == ["cheat"]
    assert_host_named(table, "deal", honest=(1,))  # (live: named as ever)
    table.tamper = None
    table.deliver(table.host.rejoin(table.fp(3), 3, away.seq))
    assert away.seq == table.host.chain.seq or away.halted is not None
    if opened == "today":
        assert_host_named(table, "deal", honest=(3,))
        assert "forfeits the hand" in away.halted.detail
    else:
        assert away.halted is None, away.halted
        assert [(a.party, a.seat, a.rule) for s, a in table.named if s == 3] == [("player", CHEATER, "redeal-claim")]


# -- where a forfeit ends the hand: the log's point, whatever each client held back ----------------
def copying_shuffle(table, shuffler: int, holders: tuple[int, int]) -> None:
    """``shuffler``'s client copies the ciphertext dealt first to ``holders[0]`` into the
    first position dealt to ``holders[1]``: both are dealt the same card."""
    from net.trust.deals.mental import deck as decks
    from net.trust.deals.mental import messages as mm
    from net.trust.deals.mental.group import Scalar, base_mul
    setup = lambda: table.replicas[shuffler].deal.setup  # noqa: E731

    def copy(body):
        if body["type"] != mm.SHUFFLE:
            return body
        a, b = setup().dealt(holders[0])[0], setup().dealt(holders[1])[0]
        joint = table.replicas[shuffler].deal.party.client.machine.joint
        deck = decks.decode_deck(body["deck"], setup().deck_size, validate=True)
        r = Scalar.from_hash(b"test", b"cheat")
        deck[b] = decks.Ciphertext(deck[a].c1 + base_mul(r), deck[a].c2 + r * joint)
        return dict(body, deck=decks.encode_deck(deck))
    table.cheat(shuffler, copy)


def move_json(game, action) -> dict:
    """A move as a client sends it (no seat: the signer's)."""
    data = game.action_to_json(action)
    data.pop("seat")
    return data


def holding_back(replica) -> list:
    """``replica``'s messages to the host are kept back (its link slow) until the test
    sends them: the list they gather in."""
    kept: list = []
    receive = replica.receive

    def slow(msg):
        out = receive(msg)
        kept.extend(out.sends)
        out.sends = []
        return out
    replica.receive = slow
    return kept


def test_a_forfeit_ends_the_hand_at_the_logs_point_whatever_a_slow_client_held_back(monkeypatch):
    """Seat 3's shuffle deals seats 1 and 2 the same card (its proof taken unchecked, as if
    it had passed wrongly: since protocol 14 a copying shuffle is refused before any card is
    dealt, and an audit is what is left for such a flaw). One of them plays it after the
    other has played to the trick; the other holder sees the card twice, holds back the
    move (it is no proof against its player) and asks for an audit — but its link is slow,
    and the host logs the rest of the trick first. The forfeit the audit proves ends the
    hand where the log has reached: every honest client scores it there, the copy's other
    holder too, and nobody names the host (it used to score it on its own replay, the
    moves it held back left out, and name the host's 'score'). Deterministic: the slow
    link is the test's."""
    accept_every_shuffle(monkeypatch)
    table = MentalTrustTable(("horseshoes", "horseshoes", "four"))
    copying_shuffle(table, 3, (1, 2))
    table.start()
    copy = table.replicas[1].deal.party.hands[1][0]
    assert table.replicas[2].deal.party.hands[2][0] == copy and not table.alerts
    scores = list(table.host.match.scores)
    game = table.host.game

    def copy_due() -> tuple[int, int] | None:
        """(player, other holder) once a holder of the copy is to act with it legal and the
        other has played to the trick already (it holds the copy, and sees it played)."""
        state = table.host.state
        if state.phase != "play" or not state.trick:
            return None
        player = state.to_act()[0]
        other = {1: 2, 2: 1}.get(player)
        own = table.replicas[player].deal.party.state if other else None
        if other is None or other not in [seat for seat, _ in state.trick] \
                or copy not in {a.value for a in own.legal_actions(player)}:
            return None
        return player, other

    for _ in range(200):
        if copy_due():
            break
        seat = table.host.state.to_act()[0]
        choice = table.choose(seat)
        if seat in (1, 2) and choice.get("play") == game.deck.name(copy):  # keep the copy back
            own = table.replicas[seat].deal.party.state
            others = [a for a in own.legal_actions(seat) if a.value != copy]
            choice = move_json(game, others[0]) if others else choice
        table.step(seat, choice)
    else:
        pytest.fail("the copy never came to be played with its other holder in the trick")
    player, other = copy_due()
    tricks = len(table.host.state.tricks)
    kept = holding_back(table.replicas[other])
    legal = table.replicas[player].deal.party.state.legal_actions(player)
    table.step(player, move_json(game, next(a for a in legal if a.value == copy)))
    while len(table.host.state.tricks) == tricks:  # the trick is finished before the audit arrives
        table.step()
    assert kept and not forfeited(table)
    table.honest(other)
    for message in kept:  # the slow link delivers: the audit
        table.deliver(table.host.receive(table.fp(other), message))
    assert forfeited(table), [e.kind for e in table.host.log][-6:]
    assert not table.alerts, table.alerts
    end = assert_forfeited(table, 3, ("shuffle",), scores)
    assert len(table.host.match.last_hand.tricks) == tricks + 1  # the trick the slow client held back
    for seat in (1, 2):  # each checked the same forfeited hand, the slow one too
        [checked] = table.verified[seat]
        assert checked["result"] == end["result"], (seat, checked, end)
    table.honest(3)  # (its shuffles honest from now on)
    assert_the_next_hand_is_dealt_as_usual(table, 3)
