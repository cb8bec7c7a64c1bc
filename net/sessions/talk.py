"""Table talk at a table with sockets: the host's relay and a guest's side of it.

``net.trust.talk`` holds the message and its checks; here they meet the links, the clocks
and the person:

* ``HostTalk`` (the host's): each "talk" a link sends is checked (``TalkDesk``, the
  sender's own key and the host's longer window); what passes is relayed to everyone who
  hears the table's talk — the sender too, which is how a speaker sees its words shown
  — and told to the host's person; the rest is refused back to its sender
  ("talk_refused", with the reason), and a message in another's name is named to the
  host's person. The host person's own words and mutes go through the same checks. A
  link that joins is sent the host's mutes in force.
* ``GuestTalk`` (a guest's): signs what its person says and sends it; checks what the
  host relays with its own desk and clock; tells its person what passed, and what did
  not (a refusal naming the host when only a host that failed its checks could have
  relayed it).

Who may talk is a ``Speaker``: a key, a name, a seat or none. The host's person,
everyone seated as a person, and everyone watching may; ``speakers`` gives them from the
table's seats and the host's list of who watches (a watcher is named as one, role
"watcher"). The host hears a watcher's talk on the watcher's own link
(``Watchers.handlers``), checks it as anyone's, and relays it to players and watchers alike. Talk is never written to the log,
to disk or to a hand's record: nothing of the game changes with it, and a client that
was away misses what was said meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from net.constants import TALK_REACTIONS, TALK_WINDOW
from net.sessions.facade import EventCallback, TalkEvent
from net.trust.talk import (MUTE, REACT, TALK, TALK_REFUSED, Refusal, Speaker, SpeakerOf, Talk,
                            TalkDesk, TalkNumbers, refused_message, relay_slack, sign_talk,
                            talk_message, text_problem)
from net.trust.values import Seats
from net.wire.identity import fingerprint

log = logging.getLogger(__name__)

TALK_MESSAGES = (TALK, TALK_REFUSED)  # what a session hands its talk part
WATCHER = "watcher"  # a speaker's role: at the table without a seat
Clock = Callable[[], float]


def speakers(seats: Callable[[], Seats], host_key: Callable[[], bytes | None],
             host_name: Callable[[], str],
             watchers: Callable[[], Iterable[tuple[bytes, str]]] = tuple) -> SpeakerOf:
    """Who a key is at a table whose seats are ``seats()``: a person seated there (its
    seat's name, from the log — never a name a message gives itself), else the host, else
    one of the ``watchers`` (key, name: the host's list of who watches), a "watcher"."""
    def speaker_of(key: bytes) -> Speaker | None:
        table_seats = seats()
        seat = table_seats.held_by(key)
        if seat is not None:
            return Speaker(key, table_seats[seat].name, seat)
        if key == host_key():
            return Speaker(key, host_name() or "the host", None, role="host")
        name = next((name for watcher, name in watchers() if watcher == key), None)
        return None if name is None else Speaker(key, name, None, role=WATCHER)
    return speaker_of


# -- the events ---------------------------------------------------------------------------------
def _who(speaker: Speaker | None, mine: bool) -> dict:
    if speaker is None:
        return {"seat": None, "name": "someone", "fingerprint": "", "role": "unknown", "mine": mine}
    return {"seat": speaker.seat, "name": speaker.name, "fingerprint": speaker.fingerprint,
            "role": speaker.role, "mine": mine}


def talk_event(talk: Talk, mine: bool, speaker_of: SpeakerOf) -> TalkEvent:
    """The facade's "talk" event for a message that passed: its words, or the mute."""
    event: dict = {"type": "talk", "kind": talk.kind, **_who(talk.speaker, mine), "text": talk.words}
    if talk.kind == REACT:
        event["reaction"] = talk.text
    elif talk.kind == MUTE and talk.target is not None:
        target = speaker_of(talk.target)
        name = target.name if target else fingerprint(talk.target)
        event.update(target=fingerprint(talk.target), target_name=name, on=talk.on,
                     text=f"The host {'muted' if talk.on else 'unmuted'} {name} at this table")
    return event  # type: ignore[return-value]


def refused_event(refusal: Refusal, mine: bool, by: str) -> TalkEvent:
    """The facade's "talk" event for a message not shown: ``by`` says who refused it (the
    host, or this client), ``refusal.blame`` whom it names."""
    text = f"{'Your message' if mine else 'A message'} was refused by {by}: {refusal.reason}"
    if refusal.blame == "host" and not mine:
        text += " — the host relayed it"
    event: dict = {"type": "talk", "kind": "refused", **_who(refusal.claimed, mine), "text": text,
                   "reason": refusal.reason, "blame": refusal.blame}
    return event  # type: ignore[return-value]


def forged_event(refusal: Refusal, sender: Speaker | None) -> TalkEvent:
    """The host person's "talk" event naming a guest that wrote in another's name."""
    event = refused_event(refusal, False, "this table")
    claimed = refusal.claimed.name if refusal.claimed else "someone else"
    event["text"] = (f"{sender.name if sender else 'Someone'} wrote a message in {claimed}'s "
                     "name; it was refused and shown to nobody")
    return event


# -- the host's side -------------------------------------------------------------------------------
class HostTalk:
    """The host's relay of table talk. Wired to the host's ``identity``, the ``table``
    (a getter), ``speaker_of``, ``people`` (the keys of everyone who may talk here), the
    ``links`` that hear the table's talk, ``emit`` (the host person's events) and the
    heartbeat's ``timeout`` (the rate's slack); ``clock`` (monotonic, the rate's) and
    ``wall`` (the speaker's numbers) are the tests' to set."""

    def __init__(self, identity, table: Callable[[], str | None], speaker_of: SpeakerOf,
                 people: Callable[[], Iterable[bytes]], links: Callable[[], Iterable],
                 emit: EventCallback, *, timeout: float, clock: Clock = time.monotonic,
                 wall: Clock = time.time):
        self.identity, self._people, self._links, self.emit = identity, people, links, emit
        self.speaker_of, self.clock, self.wall = speaker_of, clock, wall
        self.desk = TalkDesk(table, lambda: identity.public_key, speaker_of, relays=True,
                             window=TALK_WINDOW + relay_slack(timeout))
        self._table = table
        self.numbers = TalkNumbers()

    def heard(self, key: bytes, link, msg: dict) -> None:
        """A talk message from the peer with ``key`` on ``link``: relayed, or refused back."""
        if msg["type"] != TALK:
            link.reject(f"unexpected message {msg['type']!r}")
            return
        said = self.desk.check(msg["signed"], self.clock(), sent_by=key)
        if isinstance(said, Refusal):
            link.send(refused_message(said.reason, said.sig))
            if said.claimed is not None and said.claimed.key != key:  # in another's name: named
                self.emit(forged_event(said, self.speaker_of(key)))
            return
        self._relay(said)

    def say(self, text: str) -> None:
        self._own(say=text)

    def react(self, reaction: str) -> None:
        self._own(react=reaction)

    def mute(self, fp: str, on: bool = True) -> None:
        """The host mutes (or unmutes) the person with fingerprint ``fp`` for the table."""
        key = next((k for k in self._people() if fingerprint(k) == fp), None)
        if key is None:
            self.emit(refused_event(Refusal("nobody with that key is at this table", "sender"),
                                    True, "this table"))
            return
        self._own(mute=(key, bool(on)))

    def welcome(self, link) -> None:
        """A peer has joined on ``link``: the host's mutes in force, so that its client
        holds them as everyone does."""
        for muted in self.desk.mutes_in_force():
            link.send(muted.message())

    def _own(self, **said) -> None:
        """What the host's person says (or mutes): checked as anyone's, then relayed."""
        table = self._table()
        if table is None:
            return
        if "say" in said and (problem := text_problem(said["say"])) is not None:
            self.emit(refused_event(Refusal(problem, "sender"), True, "this table"))
            return
        envelope = sign_talk(self.identity, table, self.numbers.next(self.wall()), **said)
        checked = self.desk.check(envelope, self.clock(), sent_by=self.identity.public_key)
        if isinstance(checked, Refusal):
            self.emit(refused_event(checked, True, "this table"))
            return
        self._relay(checked)

    def _relay(self, talk: Talk) -> None:
        message = talk.message()
        for link in list(self._links()):
            link.send(message)
        self.emit(talk_event(talk, talk.speaker.key == self.identity.public_key, self.speaker_of))


# -- a guest's side ----------------------------------------------------------------------------------
class GuestTalk:
    """A guest's part in table talk. Wired to its ``identity``, the ``table`` and the
    ``host_key`` (getters: the key of the host it is connected to now), ``speaker_of``,
    ``link`` (its link to the host, None while away) and ``emit``; ``clock`` and ``wall``
    as the host's."""

    def __init__(self, identity, table: Callable[[], str | None],
                 host_key: Callable[[], bytes | None], speaker_of: SpeakerOf,
                 link: Callable[[], Any], emit: EventCallback, *,
                 clock: Clock = time.monotonic, wall: Clock = time.time):
        self.identity, self._table, self._link, self.emit = identity, table, link, emit
        self.speaker_of, self.clock, self.wall = speaker_of, clock, wall
        self.desk = TalkDesk(table, host_key, speaker_of, relays=False, window=TALK_WINDOW)
        self.numbers = TalkNumbers()

    def heard(self, msg: dict) -> None:
        """A talk message the host relayed, or its refusal of ours."""
        if self._table() is None:
            return  # not joined yet: nobody to check it against
        if msg["type"] == TALK_REFUSED:
            refusal = Refusal(msg["reason"], "sender", self.speaker_of(self.identity.public_key),
                              msg.get("refuses"))
            self.emit(refused_event(refusal, True, "the host"))
            return
        said = self.desk.check(msg["signed"], self.clock())
        if isinstance(said, Talk) and said.again:
            return  # a mute we held, sent again as we came back: nothing new to tell
        if isinstance(said, Refusal):
            if said.blame == "host":
                log.warning("table talk: the host relayed what it should have refused: %s", said.reason)
            self.emit(refused_event(said, False, "your computer"))
            return
        self.emit(talk_event(said, said.speaker.key == self.identity.public_key, self.speaker_of))

    def joined(self) -> None:
        """We (re)joined the host: it sends its mutes in force next (``TalkDesk.joined``)."""
        self.desk.joined()

    def say(self, text: str) -> None:
        problem = text_problem(text)
        if problem is not None:
            self.emit(refused_event(Refusal(problem, "sender"), True, "your computer"))
            return
        self._send(say=text)

    def react(self, reaction: str) -> None:
        if reaction not in TALK_REACTIONS:
            self.emit(refused_event(Refusal(f"there is no reaction {reaction[:40]!r}", "sender"),
                                    True, "your computer"))
            return
        self._send(react=reaction)

    def _send(self, **said) -> None:
        table, link = self._table(), self._link()
        if table is None or link is None:
            self.emit(refused_event(Refusal("you are not connected to the table just now",
                                            "sender"), True, "your computer"))
            return
        link.send(talk_message(sign_talk(self.identity, table, self.numbers.next(self.wall()),
                                         **said)))
