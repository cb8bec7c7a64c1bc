"""Table talk, sans I/O: a person's short message or quick reaction, and the host's mute —
each signed by whoever says it and checked by every client, beside the log, never in it.

A talk message is an envelope ``{"body", "sig"}`` signed in its own domain,
``parlour-talk/1``, over::

    {"table": the table's id, "key": the speaker's public key, "n": the speaker's number,
     and exactly one of
     "say": the words (plain text, at most TALK_MAX_CHARS characters),
     "react": a quick reaction's id (TALK_REACTIONS),
     "mute": {"key": whom, "on": bool}          (the host's alone: muted for the table)}

The domain keeps a talk signature from ever passing for a move, an entry or a deal
message; ``table`` binds it to this table and ``n`` — strictly increasing per speaker —
to its moment: a receiver refuses a number it has seen (a replay) or one below it.
A speaker's client numbers its messages from the wall clock's milliseconds (one more than
the last when the clock is behind it: ``TalkNumbers``), so a restarted client goes on
above the numbers it used before without keeping them anywhere.

Who checks what (``TalkDesk``, one per receiver; the same checks at the host and at
every client):

* the shape, the table, the speaker's signature, and that the speaker is at this table
  (a seated person, or the host);
* at the host, that a link speaks only in its own key's name;
* the number (no replay), the mute (nothing from a person the host muted; a mute only
  from the host's key), the words (``text_problem``) or the reaction's id;
* the rate: no more than ``TALK_BURST`` messages from one person within a window, on the
  receiver's own clock as it receives them. The host's window is longer than a client's
  by the most a live link can bunch its frames together (``relay_slack``), so what an
  honest host relays always passes every client's check (protocol.md, *Table talk*).

What the host lets through it relays to everyone; what a client refuses it does not
show. A refusal says why, and whom it blames: the sender, at the host (refused back to
it); the host, at a client, for what only a host that failed its own checks could have
relayed (a message its speaker did not sign, from someone not at the table, a replay);
nobody, for what a client may refuse without anyone's fault (a burst a slow link
bunched, a message from a person this client holds muted by the host).
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from net.constants import TALK_BURST, TALK_MAX_CHARS, TALK_REACTIONS, TALK_WINDOW
from net.trust.signing import opens, seal
from net.wire.identity import fingerprint

TALK_DOMAIN = "parlour-talk/1"
TALK, TALK_REFUSED = "talk", "talk_refused"  # the session messages (net.wire.heartbeat.WIRE)
SAY, REACT, MUTE = "say", "react", "mute"
KINDS = (SAY, REACT, MUTE)

#: Characters that reorder the text around them (right-to-left and left-to-right
#: overrides, embeddings, isolates and marks): a message holding one could show words
#: in another order than they were typed, so none is taken.
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                               "\u2066\u2067\u2068\u2069")

Blame = Literal["sender", "host", "nobody"]


# -- the words ------------------------------------------------------------------------------
def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be said at the table (None: it can). Markup, links and emoji are
    words like any other — shown as typed, never read as rich text — but a message is one
    line of at most ``TALK_MAX_CHARS`` characters with no control characters and no
    direction overrides."""
    if not text.strip():
        return "there is nothing to say: the message is empty"
    if len(text) > TALK_MAX_CHARS:
        return f"a message holds at most {TALK_MAX_CHARS} characters; this one has {len(text)}"
    for char in text:
        if char in DIRECTION_CONTROLS:
            return (f"a message may not hold a direction override (U+{ord(char):04X}): "
                    "it would show the words in another order")
        if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
            return f"a message may not hold control characters (U+{ord(char):04X}): one line of text"
    return None


# -- who talks ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Speaker:
    """Someone who may talk at a table: a seated player (``seat``), the host, or — the
    same shape — anyone else the table lets in (a watcher: no seat, ``role`` "watcher")."""

    key: bytes
    name: str
    seat: int | None = None
    role: str = "player"

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


SpeakerOf = Callable[[bytes], "Speaker | None"]


@dataclass(frozen=True)
class Talk:
    """A talk message that passed every check, as its receiver reads it."""

    speaker: Speaker
    n: int
    kind: str  # SAY, REACT or MUTE
    text: str  # the words said, or the reaction's id ("" for a mute)
    envelope: dict
    target: bytes | None = None  # a mute's: whom
    on: bool = False  # a mute's: muted (True) or no longer
    again: bool = False  # a mute this receiver held, sent again as it (re)joined: not news

    @property
    def sig(self) -> bytes:
        return self.envelope["sig"]

    @property
    def words(self) -> str:
        """What is shown: the message as typed, or the reaction's words."""
        return TALK_REACTIONS[self.text] if self.kind == REACT else self.text

    def message(self) -> dict:
        """The "talk" message that carries it (the host relays exactly this)."""
        return talk_message(self.envelope)


@dataclass(frozen=True)
class Refusal:
    """A talk message refused: ``reason`` in words, whom it ``blame`` s, the speaker it
    claims to be from (when known) and its signature (to name it to its sender)."""

    reason: str
    blame: Blame
    claimed: Speaker | None = None
    sig: bytes | None = None


# -- saying something ----------------------------------------------------------------------------
def talk_body(table: str, key: bytes, n: int, *, say: str | None = None, react: str | None = None,
              mute: tuple[bytes, bool] | None = None) -> dict:
    """What a speaker signs: exactly one of ``say``, ``react``, ``mute`` (whom, on)."""
    said = [kind for kind, value in ((SAY, say), (REACT, react), (MUTE, mute)) if value is not None]
    if len(said) != 1:
        raise ValueError("a talk message says exactly one thing: say, react or mute")
    body: dict = {"table": table, "key": key, "n": n}
    if say is not None:
        body[SAY] = say
    elif react is not None:
        body[REACT] = react
    elif mute is not None:
        body[MUTE] = {"key": mute[0], "on": mute[1]}
    return body


def sign_talk(signer, table: str, n: int, **said) -> dict:
    """A talk envelope signed by ``signer`` (an ``Identity``): ``say=``, ``react=`` or
    ``mute=(key, on)``."""
    return seal(signer, TALK_DOMAIN, talk_body(table, signer.public_key, n, **said))


def talk_message(envelope: dict) -> dict:
    return {"type": TALK, "signed": envelope}


def refused_message(reason: str, sig: bytes | None) -> dict:
    """The host's answer to a talk message it will not relay (``refuses``: its signature)."""
    msg: dict = {"type": TALK_REFUSED, "reason": reason}
    if sig is not None:
        msg["refuses"] = sig
    return msg


class TalkNumbers:
    """A speaker's numbers for its messages: strictly increasing, and above every number
    it used before a restart without keeping them: the wall clock's milliseconds, or one
    more than the last when the clock has not moved on (or went back)."""

    def __init__(self) -> None:
        self.last = 0

    def next(self, wall_seconds: float) -> int:
        self.last = max(self.last + 1, int(wall_seconds * 1000))
        return self.last


# -- the shape -------------------------------------------------------------------------------------
def shape_problem(envelope: object) -> str | None:
    """What is wrong with a talk envelope's shape (None: nothing), before any signature."""
    if not isinstance(envelope, dict) or set(envelope) != {"body", "sig"}:
        return "a talk message is an envelope {body, sig}"
    sig, body = envelope["sig"], envelope["body"]
    if not isinstance(sig, bytes) or len(sig) != 64:
        return "its signature is not 64 bytes"
    if not isinstance(body, dict):
        return "its body is not a map"
    said = [kind for kind in KINDS if kind in body]
    if len(said) != 1 or set(body) != {"table", "key", "n", said[0]}:
        return "its body must hold table, key, n and exactly one of say, react, mute"
    if not isinstance(body["table"], str) or not isinstance(body["key"], bytes) \
            or len(body["key"]) != 32:
        return "its table or key is malformed"
    n = body["n"]
    if not isinstance(n, int) or isinstance(n, bool) or not 0 < n < 1 << 62:
        return "its number is not a positive whole number"
    value = body[said[0]]
    if said[0] in (SAY, REACT) and not isinstance(value, str):
        return f"its {said[0]} is not text"
    if said[0] == MUTE and not (isinstance(value, dict) and set(value) == {"key", "on"}
                                and isinstance(value["key"], bytes) and len(value["key"]) == 32
                                and isinstance(value["on"], bool)):
        return "its mute is not {key, on}"
    return None


def read_talk(speaker: Speaker, envelope: dict) -> Talk:
    """The ``Talk`` an envelope whose shape checked out (``shape_problem``) carries."""
    body = envelope["body"]
    if MUTE in body:
        return Talk(speaker, body["n"], MUTE, "", envelope, body[MUTE]["key"], body[MUTE]["on"])
    kind = SAY if SAY in body else REACT
    return Talk(speaker, body["n"], kind, body[kind], envelope)


# -- the checks ---------------------------------------------------------------------------------------
@dataclass
class _Heard:
    """What a desk remembers of one speaker: its last number and when its last messages came."""

    n: int = 0
    times: deque = field(default_factory=deque)


class TalkDesk:
    """One receiver's checks of the talk it is sent, and what they need to remember: each
    speaker's last number and recent messages, and the host's mutes in force.

    ``relays``: this desk is the host's, checking what a link sends before it relays it
    (a refusal blames the sender); else a client's, checking what the host relayed.
    ``table``, ``host_key`` and ``speaker_of`` are getters: the table, the key of the host
    whose mutes count, and who a key is at this table (None: nobody here). ``window``: the
    rate's window on this receiver's clock (``relay_slack`` longer at the host)."""

    def __init__(self, table: Callable[[], str | None], host_key: Callable[[], bytes | None],
                 speaker_of: SpeakerOf, *, relays: bool, window: float = TALK_WINDOW,
                 burst: int = TALK_BURST):
        self._table, self._host_key, self._speaker_of = table, host_key, speaker_of
        self.relays, self.window, self.burst = relays, window, burst
        self.heard: dict[bytes, _Heard] = {}
        self.mutes: dict[bytes, Talk] = {}  # muted key -> the host's signed mute
        self.set_aside: dict[bytes, Talk] = {}  # the mutes held when the link last dropped

    def muted(self, key: bytes) -> bool:
        """Whether the host this receiver hears now has muted ``key`` (a departed host's
        mutes lapse at a takeover)."""
        mute = self.mutes.get(key)
        return mute is not None and mute.speaker.key == self._host_key()

    def mutes_in_force(self) -> list[Talk]:
        """The mutes of the host heard now, standing (a newcomer is sent them)."""
        return [mute for mute in self.mutes.values() if mute.speaker.key == self._host_key()]

    def joined(self) -> None:
        """A client (re)joined its host, which sends it its mutes in force at once, before
        anything it relays: the mutes held until now are set aside; each sent again is in
        force again without a word (``again``), and the rest lapse with the host's — it
        unmuted while this client was away, or restarted and forgot them."""
        self.set_aside, self.mutes = self.mutes, {}

    def check(self, envelope: object, now: float, sent_by: bytes | None = None) -> Talk | Refusal:
        """``envelope``, received at ``now`` (this receiver's monotonic clock): the checked
        ``Talk`` (remembered: its number, its time, a mute), or why it is refused.
        ``sent_by``: at the host, the key of the link it came on."""
        problem = shape_problem(envelope)
        if problem is not None:
            return self._refused(f"a malformed talk message: {problem}", "host")
        assert isinstance(envelope, dict)
        body, sig = envelope["body"], envelope["sig"]
        key = body["key"]
        speaker = self._speaker_of(key)
        if body["table"] != self._table():
            return self._refused("a talk message for another table", "host", speaker, sig)
        if sent_by is not None and key != sent_by:
            who = speaker.name if speaker else "someone else"
            return self._refused(f"a message in {who}'s name: you may speak only as yourself",
                                 "sender", speaker, sig)
        if not opens(key, TALK_DOMAIN, envelope):
            who = f"{speaker.name}'s" if speaker else "its speaker's"
            return self._refused(f"a message said to be from {speaker.name if speaker else 'someone'} "
                                 f"does not carry {who} signature (forged)", "host", speaker, sig)
        if speaker is None:
            return self._refused("a message from someone who is not at this table", "host",
                                 None, sig)
        heard = self.heard.setdefault(key, _Heard())
        talk = read_talk(speaker, envelope)
        if self._held_again(talk):
            return replace(talk, again=True)
        if body["n"] <= heard.n:
            return self._refused(f"a message from {speaker.name} sent again (a replay: number "
                                 f"{body['n']}, after {heard.n})", "host", speaker, sig)
        return self._said(talk, now, heard)

    def _held_again(self, talk: Talk) -> bool:
        """Whether ``talk`` is the very mute (its signature) this receiver held, sent again
        by the host that signed it as the client (re)joined; it is in force again."""
        if talk.kind != MUTE or talk.target is None or talk.speaker.key != self._host_key():
            return False
        held = self.mutes.get(talk.target) or self.set_aside.get(talk.target)
        if held is None or held.sig != talk.sig:
            return False
        self.set_aside.pop(talk.target, None)
        self.mutes[talk.target] = talk
        return True

    def _said(self, talk: Talk, now: float, heard: _Heard) -> Talk | Refusal:
        """The checks of what a signed message from a known speaker says."""
        who = talk.speaker
        if talk.kind == MUTE:
            if who.key != self._host_key():
                return self._refused(f"{who.name} tried to mute someone: only the host mutes",
                                     "host", who, talk.sig)
            heard.n = talk.n
            self._mute(talk)
            return talk
        if self.muted(who.key):
            return self._refused(f"{who.name} is muted by the host", "nobody", who, talk.sig)
        problem = text_problem(talk.text) if talk.kind == SAY else (
            None if talk.text in TALK_REACTIONS else f"there is no reaction {talk.text[:40]!r}")
        if problem is not None:
            return self._refused(problem, "host", who, talk.sig)
        times = heard.times
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.burst:
            return self._refused(f"{who.name} said more than {self.burst} things within "
                                 f"{self.window:g} s", "nobody", who, talk.sig)
        times.append(now)
        heard.n = talk.n
        return talk

    def _mute(self, talk: Talk) -> None:
        assert talk.target is not None
        self.set_aside.pop(talk.target, None)  # the host's newer word on them counts
        if talk.on:
            self.mutes[talk.target] = talk
        else:
            self.mutes.pop(talk.target, None)

    def _refused(self, reason: str, blame: Blame, claimed: Speaker | None = None,
                 sig: bytes | None = None) -> Refusal:
        """At the host, whatever a link sent wrong is its sender's doing (refused back to
        it); at a client, ``blame`` says whose it is."""
        return Refusal(reason, "sender" if self.relays else blame, claimed, sig)


def relay_slack(heartbeat_timeout: float) -> float:
    """How much longer the host's rate window is than a client's: the most a live link can
    bunch the host's frames together. The host sends something at least every heartbeat
    interval, and a client that hears nothing for the heartbeat's timeout closes the link;
    so on a link that stays up no frame is held back more than that timeout behind the
    frames sent after it. Relays the host let through at least ``TALK_WINDOW`` + that
    apart (every ``TALK_BURST`` + 1st) therefore arrive at least ``TALK_WINDOW`` apart."""
    return heartbeat_timeout
