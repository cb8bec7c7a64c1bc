"""A player's report and what every other replica makes of it (``reports``, ``witness``),
in process: a lie the host told one player alone, signed as sent (``sent``), is checked
by every other player from the report — a private view of another seat's, any view
under the private deal, cards another seat holds, the player's own drop sent live — and
stops each of them as their own finding would; what only the reporter can know is told
as its word; a report that proves nothing, or is not its player's, changes nothing."""

import pytest

from net.trust import reports, sent
from net.trust.alerts import HOST
from net.trust.values import entry_hash
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import TABLE, Table

DEALS = {"seeded": Table, "private": MentalTrustTable}
#: Both deals; the private one's hands cost mental poker's CPU (seconds): the slow tier.
BOTH = [pytest.param("seeded"), pytest.param("private", marks=pytest.mark.slow)]
VICTIM = 1


def lie_to(table, seat: int, lie, signed: bool = True) -> None:
    """The host tells ``seat`` alone what ``lie(message)`` makes of its entry messages
    (None: the truth), signed as sent — or, ``signed`` False, with the signature over the
    truth left on it."""
    key = table.ids[seat].public_key

    def tamper(fp, msg):
        if fp != table.fp(seat) or msg["type"] != "entry":
            return msg
        told = lie(msg)
        if told is None:
            return msg
        if not signed:
            return told
        return sent.signed(table.host_id, told, entry_hash(told["entry"]), seat, key, True,
                           sent.public_digest(told["public"]))
    table.tamper = tamper


def reported(table, seat: int) -> dict:
    """The report ``seat``'s client sends about the alert it stopped at."""
    alert = table.replicas[seat].halted
    assert alert is not None, f"seat {seat} named nobody"
    return reports.make(table.ids[seat], alert, seat)


def weigh_everywhere(table, report: dict, besides: int) -> dict:
    """Every other replica's answer to ``report``: seat -> its ReplicaOut."""
    outs = {}
    for seat, replica in table.replicas.items():
        if seat != besides:
            read = reports.read(report["signed"], replica.seats, TABLE)
            assert not isinstance(read, str), read
            outs[seat] = replica.weigh(read)
    return outs


def another_seats_view(msg):
    view = msg["private"]["view"]
    if view is None or "hand" not in view:
        return None
    return {**msg, "private": {**msg["private"], "view": {**view, "seat": 2}}}


def assert_checked_by_the_others(table, report, rule):
    for seat, out in weigh_everywhere(table, report, VICTIM).items():
        alert = table.replicas[seat].halted
        assert out.alerts == [alert] and not out.reported, (seat, out)
        assert (alert.party, alert.seat, alert.rule, alert.reported_by) == (HOST, 0, rule, VICTIM)
        assert "found by P1's client (" in alert.detail and ") and checked here: " in alert.detail


def test_a_private_view_of_another_seat_told_to_one_player_is_checked_by_every_other():
    table = Table()
    lie_to(table, VICTIM, another_seats_view)
    table.start()
    alert = table.replicas[VICTIM].halted
    assert alert is not None and alert.rule == "privacy" and alert.sent["live"]
    assert all(table.replicas[s].halted is None for s in (2, 3))  # they saw nothing wrong
    assert_checked_by_the_others(table, reported(table, VICTIM), "privacy")


@pytest.mark.slow  # the private deal's hand
def test_any_view_told_to_a_party_of_the_private_deal_is_checked_by_every_other():
    table = MentalTrustTable()
    lie_to(table, VICTIM, lambda msg: {**msg, "private": {**msg["private"], "view": {
        "seat": VICTIM, "hand": ["B2"]}}} if msg["entry"]["entry"]["kind"] == "mental-dealt" else None)
    table.start()
    assert table.replicas[VICTIM].halted.rule == "privacy"
    assert_checked_by_the_others(table, reported(table, VICTIM), "privacy")


def test_cards_another_seat_holds_told_to_one_player_are_checked_by_that_seat_only():
    """Seat 3's cards shown to seat 1: seat 3 knows them for its own; seat 2, which does
    not hold them, can only tell it as seat 1's client's word, and goes on."""
    table = Table()
    table.start()
    theirs = table.host.state.view(3)["hand"][:2]

    def leak(msg):
        view = msg["private"]["view"]
        if view is None or "hand" not in view:
            return None
        return {**msg, "private": {**msg["private"], "view": {
            **view, "hand": view["hand"] + theirs}}}
    lie_to(table, VICTIM, leak)
    table.step()
    assert table.replicas[VICTIM].halted.rule in ("privacy", "private-view")
    outs = weigh_everywhere(table, reported(table, VICTIM), VICTIM)
    assert outs[3].alerts and table.replicas[3].halted.reported_by == VICTIM
    assert "cards this seat holds" in table.replicas[3].halted.detail
    assert not outs[2].alerts and table.replicas[2].halted is None
    [word] = outs[2].reported
    assert word.reported_by == VICTIM and "P1's client reports that the host broke rule" in word.detail


@pytest.mark.parametrize("deal", BOTH)
def test_a_players_own_drop_sent_to_it_live_is_checked_by_every_other(deal):
    table = DEALS[deal]()
    table.start()
    for _ in range(3):
        table.step()
    table.deliver(table.host.drop(VICTIM))
    assert table.replicas[VICTIM].halted.rule == "drop"
    assert_checked_by_the_others(table, reported(table, VICTIM), "drop")


def test_a_lie_the_host_did_not_sign_is_told_as_the_reporters_word():
    table = Table()
    lie_to(table, VICTIM, another_seats_view, signed=False)
    table.start()
    outs = weigh_everywhere(table, reported(table, VICTIM), VICTIM)
    for seat, out in outs.items():
        assert not out.alerts and table.replicas[seat].halted is None
        [word] = out.reported
        assert "does not bear the host's signature" in word.detail and word.rule == "privacy"


def test_a_report_that_is_not_its_players_or_not_the_hosts_entries_changes_nothing():
    table = Table()
    lie_to(table, VICTIM, another_seats_view)
    table.start()
    report = reported(table, VICTIM)
    replica = table.replicas[2]
    forged = reports.make(table.ids[3], table.replicas[VICTIM].halted, VICTIM)  # seat 3's key
    assert isinstance(reports.read(forged["signed"], replica.seats, TABLE), str)
    assert isinstance(reports.read(report["signed"], replica.seats, "another table"), str)
    body = dict(report["signed"]["body"])
    entries = [dict(e) for e in body["entries"]]
    entries[-1] = {**entries[-1], "sig": bytes(64)}  # not the host's
    bent = reports.read(reports.sign(table.ids[VICTIM], {**body, "entries": entries}),
                        replica.seats, TABLE)
    assert not isinstance(bent, str)
    assert replica.weigh(bent).alerts == [] and replica.weigh(bent).reported == []
    assert replica.halted is None
