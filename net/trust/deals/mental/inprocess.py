"""Every party of a deal in one process, their messages through one ordered log.

This is what the host's log does for the deal (every message to every party, its sender
included, in one order) without sockets: the benchmark (``net.tools.bench_mental``) and
the tests (``tests/net/trust/mental_table.py``) drive whole deals with it.
"""

from __future__ import annotations

from collections import deque

from .keys import DealContext, PartySecrets
from .machine import MentalDeal, Send
from .setup import DealSetup, Party


class InProcessDeal:
    def __init__(self, game, identities, seats_by_party, dealer=0, context=None,
                 needs_redeal=None):
        self.game = game
        self.identities = list(identities)
        parties = [Party(ident.public_key, tuple(seats))
                   for ident, seats in zip(self.identities, seats_by_party)]
        context = context or DealContext("in-process", 0)
        self.setup = DealSetup.for_game(game, context, parties, dealer, needs_redeal)
        self.secrets = [PartySecrets.derive(ident, context) for ident in self.identities]
        self.machines = [MentalDeal(self.setup, i, s) for i, s in enumerate(self.secrets)]
        self.log: list[tuple[int, dict]] = []
        self.outputs: list[list] = [[] for _ in self.machines]
        self._queue: deque = deque()

    @property
    def parties(self):
        return range(len(self.machines))

    def publish(self, party: int, message: dict) -> None:
        """Hook: what goes on the log when ``party`` sends ``message``."""
        self._queue.append((party, message))

    def deliver(self, party: int, sender: int, message: dict) -> list:
        """Hook: one party's machine receives one logged message."""
        return self.machines[party].receive(sender, message)

    def take(self, party: int, outputs) -> None:
        for out in outputs:
            self.outputs[party].append(out)
            if isinstance(out, Send):
                self.publish(party, out.message)

    def flush(self) -> None:
        while self._queue:
            sender, message = self._queue.popleft()
            self.log.append((sender, message))
            for party in self.parties:
                outputs = self.deliver(party, sender, message)
                if outputs:
                    self.take(party, outputs)

    def run(self, party: int, outputs) -> None:
        self.take(party, outputs)
        self.flush()

    def deal(self) -> None:
        for party, machine in enumerate(self.machines):
            self.take(party, machine.start())
        self.flush()

    def events(self, party: int, kind) -> list:
        return [o for o in self.outputs[party] if isinstance(o, kind)]
