"""Watchers through the sessions, on loopback, under both deals (the ``deal`` fixture).

A host (its own seat a bot's), guests playing with bots, and watchers: ``GuestCore``
with ``watch=True``. A watcher sees exactly the public view at every entry — joining
before the deal, in the middle of a hand, or after a player carried the table on — and
checks every hand; it is listed for everyone; a hand a player shows it reaches it alone,
and the host's copy of that traffic opens none of it.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

import pytest

from net.sessions import watchers as watchers_module
from net.sessions.watchers import DEAL_OWN
from net.sessions.guest_session import GuestCore
from net.sessions.watching import Following
from net.trust import takeover
from net.trust.shown import ShownError, unseal
from net.trust.signing import ACTION_DOMAIN, seal
from net.trust.values import card_names
from net.wire import messages as m
from tests.net.session_kit import PATIENT, Table
from tests.net.sessions.test_succession import CARRY_ON
from tests.net.trust_table import identity as ident
from tests.waits import until

# Horseshoes to 100 penalty points, not its default 13: one hand in about eighty gives a
# player 13 (5 in 400 hands of random bots), and the game is then over after that hand —
# a table of two hands would play one (ci18: "hands_verified: 1", scores [0, 13, 1, 7]).
TITLES = {"rook": {"game": "rook"}, "somerset": {"game": "somerset"},
          "horseshoes": {"game": "horseshoes", "mode": "four", "options": {"target": 100}}}


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


# Every title's public view at every entry is seen from before the deal; joining mid-hand
# (a catch-up of the same entries and public views, which no title changes) in Rook.
JOINS = [("before the deal", title) for title in TITLES] + [("mid-hand", "rook")]


def hands_watched(title: str) -> int:
    """Every title's public views are a hand's, its end included: one hand each; Rook's
    table plays two, the watcher checking across a hand's end into the next deal (which
    no title changes)."""
    return 2 if title == "rook" else 1


@pytest.mark.parametrize("joins, title", JOINS, ids=[f"{j}-{t}" for j, t in JOINS])
def test_a_watcher_sees_the_public_view_at_every_entry_and_checks_every_hand(tmp_path, deal, title, joins):
    async def main():
        table = Table(tmp_path, hands=hands_watched(title), guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01}, **TITLES[title])
        await table.host.start()
        if joins == "before the deal":
            seen = watcher(table, "Leo")
        table.seat_players(2, bot_delay=0.01)
        if joins == "mid-hand":
            await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 6)
            seen = watcher(table, "Leo")
        return table, seen, await table.play_out(120)

    table, (leo, seen, events), summaries = asyncio.run(main())
    host = table.host
    assert all(s["alerts"] == [] for s in summaries), summaries
    summary = summaries[table.guests.index(leo)]
    assert host.result["hands"] == hands_watched(title), f"the host played {host.result}"
    assert summary["seat"] is None and summary["hands_verified"] == hands_watched(title), \
        f"the watcher verified {summary['verified']} of the host's {host.result}: {summary}"
    assert [s.hash for s in leo.replica.log] == [s.hash for s in host.authority.log]
    assert_saw_the_public_view(seen, host)
    states = [e for e in events if e["type"] == "state"]
    assert states and all(e["watching"] and e["legal"] == [] and "hand" not in e["view"] for e in states)
    lists = [e for e in events if e["type"] == "watchers"]
    assert lists[-1]["you_watch"] and [w["name"] for w in lists[-1]["watchers"]] == ["Leo"]


def test_everyone_is_told_who_watches_and_a_watcher_that_leaves_is_gone_from_the_list(tmp_path):
    async def main():
        # (a seat left empty: the game never starts, so the table is still there for the
        # heartbeats however slow the machine)
        table = Table(tmp_path, hands=1, guests=1, bots=1, timings=PATIENT,
                      host_kw={"bot_delay": 0.05})
        await table.host.start()
        table.add_guest(ident("Guest0"), bot_delay=0.05)
        leo, _, _ = watcher(table, "Leo")
        heads: list[int] = []  # what the host's heartbeats told Leo it sent him
        told = leo._on_host_head
        leo._on_host_head = lambda link, seq, head: (heads.append(seq), told(link, seq, head))  # type: ignore[method-assign]
        maya, _, _ = watcher(table, "Maya")
        player = table.guests[0]
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo", "Maya"])
        # a watcher's heartbeats acknowledge what it verified, and the host's tell it its head
        watchers = table.host.watchers
        await until(lambda: watchers.outbox.acked(leo.identity.fingerprint) >= 1
                    and heads and max(heads) >= 1,
                    what=lambda: f"Leo's acknowledgement ({watchers.outbox.acked(leo.identity.fingerprint)})")
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
        # Grandma thinks until Leo's hint is in: asked once her move is played, a hint has
        # nothing to suggest (seen on a loaded machine), so her computer waits for it.
        grandmas_bot, grandma.player.bot = grandma.player.bot, None
        leo, leo_seen, leo_events = watcher(table, "Leo")
        maya, maya_seen, maya_events = watcher(table, "Maya")
        await until(lambda: len(grandma.watch_list["watchers"]) == 2 and grandma.replica is not None
                    and grandma.replica.view is not None and grandma.replica.hand is not None)
        grandma.show_hand(leo.identity.fingerprint, True)
        await until(lambda: any(e["type"] == "state" and e.get("coach") and e["legal"]
                                for e in leo_events), timeout=60)
        leo.hint()
        await until(lambda: any(e["type"] == "hint" for e in leo_events))
        grandma.player.bot = grandmas_bot
        grandma.player.poke()
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


# -- admission, the host's settings, abuse --------------------------------------------------------

def fatal(events: list[dict]) -> list[str]:
    return [e["message"] for e in events if e["type"] == "error" and e.get("fatal")]


def test_past_the_cap_a_watcher_is_refused_and_the_host_may_remove_one_or_stop_watching(tmp_path, deal):
    """The cap (1 here) refuses the next with its reason; the host's person removes a
    watcher (it is told why, the list shrinks); watching turned off sends everyone away
    and refuses the next. The players' game goes on throughout."""
    async def main():
        table = Table(tmp_path, hands=1, guests=1, bots=2, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.05, "max_watchers": 1})
        await table.host.start()
        player = table.add_guest(ident("Guest0"), bot_delay=0.05)
        leo, _, leo_events = watcher(table, "Leo")
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo"])
        maya, _, maya_events = watcher(table, "Maya")
        await until(lambda: fatal(maya_events), what="Maya refused")
        table.host.remove_watcher(leo.identity.fingerprint)
        await until(lambda: fatal(leo_events), what="Leo told he was removed")
        await until(lambda: player.watch_list["watchers"] == [])
        ann, _, _ = watcher(table, "Ann")
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Ann"])
        table.host.set_watching(False)
        await until(lambda: player.watch_list["watchers"] == [] and not player.watch_list["open"])
        ben, _, ben_events = watcher(table, "Ben")
        await until(lambda: fatal(ben_events), what="Ben refused")
        ann_events = table.guest_events[table.guests.index(ann)]
        try:
            summaries = await table.finish(timeout=120)
        finally:
            await table.close()
        return summaries[0], maya_events, leo_events, ann_events, ben_events

    summary, maya_events, leo_events, ann_events, ben_events = asyncio.run(main())
    assert summary["alerts"] == [] and summary["hands_verified"] == 1, summary
    assert "already has 1 watchers" in fatal(maya_events)[0]
    assert "asked you to stop watching" in fatal(leo_events)[0]
    assert "turned watching off" in fatal(ann_events)[0]
    assert "turned watching off" in fatal(ben_events)[0]


def test_a_watcher_that_sends_a_move_is_refused_named_and_sent_away(tmp_path, deal):
    """A tampered watcher's client sends a signed move: the host refuses it, names the
    watcher to its person and sends it away; the players' game goes on."""
    async def main():
        table = Table(tmp_path, hands=1, guests=1, bots=2, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.05})
        await table.host.start()
        player = table.add_guest(ident("Guest0"), bot_delay=0.05)
        leo, _, leo_events = watcher(table, "Leo")
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo"]
                    and leo.replica is not None and leo.replica.seq >= 1)
        r = leo.replica
        body = m.action_body(r.table, 0, r.seq, r.log[-1].hash, {"bid": 100})
        leo.link.send(m.action_message(seal(leo.identity, ACTION_DOMAIN, body)))
        await until(lambda: fatal(leo_events), what="Leo sent away")
        await until(lambda: player.watch_list["watchers"] == [])
        try:
            summaries = await table.finish(timeout=120)
        finally:
            await table.close()
        return summaries[0], leo_events, table.host_events

    summary, leo_events, host_events = asyncio.run(main())
    assert summary["alerts"] == [] and summary["hands_verified"] == 1, summary
    assert "your 'action' was refused" in fatal(leo_events)[0]
    named = [e["detail"] for e in host_events if e["type"] == "connection" and e.get("state") == "refused"]
    assert any("Leo" in d and "a watcher" in d and "'action'" in d for d in named), named


def test_a_watcher_follows_the_table_carried_on_and_sees_only_the_public_view_there(tmp_path, deal):
    """The host goes for good mid-hand; a player carries the table on. The watcher (who
    does not count towards the takeover and never hosts) finds the new host through the
    players' standbys, checks its takeover entry, rejoins as a watcher and sees the public
    view at every entry from either host, to the end."""
    async def main():
        table = Table(tmp_path, game="rook", hands=2, guests=0, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.start()
        guests = [table.add_guest(ident(f"Guest{i}"), takeover=CARRY_ON, bot_delay=0.01)
                  for i in range(3)]
        leo, seen, events = watcher(table, "Leo")
        await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 5)
        await until(lambda: all(len(g.succession.roster) == 3 for g in guests)
                    and len(leo.succession.roster) == 3, what="every standby known")
        departed = table.host.authority
        await table.host.stop()  # no farewell, never back
        heir = min(guests, key=lambda g: g.replica.seat)
        summaries = await asyncio.wait_for(asyncio.gather(*table.tasks), 180)
        return departed, heir, leo, seen, events, summaries

    departed, heir, leo, seen, events, summaries = asyncio.run(main())
    new_host = heir.succession.host
    assert new_host is not None and isinstance(leo.succession, Following)  # it never hosts
    summary = summaries[-1]
    assert summary["alerts"] == [] and summary["seat"] is None, summary
    assert summary["ended"] is not None and summary["head"] == new_host.authority.chain.seq, summary
    assert [s.hash for s in leo.replica.log] == [s.hash for s in new_host.authority.log]
    assert any(e["type"] == "takeover" and e["stage"] == "following" for e in events)
    archives = [departed.archive, new_host.authority.archive]
    entries = seen.entries()
    assert entries and any(msg["entry"]["entry"]["seq"] > len(departed.log) for msg in entries)
    for message in entries:
        seq = message["entry"]["entry"]["seq"]
        [archive] = [a for a in archives if seq < len(a.log) and a.log[seq].wire == message["entry"]][:1]
        assert message["public"] == archive.publics.get(seq)
        assert message["private"] == {"view": None, "action": None}
    assert takeover.KIND in [s.kind for s in leo.replica.log]


def transports(conn) -> tuple:
    """``conn``'s TLS transport and the TCP transport under it (asyncio's own fields)."""
    tls = conn._writer.transport  # noqa: SLF001
    return tls, tls._ssl_protocol._transport  # noqa: SLF001


def small_buffers(conn, option: int) -> None:
    """``conn``'s kernel buffer (``option``) and asyncio's write buffers made small — so
    that what a host sends a peer that stops reading piles up at the host within a game,
    rather than in a megabyte of buffers first."""
    conn._writer.transport.get_extra_info("socket").setsockopt(  # noqa: SLF001
        socket.SOL_SOCKET, option, 4096)
    for transport in transports(conn):
        transport.set_write_buffer_limits(high=4096)


def stop_reading(guest: GuestCore) -> None:
    """``guest`` stops reading what its host sends (a stuck computer): nothing reads its
    socket any more (its heartbeats still go out: only reading stops)."""
    small_buffers(guest.link.conn, socket.SO_RCVBUF)
    transports(guest.link.conn)[1].pause_reading()


def test_a_watcher_that_stops_reading_is_dropped_and_the_players_go_on(tmp_path, deal, monkeypatch):
    """A watcher's computer stops reading mid-hand (its heartbeats still come, so it is
    not silent): what the host sends it piles up, and past the watcher's backlog the host
    drops its link, saying why, and tells everyone it has gone. The players' hands go on,
    every entry checked, nothing waiting on the stuck watcher."""
    monkeypatch.setattr(watchers_module, "WATCHER_BACKLOG", 8)  # (256 takes many hands to fill)

    async def main():
        # (three hands: entries enough to fill the backlog whatever the sockets buffer; the
        # bots quick — their pace fills nothing, the entries do)
        table = Table(tmp_path, hands=3, guests=0, bots=2, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.host.start()
        player = table.add_guest(ident("Guest0"), bot_delay=0.01)
        # the stuck watcher never drops the link itself (it would, hearing nothing for 5 s)
        leo, _, _ = watcher(table, "Leo", timings=replace(PATIENT, timeout=600.0))
        fp = leo.identity.fingerprint
        await until(lambda: [w["name"] for w in player.watch_list["watchers"]] == ["Leo"]
                    and leo.replica is not None and leo.replica.seq >= 1, 30)
        held = table.host.watchers.here[fp].link
        small_buffers(held.conn, socket.SO_SNDBUF)
        stop_reading(leo)
        await until(lambda: held.closed, 120,
                    lambda: f"the host dropped Leo's link: {held._queue.qsize()} queued, "  # noqa: SLF001
                            f"log at {table.host.authority.chain.seq}, buffered "
                            f"{[t.get_write_buffer_size() for t in transports(held.conn)]}")
        await until(lambda: player.watch_list["watchers"] == [], 30,
                    lambda: f"the players told Leo has gone: {player.watch_list}")
        try:
            await asyncio.wait_for(table.host.finished.wait(), 120)
            summary = await asyncio.wait_for(table.tasks[0], 60)
        finally:
            await table.close()
        return held.reason, summary, table.host_events

    reason, summary, host_events = asyncio.run(main())
    assert reason.startswith("it stopped reading: 8 messages unsent"), reason
    assert summary["alerts"] == [] and summary["hands_verified"] == 3, summary
    lists = [e for e in host_events if e["type"] == "watchers"]
    assert [w["name"] for w in lists[-1]["watchers"]] == []  # the host's person told too


def test_players_first_a_watcher_is_sent_each_entry_once_every_player_has_verified_it(
        tmp_path, deal, monkeypatch):
    """The host sends a watcher each new entry only once every player has acknowledged it
    (its replica verified it): the host's work for its watchers never comes between a
    move and the players. (``PLAYERS_FIRST``, the bound on how long a slow player may
    hold the watchers back, made long here so that only the players' acknowledgements
    can release an entry, however slow the machine; the last entries go with the table's
    "end", which follows them, as the players have no move left to wait for.)"""
    monkeypatch.setattr(watchers_module, "PLAYERS_FIRST", 600.0)

    async def main():
        table = Table(tmp_path, hands=1, guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        host = table.host
        await host.start()
        watcher(table, "Leo")
        players = [table.add_guest(ident(f"Guest{i}"), bot_delay=0.01) for i in range(2)]
        verified: dict[str, int] = {}  # each player's highest acknowledgement, as it came
        host.outbox.ack_listeners.insert(  # (before the host acts on it)
            0, lambda fp, seq: verified.__setitem__(fp, max(seq, verified.get(fp, -1))))
        # (entry, what each player connected then had acknowledged), until the table ends
        sent_live: list[tuple[int, dict[str, int]]] = []
        send, end = host.watchers.outbox.send, host.watchers.end
        ended: list[dict] = []

        def spy(fp: str, message: dict) -> None:
            # (an entry, or a private deal's, together once dealt: in a sync)
            entries = [message] if message["type"] == m.ENTRY \
                else message["entries"] if message["type"] == m.SYNC else []
            for entry in entries if not ended else ():
                sent_live.append((entry["entry"]["entry"]["seq"],
                                  {p: verified.get(p, -1) for p in host.outbox.links}))
            send(fp, message)
        host.watchers.outbox.send = spy  # type: ignore[method-assign]
        host.watchers.end = lambda message: (ended.append(message), end(message))  # type: ignore[method-assign]
        try:
            summaries = await table.finish(timeout=180)
        finally:
            await table.close()
        return summaries, sent_live, [p.identity.fingerprint for p in players]

    summaries, sent_live, players = asyncio.run(main())
    assert all(s["alerts"] == [] for s in summaries), summaries
    assert summaries[0]["seat"] is None and summaries[0]["hands_verified"] == 1, summaries[0]
    assert len(sent_live) > 20, f"the watcher was sent only {len(sent_live)} entries live"
    assert any(set(held) == set(players) for _, held in sent_live)  # (both were there)
    early = [(seq, held) for seq, held in sent_live if any(a < seq for a in held.values())]
    assert early == [], f"sent to the watcher before every player held it: {early[:5]}"


def test_a_watcher_is_sent_a_private_deal_once_it_is_dealt_all_of_it_in_order_in_one_write(
        tmp_path, deal):
    """Under the private deal the host sends a watcher the deal's own entries (from
    ``mental-deal`` to the last shuffle and share before ``mental-dealt``) only once the
    deal is dealt, together — a write or two, not one per entry; the watcher checks every
    one of them, in order, as it does the rest. Under the seeded deal nothing is held:
    each entry goes on its own. And a watcher's client acknowledges by its heartbeat
    only: the host reads no acknowledgement from it but those its heartbeats carry
    (counted, no clock: every acknowledgement the host hears from it is one of its
    heartbeats — a player's client acknowledges every batch besides)."""
    async def main():
        table = Table(tmp_path, hands=1, guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        host = table.host
        await host.start()
        leo, _, _ = watcher(table, "Leo")
        # (for each message Leo is sent: its entries' seqs, and whether the host had logged
        # mental-dealt after each of them by then)
        arrivals: list[tuple[list[int], bool]] = []
        receive = leo.receive

        def spy(message: dict) -> None:
            seqs = [e["entry"]["entry"]["seq"] for e in
                    ([message] if message["type"] == m.ENTRY else message.get("entries", []))]
            log = host.authority.archive.log
            arrivals.append((seqs, all(any(e.kind == "mental-dealt" for e in log[seq:])
                                       for seq in seqs)))
            receive(message)
        leo.receive = spy  # type: ignore[method-assign]
        await until(lambda: leo.link is not None and len(host.watchers.here) == 1, 30)
        beats: list[int] = []  # the heartbeats Leo's client sent (each says how far it holds)
        position = leo.link.position
        leo.link.position = lambda: (beats.append(position()), beats[-1])[1]  # type: ignore[method-assign]
        heard: list[int] = []  # the acknowledgements the host read from Leo
        on_ack = host.watchers.outbox.on_ack
        host.watchers.outbox.on_ack = lambda fp, link, seq: (  # type: ignore[method-assign]
            heard.append(seq), on_ack(fp, link, seq))
        summaries = await table.play_out(180, players=2, bot_delay=0.01)
        return table, leo, summaries, arrivals, beats, heard

    table, leo, summaries, arrivals, beats, heard = asyncio.run(main())
    host = table.host
    assert all(s["alerts"] == [] for s in summaries), summaries
    assert summaries[table.guests.index(leo)]["hands_verified"] == 1
    assert [s.hash for s in leo.replica.log] == [s.hash for s in host.authority.log]  # all, in order
    kinds = [signed.kind for signed in host.authority.archive.log]
    # the deal's own entries: from mental-deal to the last before mental-dealt (one hand)
    own = list(range(kinds.index("mental-deal"), kinds.index("mental-dealt"))) \
        if "mental-deal" in kinds else []
    carrying = [(seqs, dealt) for seqs, dealt in arrivals if set(seqs) & set(own)]
    if deal:
        assert len(own) > 4 and all(kinds[seq] in DEAL_OWN for seq in own), own
        assert all(dealt for _, dealt in carrying), \
            f"a deal entry reached the watcher before the deal was dealt: {carrying}"
        assert len(carrying) <= 2, f"the deal's {len(own)} entries came in {len(carrying)} messages"
        assert [seq for seqs, _ in carrying for seq in seqs] == own
    else:
        assert own == [] and "deal" in kinds
        live = [seqs for seqs, _ in arrivals if seqs][1:]  # (after the join's catch-up)
        assert live and all(len(seqs) == 1 for seqs in live), \
            f"entries batched under the seeded deal: {[s for s in live if len(s) > 1]}"
    assert heard, "the host heard no acknowledgement from the watcher"
    assert len(heard) <= len(beats) + 1, \
        f"the host read {len(heard)} acknowledgements from the watcher, who sent {len(beats)} "\
        f"heartbeats (one sent before they were counted may be heard after)"
