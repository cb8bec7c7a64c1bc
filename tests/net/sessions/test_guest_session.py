"""GuestCore's own decisions, message by message (no sockets): a move in flight is never
sent twice, only a refusal of this seat's own move reaches the person, and nothing is
decided on the table's past while the log announced at a join comes.

The host is a sans-I/O ``HostAuthority`` (tests/net/trust_table.py); what it sends to
seat 1 is held back and handed to a GuestCore by hand, and what the guest sends goes to
the host when the test says, so a guest's "Got it" and another seat's can cross."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from net.wire import messages as m
from net.sessions.guest_session import GuestCore
from tests.net.trust_table import TABLE, Table

SEAT = 1


class HeldLink:
    """A link that keeps what the guest sends."""

    def __init__(self, host_key: bytes):
        self.conn = SimpleNamespace(peer_key=host_key, peer_name="Host")
        self.sent: list[dict] = []
        self.arrived: float | None = None  # (no link: each message timed as it is read)

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def close(self, reason: str) -> None:
        pass

    def reject(self, reason: str) -> None:
        raise AssertionError(f"the guest rejected the host: {reason}")


class Harness:
    """A Rook table (trust_table) whose seat 1 is a GuestCore fed by hand."""

    def __init__(self, bot_level: str | None = None):
        self.table = Table(("rook", None, None), open_=False)
        self.inbox: list[dict] = []
        self.table.tamper = self._hold
        self.events: list[dict] = []
        self.timers: list[tuple] = []  # timers set with no event loop running (never fired)
        self.guest = GuestCore(self.table.ids[SEAT], emit=self.events.append, bot_level=bot_level,
                               call_later=self._later)
        self.guest.link = self.link = HeldLink(self.table.host_id.public_key)
        self.table.open()
        self.guest.receive({"type": "joined", "table": TABLE, "seat": SEAT, "head": 0})
        self.table.replicas[SEAT] = self.guest.replica  # the host's messages reach it via feed()
        self.table.start()
        self.feed()

    def _later(self, delay: float, fn, *args):
        try:
            return asyncio.get_running_loop().call_later(delay, fn, *args)
        except RuntimeError:
            self.timers.append((delay, fn, args))

    def _hold(self, fp: str, msg: dict):
        if fp == self.table.fp(SEAT):
            self.inbox.append(msg)
            return None
        return msg

    def feed(self) -> None:
        """Everything the host has sent seat 1 so far; its contributions go straight back."""
        while self.inbox:
            self.guest.receive(self.inbox.pop(0))
            for msg in self.take(m.CONTRIBUTION):
                self.table.deliver(self.table.host.receive(self.table.fp(SEAT), msg))

    def take(self, kind: str) -> list[dict]:
        found = [msg for msg in self.link.sent if msg["type"] == kind]
        self.link.sent = [msg for msg in self.link.sent if msg["type"] != kind]
        return found

    def to_widow(self) -> None:
        host = self.table.host
        while host.state.phase != "widow":
            seat = host.state.to_act()[0]
            if seat == SEAT:
                self.guest.act(self.table.choose(SEAT))
                self.send_actions()
            else:
                self.table.step(seat)
            self.feed()

    def send_actions(self) -> int:
        actions = self.take(m.ACTION)
        for msg in actions:
            self.table.deliver(self.table.host.receive(self.table.fp(SEAT), msg))
        return len(actions)

    def other_ack(self) -> None:
        other = next(s for s in self.table.host.state.to_act() if s != SEAT)
        self.table.step(other, {"ack": True})
        self.feed()

    def legal(self) -> list:
        return [e for e in self.events if e["type"] == "state"][-1]["legal"]


def test_a_persons_got_it_goes_once_while_it_is_in_flight():
    h = Harness()
    h.to_widow()
    assert h.legal() == [{"ack": True}]
    h.guest.act({"ack": True})
    h.other_ack()  # another seat's "Got it" is logged before ours arrives
    assert h.legal() == []  # nothing to decide while ours is on its way
    h.guest.act({"ack": True})  # a second click
    assert h.send_actions() == 1
    h.feed()
    assert SEAT not in h.table.host.state.to_act() and h.guest.player.in_flight is None
    assert not [e for e in h.events if e["type"] == "error"]


def test_a_bots_got_it_is_not_sent_again_when_another_arrives_first():
    async def main():
        h = Harness(bot_level="random")
        h.to_widow()
        await asyncio.sleep(0.01)  # the bot decides (call_later 0)
        assert len([msg for msg in h.link.sent if msg["type"] == m.ACTION]) == 1
        h.other_ack()
        await asyncio.sleep(0.01)
        assert h.send_actions() == 1  # before the fix: two, the second refused as a replay
        h.feed()
        assert not h.table.errors and not h.guest.errors
    asyncio.run(main())


def told(h: Harness) -> list[str]:
    return [e["message"] for e in h.events if e["type"] == "error"]


def test_only_a_refusal_of_our_own_move_reaches_the_person():
    h = Harness()
    h.to_widow()
    h.guest.receive(m.error_message("no deal is waiting for randomness"))
    assert not told(h)  # not about our move: logged
    assert h.guest.errors == ["no deal is waiting for randomness"]
    h.guest.act({"ack": True})
    [ours] = h.take(m.ACTION)  # lost on the way; the host says no
    shown = len(h.events)
    h.guest.receive(m.error_message("not yours", refuses=bytes(64)))  # names another message
    assert h.events[shown:] == [] and h.guest.player.in_flight is not None  # logged only
    h.guest.receive(m.error_message("the action is for another table",
                                    refuses=ours["signed"]["sig"]))
    assert told(h) == ["the action is for another table"]
    assert h.events[-1]["type"] == "state" and h.legal() == [{"ack": True}]  # offered again
    h.guest.act({"ack": True})
    assert h.send_actions() == 1


def until_ours(h: Harness) -> None:
    """The other seats move until seat 1 is to act."""
    host = h.table.host
    while SEAT not in host.state.to_act():
        h.table.step(next(s for s in host.state.to_act() if s != SEAT))
        h.feed()


def test_a_late_refusal_of_an_earlier_move_is_not_taken_for_the_one_in_flight():
    """The host refuses a move of ours after the next one went (one sent twice, or
    decided on a position the table had left): that refusal names the earlier move, so
    the one in flight stays on its way — the person is told nothing, nothing is decided
    again — and is logged when it arrives."""
    h = Harness()
    h.to_widow()
    h.guest.act({"ack": True})
    [earlier] = h.take(m.ACTION)
    h.table.deliver(h.table.host.receive(h.table.fp(SEAT), earlier))
    h.feed()
    until_ours(h)
    h.guest.act(h.table.choose(SEAT))
    in_flight, shown = h.guest.player.in_flight, len(h.events)
    assert in_flight is not None
    h.guest.receive(m.error_message("the action is older than your last one (a replay)",
                                    refuses=earlier["signed"]["sig"]))
    assert h.events[shown:] == [] and h.guest.player.in_flight == in_flight  # logged only
    assert h.send_actions() == 1  # the move in flight, the only one sent
    h.feed()
    assert h.guest.player.in_flight is None and not told(h) and not h.table.errors


def test_nothing_is_offered_nor_sent_before_the_log_announced_at_the_join_is_held():
    """Back on a new link, the host announces its head in "joined"; until the replica
    holds that entry, what it shows is the table's past: the decision it offered before
    is withdrawn, a move is not sent (the person is told to wait), and it is offered
    again once the log has come."""
    h = Harness()
    h.to_widow()
    assert h.legal() == [{"ack": True}]
    other = next(s for s in h.table.host.state.to_act() if s != SEAT)
    h.table.step(other, {"ack": True})  # logged, on its way to us
    h.guest.receive({"type": "joined", "table": TABLE, "seat": SEAT,
                     "head": h.table.host.chain.seq})
    assert h.events[-1]["type"] == "state" and h.legal() == []
    h.guest.act({"ack": True})
    assert not h.take(m.ACTION) and told(h) == ["catching up with the table: wait a moment"]
    h.feed()
    assert h.legal() == [{"ack": True}]
    h.guest.act({"ack": True})
    assert h.send_actions() == 1


def test_a_second_got_it_after_the_first_is_logged_changes_nothing():
    h = Harness()
    h.to_widow()
    h.guest.act({"ack": True})
    h.send_actions()
    h.feed()
    assert h.guest.player.in_flight is None and SEAT not in h.table.host.state.to_act()
    h.guest.act({"ack": True})  # e.g. Enter pressed again
    assert not h.take(m.ACTION) and not [e for e in h.events if e["type"] == "error"]
