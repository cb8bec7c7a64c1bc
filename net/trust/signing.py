"""Signing and verifying in the trust protocol, and the forms of an action: the one place.

Every signature is Ed25519 over ``canonical.encode([domain, body])``. The domain string
keeps a signature of one kind — a log entry, a player's action, a deal contribution —
from ever passing for another, and the canonical encoding makes the signed bytes the
same on every machine. A signed thing travels as an *envelope* ``{"body": …, "sig": 64
bytes}``; a log entry's is ``{"entry": …, "sig": …}``, since people read the log too.

An action is signed in its *public* form (the hand-record JSON with a bury's or a
discard's cards left out) together with ``hidden``, a salted digest of its *full* form
when the two differ (``hidden_digest``). ``sign_action`` signs the move a player
sends, and every signer goes through it: the host for its own seat and its bots, a
peer's replica, a guest seated in the middle of a hand. The randomness for the salt is
the caller's (injected), never the process's own.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from engine import Action, canonical

from net.wire import messages as m
from net.wire.identity import verify

ENTRY_DOMAIN = "parlour-entry/1"
ACTION_DOMAIN = "parlour-action/1"
CONTRIBUTION_DOMAIN = "parlour-contribution/1"
SENT_DOMAIN = "parlour-sent/1"  # what the host sent one seat with an entry (``net.trust.sent``)
REPORT_DOMAIN = "parlour-report/1"  # a player's report of a broken rule (``net.trust.reports``)
HIDDEN_DOMAIN = b"parlour-hidden/1"


# -- envelopes -------------------------------------------------------------------------
def signed_bytes(domain: str, body: dict) -> bytes:
    """The bytes a signature of kind ``domain`` covers."""
    return canonical.encode([domain, body])


def seal(signer, domain: str, body: dict) -> dict:
    """An envelope: ``body`` signed by ``signer`` (anything with ``.sign(bytes)``)."""
    return {"body": body, "sig": signer.sign(signed_bytes(domain, body))}


def opens(key: bytes, domain: str, envelope: dict) -> bool:
    """Whether ``envelope`` carries ``key``'s signature over its body; never raises."""
    try:
        data = signed_bytes(domain, envelope["body"])
    except (TypeError, KeyError):
        return False
    sig = envelope.get("sig")
    if not isinstance(key, bytes) or not isinstance(sig, bytes):
        return False
    return verify(key, sig, data)


def sign_entry(signer, entry: dict, canonical_entry: list | None = None) -> dict:
    """A log entry signed by the host: ``{"entry": …, "sig": …}``. ``canonical_entry``:
    ``canonical.canonical(entry)``, when the caller has made it already."""
    if canonical_entry is None:
        return {"entry": entry, "sig": signer.sign(signed_bytes(ENTRY_DOMAIN, entry))}
    return {"entry": entry, "sig": signer.sign(canonical.pack([ENTRY_DOMAIN, canonical_entry]))}


def entry_signed_by(key: bytes, signed_entry: dict, canonical_entry: list | None = None) -> bool:
    """Whether the host's key ``key`` signed ``signed_entry`` (``canonical_entry``: its
    entry as ``canonical.canonical`` gives it, when the caller has made it already)."""
    if canonical_entry is None:
        return opens(key, ENTRY_DOMAIN, {"body": signed_entry["entry"], "sig": signed_entry["sig"]})
    sig = signed_entry["sig"]
    if not isinstance(key, bytes) or not isinstance(sig, bytes):
        return False
    return verify(key, sig, canonical.pack([ENTRY_DOMAIN, canonical_entry]))


def hidden_digest(nonce: bytes, full_action: dict) -> bytes:
    """What a player signs in place of a secret action (a discard, a bury): salted, so
    the few possible discards cannot be tried one by one against it."""
    return hashlib.sha256(HIDDEN_DOMAIN + nonce + canonical.encode(full_action)).digest()


# -- actions -----------------------------------------------------------------------------
class ActionForms(NamedTuple):
    """An action's hand-record forms: ``full`` for the host alone, ``public`` for the log."""

    full: dict
    public: dict

    @property
    def secret(self) -> bool:
        """A secret action (a bury, a discard) is exactly one whose forms differ."""
        return self.public != self.full


def action_forms(game, action: Action) -> ActionForms:
    return ActionForms(game.action_to_json(action), game.action_to_json(action, public=True))


def read_action(game, decision: dict, seat: int) -> Action:
    """The Action that ``seat``'s decision (hand-record form, its seat left out) names;
    RecordError if it names none."""
    return game.action_from_json({**decision, "seat": seat})


class SignedMove(NamedTuple):
    """A signed action: the envelope, the private part a secret one travels with, its
    forms and its salt."""

    signed: dict
    private: dict | None
    forms: ActionForms
    nonce: bytes | None

    def message(self) -> dict:
        """The "action" message to the host."""
        return m.action_message(self.signed, self.private)


def sign_action(signer, game, action: Action, *, table: str, hand: int, seen: int,
                head: bytes, rng, mental: dict | None = None) -> SignedMove:
    """``action`` signed by ``signer`` in its public form, bound to the table, the hand
    and the last entry the signer holds (``seen``, whose hash is ``head``); a secret
    action also carries its salted digest, and its full form and salt (``rng``'s bytes)
    go in the private part. ``mental``: a played card's deal proof under the mental-poker
    deal, signed with the move (``messages.action_body``)."""
    forms = action_forms(game, action)
    private = hidden = nonce = None
    if forms.secret:
        nonce = rng(m.NONCE_BYTES)
        hidden = hidden_digest(nonce, forms.full)
        private = {"action": forms.full, "nonce": nonce}
    body = m.action_body(table, hand, seen, head, forms.public, hidden, mental)
    return SignedMove(seal(signer, ACTION_DOMAIN, body), private, forms, nonce)
