"""Helpers for the session tests: a HostCore and GuestCores on loopback in one loop."""

from __future__ import annotations

import asyncio
import threading
import time

from engine.bots import make_bot
from net.sessions.events import legal_for
from net.sessions.guest_session import GuestCore
from net.wire.heartbeat import Timings
from tests.net.trust_table import identity as ident  # one key per name per run
from net.sessions.host_session import HostCore
from net.trust.deals.mental.waits import Waits
from net.trust.deals.seeded.host import SeededHost
from net.wire.identity import Identity
from tests.waits import until

# Quick timings, but a link silent for 5 s before it counts as dropped, not 1 s: the whole
# table shares one event loop here, and on a loaded machine one party's deal work can keep
# the others from hearing a healthy peer for over a second (a test about a silent link
# sets its own).
QUICK = Timings.quick(timeout=5.0)
# A contribution deadline no test waits for: the tests that are not about a player gone
# past it keep every guest in the deal however loaded the machine (under the mental deal
# a guest late past the deadline is restarted out of it). (Under the private deal each
# party also checks every other's shuffle proof on that one loop.)
PATIENT = Timings.quick(timeout=5.0, contribution=30.0)
# How long a private deal waits for a party connected but silent in a test that times only
# the gone (``only_the_gone_timed_tightly``): longer than any test.
HEALTHY_WAIT = 600.0
LOOK_AGAIN = 0.25  # how often a patient seeded deal looks whether a late seat is away


def only_the_gone_timed_tightly(monkeypatch, silent: tuple[bytes, ...] = ()) -> None:
    """In this test, a host's private deal waits ``HEALTHY_WAIT`` for a party that is
    connected but owes a message (the contribution deadline, ``waits.Waits``), and the
    table's short deadline only for a party gone (its drop wait, never less than the
    deadline) and for the clients a test means to be silent (``silent``: their keys).
    For a test about a player late past the deadline: the table shares one loop, and on
    a loaded machine a healthy guest's deal work can take longer than the short deadline,
    which would restart it out too (seen at load 15 and beside ``stress-ng --cpu 2``:
    "your client did not answer the deal in time"). The peers' checks of the restart are
    untouched: they time the gone party's drop, or the deal's standstill."""
    due = Waits._due

    def patient_with_the_healthy(waits, party, held):
        if held.gone or party.key in silent:
            return due(waits, party, held)
        return held.since + HEALTHY_WAIT
    monkeypatch.setattr(Waits, "_due", patient_with_the_healthy)
    the_seeded_deal_skips_only_the_gone(monkeypatch, silent)


def the_seeded_deal_skips_only_the_gone(monkeypatch, silent: tuple[bytes, ...] = ()) -> None:
    """The same for the seeded deal: past its deadline it skips a seat that is not a
    connected person's (away, a stand-in's, or ``silent``), and waits ``HEALTHY_WAIT`` for a person
    connected (beside two busy loops a healthy guest's contribution came past the 1.5 s
    deadline, and the host answered it "the cards are already dealt": ci31). Past the
    deadline the host looks again every ``LOOK_AGAIN`` seconds, so a seat whose person
    goes away then is skipped then. The peers' check of a skip (no earlier than the
    deadline) is untouched: a later one is as valid."""
    overdue = SeededHost.overdue

    def overdue_if_gone(deal):
        late = overdue(deal)
        if deal.table.now() - deal.since >= HEALTHY_WAIT:
            return late
        healthy = {seat for seat, info in deal.table.seats().items()
                   if info.is_player and info.connected and info.key not in silent}
        return [gone for gone in late if gone.who not in healthy]

    def due_in(deal):
        if not deal.awaited():
            return None
        return max(deal.since + deal.table.deadline - deal.table.now(), LOOK_AGAIN)
    monkeypatch.setattr(SeededHost, "overdue", overdue_if_gone)
    monkeypatch.setattr(SeededHost, "due_in", due_in)


class Table:
    """One host (its own seat played by a bot) and guests, all on 127.0.0.1."""

    def __init__(self, tmp_path, game="rook", hands=1, guests=3, bots=0, host_kw=None,
                 timings=QUICK, host_identity: Identity | None = None, **settings):
        self.tmp = tmp_path
        self.timings = timings
        self.host_events: list[dict] = []
        #: when each of ``host_events`` was emitted (the loop's clock): a test timing the
        #: host measures from the host's own moment, not from when its own poll saw it
        self.host_event_times: list[float] = []
        self.guest_events: dict[int, list[dict]] = {}
        self.host = HostCore(host_identity or ident("Host"), {"game": game, **settings},
                             state_dir=tmp_path / "host", emit=self._host_emitted,
                             timings=timings, bots={s: "random" for s in range(1, 1 + bots)},
                             hands=hands, **{"autoplay": True, "auto_start": True, **(host_kw or {})})
        self.n_guests = guests
        self.guests: list[GuestCore] = []
        self.tasks: list[asyncio.Task] = []

    def _host_emitted(self, event: dict) -> None:
        self.host_events.append(event)
        self.host_event_times.append(time.monotonic())

    async def start(self) -> None:
        await self.host.start()
        for i in range(self.n_guests):
            self.add_guest(ident(f"Guest{i}"))

    def add_guest(self, identity: Identity, **kw) -> GuestCore:
        """A guest of its own (``state_dir``: another's, as its app restarted uses it;
        ``timings``: its own, rather than the table's)."""
        i = len(self.guests)
        events = self.guest_events.setdefault(i, [])
        kw.setdefault("bot_level", "random")
        kw.setdefault("state_dir", self.tmp / f"guest{i}")
        kw.setdefault("timings", self.timings)
        guest = GuestCore(identity, address="127.0.0.1", port=self.host.port,
                          fingerprint=self.host.identity.fingerprint, emit=events.append, **kw)
        self.guests.append(guest)
        self.tasks.append(asyncio.ensure_future(guest.run()))
        return guest

    def seat_players(self, count: int, **kw) -> list[GuestCore]:
        """``count`` players more ("Guest0", "Guest1", …), their clients' bots playing
        (``kw``: ``add_guest``'s, e.g. ``bot_delay``)."""
        return [self.add_guest(ident(f"Guest{i}"), **kw) for i in range(count)]

    def hurry(self) -> None:
        """From now on every bot at the table — the host's and each guest's — moves at
        once: for a test whose bots keep a pace only while its subject happens (talk
        during a hand), the rest of the game played without idling."""
        self.host.bots.delay = 0.0
        for guest in self.guests:
            guest.player.driver.pace = lambda: 0.0
            guest.player.driver.poke()

    async def finish(self, timeout: float = 60.0) -> list[dict]:
        await asyncio.wait_for(self.host.finished.wait(), timeout)
        return await asyncio.wait_for(asyncio.gather(*self.tasks), timeout)

    async def play_out(self, timeout: float = 60.0, players: int = 0, **kw) -> list[dict]:
        """Seat ``players`` players more (``seat_players``, ``kw`` theirs), play the
        table to its end and close it, however it ends: every client's summary."""
        self.seat_players(players, **kw)
        try:
            return await self.finish(timeout)
        finally:
            await self.close()

    async def close(self) -> None:
        for guest in self.guests:
            await guest.stop()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.host.stop()

    def head(self) -> int:
        return self.host.authority.chain.seq

    def hand_started(self) -> bool:
        state = self.host.authority.state
        return state is not None and len(state.history) > 0

    def where(self) -> str:
        """How the table stands (for a stall's message): the last entries, the seats,
        who is to act, the mental deal's parties and whom it awaits, each guest."""
        auth = self.host.authority
        state, deal = auth.state, getattr(auth, "deal", None)
        setup = getattr(deal, "setup", None)  # (the private deal's; the seeded deal has none)
        guests = [(g.replica.seat if g.replica else None, g.replica.seq if g.replica else None,
                   g.end, [a["detail"] for a in g.alerts], g.errors) for g in self.guests]
        return (f"last entries {[(s.seq, s.kind) for s in auth.log[-12:]]}, seats "
                f"{ {s: (i.kind, i.connected) for s, i in auth.seats.items()} }, to act "
                f"{state.to_act() if state else None}, parties "
                f"{setup.parties if setup else None}, awaited "
                f"{deal.sequencer.awaited() if setup else None}, guests {guests}")


def mute_client(guest, muted) -> None:
    """``guest``'s client makes none of the messages ``muted(message)`` picks (it hangs
    there): its replica's answers to the host go without them. Muted in the client, not
    on the link — a client that sent one on a link that stayed up and saw it withheld
    would say so (``trust.peer.deliveries``)."""
    real = guest._from_host

    def quiet_from_host(msg):
        replica = guest.replica
        if replica is None:
            return real(msg)
        receive = replica.receive

        def quiet(message, **how):  # (how: the guest's ``arrived``)
            out = receive(message, **how)
            out.sends = [s for s in out.sends if not muted(s)]
            return out
        replica.receive = quiet
        try:
            real(msg)
        finally:
            del replica.receive
    guest._from_host = quiet_from_host


async def play_as_a_person(guest: GuestCore, events: list[dict], host, done) -> list[tuple]:
    """A person at ``guest``'s seat (no bot: ``events`` are its session's) plays from what
    it is offered until ``done()``: at each of its decisions, once it has seen everything
    the host logged, what it was offered (the last "state" event's ``legal``) and what the
    host's rules allow its seat (``host``: a HostCore), as (offered, allowed) pairs. It
    decides as a bot would from its view; a refusal of its move fails the test."""
    auth, offered = host.authority, []

    def asked() -> bool:
        r = guest.replica
        # (and its screen shows it: the last "state" offers moves on the replica's view —
        # a busy machine once had the person decide on the one before: "nothing to decide")
        states = [e for e in events if e["type"] == "state"]
        return r is not None and r.seat is not None and auth.state is not None \
            and r.seat in auth.state.to_act() and r.seq == auth.chain.seq \
            and guest.player.in_flight is None \
            and bool(states) and bool(states[-1]["legal"]) and states[-1]["view"] == r.view

    def refusals() -> list[str]:
        return [e["message"] for e in events if e["type"] == "error" and not e.get("fatal")]
    while not done():
        await until(lambda: done() or asked())
        if done():
            break
        seat = guest.replica.seat
        state = [e for e in events if e["type"] == "state"][-1]
        offered.append((state["legal"], legal_for(auth.game, auth.state, seat)))
        head = auth.chain.seq
        guest.act(make_bot("easy", b"person").choose_json(auth.game, state["view"]))
        await until(lambda: auth.chain.seq > head or refusals())
        assert not refusals(), f"the host refused the person's move: {refusals()}"
    return offered


def same_choices(offered: list[dict], allowed: list[dict]) -> bool:
    """Two lists of legal moves (hand-record dicts) hold the same moves."""
    return sorted(map(repr, offered)) == sorted(map(repr, allowed))


def assert_all_verified(summaries: list[dict], hands: int, head: int | None = None) -> None:
    for s in summaries:
        assert s["alerts"] == [], s["alerts"]
        assert s["hands_verified"] == hands, s
        assert s["ended"] is not None and s["fatal"] is None, s
        if head is not None:
            assert s["head"] == head


# -- the facade's sessions, which run on threads of their own ---------------------------------

class Recorder:
    """``on_event`` for a facade session: every event, and the threads they came on."""

    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.threads = set()

    def __call__(self, event):
        with self.lock:
            self.events.append(event)
            self.threads.add(threading.current_thread().name)

    def of(self, kind):
        with self.lock:
            return [e for e in self.events if e["type"] == kind]




# -- a home network that fails: a host gone silent, players cut off from each other -----------

class Silence:
    """The host's computer gone silent (``silence``): its network down, its app alive.
    Nothing it sends arrives; a connection to its port is accepted by nobody that
    answers, so an attempt times out (``restore`` brings it back, on the same port)."""

    def __init__(self, host: HostCore):
        self.host = host
        self.hole = None

    async def start(self) -> None:
        host = self.host
        for link in list(host.links.values()):
            link.send = lambda msg: None  # (its queue is empty: the guests hear nothing more)
        host.server._server.close()  # no longer listening; its connections stay open
        self.hole = await asyncio.start_server(lambda reader, writer: None, host.options.bind, host.port)

    async def restore(self) -> None:
        self.hole.close()
        await self.hole.wait_closed()
        await self.host.server._start(self.host.options.bind, self.host.port)


async def silence(host: HostCore) -> Silence:
    gone = Silence(host)
    await gone.start()
    return gone


class Reach:
    """Who reaches whom at a ``Table`` on loopback, as on a home network split in parts
    (``cut``): a guest cut off from the host loses its link and cannot connect again; two
    guests cut off from each other cannot reach each other's standby, nor — once one of
    them carries the table on — its table. ``heal`` joins everything again."""

    def __init__(self, table: Table):
        self.table = table
        self.cuts: set[frozenset] = set()
        for guest in table.guests:
            self._wire(guest)

    def cut(self, *groups) -> None:
        """Split the table into ``groups`` (each a list of the host and guests): every
        pair in different groups is cut off, and a guest's link to a host it is cut off
        from drops now."""
        for i, group in enumerate(groups):
            for other in groups[i + 1:]:
                self.cuts |= {frozenset((id(a), id(b))) for a in group for b in other}
        host = self.table.host
        for guest in self.table.guests:
            if self._apart(guest, host) and guest.link is not None:
                guest.link.close("cut off")

    def heal(self) -> None:
        self.cuts.clear()

    def _apart(self, a, b) -> bool:
        return frozenset((id(a), id(b))) in self.cuts

    def _owner(self, port: int | None):
        """Whose table listens at ``port``: the host's, or a guest's that carries it on."""
        if port == self.table.host.port:
            return self.table.host
        return next((g for g in self.table.guests if g.succession.host is not None
                     and g.succession.host.port == port), None)

    def _wire(self, guest: GuestCore) -> None:
        connect, offer = guest._connect, guest.succession._offer

        async def connecting():
            owner = self._owner(guest.port)
            if owner is not None and self._apart(guest, owner):
                raise ConnectionRefusedError("cut off")
            return await connect()

        async def offering(seat, standing):
            other = next((g for g in self.table.guests if g.replica is not None
                          and g.replica.seat == seat), None)
            if other is not None and self._apart(guest, other):
                return None
            return await offer(seat, standing)
        guest._connect, guest.succession._offer = connecting, offering
