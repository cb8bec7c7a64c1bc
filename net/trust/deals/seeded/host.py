"""The seeded deal on the host: its commit–reveal round, its moves, its reveal.

``SeededHost`` follows one hand through the log — the commitment, the contributions and
skips, the deal, each move, the hand's end and the reveal — and writes the entries only
the host writes: the commitment (``opening``), the deal once every contribution is in or
waived, and at the end the score (``hand_end``) and the reveal of the secret and of every
secret move. The host's client knows every hand: it checks each move on the real deal
(the engine's rules are the check; the state is put back if a move is refused or its
entry cannot be written), and sends each seat its own view.

No I/O and no randomness of its own: the host passes its secret in. The replicas follow
the same round with ``fairdeal.DealRound`` (``seeded.peer``), checking instead of making.
"""

from __future__ import annotations

from engine import IllegalAction

from net.trust.deals.host import HandTable, HostDeal, Late
from net.trust.deals.seeded import fairdeal
from net.trust.entries import (ActionEntryBody, CommitBody, ContributionBody, DealBody,
                               HandEndBody, RevealBody, SkipBody)
from net.trust.log import result_dict
from net.trust.moves import Refusal, admit
from net.trust.signing import CONTRIBUTION_DOMAIN, opens
from net.trust.store import StoreError
from net.wire import messages as m

COMMIT, CONTRIBUTION, SKIP, DEAL = "commit", "contribution", "skip", "deal"
HAND_END, REVEAL = "hand_end", "reveal"


def commit_body(table: str, hand: int, dealer: int, secret: bytes, contributors: list[int]) -> CommitBody:
    return CommitBody(hand, dealer, fairdeal.commitment(table, hand, secret), contributors)


def hand_end_body(game, match, state=None, forfeit: dict | None = None) -> HandEndBody:
    """The finished hand's result and the running scores it makes (``state``: the hand
    scored, by default the match's; ``forfeit``: the verdict a forfeited hand rests on)."""
    result = (state or match.state).result()
    scores = [s + d for s, d in zip(match.scores, result.score)]
    return HandEndBody(match.hand_number, result_dict(result), scores,
                       game.match_winner(scores, result), forfeit)


class SeededHost(HostDeal):
    OPENS = COMMIT
    KINDS = (COMMIT, CONTRIBUTION, SKIP, DEAL, HAND_END, REVEAL)
    round: fairdeal.DealRound

    @staticmethod
    def opening(table: HandTable, rng, contributors: list[int]) -> tuple[CommitBody, dict]:
        """The commitment to this hand's secret, asking ``contributors`` for randomness."""
        secret = rng(32)
        match = table.match
        body = commit_body(table.table, match.hand_number, match.dealer, secret, contributors)
        return body, {"secret": secret}

    def __init__(self, table: HandTable, entry, private: dict):
        body = entry.body_as(CommitBody)
        super().__init__(table, body.hand, body.dealer)
        self.round = fairdeal.DealRound(table.table, body.hand, body.dealer, body.commitment,
                                        body.contributors, secret=private.get("secret"))
        self.hidden: list[dict] = []  # this hand's secret moves, revealed at its end
        self.since = table.now()  # when the commitment was logged (the host's clock)
        for seat in table.away() & set(body.contributors):
            self.round.waive(seat)

    # -- the log ---------------------------------------------------------------------------
    def apply(self, entry, private: dict, applied: list | None, restoring: bool) -> list:
        body = entry.content
        if isinstance(body, ContributionBody):
            contribution = body.signed["body"]  # checked as it came in (``take``)
            self.round.add(contribution["seat"], contribution["random"])
        elif isinstance(body, SkipBody):
            self.round.waive(body.seat)
        elif isinstance(body, DealBody):
            self.round.dealt, self.deal_seq = True, entry.seq
            return list(getattr(self.match.start_hand(self.round.seed()), "deal_events", ()))
        elif isinstance(body, ActionEntryBody):
            return self._apply_move(entry.seq, body, private, applied)
        elif isinstance(body, HandEndBody):
            self.match.finish_hand()
        elif isinstance(body, RevealBody):
            self.round.revealed = True
        return []

    def _apply_move(self, seq: int, logged: ActionEntryBody, private: dict,
                    applied: list | None) -> list:
        """A move: ``applied`` holds its events when the live state has taken it already
        (``log_move``); replaying the stored log, it is applied here."""
        events = applied
        if events is None:
            events = self.state.apply(self.table.game.action_from_json(private["action"]))
        body = logged.move
        self.last_action[body.seat] = seq
        if body.hidden is not None:
            self.hidden.append({"seq": seq, "action": private["action"], "nonce": private["nonce"]})
        return events

    def take(self, log, seat: int, key: bytes, message: dict) -> None:
        if message["type"] != m.CONTRIBUTION:
            if _names_hand(message, self.hand):
                # a private deal's message for this hand (a redeal claim, an audit): here the
                # host deals and checks every hand itself, and there is nothing to claim
                raise Refusal("this hand is dealt by the host's computer, which redeals and checks "
                              "every hand itself: it takes no private-deal message")
            return  # a client back from a privately dealt hand sends its old messages: done with
        signed = message["signed"]
        problem = self.contribution_problem(seat, key, signed)
        if problem:
            raise Refusal(problem)
        log(ContributionBody(seat, signed))

    def contribution_problem(self, seat: int, key: bytes, signed: dict) -> str | None:
        """Why ``seat``'s signed contribution (playing with ``key``) may not be logged."""
        if not opens(key, CONTRIBUTION_DOMAIN, signed):
            return "the contribution is not signed by your key"
        body = signed["body"]
        if body["seat"] != seat:
            return f"you sit in seat {seat}, not {body['seat']}"
        return self.round.contribution_problem(body)

    def go_on(self, log) -> None:
        """Deal once nothing more is awaited; score and reveal once the hand is over."""
        rnd = self.round
        if rnd.ready:
            log(DealBody(rnd.hand, rnd.dealer, rnd.contributors()),
                state_hash=self.table.game.deal(rnd.seed(), rnd.dealer).state_hash())
        state = self.state
        if rnd.dealt and state is not None and state.is_over:
            log(hand_end_body(self.table.game, self.match))
            log(RevealBody(rnd.hand, rnd.secret, list(self.hidden)))

    def between_hands(self) -> bool:
        return self.round.revealed

    # -- moves -------------------------------------------------------------------------------
    def admit(self, seat, key, signed, private, binding):
        return admit(self.table.game, self.state, key, seat, signed, private, binding)

    def log_move(self, log, signed: dict, move, carried: list) -> None:
        """Apply the move to the live state once — the engine's rules are the last check
        — and log it with the state hash it makes; the state is put back if the move is
        refused or its entry cannot be written."""
        state = self.state
        before = state.clone()
        try:
            events = state.apply(move.action)
        except IllegalAction as exc:
            self.match.state = before
            raise Refusal(exc.reason) from None
        try:
            log(ActionEntryBody.of(signed, move.body), private={"action": move.full, "nonce": move.nonce},
                state_hash=state.state_hash(), applied=events)
        except StoreError:
            self.match.state = before
            raise

    # -- players gone ------------------------------------------------------------------------
    def dropped(self, seat: int) -> None:
        self.round.waive(seat)  # the deal goes on without a contribution it will not get

    def awaited(self) -> list[int]:
        return [] if self.round.dealt else list(self.round.waiting_for)

    def overdue(self) -> list[Late]:
        """The seats whose shuffle has not come the deadline after the commitment."""
        if self.table.now() - self.since < self.table.deadline:
            return []
        return [Late(seat, (seat,), None, "skipped") for seat in self.awaited()]

    def due_in(self) -> float | None:
        if not self.awaited():
            return None
        return max(0.0, self.since + self.table.deadline - self.table.now())

    def go_on_without(self, log, late: list[int]) -> None:
        """A ``skip`` for each seat: the deal goes on without its contribution."""
        for seat in late:
            if seat not in self.awaited():
                raise Refusal(f"seat {seat} owes no contribution now")
            log(SkipBody(self.hand, seat))

    # -- what each party may see ---------------------------------------------------------------
    def private_view(self, seat: int) -> dict | None:
        state = self.state
        return state.private_view(seat) if state is not None else None

    def secret_of(self, seq: int) -> dict | None:
        if self.hidden and self.hidden[-1]["seq"] == seq:
            return self.hidden[-1]["action"]
        return None


def _names_hand(message: dict, hand: int) -> bool:
    """Whether a peer's private-deal message (``{"type": "mental", "signed"}``) is for
    hand number ``hand`` (an old one, sent again by a client back from a privately dealt
    hand, is for an earlier one)."""
    signed = message.get("signed")
    body = signed.get("body") if isinstance(signed, dict) else None
    return isinstance(body, dict) and body.get("hand") == hand
