"""Every shuffle proven as it is made, through the host's authority and every peer's
replica (in process): a shuffle that copies a ciphertext is refused before any party
publishes a decryption share, and its shuffler named by every honest client — a guest's
as a player's proven cheat (its side forfeits the hand, the table goes on), the host's
own client's as the host's; an onlooker (a client that is no party of the deal) and a
client reading the log again check every shuffle too.

These are the private deal's alone: the seeded deal has no shuffle (the host's
authority draws the deal from the seed every player contributed to), so there is no
ciphertext to copy — its cheats are in tests/net/trust/test_cheating.py.
"""

from net.trust.alerts import HOST, PLAYER
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from net.trust.deals.mental.group import Scalar, base_mul
from net.trust.deals.mental.machine import MentalDeal, Send
from net.trust.peer.replica import PeerReplica
from net.wire import messages as m
from net.constants import CONTRIBUTION_DEADLINE
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust.forfeit_kit import HAND_END, forfeited
from tests.net.trust.test_mental_cheating import assert_named, assert_named_and_the_table_goes_on
from tests.net.trust.test_mental_drops import GONE, back, gone, silence, table_with_clock
from tests.net.trust_table import TABLE, forge_entries


def copying(setup, joint, body: dict, into_seat: int, from_seat: int) -> dict:
    """``body`` (a ``mental-shuffle``) with the first position dealt to ``into_seat`` a
    re-encryption of the first dealt to ``from_seat``, its proof as it was."""
    deck = decks.decode_deck(body["deck"], setup.deck_size, validate=True)
    a, b = setup.dealt(from_seat)[0], setup.dealt(into_seat)[0]
    r = Scalar.from_hash(b"test", b"copy")
    deck[b] = decks.Ciphertext(deck[a].c1 + base_mul(r), deck[a].c2 + r * joint)
    return dict(body, deck=decks.encode_deck(deck))


def guest_copies(table, seat: int, victim: int, attempt: int = 0) -> None:
    """Seat ``seat``'s client copies a ciphertext dealt to ``victim`` into its own hand."""
    def bend(body):
        if body["type"] != mm.SHUFFLE or body["attempt"] != attempt:
            return body
        deal = table.replicas[seat].deal
        return copying(deal.setup, deal.party.client.machine.joint, body, seat, victim)
    table.cheat(seat, bend)


def sharing(log) -> set[int]:
    """The parties whose decryption shares ``log`` holds."""
    return {s.body["party"] for s in log if s.kind == ml.MESSAGE and s.body.get("signed")
            and s.body["signed"]["body"]["type"] == mm.SHARES}


def test_a_copied_ciphertext_is_refused_before_any_share_and_its_shuffler_named():
    """Seat 3's client, the last to shuffle, copies a ciphertext dealt to seat 1 into its
    own hand (with the honest proof of its honest shuffle): every other party's check of
    the proofs fails at the final deck, so no honest party publishes a share of it, seat 3
    is named on every screen, and its side forfeits the hand."""
    table = MentalTrustTable()
    guest_copies(table, 3, 1)
    table.start()
    table.play_until(lambda: forfeited(table))
    end = next(i for i, s in enumerate(table.host.log) if s.kind == HAND_END)
    over = table.host.log[:end]
    assert sharing(over) <= {3}  # party 3 (seat 3) checks no proof of its own
    assert ml.DEALT not in [s.kind for s in over]
    assert_named_and_the_table_goes_on(table, 3, ("shuffle",))


def test_a_shuffle_cheat_by_the_hosts_own_client_names_the_host(monkeypatch):
    """The host's client (party 0, the first to shuffle) copies a ciphertext: its proof
    fails at every guest, which publishes no share and names the host."""
    real = MentalDeal._shuffle_if_my_turn

    def copy_if_host(machine):
        out = real(machine)
        if machine.me != 0 or not out:
            return out
        [send] = out
        return [Send(copying(machine.setup, machine.joint, send.message, 0, 1))]
    monkeypatch.setattr(MentalDeal, "_shuffle_if_my_turn", copy_if_host)
    table = MentalTrustTable()
    table.start()
    assert_named(table, HOST, 0, "shuffle", honest=list(table.replicas))
    assert sharing(table.host.log) <= {0}  # no guest published a share


def test_an_onlooker_checks_every_shuffle_too(caplog):
    """Seat 2's client is restarted out of the deal (silent at the deadline): in the next
    attempt it is no party, and follows the deal as a witness. Seat 3 copies a ciphertext
    in that attempt; the witness checks the shuffles' proofs as the parties do, and stops
    following the deal at the copy (the parties name it: the onlooker takes the host's
    word for the forfeit, as for any hand's score, and reports the hand unverified)."""
    table, clock = table_with_clock()
    silence(table, GONE)
    guest_copies(table, 3, 1, attempt=1)
    table.start()
    clock.now += CONTRIBUTION_DEADLINE
    gone(table)
    table.deliver(table.host.restart_without([GONE]))
    with caplog.at_level("INFO", logger="net.trust.deals.mental.client"):
        back(table)  # (the next attempt is dealt, and copied, as its sync comes)
        table.play_until(lambda: forfeited(table))
    onlooker = table.replicas[GONE].deal.party
    assert onlooker.onlooker and onlooker.client.witness is None
    [stopped] = [r.getMessage() for r in caplog.records if "no longer following" in r.getMessage()]
    assert "party 2 (seats 3) broke 'shuffle'" in stopped  # its own check of the proofs
    assert table.replicas[GONE].halted is None and [a for s, a in table.named if s == GONE] == []
    assert [(a.party, a.seat, a.rule) for s, a in table.named if s == 1] == [(PLAYER, 3, "shuffle")]


def test_a_client_reading_the_log_again_checks_every_shuffle():
    """A client whose app restarted reads the whole log from nothing but its key: it checks
    every shuffle's proof again, so it proves the copying seat's cheat as soon as it reads
    the last shuffle — no share, no reveal needed — and takes the forfeit that names it."""
    table = MentalTrustTable()
    guest_copies(table, 3, 1)
    table.start()
    table.play_until(lambda: forfeited(table))
    fresh = PeerReplica(table.ids[1], table.host_id.public_key, TABLE, table._bytes)
    named, shuffles = [], 0
    for signed, _ in table.persisted:
        out = fresh.receive(m.entry_message(signed.wire))
        assert not out.alerts, out.alerts
        named += out.named
        if signed.kind == ml.MESSAGE and (signed.body.get("signed") or {}).get("body", {}).get("type") == mm.SHUFFLE:
            shuffles += 1
            if shuffles == 4:  # the last: the deck is final, every proof checked
                verdict = fresh.deal.cheat
                assert verdict is not None and (verdict.party, verdict.rule) == (3, "shuffle")
    assert [(a.party, a.seat, a.rule) for a in named] == [(PLAYER, 3, "shuffle")]
    assert fresh.halted is None


def test_a_deal_without_proofs_after_proven_ones_names_the_host():
    """A host that logs a deal without ``proven`` (its shuffles then unproven, as in a log
    from before protocol 14) after the table's deals have had them: every replica names it."""
    table = MentalTrustTable()
    table.start()
    table.play_hand()

    def unproven(kind, body, state_hash):
        if kind == ml.DEAL and body.get("hand") == 1:
            body = {k: v for k, v in body.items() if k != "proven"}
        return body, state_hash
    forge_entries(table.host.chain, unproven)
    table.next_hand()
    assert_named(table, HOST, 0, "deal", honest=list(table.replicas))
    assert "without shuffle proofs" in table.replicas[1].halted.detail
