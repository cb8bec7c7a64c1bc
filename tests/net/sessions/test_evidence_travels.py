"""Evidence travels (issue 27, items 5 and 6), through the sessions: a host (seat 0, its
bot playing) and three guests on loopback, each standing by as the app does. A lie the
host tells one guest alone — a private view of another seat's, or its own seat logged
as dropped while its link is up — stops that guest, which sends its signed evidence to
the other players over their standby links; each checks it itself and names the host
for the same rule, and nobody is left waiting without a word. Both deals.

Timing (the 2 s of "named by every guest"): the lie's moment and each guest's alert are
read on the sessions' own clock — the event loop every session runs on, as each thing
happens (the host's outbox sending the lie, each guest's ``emit``) — not when the
test's poll notices them. Nothing on that path waits for a timer (no heartbeat, no
deadline: a message, then connections to the others' standby ports), so what the
figure measures is work and scheduling; the ceiling leaves a loaded machine tens of
times the few tens of milliseconds it takes here.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net.trust import sent
from net.trust.alerts import HOST, to_json_value
from net.trust.values import entry_hash
from net.wire.heartbeat import Timings
from tests.net.session_kit import PATIENT, Table
from tests.net.trust.mental_trust_table import wrong_share_to
from tests.net.trust_table import identity as ident
from tests.waits import until

VICTIM = 1  # the guest the host lies to (its first guest, seat 1)
STANDBY = {"bind": "127.0.0.1", "host_kw": {}}  # the app's standby, on loopback
WITHIN = 2.0


def resigned(host_id, original: dict, told: dict, seat: int, key: bytes) -> dict:
    """``told`` signed by the host as sent to ``seat``, the way ``original`` was (live, or
    in a catch-up): a dishonest host signs what it sends like any other message."""
    live = sent.problem(host_id.public_key, original, seat, key, True) is None
    return sent.signed(host_id, told, entry_hash(told["entry"]), seat, key, live,
                       sent.public_digest(told["public"]))


class Liar:
    """The host's outbox tamper: once the hand is dealt, the victim's next entry message
    carries the private view of seat 2 (the seeded deal: seat 2's real cards), or any
    view at all (the private deal: the host holds no guest's cards, and sends no view)."""

    def __init__(self, host_id):
        self.host_id, self.table, self.at = host_id, None, None

    def __call__(self, fp: str, msg: dict) -> dict:
        table = self.table
        if self.at is not None or table is None or msg["type"] != "entry":
            return msg
        victim = table.guests[VICTIM - 1]
        state = table.host.authority.state
        if fp != victim.identity.fingerprint or state is None or not state.history:
            return msg
        view = dict(state.private_view(2))
        self.at = asyncio.get_running_loop().time()
        told = {**msg, "private": {**msg["private"], "view": view}}
        return resigned(self.host_id, msg, told, VICTIM, victim.identity.public_key)


def stamped(guest) -> list[tuple[float, dict]]:
    """``guest``'s events, each with the loop's time as it was emitted."""
    seen: list[tuple[float, dict]] = []
    emit = guest.emit

    def keep(event):
        seen.append((asyncio.get_running_loop().time(), event))
        emit(event)
    guest.emit = keep
    return seen


def rook_table(tmp_path, mental_deal: bool, timings=PATIENT, host_identity=None,
               **host_kw) -> Table:
    """A Rook table whose host plays its seat with a bot, for three guests to come."""
    return Table(tmp_path, game="rook", guests=0, timings=timings, host_identity=host_identity,
                 host_kw={"mental_deal": mental_deal, "bot_delay": 0.05, **host_kw})


async def standing_by(table: Table) -> list:
    """Three guests (seats 1–3 in join order), each with a standby, every roster known."""
    guests = [table.add_guest(ident(f"Guest{i}"), takeover=STANDBY) for i in range(3)]
    await until(lambda: all(len(g.reporter.roster) == 3 for g in guests), what="every roster")
    return guests


def test_a_false_private_view_told_to_one_guest_is_named_by_every_guest_within_2_s(arun, tmp_path, deal):
    host_id = ident("Host")
    liar = Liar(host_id)

    async def main():
        table = rook_table(tmp_path, deal, tamper=liar, host_identity=host_id)
        await table.start()
        try:
            guests = await standing_by(table)
            seen = [stamped(g) for g in guests]
            liar.table = table
            await until(lambda: all(any(e["type"] == "alert" for _, e in s) for s in seen),
                        timeout=30, what=lambda: f"every guest's alert ({table.where()}, lie at {liar.at})")
            return table, seen
        finally:
            await table.close()

    table, seen = arun(main(), timeout=60)
    assert liar.at is not None
    # the seeded deal's victim checks the hand it was sent first ("private-view": not its
    # own); the private deal's takes any view for a leak ("privacy"): the others, the same
    rule = "private-view" if not deal else "privacy"
    for i, events in enumerate(seen):
        seat = i + 1
        [(at, alert)] = [(t, e) for t, e in events if e["type"] == "alert"]
        assert (alert["seat"], alert["rule"]) == (0, rule), (seat, alert)  # the host's seat
        if seat == VICTIM:
            assert "reported_by" not in alert  # its own finding
        else:
            assert alert["reported_by"] == VICTIM and alert["checked"] is True, alert
            assert "found by Guest0's client (" in alert["detail"]
            assert "the host's own signature says it sent Guest0" in alert["detail"]
        assert at - liar.at < WITHIN, f"seat {seat} named the host {at - liar.at:.2f} s after the lie"
    assert all(g.ended and g.ended_by == "alert" for g in table.guests)  # nobody left waiting
    # the host's person is told too, as the victim's word
    [told] = [e for e in table.host_events if e["type"] == "alert"]
    assert told["reported_by"] == VICTIM and told["checked"] is False and told["rule"] == rule


def test_a_false_drop_of_a_connected_players_seat_is_named_by_that_player_and_every_other(
        arun, tmp_path, deal):
    async def main():
        table = rook_table(tmp_path, deal)
        await table.start()
        try:
            guests = await standing_by(table)
            await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 3)
            victim = guests[VICTIM - 1]
            auth = table.host.authority
            assert table.host.outbox.holds(victim.identity.fingerprint)  # its link is up
            table.host.apply(auth.drop(victim.replica.seat))  # …and the host logs it dropped
            await until(lambda: all(g.alerts for g in guests), timeout=30,
                        what=lambda: f"every guest's alert ({table.where()})")
            return table
        finally:
            await table.close()

    table = arun(main(), timeout=60)
    for i, guest in enumerate(table.guests):
        [alert] = guest.alerts
        assert (alert["seat"], alert["rule"]) == (0, "drop"), alert
        if i + 1 == VICTIM:
            assert f"my seat {VICTIM} as dropped while my link to it is up" in alert["detail"]
        else:
            assert alert["reported_by"] == VICTIM and alert["checked"] is True
            assert "its own seat's drop on a link that was up" in alert["detail"]
    assert HOST == "host"


def withhold_first_deal_message_of(table: Table, guest) -> list[dict]:
    """The host takes nothing of ``guest``'s first deal message (its key share): it never
    logs it, as if it never came. What it swallowed is returned (filled as it happens)."""
    swallowed: list[dict] = []
    receive = table.host.receive

    def withholding(fp, link, msg):
        if fp == guest.identity.fingerprint and msg["type"] == "mental" and not swallowed:
            swallowed.append(msg["signed"])
            return
        receive(fp, link, msg)
    table.host.receive = withholding
    return swallowed


def test_a_restart_for_a_deal_message_the_player_sent_in_time_is_named_by_that_player(arun, tmp_path):
    """The private deal: the host withholds a guest's key share, lets the deadline pass,
    closes its link "for not answering" and restarts the deal without it — its cards the
    host's for the hand. The guest sent it on that link seconds before: it names the host,
    with its own signed key share as evidence, and tells the others, who cannot time it
    themselves and tell it as its word, and play on."""
    timings = Timings.quick(timeout=5.0, contribution=3.0)

    async def main():
        table = rook_table(tmp_path, True, timings)
        await table.host.start()
        guests = [table.add_guest(ident(f"Guest{i}"), takeover=STANDBY) for i in range(3)]
        victim = guests[VICTIM - 1]
        swallowed = withhold_first_deal_message_of(table, victim)
        try:
            await until(lambda: victim.alerts, timeout=30, what=lambda: f"the victim's alert ({table.where()})")
            others = [g for g in guests if g is not victim]
            await until(lambda: all(g.reported for g in others), timeout=60, what="the others told")
            return table, victim, others, swallowed
        finally:
            await table.close()

    table, victim, others, swallowed = arun(main(), timeout=60)
    [alert] = victim.alerts
    assert (alert["seat"], alert["rule"]) == (0, "deal") and "never logged it" in alert["detail"]
    saved = json.loads(Path(alert["evidence_path"]).read_text())
    assert to_json_value(swallowed[0]) in saved["evidence"]  # its own key share, signed
    for guest in others:
        [word] = guest.reported
        assert word["reported_by"] == VICTIM and word["checked"] is False and word["rule"] == "deal"
        assert "Guest0's client reports that the host broke rule 'deal'" in word["detail"]
        assert not guest.alerts and guest.ended_by != "alert"  # they go on


def test_a_wrong_share_from_the_hosts_party_ends_the_table_for_everyone_with_the_reason(
        arun, tmp_path, monkeypatch):
    """The host's own client makes a wrong decryption share for seat 2's hand: every guest
    names the host by the share's rule — seat 2, whose hand cannot open, too: it does not
    break on reading it and blame the host's "kind" — and leaves with the reason, and the
    host's person is told each one's report. Nobody waits for a restart that cannot come."""
    wrong_share_to(monkeypatch, 0, 2)

    async def main():
        table = rook_table(tmp_path, True)
        await table.start()
        try:
            guests = await standing_by(table)
            await until(lambda: all(g.ended for g in guests), timeout=30,
                        what=lambda: f"every guest to stop ({table.where()})")
            await until(lambda: len([e for e in table.host_events if e["type"] == "alert"]) == 3,
                        what="the host's person told by each guest")
            return table
        finally:
            await table.close()

    table = arun(main(), timeout=60)
    for guest in table.guests:
        assert guest.ended_by == "alert" and guest.fatal is None  # no bug of its own
        [alert] = guest.alerts
        assert (alert["seat"], alert["rule"]) == (0, "share"), alert
        assert "the host's client broke the deal's rule 'share'" in alert["detail"]
    told = [e for e in table.host_events if e["type"] == "alert"]
    assert sorted(e["reported_by"] for e in told) == [1, 2, 3]
    assert all(e["rule"] == "share" and e["checked"] is False for e in told)
