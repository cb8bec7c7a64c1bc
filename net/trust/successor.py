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

A successor that was itself restarted would need the departed host's part of the log
replayed without its private parts; that is not done here (``HostAuthority.restore``
accepts only a log the one host signed).
"""

from __future__ import annotations

import os
import time

from engine import Match

from net.constants import CONTRIBUTION_DEADLINE, DROP_WAIT
from net.trust import takeover
from net.trust.deals.mental import log as mental_log
from net.trust.authority import HostAuthority, Out
from net.trust.deals.host import NoHand
from net.trust.log import Chain
from net.trust.values import Seats


def succeed(identity, replica, standings, messages=(), rng=os.urandom, persist=None,
            mental_deal: bool = False, deadline: float = CONTRIBUTION_DEADLINE,
            clock=time.monotonic, drop_wait: float = DROP_WAIT) -> tuple[HostAuthority, Out]:
    """The authority this player (``identity``, seated per ``replica``) hosts the table
    with, and the ``Out`` of its takeover entry (to send to the others). ``replica`` must
    hold exactly the last entry every standing holds (``takeover.rolled_back``);
    ``messages`` are the EntryMessages it accepted (their events and public views go in
    the archive, for the players who rejoin). ``mental_deal``: this client's own choice,
    if the log has dealt no hand yet; ``deadline``, ``drop_wait``, ``clock``: the mental deal's."""
    if replica.seq != takeover.common_seq(standings):
        raise ValueError(f"the successor holds entry {replica.seq}, not the last entry every "
                         f"player holds ({takeover.common_seq(standings)})")
    if takeover.successor_seat(standings) != replica.seat:
        raise ValueError("this player is not the lowest seat among the standings")
    private = mental_log.dealt_privately(replica.log)
    host = HostAuthority(identity, rng, persist, mental_deal=mental_deal if private is None else private,
                           clock=clock, deadline=deadline, drop_wait=drop_wait)
    _take_state(host, replica)
    _take_log(host, replica, messages)
    body = takeover.takeover_body(replica, standings, identity.public_key)
    out = host.take_over(body)
    return host, out


def _take_state(host: HostAuthority, replica) -> None:
    host.table = replica.table
    host.game = replica.game
    host.seats = Seats(replica.seats)
    host.options = dict(replica.options)
    host.deal = NoHand()
    host.name = next((s.body["name"] for s in replica.log if s.kind == "table"), "")
    host.game_number = max((s.body["game_number"] for s in replica.log if s.kind == "start"),
                           default=0)
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
