"""The successor: a player's copy of the log becomes the table's authority (no I/O).

When the players agree that this client takes the table over (``takeover``), its
``PeerReplica`` — every entry it accepted, checked — is what it knows of the table. A
``HostAuthority`` is built from it: the same table id, game, seats, options, scores,
hand number and dealer, the chain's head where the replica's is, and the log in its
archive (for the players who rejoin to be sent what they lack). It has its own key,
and none of the departed host's private parts: the deal secret of a hand in progress,
the cards of the hands it did not see. So its first entry is the ``takeover`` entry, and
a hand in progress is abandoned there and dealt again (``next_hand``), scores unchanged.

The table goes on dealing as its log says it did (``mental_log.dealt_privately``): a
table that dealt any hand by the mental-poker deal is carried on by a ``HostAuthority``
with the mental deal on — the successor's client is then the deal's sequencer and the
first party (its own seat, the computer players' and the seats of players away, the
departed host's among them), and learns no other human's cards; the hand it deals again
starts at a fresh attempt (``mental_log.fresh_attempt``), so no party's secrets of the
abandoned deal are used twice. Before the first deal the successor's own choice
(``mental_deal``) holds.

**A successor that stops too keeps the table** (``restore``). Its log on disk holds the
departed host's entries — each with what this player's client was sent for it (``seen``:
the events, the public view, its own view and secret move), as its guest copy keeps
them — then its takeover entry and its own entries with their private parts. Restarted,
it rebuilds its replica from the first part (every entry checked again, as a guest's
copy is), the authority from that replica exactly as ``succeed`` built it, and then
replays its own entries as any host replays its log: the table is where it stopped, and
goes on as a first host's does (the players rejoin, a lost tail is taken back from
them). A second takeover's log works the same way: everything before the last takeover
that made this key the host was its replica's.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Iterable

from engine import Match

from net.constants import CONTRIBUTION_DEADLINE, DROP_WAIT
from net.trust import takeover
from net.trust.deals.mental import log as mental_log
from net.trust.entries import StartBody, TableBody, TakeoverBody
from net.trust.held import Held
from net.trust.host.authority import HostAuthority, Out
from net.trust.deals.host import NoHand
from net.trust.log import Chain
from net.trust.peer.replica import PeerReplica
from net.trust.store import RestoreError
from net.trust.values import EntryMessage, Seats
from net.wire import messages as m

#: The private part a successor's log keeps for an entry it did not sign: what its
#: client was sent for it, as a guest.
SEEN = "seen"


def succeed(identity, replica, standings, messages=(), rng=os.urandom, persist=None,
            mental_deal: bool = False, deadline: float = CONTRIBUTION_DEADLINE,
            clock=time.monotonic, drop_wait: float = DROP_WAIT,
            handover: dict | None = None, held: Iterable[Held] = (),
            base: int | None = None) -> tuple[HostAuthority, Out]:
    """The authority this player (``identity``, seated per ``replica``) hosts the table
    with, and the ``Out`` of its takeover entry (to send to the others). ``replica`` must
    hold exactly the entry the takeover extends, ``base`` (``takeover.gather``: the last
    entry every standing holds, or the end of a hand past it; by default the former),
    rolled back to it (``takeover.rolled_back``); ``held``: the proofs of what players
    whose standings say too little held; ``messages`` are the EntryMessages it accepted
    (their events and public views go in the archive, for the players who rejoin).
    ``mental_deal``: this client's own choice, if the log has dealt no hand yet;
    ``deadline``, ``drop_wait``, ``clock``: the mental deal's."""
    held = list(held)
    lowest = takeover.common_seq(standings, held)
    base = lowest if base is None else base
    if replica.seq != base:
        raise ValueError(f"the successor holds entry {replica.seq}, not the one its takeover "
                         f"extends ({base}; the last entry every player holds is {lowest})")
    caught = {h.seat for h in held}
    if takeover.successor_seat(standings, handover, caught) != replica.seat:
        raise ValueError("this player is not the lowest seat among the standings, nor "
                         "the one the host handed the table to")
    if not lowest <= base <= takeover.effective(standings, held)[replica.seat]:
        raise ValueError(f"the takeover cannot extend entry {base}: the last entry every player "
                         f"holds is {lowest}")
    if takeover.backing(standings, handover) < takeover.majority(replica.seats):
        raise ValueError("the standings are not a majority of the table's players")
    host = _from_replica(HostAuthority, identity, replica, messages, rng, persist,
                         mental_deal=mental_deal, clock=clock, deadline=deadline,
                         drop_wait=drop_wait)
    body = takeover.takeover_body(replica, standings, identity.public_key, handover, held)
    out = host.take_over(body)
    return host, out


def _from_replica(cls, identity, replica, messages, rng, persist, mental_deal: bool,
                  **options) -> HostAuthority:
    """The authority this player hosts with, from its replica (up to the takeover)."""
    private = mental_log.dealt_privately(replica.log)
    host = cls(identity, rng, persist, mental_deal=mental_deal if private is None else private,
               rebuild=functools.partial(restore, cls), **options)
    _take_state(host, replica)
    _take_log(host, replica, messages)
    host.seen = {msg.entry.seq: seen(msg) for msg in messages}
    return host


def seen(message: EntryMessage) -> dict:
    """What a successor's log keeps for an entry another host signed (``SEEN``)."""
    return {SEEN: {"events": message.events, "public": message.public, "view": message.own,
                   "action": message.action}}


def seen_message(signed, private: dict | None) -> EntryMessage:
    """The entry message a successor's client was sent for ``signed``, from its log."""
    kept = (private or {}).get(SEEN)
    if not isinstance(kept, dict):
        raise RestoreError(f"entry {signed.seq}: what this player was sent for it is not kept")
    return EntryMessage.from_wire(m.entry_message(signed.wire, kept["events"], kept["public"],
                                                  kept["view"], kept["action"]))


def took_over_at(records, key: bytes) -> int | None:
    """Where in a log's ``records`` the last takeover making ``key`` the host is (None:
    none did — a log ``key`` did not carry on)."""
    return next((i for i in range(len(records) - 1, -1, -1)
                 if isinstance(body := records[i][0].content, TakeoverBody)
                 and body.host_key == key), None)


def restore(cls, identity, records, rng=os.urandom, persist=None, mental_deal: bool = False,
            **options) -> HostAuthority:
    """A host's table (``cls``: a ``HostAuthority``) rebuilt from its log. A log this key
    opened is ``cls.restore``'s; a successor's (it carried the table on), its replica from
    what it was sent up to its takeover, the authority from it as ``succeed`` built it,
    then its own entries replayed. RestoreError if the log is not one this key
    carried on, or does not check or replay."""
    at = took_over_at(records, identity.public_key)
    if at is None:  # a log this player opened as the table's first host
        return cls.restore(identity, records, rng, persist, mental_deal=mental_deal, **options)
    if at == 0:
        raise RestoreError("this log was written by another host key")
    first = records[0][0]
    messages = [seen_message(signed, private) for signed, private in records[:at]]
    replica = PeerReplica.restore(identity, first.entry.body_as(TableBody).host_key, first.entry.table,
                                  messages, rng,
                                  **{k: v for k, v in options.items() if k == "deadline"})
    if replica.stopped is not None:
        raise RestoreError(f"the log before the takeover does not check: {replica.stopped}")
    if replica.seq != at - 1:
        raise RestoreError(f"the log before the takeover stops at entry {replica.seq}")
    host = _from_replica(cls, identity, replica, messages, rng, persist, mental_deal, **options)
    for signed, private in records[at:]:
        host.replay(signed, private, "stored")
    return host


def _take_state(host: HostAuthority, replica) -> None:
    host.table = replica.table
    host.game = replica.game
    host.seats = Seats(replica.seats)
    host.options = dict(replica.options)
    host.deal = NoHand()
    bodies = [signed.content for signed in replica.log]
    host.name = next((b.name for b in bodies if isinstance(b, TableBody)), "")
    host.game_number = max((b.game_number for b in bodies if isinstance(b, StartBody)), default=0)
    if replica.scores is not None:
        match = Match(replica.game, bytes(32), dealer=replica.dealer)
        match.scores = list(replica.scores)
        match.hand_number = replica.hand_number
        match.winner = replica.winner
        host.match = match


def _take_log(host: HostAuthority, replica, messages) -> None:
    host.chain = Chain(replica.table)
    by_seq = {msg.entry.seq: msg for msg in messages}
    for signed in replica.log:
        msg = by_seq.get(signed.seq)
        host.archive.record(signed, list(msg.events) if msg is not None else [])
        host.archive.published(signed.seq, msg.public if msg is not None else None, {})
        host.chain.advance(signed)
