"""A whole game ("match"): hands dealt from one table seed, dealer rotation, scores, winner.

Each hand's deal seed is ``derive_seed(table_seed, "hand", number)`` unless the caller
passes one (the networked game derives it by commit–reveal instead).
"""

from __future__ import annotations

from .deal import derive_seed
from .state import Game, HandResult, State


class Match:
    def __init__(self, game: Game, table_seed: bytes, dealer: int | None = None):
        self.game = game
        self.table_seed = table_seed
        self.dealer = game.first_dealer(table_seed) if dealer is None else dealer
        self.scores = game.initial_scores()
        self.hand_number = 0
        self.results: list[HandResult] = []
        self.state: State | None = None
        self.last_hand: State | None = None  # the hand finish_hand banked (its summary)
        self.winner: int | None = None  # side index once the game is won

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def hand_seed(self) -> bytes:
        return derive_seed(self.table_seed, "hand", self.hand_number)

    def start_hand(self, seed: bytes | None = None) -> State:
        if self.is_over:
            raise RuntimeError("the game is over")
        self.state = self.game.deal(seed or self.hand_seed(), self.dealer)
        return self.state

    def finish_hand(self) -> HandResult:
        """Bank the finished hand's score, pass the deal left, and decide the game."""
        state = self.state
        result = None if state is None else state.result()
        if state is None or not state.is_over or result is None:  # (over: it has a result)
            raise RuntimeError("the hand is not over")
        self.scores = [s + d for s, d in zip(self.scores, result.score)]
        self.results.append(result)
        self.winner = self.game.match_winner(self.scores, result)
        self.dealer = (self.dealer + 1) % self.game.num_players
        self.hand_number += 1
        self.last_hand, self.state = state, None
        return result
