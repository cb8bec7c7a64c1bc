"""The hand in progress, on the host: its deal round, its moves' bookkeeping, its reveal.

``HostHand`` follows one hand through the log — the commitment, the contributions and
skips, the deal, each move, the reveal — and makes the bodies of the entries that only
the host writes: the commitment (``commit_body``), the deal once every contribution is
in or waived (``deal_body``), and at the end the score (``hand_end_body``) and the
reveal of the secret and of every secret action (``reveal_body``). It also knows where a
seat's next move must fit in the log (``binding``) and which secret move an entry logged
(``secret_of``), for the host to echo it to its player alone.

No I/O and no randomness: the host passes its secret in. The replicas follow the same
round with ``fairdeal.DealRound``, checking instead of making.
"""

from __future__ import annotations

from collections.abc import Callable

from net.trust.deals.seeded import fairdeal
from net.trust.log import result_dict
from net.trust.moves import Binding
from net.trust.signing import CONTRIBUTION_DOMAIN, opens


class HostHand:
    #: The entries of the hand's own course (``follow``); an action's is the host's.
    FOLLOWS = ("commit", "contribution", "skip", "deal", "hand_end", "reveal")

    def __init__(self):
        self.round: fairdeal.DealRound | None = None
        self.deal_seq: int | None = None  # this hand's deal entry
        self.last_action: dict[int, int] = {}  # seat -> seq of its last action this hand
        self.hidden: list[dict] = []  # this hand's secret actions, revealed at its end

    # -- the bodies the host logs ------------------------------------------------------------
    @staticmethod
    def commit_body(table: str, hand: int, dealer: int, secret: bytes, contributors: list[int]) -> dict:
        return {"hand": hand, "dealer": dealer,
                "commitment": fairdeal.commitment(table, hand, secret), "contributors": contributors}

    def deal_body(self, game) -> tuple[dict, str] | None:
        """(body, state hash of the deal) once nothing more is awaited, else None."""
        rnd = self.round
        if rnd is None or not rnd.ready:
            return None
        body = {"hand": rnd.hand, "dealer": rnd.dealer, "contributors": rnd.contributors()}
        return body, game.deal(rnd.seed(), rnd.dealer).state_hash()

    @staticmethod
    def hand_end_body(game, match) -> dict:
        """The finished hand's result and the running scores it makes."""
        result = match.state.result()
        scores = [s + d for s, d in zip(match.scores, result.score)]
        return {"hand": match.hand_number, "result": result_dict(result), "scores": scores,
                "winner": game.match_winner(scores, result)}

    def reveal_body(self) -> dict:
        return {"hand": self.round.hand, "secret": self.round.secret, "hidden": list(self.hidden)}

    # -- questions -----------------------------------------------------------------------------
    def contribution_problem(self, seat: int, key: bytes, signed: dict) -> str | None:
        """Why ``seat``'s signed contribution (playing with ``key``) may not be logged."""
        if not opens(key, CONTRIBUTION_DOMAIN, signed):
            return "the contribution is not signed by your key"
        body = signed["body"]
        if body["seat"] != seat:
            return f"you sit in seat {seat}, not {body['seat']}"
        if self.round is None:
            return "no deal is waiting for randomness"
        return self.round.contribution_problem(body)

    def owes(self, seat: int) -> bool:
        """Whether the deal is waiting for ``seat``'s contribution."""
        rnd = self.round
        return rnd is not None and not rnd.dealt and seat in rnd.waiting_for

    def between_hands(self) -> bool:
        return self.round is None or self.round.revealed

    def binding(self, table: str, hand: int, seat: int, next_seq: int,
                hash_at: Callable[[int], bytes | None]) -> Binding:
        return Binding(table, hand, self.deal_seq, self.last_action.get(seat), next_seq, hash_at)

    def secret_of(self, seq: int) -> dict | None:
        """The full form of the secret action logged as entry ``seq``, if it is one."""
        if self.hidden and self.hidden[-1]["seq"] == seq:
            return self.hidden[-1]["action"]
        return None

    # -- following the log ---------------------------------------------------------------------
    def follow(self, table: str, entry, private: dict, match, away: set[int]) -> list:
        """Apply one of the hand's own entries (``FOLLOWS``) to this hand and to the
        ``match`` it belongs to; the engine's events. Contributors already ``away`` when
        the commitment comes are waived at once."""
        body = entry.body
        if entry.kind == "commit":
            self.round = fairdeal.DealRound(table, body["hand"], body["dealer"], body["commitment"],
                                            body["contributors"], secret=private.get("secret"))
            self.deal_seq, self.last_action, self.hidden = None, {}, []
            for seat in away & set(body["contributors"]):
                self.round.waive(seat)
        elif entry.kind == "contribution":
            contribution = body["signed"]["body"]
            self.round.add(contribution["seat"], contribution["random"])
        elif entry.kind == "skip":
            self.waive(body["seat"])
        elif entry.kind == "deal":
            self.round.dealt, self.deal_seq = True, entry.seq
            return list(getattr(match.start_hand(self.round.seed()), "deal_events", ()))
        elif entry.kind == "hand_end":
            match.finish_hand()
        elif entry.kind == "reveal":
            self.round.revealed = True
        return []

    def waive(self, seat: int) -> None:
        """``seat`` dropped, or was skipped: the deal goes on without it."""
        if self.round is not None:
            self.round.waive(seat)

    def moved(self, seq: int, seat: int, hidden: bool, private: dict) -> None:
        """``seat``'s action logged as entry ``seq`` (with its full form if secret)."""
        self.last_action[seat] = seq
        if hidden:
            self.hidden.append({"seq": seq, "action": private["action"], "nonce": private["nonce"]})
