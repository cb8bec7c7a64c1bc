"""What the host logged and what each seat was sent with it, to send it again.

A seat coming back — a dropped peer, a restarted guest, a re-admitted key — is sent the
log after the last entry it holds exactly as it would have had it live: each entry with
its engine events, the public view after it and that seat's private part (its view,
its own secret move). The private parts go only to the key that held the seat when the
entry was made: a key given the seat later never sees its predecessor's cards, nor the
reverse. ``Archive`` keeps all of it, by sequence number, and makes the ``sync``
messages, each entry message signed for the seat it goes to as sent in a catch-up
(``sent``: the live one said it came live) — and a watcher's, which carry no private
part at all, signed once for every watcher (``public_message``, ``public_sync``). It also
answers the one question about the log's history the host's
sessions ask: whether a key's seat was given away (``taken_from``).

No I/O: the host records every entry it applies, live or replaying its stored log.
"""

from __future__ import annotations

from net.trust import sent
from net.trust.entries import SeatBody
from net.trust.values import HUMAN, SignedEntry
from net.wire import messages as m

NO_PRIVATE = {"view": None, "action": None}


class Archive:
    """``signer``: the host's identity, which signs what each sync sends a seat."""

    def __init__(self, signer):
        self.signer = signer
        self.log: list[SignedEntry] = []  # every signed entry, by seq
        self.events: list[list] = []  # the engine's events of each entry, by seq
        self.publics: dict[int, dict | None] = {}  # seq -> public view after the entry
        self.digests: dict[int, str | None] = {}  # seq -> that view's state hash
        self.privates: dict[int, dict[int, dict]] = {}  # seq -> seat -> private part
        # seq -> the entry as a watcher's catch-up carries it: signed once, for every
        # watcher that arrives after it (a late one needs the whole log)
        self.catch_ups: dict[int, dict] = {}

    def record(self, signed: SignedEntry, events: list) -> None:
        """The next entry of the log, applied with these events."""
        self.log.append(signed)
        self.events.append(events)

    def published(self, seq: int, public: dict | None, privates: dict[int, dict],
                  digest: str | None = None) -> None:
        """What the seated peers were sent with entry ``seq`` (``digest``: the public
        view's state hash, when it was made; else it is made when a sync needs it)."""
        self.publics[seq] = public
        if digest is not None or public is None:
            self.digests[seq] = digest
        self.privates.setdefault(seq, {}).update(privates)
        self.catch_ups.pop(seq, None)  # (made again with this view, if it was made)

    def _digest(self, seq: int) -> str | None:
        if seq not in self.digests:
            self.digests[seq] = sent.public_digest(self.publics.get(seq))
        return self.digests[seq]

    def hash_at(self, seq: int) -> bytes | None:
        return self.log[seq].hash if 0 <= seq < len(self.log) else None

    def sync(self, seat: int, last_seq: int, key: bytes | None) -> list[dict]:
        """The log after ``last_seq`` as ``seat``'s player with ``key`` should have
        received it, in chunks that each fit a frame, each entry message signed for it."""
        holder = None
        messages = []
        for signed, events in zip(self.log, self.events):
            seq, body = signed.seq, signed.content
            if isinstance(body, SeatBody) and body.seat == seat:
                holder = body.key if body.kind == HUMAN else None
            if seq <= last_seq:
                continue
            private = NO_PRIVATE
            if holder == key:
                private = self.privates.get(seq, {}).get(seat, private)
            message = m.entry_message(signed.wire, events, self.publics.get(seq), **private)
            messages.append(sent.signed(self.signer, message, signed.hash, seat, key, False,
                                        self._digest(seq)))
        return chunked(messages)

    def public_message(self, seq: int, live: bool = True) -> dict:
        """Entry ``seq`` as anyone at the table may see it — a watcher: the entry, its
        events and the public view after it, nothing private; signed once for every
        watcher (``sent``, for no seat and no key)."""
        signed = self.log[seq]
        message = m.entry_message(signed.wire, self.events[seq], self.publics.get(seq))
        return sent.signed(self.signer, message, signed.hash, None, None, live, self._digest(seq))

    def public_sync(self, last_seq: int) -> list[dict]:
        """The log after ``last_seq`` as a watcher is sent it (``public_message``, as in
        a catch-up: each made and signed once, for every watcher), in chunks that each
        fit a frame."""
        return chunked([self.catch_up(seq) for seq in range(max(last_seq + 1, 0), len(self.log))])

    def catch_up(self, seq: int) -> dict:
        """Entry ``seq`` as a watcher's catch-up carries it (``public_message``, not live):
        made and signed once — for every watcher that arrives late, and for the watchers
        sent a private deal's own entries together, once it is dealt."""
        if seq not in self.catch_ups:
            self.catch_ups[seq] = self.public_message(seq, live=False)
        return self.catch_ups[seq]

    def taken_from(self, key: bytes) -> tuple[int, int] | None:
        """(seat, seq) if the host re-admitted a seat whose player had ``key`` to another
        key at entry ``seq``, and ``key`` holds no seat since."""
        last_player: dict[int, bytes] = {}  # seat -> its last human key (through stand-ins)
        taken = None
        for signed in self.log:
            body = signed.content
            if not isinstance(body, SeatBody):
                continue
            if body.kind == HUMAN and body.key is not None:
                if body.readmit and last_player.get(body.seat) == key != body.key:
                    taken = (body.seat, signed.seq)
                elif body.key == key:
                    taken = None
                last_player[body.seat] = body.key
            elif body.kind == "empty":
                last_player.pop(body.seat, None)
        return taken


def chunked(messages: list[dict]) -> list[dict]:
    """``sync`` messages carrying ``messages`` in order, at most ``SYNC_CHUNK`` each."""
    chunks = [messages[i:i + m.SYNC_CHUNK] for i in range(0, len(messages), m.SYNC_CHUNK)] or [[]]
    return [m.sync_message(c, last=i == len(chunks) - 1) for i, c in enumerate(chunks)]
