"""Who is away from the table, as the table view shows it.

A player's connection drops and comes back, a bot stands in for a while, a seat goes to
a new key, the host leaves for good and a player carries the table on (issue 14). Each
arrives as a "connection" or "takeover" event; ``Absences`` turns it into the parts the
table view owns: the seat's dot, the curtain over the table when it is *our* link that
is down (everyone else plays on, so theirs is a bar, not a curtain), the bar for a seat
the table waits for, and a line in the status. Under the private deal a player gone
holds the hand itself up — their cards are locked with their key — and a "waiting" event
for "return" says so: the bar counts down to the hand dealt again without them, and
offers the host "Keep waiting" or "Deal again without Dad" (``on_away``); once it is
dealt again without them the bar is an ordinary one again (``dealt_again``), and while
the host's computer holds their cards (after a void or a takeover) a "waiting" event for
"held" counts it down to a computer playing for them (``on_held``).
"""

from __future__ import annotations

from collections.abc import Callable

from .overlays import drop_reason

HOST_GONE = "The host left the game"


class Absences:
    def __init__(self, view, flash: Callable[[str], None]):
        self.view = view  # the TableView: its table data, seat ring, curtain and bar
        self.flash = flash
        self.host_gone: str | None = None  # the takeover curtain's words while it is up
        self.why: dict[int, str] = {}  # a seat away -> why, in words (its drop's)
        # the departed host's seat, held since a takeover -> (the bar's title, the
        # takeover in words): its held countdown keeps saying so, whichever of the
        # takeover's and the hold's events came first
        self.held_since_takeover: dict[int, tuple[str, str]] = {}

    def reset(self) -> None:
        self.view.connection.hide()
        self.host_gone = None

    def on_connection(self, event: dict) -> None:
        view = self.view
        seat, state = event.get("seat"), event.get("state")
        for info in view.table.get("seats") or []:
            if info.get("seat") == seat:  # the seat's dot follows the connection
                info["connected"] = state in ("connected", "readmitted")
        view.ring.refresh_seats(view.data)
        if state == "readmitted":  # "Dad's seat was given to a new key (fingerprint …)"
            self.flash(event.get("detail") or "A seat was given to a new key")
            return
        names = view.names()
        who = names[seat] if seat is not None and seat < len(names) else "a player"
        if state == "connected":
            if view.connection.seat in (seat, None) or seat == view.you:
                self.reset()
            view.waiting.clear(seat)
            self.held_since_takeover.pop(seat, None)
            return
        if state == "stand_in":  # a bot plays the seat for now: the table goes on
            view.waiting.clear(seat)
            detail = event.get("detail") or f"A bot plays for {who} for now"
            self.flash(detail[:1].upper() + detail[1:])  # (net's words start mid-sentence)
            return
        if seat is None or state not in ("dropped", "reconnecting"):
            return  # e.g. someone asking the host to be re-admitted
        if seat != view.you and not view.table.get("started"):
            return  # before the deal the setup screen shows who is away
        if seat == view.you:
            self._reconnecting(seat, event)
        else:  # a bar, not a curtain: everyone else plays on meanwhile
            self.why[seat] = drop_reason(who, event.get("detail") or "")
            if view.waiting.holding(seat):
                return  # its countdown to a computer playing for them says more
            view.waiting.waiting(seat, f"Waiting for {who} to come back", self.why[seat],
                                 bool(view.table.get("is_host")))

    def on_waiting(self, event: dict) -> None:
        """Under the private deal: a player gone, whose cards are locked with their key,
        waited for ("return": the bar, with its countdown); or the deal started again or
        the hand voided without players ("restart", "void"), said in words, with why — in
        the status line, a banner and the game log."""
        if event.get("for") == "return":
            self.on_away(event)
            return
        if event.get("for") == "held":
            self.on_held(event)
            return
        view = self.view
        if event.get("detail"):
            view.status.show_waiting(event["detail"])
        self.dealt_again(event.get("seats") or [])
        who = " and ".join(event.get("names") or []) or "a player"
        reason = event.get("reason") or f"{who} left and did not come back in time"
        seats = event.get("seats") or []  # (net's events.whose_cards, said to this window)
        their = ("your" if len(seats) == 1 else "your and their") if view.you in seats else "their"
        if event.get("for") == "void":
            view.hand_voided(reason, "it is dealt again, the scores unchanged; the host's "
                                     f"computer holds {their} cards this hand")
        else:
            self.deal_restarted(reason, their)

    def deal_restarted(self, reason: str, their: str = "their") -> None:
        """The deal started again before the cards were dealt, for ``reason`` (words: "Dad
        left and did not come back in time"): a banner and a line in the log of the hand
        being dealt."""
        view = self.view
        number = view.hand_number or 0
        if view.view.get("phase") in (None, "done"):  # (the last hand is still shown)
            number += 1
        view.notice.show_notice(f"The deal started again: {reason}.",
                                f"The host's computer holds {their} cards this hand.")
        view.data.notes.append((number, f"Hand {number} dealt again: {reason}"))
        view.refresh()

    def keep_waiting(self, seat: int) -> None:
        """The host's Keep waiting: no bot for now — and, while the hand itself waits for
        the player (the private deal), its countdown starts again."""
        session = self.view.session
        if session is not None and self.view.waiting.locked:
            session.keep_waiting(seat)
        elif session is not None:
            session.stand_in(seat, False)

    def deal_again(self, seat: int) -> None:
        """The host's Deal again without Dad."""
        if self.view.session is not None:
            self.view.waiting.deal_button.setEnabled(False)  # one click deals once
            self.view.session.deal_again_without(seat)

    def on_away(self, event: dict) -> None:
        """The private deal waits for a player gone (a "waiting" event for "return")."""
        if (gone := self._other(event)) is not None:
            self.view.waiting.locked_for(*gone, event.get("within"), event.get("choice_in"),
                                         bool(self.view.table.get("is_host")))

    def on_held(self, event: dict) -> None:
        """A player gone whose cards the host's computer holds: a countdown to a computer
        playing for them (a "waiting" event for "held")."""
        if (gone := self._other(event)) is not None:
            title, why = self.held_since_takeover.get(gone[0], ("", ""))
            self.view.waiting.held_for(*gone, event.get("within"), bool(self.view.table.get("is_host")),
                                       title=title, why=why)

    def _other(self, event: dict) -> tuple[int, str] | None:
        """The first of ``event``'s seats that is not ours, and its player's name."""
        view, names = self.view, self.view.names()
        seat = next((s for s in event.get("seats") or [] if s != view.you), None)
        if seat is None:
            return None
        return seat, names[seat] if seat < len(names) else "a player"

    def dealt_again(self, seats) -> None:
        """The hand was dealt again without ``seats``' players, still away: their cards are
        the host's now, so the bar is the one for any dropped player (the host may let a
        computer play for them)."""
        view = self.view
        bar = view.waiting
        if bar.locked and bar.seat in seats:
            names = view.names()
            who = names[bar.seat] if bar.seat < len(names) else "a player"
            bar.waiting(bar.seat, f"Waiting for {who} to come back",
                        self.why.get(bar.seat) or drop_reason(who, ""), bool(view.table.get("is_host")))

    def _reconnecting(self, seat: int, event: dict) -> None:
        """Our own link is down: the curtain, with the attempts so far."""
        attempt, attempts = event.get("attempt"), event.get("attempts")
        progress = (int(attempt), int(attempts)) if attempt is not None and attempts else None
        title = "Reconnecting…"
        detail = event.get("detail") or "The connection to the table dropped. Trying again."
        if self.host_gone is not None:
            # The host left for good: its reconnect attempts go on under the same words,
            # not a curtain of their own that flips back and forth with it.
            title, detail = HOST_GONE, self.host_gone
        if attempt:
            detail += f" (attempt {attempt} of {attempts})" if attempts else f" (attempt {attempt})"
        self.view.connection.waiting(seat, title, detail, progress=progress, busy=True)

    def on_takeover(self, event: dict) -> None:
        """The host left for good: finding who hosts now and reconnecting to them (a
        curtain), then who does, why a hand is dealt again, and the seat held."""
        view = self.view
        text = event.get("text") or "The host left the game."
        if event.get("stage") in ("searching", "following"):
            self.host_gone = text
            view.connection.waiting(view.you, HOST_GONE, text, busy=True)
            return
        self.reset()
        seat = event.get("departed_seat")
        if seat is not None and seat != view.you:
            who = event.get("departed") or "the host"
            title = f"{who}'s seat is held for them"
            self.held_since_takeover[seat] = (title, text)
            if not view.waiting.retitle_held(seat, title, text):  # (its countdown came first)
                view.waiting.waiting(seat, title, text, bool(event.get("you")))
        self.flash(text)
