"""An in-memory table for the trust-protocol tests: one HostAuthority, PeerReplicas for
the other human seats, messages passed by hand (no sockets, no threads, no clock).

``Table.deliver(out)`` hands the host's messages to the replicas and the replicas'
answers back to the host until nothing is left; ``tamper`` hooks let a test rewrite
what the host sends (a cheating host) before replicas see it.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import pytest

from engine import make_game
from engine.bots.random_bot import RandomBot
from net.trust.host.authority import HostAuthority
from net.trust.deals.seeded.peer import SeededPeer
from net.trust.entries import EntryError
from net.trust.signing import read_action, sign_action
from net.trust.values import Entry, SignedEntry
from net.wire.identity import Identity, clean_name
from net.trust.peer.replica import PeerReplica

TABLE = "table-1"
_KEYS: dict[str, Identity] = {}


def identity(name: str) -> Identity:
    """The key of ``name``, the same in every run: the private deal's cards follow from the
    players' keys as well as the table's seed, so with fresh keys a test's seed dealt
    differently each run (now and then a Rook hand with no point card, redealt, which
    every Rook test of that run then met at once). Made once per name: keys are slow-ish
    to make and tests need many tables."""
    if name not in _KEYS:
        secret = hashlib.sha256(b"parlour-test-key/" + name.encode()).digest()
        _KEYS[name] = Identity(Ed25519PrivateKey.from_private_bytes(secret), clean_name(name))
    return _KEYS[name]


def settings_for(variant) -> dict:
    title, ruleset, mode = variant
    return {"game": title, "ruleset": ruleset, "mode": mode, "options": {}}


class Table:
    def __init__(self, variant=("rook", None, None), seed: int = 1, peers=(1, 2, 3),
                 host_seat: int = 0, persist=None, open_=True):
        self.settings = settings_for(variant)
        self.rng = random.Random(seed)
        self.host_id = identity("host")
        self.persisted: list = []
        self.persist = persist or (lambda signed, private: self.persisted.append((signed, private)))
        self.host = HostAuthority(self.host_id, self._bytes, persist=lambda s, p: self.persist(s, p))
        game = make_game(self.settings["game"], self.settings["ruleset"], self.settings["mode"])
        self.num_players = game.num_players
        self.peer_seats = [s for s in peers if s < game.num_players]
        self.host_seat = host_seat
        self.ids = {seat: identity(f"peer{seat}") for seat in self.peer_seats}
        self.replicas = {seat: PeerReplica(self.ids[seat], self.host_id.public_key, TABLE, self._bytes)
                         for seat in self.peer_seats}
        self.alerts: list = []
        self.named: list = []  # (seat, IntegrityAlert): a player's cheat named; the table goes on
        self.verified: dict[int, list] = {seat: [] for seat in self.peer_seats}
        self.errors: list = []
        self.tamper = None  # fn(fp, message) -> message or None (dropped)
        self.bot = RandomBot(seed)
        if open_:
            self.open()

    def _bytes(self, n: int) -> bytes:
        return self.rng.randbytes(n)

    def fp(self, seat: int) -> str:
        return self.ids[seat].fingerprint

    def seat_of_fp(self, fp: str) -> int:
        return next(s for s in self.peer_seats if self.fp(s) == fp)

    def open(self) -> None:
        self.deliver(self.host.open_table(TABLE, self.settings, "Test table"))
        for seat in range(self.num_players):
            if seat == self.host_seat:
                out = self.host.seat(seat, "human", self.host_id.public_key, "Host")
            elif seat in self.peer_seats:
                out = self.host.seat(seat, "human", self.ids[seat].public_key, f"P{seat}")
            else:
                out = self.host.seat(seat, "bot", name=f"Bot{seat}", level="random")
        # A newly seated peer is not sent the live entries it has no history for: like a
        # real session, it first asks for the whole log.
        for seat in self.peer_seats:
            self.deliver(self.host.rejoin(self.fp(seat), seat, -1))

    # -- message passing -----------------------------------------------------------------
    def deliver(self, out) -> None:
        queue = deque(out.sends)
        if out.error:
            self.errors.append(out.error)
        while queue:
            fp, msg = queue.popleft()
            if self.tamper is not None:
                msg = self.tamper(fp, msg)
                if msg is None:
                    continue
            seat = self.seat_of_fp(fp)
            rout = self.replicas[seat].receive(msg)
            self.alerts += [(seat, a) for a in rout.alerts]
            self.named += [(seat, a) for a in rout.named]
            self.verified[seat] += rout.verified
            self.errors += rout.errors
            for reply in rout.sends:
                hout = self.host.receive(fp, reply)
                if hout.error:
                    self.errors.append(hout.error)
                queue.extend(hout.sends)
            if not queue:  # the session lets the deal do its idle work once the sends are out
                queue.extend(self.host.idle().sends)

    # -- playing -------------------------------------------------------------------------
    def choose(self, seat: int) -> dict:
        state = self.host.state
        action = self.bot.choose(state, seat)
        data = state.game.action_to_json(action)
        data.pop("seat")
        return data

    def step(self, seat: int | None = None, action: dict | None = None):
        """One move by whoever is to act (the first of several)."""
        state = self.host.state
        seat = state.to_act()[0] if seat is None else seat
        action = self.choose(seat) if action is None else action
        if seat in self.replicas and self.replicas[seat].halted is not None:
            out = self.host.receive(self.fp(seat), self.raw_act(seat, action))
        elif seat in self.replicas:
            out = self.host.receive(self.fp(seat), self.replicas[seat].act(action))
        else:
            out = self.host.act_local(seat, action)
        self.deliver(out)
        return out

    def raw_act(self, seat: int, action: dict, signer=None, seen: int | None = None,
                mental: dict | None = None) -> dict:
        """A signed action message made without a replica (a halted peer, a cheater);
        ``mental``: a played card's proof for it to carry."""
        game, host = self.host.game, self.host
        seen = host.chain.seq if seen is None else seen
        signer = signer or (self.ids[seat] if seat in self.ids else self.host_id)
        return sign_action(signer, game, read_action(game, action, seat), table=TABLE,
                           hand=host.match.hand_number, seen=seen, head=host.archive.hash_at(seen),
                           rng=self._bytes, mental=mental).message()

    def play_until(self, done, limit: int = 400) -> None:
        """Moves until ``done()``; the test fails if it never comes (its seed must bring
        the situation about)."""
        for _ in range(limit):
            if done():
                return
            self.step()
        pytest.fail("the situation did not come up with this seed: the test needs another")

    def play_hand(self, check=None) -> None:
        while self.host.state is not None and not self.host.state.is_over:
            self.step()
            if check:
                check(self)

    def start(self) -> None:
        self.deliver(self.host.start_game(dealer=0))

    def next_hand(self) -> None:
        self.deliver(self.host.next_hand())

    def heads_agree(self) -> bool:
        return all(r.chain.head == self.host.chain.head and r.seq == self.host.chain.seq
                   for r in self.replicas.values())


class _Withholding(SeededPeer):
    """The seeded deal as a client that never sends its contribution sees it."""

    def sends(self) -> list[dict]:
        return []


def withhold_contributions(replica) -> None:
    """``replica``'s client heartbeats and plays but never sends its contribution to a deal."""
    replica.deals = {**replica.deals, SeededPeer.OPENS: _Withholding}


def forge_entries(chain, rewrite) -> None:
    """A dishonest host: it signs what ``rewrite(kind, body, state_hash)`` returns,
    ``(body, state_hash)``, for each entry it makes (the body as the plain map it signs),
    whether or not that fits the entry's kind."""
    def make(signer, body, state_hash=None):
        kind = body.KIND
        wire, state_hash = rewrite(kind, body.wire(), state_hash)
        entry = Entry(chain.table, chain.seq + 1, chain.head, kind, wire, state_hash)
        try:
            entry.content
        except EntryError:  # a body that fits no kind: the host goes on with what it meant
            entry.__dict__["content"] = body
        return SignedEntry.sign(signer, entry)
    chain.make = make
