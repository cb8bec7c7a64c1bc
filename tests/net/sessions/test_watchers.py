"""Watchers through the sessions, on loopback, under both deals (the ``deal`` fixture).

A host (its own seat a bot's), guests playing with bots, and watchers: ``GuestCore``
with ``watch=True``. A watcher sees exactly the public view at every entry — joining
before the deal, in the middle of a hand, or after a player carried the table on — and
checks every hand; it is listed for everyone; a hand a player shows it reaches it alone,
and the host's copy of that traffic opens none of it.
"""

from __future__ import annotations

import asyncio

import pytest

from net.sessions.guest_session import GuestCore
from net.trust import takeover
from net.trust.shown import ShownError, unseal
from net.trust.values import card_names
from net.wire import messages as m
from tests.net.session_kit import PATIENT, Table
from tests.net.sessions.test_succession import CARRY_ON
from tests.net.trust_table import identity as ident
from tests.waits import until

TITLES = {"rook": {"game": "rook"}, "somerset": {"game": "somerset"},
          "horseshoes": {"game": "horseshoes", "mode": "four"}}


class Seen:
    """Everything the host sent one client (its link's messages, recorded as they came)."""

    def __init__(self, guest: GuestCore):
        self.messages: list[dict] = []
        receive = guest.receive

        def spy(message: dict) -> None:
            self.messages.append(message)
            receive(message)
        guest.receive = spy  # type: ignore[method-assign]

    def entries(self) -> list[dict]:
        found = []
        for message in self.messages:
            if message["type"] == m.ENTRY:
                found.append(message)
            elif message["type"] == m.SYNC:
                found += message["entries"]
        return found

    def of(self, kind: str) -> list[dict]:
        return [msg for msg in self.messages if msg["type"] == kind]


def watcher(table: Table, name: str, **kw) -> tuple[GuestCore, Seen, list[dict]]:
    """A watcher of ``table`` (no seat, no bot), what it is sent, and its events."""
    guest = table.add_guest(ident(name), watch=True, bot_level=None, **kw)
    return guest, Seen(guest), table.guest_events[len(table.guests) - 1]


def assert_saw_the_public_view(seen: Seen, host) -> None:
    """Every entry the watcher was sent is the host's, with the host's public view after
    it and nothing private."""
    archive = host.authority.archive
    entries = seen.entries()
    assert entries, "the watcher was sent nothing"
    for message in entries:
        seq = message["entry"]["entry"]["seq"]
        assert message["entry"] == archive.log[seq].wire
        assert message["public"] == archive.publics.get(seq)
        assert message["private"] == {"view": None, "action": None}


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("joins", ["before the deal", "mid-hand"])
def test_a_watcher_sees_the_public_view_at_every_entry_and_checks_every_hand(tmp_path, deal, title, joins):
    async def main():
        table = Table(tmp_path, hands=2, guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01}, **TITLES[title])
        await table.host.start()
        if joins == "before the deal":
            seen = watcher(table, "Leo")
        for i in range(2):
            table.add_guest(ident(f"Guest{i}"), bot_delay=0.01)
        if joins == "mid-hand":
            await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 6)
            seen = watcher(table, "Leo")
        try:
            summaries = await table.finish(timeout=120)
        finally:
            await table.close()
        return table, seen, summaries

    table, (leo, seen, events), summaries = asyncio.run(main())
    host = table.host
    assert all(s["alerts"] == [] for s in summaries), summaries
    summary = summaries[table.guests.index(leo)]
    assert summary["seat"] is None and summary["hands_verified"] == 2, summary
    assert [s.hash for s in leo.replica.log] == [s.hash for s in host.authority.log]
    assert_saw_the_public_view(seen, host)
    states = [e for e in events if e["type"] == "state"]
    assert states and all(e["watching"] and e["legal"] == [] and "hand" not in e["view"] for e in states)
    lists = [e for e in events if e["type"] == "watchers"]
    assert lists[-1]["you_watch"] and [w["name"] for w in lists[-1]["watchers"]] == ["Leo"]


def test_everyone_is_told_who_watches_and_a_watcher_that_leaves_is_gone_from_the_list(tmp_path):
    async def main():
        table = Table(tmp_path, hands=1, guests=1, bots=2, timings=PATIENT,
                      host_kw={"bot_delay": 0.05})
        await table.host.start()
        table.add_guest(ident("Guest0"), bot_delay=0.05)
        leo, _, _ = watcher(table, "Leo")
        maya, _, _ = watcher(table, "Maya")
        player = table.guests[0]
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo", "Maya"])
        await maya.stop()
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo"])
        lists = [e for e in table.host_events if e["type"] == "watchers"]
        await table.close()
        return lists, player

    lists, player = asyncio.run(main())
    assert [w["name"] for w in lists[-1]["watchers"]] == ["Leo"]
    assert any([w["name"] for w in e["watchers"]] == ["Leo", "Maya"] for e in lists)


# -- a shown hand ----------------------------------------------------------------------------------

class HostRecord:
    """Everything the host receives from its players (what its copy of the traffic holds)."""

    def __init__(self, host):
        self.received: list[dict] = []
        receive = host.receive

        def spy(fp, link, msg):
            self.received.append(msg)
            receive(fp, link, msg)
        host.receive = spy


def test_a_shown_hand_reaches_only_its_watcher_and_the_host_opens_none_of_it(tmp_path, deal):
    async def main():
        table = Table(tmp_path, hands=1, guests=1, bots=2, timings=PATIENT, game="rook",
                      host_kw={"mental_deal": deal, "bot_delay": 0.05})
        record = HostRecord(table.host)
        await table.host.start()
        grandma = table.add_guest(ident("Grandma"), bot_delay=0.05)
        leo, leo_seen, leo_events = watcher(table, "Leo")
        maya, maya_seen, maya_events = watcher(table, "Maya")
        await until(lambda: len(grandma.watch_list["watchers"]) == 2 and grandma.replica is not None
                    and grandma.replica.view is not None and grandma.replica.hand is not None)
        grandma.show_hand(leo.identity.fingerprint, True)
        await until(lambda: any(e["type"] == "state" and e.get("coach") and e["legal"]
                                for e in leo_events), timeout=60)
        leo.hint()
        await until(lambda: any(e["type"] == "hint" for e in leo_events))
        grandma.show_hand(leo.identity.fingerprint, False)
        await until(lambda: any(e["type"] == "shown" and not e["showing"] for e in leo_events))
        try:
            await table.finish(timeout=120)
        finally:
            await table.close()
        return table, record, grandma, leo, leo_seen, leo_events, maya_seen, maya_events

    table, record, grandma, leo, leo_seen, leo_events, maya_seen, maya_events = asyncio.run(main())
    seat = grandma.replica.seat
    shown = [e for e in leo_events if e["type"] == "shown"]
    assert [e["showing"] for e in shown] == [True, False] and shown[0]["seat"] == seat
    assert shown[0]["text"] == "Grandma is showing you their cards"
    coached = [e for e in leo_events if e["type"] == "state" and e.get("coach")]
    assert coached and all(e["view"]["seat"] == seat and e["view"]["hand"] for e in coached)
    played = [e for e in coached if e["legal"]]
    assert played and all(e["watching"] for e in played)  # the legal moves: to see, never to play
    hint = next(e for e in leo_events if e["type"] == "hint")
    assert hint["action"] is not None
    # the boxes reached Leo alone
    boxes = leo_seen.of("shown")
    assert boxes and not maya_seen.of("shown") and not any(e["type"] == "shown" for e in maya_events)
    # what the host received of them opens with neither its key nor Maya's, and names no card
    shows = [msg for msg in record.received if msg["type"] == "show"]
    assert shows and all(msg["to"] == leo.identity.public_key for msg in shows)
    deck = table.host.game.deck
    for msg in shows:
        for who in (table.host.identity, ident("Maya")):
            with pytest.raises(ShownError):
                unseal(who, grandma.identity.public_key, msg["sealed"], table=table.host.table, seat=seat)
        assert card_names(deck, msg) == set()
    opened = [unseal(leo.identity, grandma.identity.public_key, msg["sealed"], table=table.host.table,
                     seat=seat) for msg in shows]
    assert opened[-1].view is None and all(h.view["hand"] for h in opened[:-1])


def test_a_watcher_may_not_play(tmp_path):
    async def main():
        table = Table(tmp_path, hands=1, guests=0, bots=3, timings=PATIENT,
                      host_kw={"bot_delay": 0.05})
        await table.host.start()
        leo, _, events = watcher(table, "Leo")
        await until(lambda: leo.replica is not None and leo.replica.hand is not None)
        leo.act({"bid": 100})
        await table.close()
        return events

    events = asyncio.run(main())
    errors = [e["message"] for e in events if e["type"] == "error"]
    assert errors == ["You are watching this table: only its players play."]
