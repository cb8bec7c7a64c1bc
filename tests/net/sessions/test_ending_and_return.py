"""Nobody is turned away at a table's end, or lost in its takeover, under both deals.

* **A watcher back during the ending.** A watcher's link drops while the table plays its
  last hand, and it comes back only once the host has ended the table: it is let in as
  a player would be (``ending``: what it lacks of the log, as anyone may see it, then
  "end"), checks the hand it missed the end of, and closes with the final scores — not
  turned away with "the table is closing". A watcher arriving *fresh* after the end is
  still refused, with words that say the table has ended.
* **A player away while the table is carried on.** A player's app closes; then the host
  leaves and hands the table to another player, who carries it on. The record of the
  player's seat (``last_table``) still names the departed host; the lobby finds the
  table under its new host (the same table id, advertised by the heir) and offers
  "Rejoin" there, and the rejoin takes the seat back at the heir's table, its copy of
  the log kept. A player who followed the heir remembers the heir as it follows.
"""

from __future__ import annotations

import asyncio

import pytest

from net.sessions import advert as advert_module
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore, Phase
from net.sessions.last_table import LastTable
from net.sessions.session import Lobby
from net.trust import takeover
from net.wire import messages as m
from tests.net.session_kit import PATIENT, Table
from tests.net.sessions.test_succession import CARRY_ON
from tests.net.trust_table import identity as ident
from tests.waits import until


def held_back(guest: GuestCore) -> asyncio.Event:
    """``guest`` cannot reach its host again until the event returned is set (its
    network is down): each attempt to connect waits on it first."""
    gate = asyncio.Event()
    connect = guest._connect

    async def once_the_network_is_back():
        await gate.wait()
        return await connect()
    guest._connect = once_the_network_is_back  # type: ignore[method-assign]
    return gate


class Deaf:
    """``guest``'s network loses what the host sends of its log — entries, syncs, the
    heads in its heartbeats — while ``on``; anything else (a handover) still arrives. Made
    with the guest, before its first link: a link reads through ``receive`` as it was."""

    def __init__(self, guest: GuestCore):
        self.on = False
        receive, heads = guest.receive, guest._on_host_head

        def hearing(msg: dict) -> None:
            if not (self.on and msg["type"] in (m.ENTRY, m.SYNC)):
                receive(msg)
        guest.receive = hearing  # type: ignore[method-assign]
        guest._on_host_head = lambda link, seq, head: (  # type: ignore[method-assign]
            None if self.on else heads(link, seq, head))


# -- a watcher back while the table ends -----------------------------------------------------

def test_a_watcher_dropped_before_the_end_comes_back_to_the_final_scores(tmp_path, deal):
    async def go():
        t = Table(tmp_path, hands=1, timings=PATIENT,
                  host_kw={"mental_deal": deal, "bot_delay": 0.02})
        await t.host.start()
        leo = t.add_guest(ident("Leo"), watch=True, bot_level=None)
        for i in range(3):
            t.add_guest(ident(f"Guest{i}"), bot_delay=0.02)
        players = t.guests[1:]
        fp = leo.identity.fingerprint
        await until(lambda: t.hand_started() and len(t.host.authority.state.history) >= 4
                    and leo.replica is not None and leo.replica.seq >= 0, what=t.where)
        network_back = held_back(leo)
        leo.link.close("the watcher's Wi-Fi dropped")
        await until(lambda: not t.host.watchers.holds(fp), what="the host to see the watcher go")
        await until(lambda: t.host.phase is Phase.ENDED, what=t.where)  # the last hand played
        assert leo.end is None  # it was not there to be told
        network_back.set()
        await until(lambda: leo.ended, what=lambda: f"the watcher back: {leo.summary()}")
        summaries = await t.finish(timeout=120)
        return t, leo, summaries[0], summaries[1:], players
    t, leo, watched, played, players = asyncio.run(go())
    host = t.host
    assert watched["fatal"] is None, f"the watcher was turned away: {watched}"
    assert watched["ended"] == {"reason": host.result["reason"], "head": host.result["head"]}
    assert watched["head"] == host.result["head"] and watched["alerts"] == []
    assert watched["hands_verified"] == 1, watched  # it checked the hand it missed the end of
    assert watched["scores"] == host.result["scores"] == played[0]["scores"]  # the final scores
    assert leo.reconnects >= 1 and leo.replica.seat is None
    assert all(s["alerts"] == [] and s["fatal"] is None for s in played), played


def test_a_fresh_watcher_after_the_end_is_told_the_table_has_ended(tmp_path, deal):
    async def go():
        t = Table(tmp_path, hands=1, timings=PATIENT,
                  host_kw={"mental_deal": deal, "bot_delay": 0.02})
        await t.start()
        await asyncio.wait_for(t.host.finished.wait(), 120)
        mia = t.add_guest(ident("Mia"), watch=True, bot_level=None)
        await until(lambda: mia.ended, what=lambda: f"the late watcher: {mia.summary()}")
        await t.close()
        return mia
    mia = asyncio.run(go())
    assert mia.fatal is not None and "has ended" in mia.fatal, mia.fatal
    assert mia.replica is None  # sent nothing of the log


# -- a player away while the table is carried on ---------------------------------------------

class Adverts:
    """Every mDNS advert a host makes, as a lobby on the network finds it (nothing is
    announced anywhere: ``advert``'s zeroconf advertiser is replaced for the test)."""

    def __init__(self, monkeypatch):
        self.found: list[dict] = []
        monkeypatch.setattr(advert_module, "_zeroconf_advertiser", self._advertiser)

    def _advertiser(self, advert, interfaces):
        found = self.found

        class Announced:
            async def start(self) -> None:
                found.append({**advert.found(f"svc-{len(found)}", "127.0.0.1"), "answering": True})

            async def update(self, **changes) -> None:
                pass

            async def stop(self) -> None:
                pass
        return Announced()


# A copy past the takeover's base does not follow on from its end: the new host's log
# after it is not the copy's, and the replica says the host broke the chain (main: the
# same, and no Rejoin offered at all). The fix, tried on this branch, has the new host
# name its takeover entries in "joined" ("took"), the guest audit one its copy goes past
# and roll back to it; a protocol-16 client rejects a "joined" with that unexpected key,
# so it waits for a protocol change.
PAST = pytest.mark.xfail(strict=True, reason="a copy past a takeover's base is not rolled "
                         "back to it (needs 'took' in 'joined': a protocol change)")


@pytest.mark.parametrize("copy", ["behind", pytest.param("past", marks=PAST)])
def test_a_player_away_while_the_table_was_handed_on_is_offered_rejoin_at_the_new_host(
        tmp_path, deal, copy, monkeypatch):
    """``copy``: what the player's copy holds. "behind": no more than every player who
    stayed (the table goes on from past its end, and the copy is kept: only it holds
    the player's cards of the hands before the takeover); "past": entries the others
    never got (one of them lost them), so the takeover extends an entry before its end
    (``PAST``)."""
    adverts = Adverts(monkeypatch)
    # (the table carried on never ends by itself: the player comes back to it going on)
    carry_on = {**CARRY_ON, "host_kw": {**CARRY_ON["host_kw"], "hands": None, "mental_deal": deal}}

    async def go():
        t = Table(tmp_path, hands=None, guests=0, timings=PATIENT,
                  host_kw={"mental_deal": deal, "bot_delay": 0.02})
        await t.start()
        homes = [tmp_path / f"home{i}" for i in range(3)]
        guests = [t.add_guest(ident(f"Guest{i}"), takeover=carry_on, interfaces=[],
                              remember=LastTable(homes[i]), state_dir=homes[i], bot_delay=0.02)
                  for i in range(3)]
        deafs = {id(g): Deaf(g) for g in guests}
        await until(lambda: t.hand_started() and all(len(g.succession.roster) == 3 for g in guests)
                    and all(LastTable(h).load() is not None for h in homes), what=t.where)
        by_seat = sorted(guests, key=lambda g: g.replica.seat)
        heir, stays, away = by_seat
        home = homes[guests.index(away)]
        # the player who stays follows the heir, but cannot reach it until we say so
        network_back, deaf = held_back(stays), deafs[id(stays)]
        if copy == "past":  # the player who stays loses the log's last entries
            auth = t.host.authority
            await until(lambda: len(auth.state.history) >= 2
                        and stays.replica.seat not in auth.state.to_act(), interval=0.001)
            deaf.on = True
            await until(lambda: away.replica.seq > stays.replica.seq, what=t.where)
        await away.stop()  # its app closed: the seat is kept, and remembered on its disk
        await until(lambda: away.identity.fingerprint not in t.host.links)
        remembered = LastTable(home).load()
        assert remembered["fingerprint"] == t.host.identity.fingerprint
        remembered_seq = away.replica.seq  # (its copy on disk ends there)
        assert await t.host.hand_over(heir.replica.seat)  # the host leaves, handing it on
        await until(lambda: heir.succession.host is not None and heir.succession.host.is_open,
                    what=t.where)
        carried: HostCore = heir.succession.host
        await until(lambda: stays.fingerprint == carried.identity.fingerprint, what=t.where)
        # Should its app close now, before it is back at the table, its lobby looks for
        # the heir: the seat it remembers followed the takeover.
        follower = LastTable(homes[guests.index(stays)]).load()
        deaf.on = False
        network_back.set()
        await until(lambda: any(a["fingerprint"] == carried.identity.fingerprint
                                for a in adverts.found), what="the heir's advert")
        # The player's app starts again: its lobby looks for the table it remembers.
        lobby = Lobby([], memory=LastTable(home), identity=lambda: away.identity)
        lobby._tables = list(adverts.found)
        offer = await lobby._rejoin_offer()
        assert offer is not None, f"no Rejoin offered for {LastTable(home).load()} among {adverts.found}"
        assert offer["fingerprint"] == carried.identity.fingerprint and offer["port"] == carried.port
        assert offer["table"] == remembered["table"] and offer["seat"] == remembered["seat"]
        # Rejoin, as the app does with the offer (``Network.join``).
        back = GuestCore(away.identity, address=offer["address"], port=offer["port"],
                         fingerprint=offer["fingerprint"], seat=offer["seat"],
                         table_name=offer["name"], remember=LastTable(home), state_dir=home,
                         takeover=carry_on, timings=t.timings, bot_level="random", bot_delay=0.02)
        t.guests.append(back)
        t.tasks.append(asyncio.ensure_future(back.run()))
        await until(lambda: back.caught_up and back.replica.seat == remembered["seat"]
                    and back.identity.fingerprint in carried.links, what=lambda: back.summary())
        held = [s.hash for s in back.replica.log]
        assert held == [s.hash for s in carried.authority.log][:len(held)]
        followed = LastTable(home).load()
        await until(lambda: stays.caught_up and stays.identity.fingerprint in carried.links,
                    what=lambda: stays.summary())  # the follower back too
        base = next(e for e in carried.authority.log if e.kind == takeover.KIND).seq - 1
        assert (remembered_seq > base) == (copy == "past"), (remembered_seq, base)
        assert back.links_made == 1 and back.reconnects == 0, back.summary()
        result = (remembered, followed, follower, back.summary(), stays.summary(),
                  carried.identity.fingerprint, carried.port, heir.identity.name)
        await t.close()
        return result
    remembered, followed, follower, summary, stayed, new_host, port, heir = asyncio.run(go())
    assert summary["alerts"] == [] and summary["fatal"] is None, summary
    assert followed["fingerprint"] == new_host and followed["seat"] == remembered["seat"]
    assert stayed["alerts"] == [] and stayed["fatal"] is None, stayed
    assert (follower["fingerprint"], follower["port"], follower["host"]) == (new_host, port, heir)
