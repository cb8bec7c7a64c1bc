"""A table of mental-deal clients over real sockets, for whole-hand tests.

The host's process runs the sequencer (``DealSequencer``) and the host's own party
(``DealClient``); each guest is a ``DealClient`` on its own authenticated TLS connection
on loopback (``net.wire.transport``), all in the test's event loop. Every deal message
goes guest -> host -> the log -> every party, signed by its party.

The test is the referee: it knows every party's secrets (``god_view``), plays the hand
on the engine with the true deal, and sends each party the hand's steps
(``net.trust.deals.mental.flows``) over the wire, then waits until the log is quiet
(``settle``: every guest has answered a ping sent after everything it was sent, and
the log did not grow meanwhile).
"""

from __future__ import annotations

import asyncio

from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import flows
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.sequencer import DealSequencer, parties_for
from net.trust.deals.mental.setup import DealSetup
from net.wire.framing import SCHEMAS
from net.wire.transport import open_connection, start_server
from tests.net.trust.mental_table import fixed_identity
from tests.waits import until

WIRE = SCHEMAS.copy()
WIRE.message("mental", signed=dict)  # guest -> host: one signed deal message
WIRE.message("mental-log", party=(int, None), record=dict)  # host -> guest: one record
WIRE.message("setup", game=list, hand=int, dealer=int)  # host -> guest: a deal begins
WIRE.message("step", step=dict)  # host -> guest: a step of the hand
WIRE.message("ping", n=int)
WIRE.message("pong", n=int)

STEPS = {cls.__name__: cls for cls in (flows.OpenToAll, flows.OpenTo, flows.Give, flows.Commit,
                                       flows.PlayCard, flows.Finish)}


def step_wire(step) -> dict:
    return {"kind": type(step).__name__,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in step._asdict().items()}}


def step_read(wire: dict):
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in wire.items() if k != "kind"}
    return STEPS[wire["kind"]](**fields)


def make_setup(game, keys_by_seat, host_key, hand, dealer) -> DealSetup:
    return DealSetup.for_game(game, DealContext("t-loopback", hand), parties_for(host_key, keys_by_seat),
                              dealer, flows.redeal_rule(game))


class LoopGuest:
    def __init__(self, identity, host_key, keys_by_seat, make_game):
        self.identity, self.host_key, self.keys_by_seat = identity, host_key, keys_by_seat
        self.make_game = make_game
        self.client: DealClient | None = None

    async def run(self, port: int) -> None:
        self.conn = await open_connection("127.0.0.1", port, self.identity, schemas=WIRE)
        async for msg in self.conn:
            kind = msg["type"]
            if kind == "setup":
                game = self.make_game(*msg["game"])
                self.client = DealClient(self.identity, make_setup(
                    game, self.keys_by_seat, self.host_key, msg["hand"], msg["dealer"]))
                await self.send(self.client.start())
            elif kind == "mental-log":
                await self.send(self.client.logged(msg["party"], msg["record"]))
            elif kind == "step":
                await self.send(self.client.step(step_read(msg["step"])))
            elif kind == "ping":
                await self.conn.send({"type": "pong", "n": msg["n"]})

    async def send(self, envelopes) -> None:
        for envelope in envelopes:
            await self.conn.send({"type": "mental", "signed": envelope})


class LoopbackTable:
    """``seats``: seat -> index of the identity that plays it (0: the host)."""

    def __init__(self, make_game, variant, seats: list[int], dealer: int = 1, hand: int = 3):
        self.variant, self.game = variant, make_game(*variant)
        self.identities = [fixed_identity(i) for i in range(max(seats) + 1)]
        host = self.identities[0]
        self.keys_by_seat = {seat: self.identities[i].public_key for seat, i in enumerate(seats)}
        self.setup = make_setup(self.game, self.keys_by_seat, host.public_key, hand, dealer)
        self.sequencer = DealSequencer(self.setup, 10.0, 0.0)
        self.host = DealClient(host, self.setup)
        self.guests = [LoopGuest(i, host.public_key, self.keys_by_seat, make_game)
                       for i in self.identities[1:]]
        self.conns: dict[bytes, object] = {}
        self.pongs: asyncio.Queue = asyncio.Queue()
        self.hand, self.dealer = hand, dealer

    @property
    def clients(self) -> list[DealClient]:
        return [self.host] + [g.client for g in self.guests]

    async def __aenter__(self):
        self.server = await start_server("127.0.0.1", 0, self.identities[0], self._serve, schemas=WIRE)
        self.tasks = [asyncio.create_task(g.run(self.server.port)) for g in self.guests]
        assert await until(lambda: len(self.conns) == len(self.guests))  # the handshakes
        return self

    async def __aexit__(self, *exc):
        for guest in self.guests:
            await guest.conn.close()
        self.server.close()
        await self.server.wait_closed()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _serve(self, conn) -> None:
        self.conns[conn.peer_key] = conn
        async for msg in conn:
            if msg["type"] == "mental":
                await self.submit(conn.peer_key, [msg["signed"]])
            else:
                self.pongs.put_nowait(msg["n"])

    async def submit(self, key: bytes, envelopes) -> None:
        for envelope in envelopes:
            index = self.sequencer.submit(key, envelope, 0.0)
            if index is None:
                continue
            party, record = self.sequencer.log[index]
            await self.broadcast({"type": "mental-log", "party": party, "record": record})
            await self.submit(self.identities[0].public_key, self.host.logged(party, record))

    async def broadcast(self, msg: dict) -> None:
        for conn in self.conns.values():
            await conn.send(msg)

    async def settle(self) -> None:
        """Until every guest has read everything and the log stopped growing."""
        while True:
            size = len(self.sequencer.log)
            await self.broadcast({"type": "ping", "n": size})
            for _ in self.conns:
                await self._pong()
            if len(self.sequencer.log) == size:
                return

    async def _pong(self) -> None:
        """The next pong; a guest that failed (its task ended) fails the test at once."""
        pong = asyncio.ensure_future(self.pongs.get())
        done, _ = await asyncio.wait([pong, *self.tasks], timeout=10,
                                     return_when=asyncio.FIRST_COMPLETED)
        if pong not in done:
            pong.cancel()
            failed = [t for t in self.tasks if t.done()]
            raise failed[0].exception() if failed and failed[0].exception() else TimeoutError("no pong")

    # -- the referee's moves ------------------------------------------------------------
    async def deal(self) -> None:
        await self.broadcast({"type": "setup", "game": list(self.variant), "hand": self.hand,
                              "dealer": self.dealer})
        await self.submit(self.identities[0].public_key, self.host.start())
        await self.settle()

    async def everyone(self, step) -> None:
        await self.broadcast({"type": "step", "step": step_wire(step)})
        await self.submit(self.identities[0].public_key, self.host.step(step))
        await self.settle()

    async def owner(self, step) -> None:
        owner = self.setup.owner(step.seat)
        if owner == 0:
            await self.submit(self.identities[0].public_key, self.host.step(step))
        else:
            key = self.setup.parties[owner].key
            await self.conns[key].send({"type": "step", "step": step_wire(step)})
        await self.settle()

    def god_view(self) -> list[int]:
        """The card at every final position, from every party's secrets (the referee's)."""
        final = self.host.machine.final
        lookup = decks.card_lookup(len(final))
        return [lookup[decks.decrypt(c, [client.machine.secrets.x * c.c1 for client in self.clients])]
                for c in final]

    async def play_hand(self, choose) -> object:
        """The whole hand on the engine's true deal, every step through the wire."""
        game = self.game
        hands, spare = self.setup.layout(self.god_view())
        state = game.new_hand(hands, spare, self.setup.dealer)
        opened = False
        for step in flows.at_deal(game, state):
            opened = True
            await self.everyone(step)
        while state.to_act():
            seat = state.to_act()[0]
            action = choose(state, seat)
            own = flows.by_player(action)
            if own is not None:
                await self.owner(own)
            events = state.apply(action)
            for step in flows.after(game, state, events, opened):
                opened = opened or isinstance(step, flows.OpenToAll)
                await self.everyone(step)
        return state

