"""What a guest's person is told: the facade's events, built from the guest's replica.

A guest knows its table only through its own ``PeerReplica`` (every entry checked with
the engine). ``GuestView`` turns what the replica accepted into the same events a host
gives its own seat — the builders in ``net.sessions.events`` — so a guest's "table",
"state", "hand_over" and "hint" are the host's, field for field: who sits where (bot
levels included), the position, the hand's end (with its verified record saved), other
players dropping and coming back, a deal that waits for someone's shuffle, and, under
the private deal, for a player gone whose cards are locked with their key (the countdown
from their drop as this guest received it: the log says all it needs, so the wire
carries nothing more), and why it went on without them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from net.constants import SHUFFLE_NOTICE
from net.sessions.events import (WHY_AWAY, WHY_CHEAT, WHY_CHOSEN, WHY_GONE, WHY_SILENT, away_event,
                                 connection_event, deal_kind, deal_restart_event, hand_over_events, held_event,
                                 hint_event, named_event, readmitted_event, record_breakdown,
                                 score_history, seat_info, shows_hand, shuffle_event, stand_in_event,
                                 state_event, table_event, takeover_event)
from net.sessions.facade import (ConnectionEvent, DealKind, EventCallback, StateEvent,
                                 TableEvent, WhyRestarted)
from net.trust.alerts import alert_event
from net.trust.deals.mental import log as ml
from net.trust.deals.peer import NO_DEAL
from net.trust.entries import (DropBody, HandBody, HandEndBody, MentalRestartBody, RejoinBody, RevealBody,
                               SeatBody, TableBody, TakeoverBody)
from net.trust.peer.replica import PeerReplica
from net.trust.values import NOBODY, EntryMessage

TABLE_KINDS = {"seat", "drop", "rejoin", "start", "option", "table", "takeover"}


class GuestView:
    """Wired by the ``GuestCore`` to what it uses: its ``replica`` (a getter: a rejoin or a
    takeover makes a new one), ``emit``, ``call_later``, ``timings``, and the calls
    ``table_name`` (the name found in the lobby or by a code, if any), ``subdir`` (a folder
    of its state directory, None without one), ``caught_up`` (the log has come) and
    ``moving`` (its player's move is on its way)."""

    def __init__(self, replica: Callable[[], PeerReplica | None], emit: EventCallback,
                 call_later: Callable, timings, *, table_name: Callable[[], str | None],
                 subdir: Callable[[str], Path | None], caught_up: Callable[[], bool],
                 moving: Callable[[], bool], from_disk: Callable[[], int | None],
                 coach: Callable[[], tuple | None] = lambda: None,
                 watching: Callable[[], bool] = lambda: False):
        self._replica, self.emit, self.call_later, self.timings = replica, emit, call_later, timings
        self._table_name, self._subdir, self._caught_up, self._moving = \
            table_name, subdir, caught_up, moving
        self._from_disk = from_disk  # the entries our replica was rebuilt with from disk
        # A watcher's: it watches (no seat), and the hand a player shows it, over the public
        # view, with the position rebuilt from it (``watching.ShownHands.coach_view``).
        self._watching, self._coach = watching, coach
        self._deal = deal_kind(False)  # how the last hand seen was dealt
        self._until: dict[int, float] = {}  # a player gone -> when its countdown ends here
        self._caught_restart: int | None = None  # the last restart of a catch-up, not told yet

    @property
    def replica(self) -> PeerReplica:
        """The replica whose entries are being told: what is reported was accepted by
        one, and once the guest holds a replica it always does (a rejoin or a takeover
        puts another in its place). (``hint`` and the shuffle notice, which may come at
        any time, look for themselves.)"""
        replica = self._replica()
        assert replica is not None, "the view reports on entries a replica accepted"
        return replica

    # -- after every accepted batch ---------------------------------------------------------
    def report(self, accepted: list[EntryMessage], was_seat: int | None,
               was_names: dict[int, str], caught_up: bool = False,
               live: bool = True) -> None:
        """``caught_up``: this batch brought the replica up to the head the host announced
        at our join — the position is the table's now, and our decision is offered;
        ``live``: entries as the host logged them, not a catch-up sync."""
        kinds = {a.entry.kind for a in accepted}
        # In the log's order: a catch-up holding a takeover and, after it, the departed
        # player's return leaves their seat shown back, not held for them. A catch-up from
        # the log's start holds the setup too: seats taken before the game started (a
        # computer player's among them) are no one coming or going.
        setup = max((i for i, a in enumerate(accepted) if a.entry.kind == "start"), default=-1)
        for i, a in enumerate(accepted):
            took = a.entry.content
            if isinstance(took, TakeoverBody):
                if not self._told_before(a.entry.seq, took):
                    self._takeover(took, was_names)
            elif i > setup:
                self._others_connection([a], was_names)
        self._watch_shuffles(accepted)
        self._away(accepted, live)
        self._restarts(accepted, was_names, caught_up, live)
        if kinds & TABLE_KINDS or was_seat != self.replica.seat:
            self.emit(self.table_event())
        playing = self.replica.hand is not None and self.replica.hand.playing
        if shows_hand(kinds, playing) or (caught_up and playing):
            self.emit(self.state_event([e for a in accepted for e in a.events]))

    def table_event(self) -> TableEvent:
        r = self.replica
        game = r.game
        if game is None:  # (no table entry yet: no game to name; the app waits for one)
            return {"type": "table", "seats": [], "you": r.seat, "is_host": False, "host_seat": None,
                    "settings": {"game": "", "ruleset": None, "mode": None, "options": {},
                                 "name": self.table_name()},
                    "table_options": {}, "started": False}
        seats = [seat_info(seat, r.seats.get(seat), r.seats.get(seat, NOBODY).connected)
                 for seat in range(game.num_players)]
        return table_event(game, self.table_name(), seats, r.seat, False, r.options,
                           r.scores is not None, host_seat=r.host_seat)

    def table_name(self) -> str:
        """The name found in the lobby, else the one in the table entry (seq 0)."""
        found = self._table_name()
        if found:
            return found
        r = self._replica()
        first = r.log[0].content if r is not None and r.log else None
        return first.name if isinstance(first, TableBody) else ""

    def state_event(self, events: list) -> StateEvent:
        if self._watching():
            return self._watcher_state(events)
        r = self.replica
        state = r.decision_state()  # (the host's view of this seat when the replay lacks its cards)
        if self._moving():
            state = None  # our move is on its way: nothing to decide now
        elif not self._caught_up():
            state = None  # the table's past, while its log comes: nothing to decide on it
        elif r.view is not None and r.seat not in (r.view.get("to_act") or ()):
            state = None  # not ours to decide (under the mental deal: a kitty on its way)
        # No view of our own: a departed host catching up on what it logged itself
        # (``takeover``) sees the public one.
        view = r.view if r.view is not None else (r.public or {})
        return state_event(r.game, state, r.seat, events, r.scores or [], r.hand_number + 1,
                           view=view, deal=self.deal())

    def _watcher_state(self, events: list) -> StateEvent:
        """A watcher's "state": the public view — or, a hand shown to it (``coach``), that
        hand over the public view with its legal moves, to see and never to play."""
        r = self.replica
        coach = self._coach() if self._caught_up() else None
        if coach is not None:
            view, state = coach
            event = state_event(r.game, state, view["seat"], events, r.scores or [], r.hand_number + 1,
                                view=view, deal=self.deal())
            event["coach"] = True
        else:
            event = state_event(r.game, None, None, events, r.scores or [], r.hand_number + 1,
                                view=r.public or {}, deal=self.deal())
        event["watching"] = True
        return event

    def deal(self) -> DealKind:
        """How the hand on the table was dealt (``events.deal_kind``): the hand's deal
        part says (between hands, the last hand's; before the first, the seeded deal)."""
        deal = self.replica.deal
        if deal is not NO_DEAL:
            # (a watcher is no party of the deal either, and has no cards the host holds)
            self._deal = deal_kind(deal.PRIVATE, deal.held_by_host and not self._watching())
        return self._deal

    def hint(self) -> None:
        """What a "normal" bot would do in this seat, from the seat's view (its own replay's,
        or the host's when the replay lacks its cards: ``PeerReplica.decision_state``): a
        "hint" event."""
        r = self._replica()
        coach = self._coach() if self._watching() and r is not None else None
        if coach is not None and r is not None:  # a watcher shown a hand: what its player might do
            view = coach[0]
            self.emit(hint_event(r.game, view, view["seat"], f"{r.table}|hint|{r.seq}"))
            return
        if r is None or r.view is None or r.stopped is not None:
            self.emit(hint_event(None, None, None, ""))  # nothing to decide
            return
        self.emit(hint_event(r.game, r.view, r.seat, f"{r.table}|hint|{r.seq}"))

    def alerts(self, alerts: list, goes_on: bool = False) -> list[dict]:
        """Tell the person of each integrity alert, its evidence saved first; the events.
        ``goes_on``: a player's proven cheat named while the table goes on (at the
        ``hand_end`` that forfeits the hand; at a restart in a log before protocol 8). An
        alert another player's client found says whose (``reported_by``), and whether it
        was checked here (``checked``) or is that player's word."""
        events: list[dict] = []
        for alert in alerts:
            event: dict = dict(alert_event(alert, self._subdir("evidence")))
            if goes_on:
                failing = (alert.evidence[-1] or {}).get("entry") or {}
                event = named_event(event, failing.get("kind") == "hand_end")
            events.append(event)
            self.emit(event)
        return events

    # -- the end of a hand ----------------------------------------------------------------------
    def hand_verified(self, hand: dict) -> None:
        path = None
        records = self._subdir("records")
        if records is not None and hand.get("record") is not None:
            records.mkdir(parents=True, exist_ok=True)
            path = records / f"{safe_name(self.replica.table)}-hand{hand['hand']}.json"
            path.write_text(json.dumps(hand["record"], indent=1))
        if self._dealt_since(hand["hand"]):
            return  # (caught up past it: its summary would cover the hand being played)
        # (a forfeit checked on this client's partial replay has no record, only its breakdown)
        breakdown = hand.get("breakdown") or record_breakdown(hand.get("record"))
        for event in hand_over_events(hand["result"], hand["scores"], hand["hand"], hand["winner"],
                                      breakdown,
                                      str(path) if path else None,
                                      history=score_history(self.replica.log, hand["hand"])):
            self.emit(event)

    def _dealt_since(self, hand: int) -> bool:
        """Whether a later hand than ``hand`` has been dealt: a hand that ended before this
        client caught up (an app back after a restart, a rejoin) or checked late is past —
        its record is kept, but its summary is not shown over the hand now played."""
        for entry in reversed(self.replica.log):
            body = entry.content
            if entry.kind in self.replica.deals and isinstance(body, HandBody):
                return body.hand > hand
        return False

    def hands_not_verified(self, accepted: list[EntryMessage], verified: list[dict]) -> None:
        """Hands revealed that this seat could not check — under the mental deal, a hand
        it was no party of (its player away at the deal or restarted out of it: its cards
        were the host's) — are over all the same: the host's result and scores, told as
        any hand's end (no record, no breakdown), so that the table goes on to the summary
        and to the game's end on screen. (The hand's parties checked it.)"""
        done = {hand["hand"] for hand in verified}
        log = self.replica.log
        for a in accepted:
            reveal = a.entry.content
            if not isinstance(reveal, RevealBody) or reveal.hand in done:
                continue
            end = next((e.content for e in reversed(log[:a.entry.seq]) if e.kind == "hand_end"), None)
            if isinstance(end, HandEndBody) and end.hand == reveal.hand \
                    and not self._dealt_since(end.hand):
                for event in hand_over_events(end.result, end.scores, end.hand, end.winner, None,
                                              history=score_history(log, end.hand)):
                    self.emit(event)

    # -- the others -----------------------------------------------------------------------------
    def _told_before(self, seq: int, body: TakeoverBody) -> bool:
        """A takeover our replica was rebuilt with from our own copy on disk, whose
        departed player is back: told before the app was restarted, and no longer so (not
        again, as if it had just happened). Still away, their seat is still held: told."""
        departed = None if body.departed_seat is None else self.replica.seats.get(body.departed_seat)
        from_disk = self._from_disk()
        return from_disk is not None and seq < from_disk \
            and departed is not None and departed.connected

    def _takeover(self, body: TakeoverBody, was_names: dict[int, str]) -> None:
        """A player carried the table on: who, from whom, and why (a "takeover" event)."""
        names = {s: was_names.get(s) or i.name for s, i in self.replica.seats.items()}
        self.emit(takeover_event("done", names.get(body.departed_seat, ""),
                                 names.get(body.seat, ""), body.abandoned,
                                 body.reason, departed_seat=body.departed_seat,
                                 handed=body.handover is not None))

    def _others_connection(self, accepted: list[EntryMessage], was_names: dict[int, str]) -> None:
        """Other players dropping and coming back (or a bot standing in, or their seat
        given to a new key), in game."""
        r = self.replica
        if r.scores is None:
            return
        for a in accepted:
            body = a.entry.content
            if not isinstance(body, (SeatBody, DropBody, RejoinBody)) or body.seat == r.seat:
                continue
            seat = body.seat
            name = r.seats.get(seat, NOBODY).name or f"seat {seat + 1}"
            event = self._connection(body, name, was_names)
            if event is not None:
                self.emit(event)

    @staticmethod
    def _connection(body: SeatBody | DropBody | RejoinBody, name: str,
                    was_names: dict[int, str]) -> ConnectionEvent | None:
        seat = body.seat
        if isinstance(body, SeatBody) and body.readmit and body.key is not None:
            return readmitted_event(seat, was_names.get(seat) or name, body.key)
        if isinstance(body, DropBody):
            return connection_event(seat, "dropped",
                                    f"{name} lost the connection. Their seat is held for them.")
        if isinstance(body, RejoinBody) or body.kind == "human":
            return connection_event(seat, "connected")
        if body.kind == "bot":
            return stand_in_event(seat, name)
        return None

    def _restarts(self, accepted: list[EntryMessage], was_names: dict[int, str], caught_up: bool,
                  live: bool) -> None:
        """A deal restarted, or a hand voided, without players gone: told live as it
        happens; from a catch-up (which may come in several batches), only the last one,
        once caught up, if it is still in force."""
        for entry in (a.entry for a in accepted):
            body = entry.content
            if isinstance(body, MentalRestartBody) and body.seats:
                if live:
                    self._tell_restart(entry.seq, body, was_names, live=True)
                else:
                    self._caught_restart = entry.seq
        seq, log = self._caught_restart, self.replica.log
        if seq is not None and (caught_up or live or self._caught_up()):
            self._caught_restart = None
            restart = log[seq].content if seq < len(log) and log[seq].seq == seq else None
            if isinstance(restart, MentalRestartBody) and self._in_force(seq):
                self._tell_restart(seq, restart, was_names, live=False)

    def _tell_restart(self, seq: int, body: MentalRestartBody, was_names: dict[int, str],
                      live: bool) -> None:
        r = self.replica
        names = [was_names.get(s) or r.seats[s].name for s in body.seats]
        why = self._why(seq, body) if live or body.reason == "cheat" else WHY_AWAY
        self.emit(deal_restart_event(names, body.seats, ml.voided_at(r.log, seq), why, you=r.seat))
        for seat in body.seats if live else ():  # still away: timed from now
            if seat != r.seat and self._held(seat):
                self.emit(held_event(r.seats[seat].name, seat, self.timings.drop_wait))

    def _in_force(self, seq: int) -> bool:
        """Whether the restart entry ``seq`` still says whose cards the host holds: it is
        the last of the deal on the table — no restart since, no hand's end, no takeover
        (which deals the hand again). A catch-up tells only that one: the others are the
        table's past — a player back after a takeover was once told "Hand 1 is void: Sam
        left…", of a hand long gone, and, with the hand number of the hand being played,
        "Hand 2 is void: Sam left … the host's computer holds their cards" when it was
        her own cards the host held."""
        return not any(e.kind in (HandEndBody.KIND, ml.RESTART, TakeoverBody.KIND)
                       for e in self.replica.log[seq + 1:])

    def _why(self, seq: int, restart: MentalRestartBody) -> WhyRestarted:
        """Why the deal went on without ``seats`` (``events.WHY_*``), as this guest can
        tell: a cheat named in the log; a client there but silent (``restarted_silent``);
        players gone, dealt again without before this guest's countdown for them ran
        out — the host person's choice — or after it."""
        r = self.replica
        if restart.reason == "cheat":
            return WHY_CHEAT
        if r.deal.restarted_silent(seq):
            return WHY_SILENT
        ends = [self._until.pop(s, None) for s in restart.seats]
        early = [end for end in ends if end is not None
                 and end - r.clock() > self.timings.contribution_slack]
        return WHY_CHOSEN if early else WHY_GONE

    def _away(self, accepted: list[EntryMessage], live: bool) -> None:
        """Another player gone whose cards are locked with their key: the deal waits for
        them (``waits_for``), the drop wait from their drop as this guest received it —
        the host's own countdown runs from its logging it, a delivery earlier; a drop
        that came in a catch-up cannot be timed. (A guest is not told the host person's
        Keep waiting: when its countdown runs out the app says the host waits longer.)"""
        r = self.replica
        for body in (a.entry.content for a in accepted):
            if not isinstance(body, (DropBody, RejoinBody)):
                continue
            seat = body.seat
            if isinstance(body, RejoinBody):
                self._until.pop(seat, None)
                continue
            if seat == r.seat:
                continue
            wait = self.timings.drop_wait if live else None
            if r.deal.waits_for(seat):
                if wait is not None:
                    self._until[seat] = r.clock() + wait
                self.emit(away_event([r.seats[seat].name], [seat], wait))
            elif self._held(seat):
                self.emit(held_event(r.seats[seat].name, seat, wait))

    def _held(self, seat: int) -> bool:
        """Whether ``seat``'s player is away and the host's computer holds their cards
        this hand, under the private deal (after a void or a takeover, or away at the
        deal): the host waits for them its drop wait, then a computer plays for them."""
        r = self.replica
        info = r.seats.get(seat)
        return r.deal.PRIVATE and r.hand is not None and info is not None and info.kind == "human" \
            and not info.connected and not r.deal.dealt_to_own_client(seat)

    def _watch_shuffles(self, accepted: list[EntryMessage]) -> None:
        """Once the deal has waited a while for other players' shuffles, say whose."""
        rnd = self.replica.round
        if rnd is None or rnd.dealt or not any(
                a.entry.kind == "commit" for a in accepted):
            return
        self.call_later(SHUFFLE_NOTICE, self._shuffle_notice, rnd.commitment)

    def _shuffle_notice(self, commitment: bytes) -> None:
        r = self._replica()
        if r is None or r.stopped is not None:
            return
        rnd = r.round
        if rnd is None or rnd.commitment != commitment or rnd.dealt:
            return
        names = [r.seats[s].name for s in rnd.waiting_for if s != r.seat]
        if names:
            self.emit(shuffle_event(names))


def safe_name(text: str | None) -> str:
    """``text`` as a file name (letters, digits, - _ . only; at most 60)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in (text or "table"))[:60]
