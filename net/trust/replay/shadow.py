"""One hand as a peer checks it: the shadow deal it is replayed on, and what is kept of
it for the reveal.

A peer does not know the other hands, so it plays the hand on a *shadow deal*: its own
hand as dealt, every card the others have played placed in their hands, the rest
filled in (``engine.partial.PartialHand``, the replay of a seat's partial knowledge
that the bots use too). ``Shadow`` wraps that replay with what it finds impossible
turned into Violations, and adds the checks only this seat can make on the others'
plays. ``CheckedHand`` is the replica's record of the hand from its commitment to its
end: the shadow, each logged move (``Step``) kept for the replay at the reveal, and the
entries whose public view could only be checked then (``deferred``).

Both are immutable: each new entry makes a new value, so a refused entry leaves the
old one untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import Action, Contradiction, IllegalAction
from engine.partial import PartialHand

from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.entries import HandEndBody
from net.trust.moves import ActionBody


class Shadow:
    """One hand replayed on a deal consistent with what seat ``me`` knows: the others'
    plays are accepted whatever they held (on a shadow deal their holdings are made up,
    and are checked at the reveal)."""

    def __init__(self, game, me: int | None, dealer: int, my_hand: frozenset,
                 known_spare: frozenset = frozenset(), steps: tuple = (), hand=None,
                 shown_spare: tuple = ()):
        self.game, self.me, self.dealer = game, me, dealer
        self.my_hand, self.known_spare = my_hand, known_spare
        # Spare cards the public view shows everyone (a widow turned up, an open widow,
        # a left-over card face up), in deal order: any seat may come to play them.
        self.shown_spare = shown_spare
        self.steps = steps  # ((Action, hidden), …): hidden = value unknown to me
        spare = list(shown_spare) + sorted(known_spare - set(shown_spare))
        self.hand = hand if hand is not None else replayed(
            lambda: PartialHand(game, me, dealer, my_hand, spare, steps))

    @property
    def state(self):
        return self.hand.state

    def with_step(self, action: Action, hidden: bool) -> "Shadow":
        steps = self.steps + ((action, hidden),)
        if hidden and action.seat == self.me:
            # A stand-in bot made this seat's secret move while its player was away, so
            # the cards it kept are unknown here: go on as a seat dealt no cards and shown
            # no spare (every seat's plays unseen until the reveal checks them), not on
            # made-up ones. A kitty learnt before is this seat's to play now, not barred.
            return Shadow(self.game, None, self.dealer, frozenset(), frozenset(), steps,
                          shown_spare=self.shown_spare)
        if action.kind == "play" and action.seat != self.me:
            self._check_play(action)
        hand = replayed(lambda: self.hand.step(action, hidden))
        return Shadow(self.game, self.me, self.dealer, self.my_hand, self.known_spare, steps, hand,
                      self.shown_spare)

    def _check_play(self, action: Action) -> None:
        card, seat, name = action.value, action.seat, self.game.deck.name
        if not isinstance(card, int) or not 0 <= card < self.game.deck.size:
            raise Violation(PLAYER, seat, "illegal-action", f"seat {seat} played no card")
        if card in self.my_hand or card in self.known_spare:
            raise Violation(PLAYER, seat, "illegal-action",
                            f"seat {seat} played {name(card)}, which was dealt to me (the host accepted it)")
        if any(a.kind == "play" and a.value == card for a, _ in self.steps):
            raise Violation(PLAYER, seat, "illegal-action",
                            f"seat {seat} played {name(card)}, which was already played (the host accepted it)")

    def learn_spare(self, cards: frozenset) -> "Shadow":
        return Shadow(self.game, self.me, self.dealer, self.my_hand, self.known_spare | cards,
                      self.steps, shown_spare=self.shown_spare)

    def shown(self, spare: tuple) -> "Shadow":
        """Replayed again knowing the spare cards the public view shows (``spare``)."""
        return Shadow(self.game, self.me, self.dealer, self.my_hand, self.known_spare,
                      self.steps, shown_spare=tuple(spare))


def replayed(replay):
    """``replay()``, with the engine's objections as Violations: a step the rules refuse
    was the player's (the host accepted it); an impossible play names its player, and a
    play no deal fits at all is the host's."""
    try:
        return replay()
    except Contradiction as exc:
        raise Violation(PLAYER if exc.seat is not None else HOST, exc.seat, "illegal-action",
                        exc.reason) from None
    except IllegalAction as exc:
        raise Violation(PLAYER, exc.seat, "illegal-action",
                        f"seat {exc.seat}: {exc.reason} (the host accepted it)") from None


@dataclass(frozen=True)
class Step:
    """One logged move, kept for the replay at the reveal."""

    seq: int
    body: ActionBody
    state_hash: str


@dataclass(frozen=True)
class CheckedHand:
    """The hand in progress as the replica checks it: committed (``commit_seq``), then
    dealt (``shadow``; ``deal_seq`` and ``deal_hash`` are the deal entry's), played
    (``steps``), and ended (``end``: the "hand_end" body, until the reveal)."""

    commit_seq: int
    deal_seq: int | None = None
    deal_hash: str | None = None
    shadow: Shadow | None = None
    steps: tuple[Step, ...] = ()
    deferred: tuple[int, ...] = ()  # entries whose public view only the reveal can check
    end: HandEndBody | None = None

    @property
    def dealt(self) -> bool:
        return self.shadow is not None

    @property
    def playing(self) -> bool:
        """Dealt and not over: moves may come."""
        return self.shadow is not None and self.end is None

    @property
    def over(self) -> bool:
        """Dealt and played out (its end may not be logged yet)."""
        return self.shadow is not None and self.shadow.state.is_over

    @property
    def dealt_shadow(self) -> Shadow:
        """The shadow, where the hand must have been dealt (a move, the spare learned)."""
        if self.shadow is None:
            raise ValueError("the hand is not dealt yet")
        return self.shadow

    @property
    def me(self) -> int | None:
        """The seat this key held when the hand was dealt (its shadow's)."""
        return self.shadow.me if self.shadow is not None else None

    @property
    def my_hand(self) -> frozenset:
        return self.shadow.my_hand if self.shadow is not None else frozenset()

    def last_action(self, seat: int) -> int | None:
        """The entry of ``seat``'s last move this hand, if any."""
        return next((step.seq for step in reversed(self.steps) if step.body.seat == seat), None)

    def with_deal(self, seq: int, state_hash: str, shadow: Shadow, deferred: list) -> "CheckedHand":
        return replace(self, deal_seq=seq, deal_hash=state_hash, shadow=shadow, deferred=tuple(deferred))

    def with_shadow(self, shadow: Shadow) -> "CheckedHand":
        return replace(self, shadow=shadow)

    def with_step(self, step: Step, shadow: Shadow, deferred: list) -> "CheckedHand":
        return replace(self, shadow=shadow, steps=self.steps + (step,),
                       deferred=self.deferred + tuple(deferred))

    def ended(self, body: HandEndBody) -> "CheckedHand":
        return replace(self, end=body)
