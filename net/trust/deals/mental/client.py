"""One client's side of a mental-poker deal, read off the host's log (no I/O).

``DealClient(identity, setup)`` is the client's party: its machine (``MentalDeal``) with
secrets derived from its identity key (so a restarted client derives the same ones and
goes on), the signing of what it sends, and the reading of the log the host's sequencer
keeps (``sequencer.DealSequencer``):

* ``start()``: the envelopes to send to open the deal (the key share).
* ``logged(party, envelope)``: one logged message. The envelope must carry the party's
  own signature — the host relays messages, it cannot write them — else
  ``Forged`` names the host. The machine's outputs come back: envelopes to send, and
  what this client learned (``Dealt``, ``Opened``, ``Played``, ``Redeal``, ``Verified``);
  a broken rule raises the machine's ``Cheat`` naming the party.
* A ``mental-restart`` record starts a new machine for the next attempt, with the seats
  as the record gives them — which must be the last attempt's parties less the dropped
  ones, their seats the host's (``sequencer.restart_problem``, else ``Forged``); a
  client whose key is no longer a party stops taking part.
* ``step(flow_step)``: a step of the hand (``flows``); its envelopes.
* A played card's proof is no envelope of its own: ``play`` makes it (the
  ``mental-play`` message, unsigned: the player's move carries it and signs it),
  ``check_play`` checks it before the move is logged (the host), and ``logged_play``
  reads it from the logged move — its signature already checked, as the move's.
* A hand the rules redeal (Rook: no point card) is claimed as soon as it is seen
  (``claim_redeal``); every client then learns ``Redeal``, and the host restarts.

A client that restarts builds a new ``DealClient`` and reads the whole log again: its
messages come out byte-identical (deterministic secrets, deterministic Ed25519
signatures), and the sequencer does not log a copy twice.

A client whose key is no party of an attempt (its player away at the deal, or restarted
out of it; a watcher, always) follows the attempt as a ``witness.Witness``: it checks
every key share's and every shuffle's proof as they are logged, as a party does; it
learns what the rules open to everyone as the parties do (``Opened``, public: a widow
turned up), and, once every party has revealed, the whole deal (``Verified``) — nothing
else. A message its witness cannot take, or a cheat it finds, only ends the witnessing
(the parties name a cheat).
"""

from __future__ import annotations

import logging

from net.trust.signing import opens, seal

from . import flows
from .errors import MentalError, Refused
from .keys import PartySecrets
from .machine import Dealt, MentalDeal, Opened, Send, Verified
from .sequencer import MENTAL_DOMAIN, restart_problem, without
from .setup import DealSetup
from .witness import Witness

log = logging.getLogger(__name__)


class Forged(MentalError):
    """A logged message that does not carry its party's signature: the host's doing."""


class DealClient:
    def __init__(self, identity, setup: DealSetup):
        self.identity = identity
        self.learned: list = []  # everything the machine said this client learned
        self._begin(setup)

    def _begin(self, setup: DealSetup) -> None:
        self.setup = setup
        keys = [p.key for p in setup.parties]
        self.me = keys.index(self.identity.public_key) if self.identity.public_key in keys else None
        self.machine = None if self.me is None else MentalDeal(
            setup, self.me, PartySecrets.derive(self.identity, setup.context))
        self.witness = Witness(setup) if self.me is None else None

    @property
    def reveals(self) -> dict[int, dict]:
        """Each party's reveal of its secret and commitments, as logged (by party)."""
        record = self.machine or self.witness
        return record.reveals if record is not None else {}

    @property
    def as_party(self) -> MentalDeal:
        """The machine, for what only a party of the deal does: play, check a play, show."""
        if self.machine is None:
            raise Refused("this client is no party of the deal")
        return self.machine

    @property
    def seats(self) -> tuple[int, ...]:
        return () if self.me is None else self.setup.parties[self.me].seats

    def start(self) -> list[dict]:
        return self._take(self.machine.start()) if self.machine is not None else []

    def logged(self, party: int | None, envelope: dict) -> list[dict]:
        """One record of the log, in order; the envelopes this client sends in answer."""
        if party is None:
            return self._restart(envelope)
        key = self.setup.parties[party].key
        if not opens(key, MENTAL_DOMAIN, envelope):
            raise Forged(f"the host logged a deal message for party {party} that it did not sign")
        if self.machine is None:
            return self._witnessed(lambda witness: witness.receive(party, envelope["body"]))
        return self._take(self.machine.receive(party, envelope["body"]))

    def party_of(self, key: bytes) -> int | None:
        """The index of the party playing with identity ``key`` (None: not a party)."""
        keys = [p.key for p in self.setup.parties]
        return keys.index(key) if key in keys else None

    def play(self, seat: int, card: int) -> dict:
        """This party's proof for playing ``card`` from ``seat``: the ``mental-play``
        message, for the move to carry (the move's signature is its)."""
        [send] = self.as_party.play(seat, card)
        return send.message

    def check_play(self, party: int, message: dict) -> int | None:
        """``MentalDeal.check_play``: the card a party's play proof opens, nothing recorded."""
        return self.as_party.check_play(party, message)

    def logged_play(self, party: int, message: dict) -> list[dict]:
        """A play proof as a logged move carries it (the move signed by ``party``'s key);
        the envelopes to send, as ``logged``."""
        if self.machine is None:
            return self._witnessed(lambda witness: witness.receive(party, message))
        return self._take(self.machine.receive(party, message))

    def step(self, step) -> list[dict]:
        if self.machine is None:
            return self._witnessed(lambda witness: flows.take(witness, step, list(self.setup.spare())))
        return self._take(flows.take(self.machine, step, list(self.setup.spare())))

    def _witnessed(self, run) -> list[dict]:
        """A step of this onlooker's witness (``run(witness)``): what is opened to everyone
        (the spare turned up: ``Opened``, public), and the whole deal once every party
        revealed; nothing to send. What the witness cannot take ends it."""
        if self.witness is None:
            return []
        try:
            self.learned += [out for out in run(self.witness) if isinstance(out, Verified)
                             or (isinstance(out, Opened) and out.public)]
        except MentalError as exc:
            log.info("no longer following the deal as an onlooker: %s", exc)
            self.witness = None
        except Exception:  # noqa: BLE001 — following is extra: never the log's fault, never a halt
            log.warning("no longer following the deal as an onlooker", exc_info=True)
            self.witness = None
        return []

    def catch_up(self) -> None:
        """Check the share batches for others in idle time (``MentalDeal.catch_up``); a
        bad one raises ``Cheat`` naming its party."""
        if self.machine is not None:
            self.machine.catch_up()

    def claim_redeal(self, seat: int) -> list[dict]:
        """Show ``seat``'s hand to have the deal redone (sent on its own when the hand
        calls for it; a test makes a false claim with it)."""
        return self._take(self.as_party.claim_redeal(seat))

    def audit(self, why: str) -> list[dict]:
        """Ask every party to reveal its secrets now (``MentalDeal.audit``; a test raises a
        false alarm with it)."""
        return self._take(self.as_party.audit(why))

    def _take(self, outputs) -> list[dict]:
        sends = []
        for out in outputs:
            if isinstance(out, Send):
                sends.append(seal(self.identity, MENTAL_DOMAIN, out.message))
                continue
            self.learned.append(out)
            if isinstance(out, Dealt) and flows.must_claim(self.setup, out):
                sends += self.claim_redeal(out.seat)
        return sends

    def _restart(self, record: dict) -> list[dict]:
        problem = restart_problem(self.setup, record)
        if problem:
            raise Forged(problem)
        self._begin(without(self.setup, record["dropped"]))
        return self.start()
