"""Playing a hand out in the engine's tests: one loop, written once.

``play_out(state, players)`` plays to the hand's end, every action checked legal;
``FIRST_LEGAL`` is a player that always takes the first legal action (a hand whose
course a test does not care about).
"""

from __future__ import annotations

from engine import IllegalAction

MAX_ACTIONS = 500  # no hand of any title comes near this


class _FirstLegal:
    rng = None

    def choose(self, state, seat):
        return state.legal_actions(seat)[0]


FIRST_LEGAL = _FirstLegal()


def play_out(state, players, each_step=None):
    """Play ``state`` to the hand's end and return it. ``players``: one player for every
    seat, or a list of them by seat (each has ``choose(state, seat)``). Where several
    seats may act at once (everyone's "Got it"), one player's ``rng`` picks which acts
    first (the first seat if it has none). ``each_step(state)`` runs before each action."""
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return state
        seats = state.to_act()
        assert seats, "a hand that is not over must be waiting for someone"
        if each_step:
            each_step(state)
        player = players if not isinstance(players, (list, tuple)) else None
        rng = getattr(player, "rng", None)
        seat = rng.choice(seats) if rng is not None and len(seats) > 1 else seats[0]
        action = (player or players[seat]).choose(state, seat)
        assert is_legal(state, seat, action), (seat, action)
        state.apply(action)
    raise AssertionError(f"the hand did not end within {MAX_ACTIONS} actions")


def is_legal(state, seat, action) -> bool:
    """Whether ``action`` is among ``seat``'s legal actions. A phase too big to list
    (``SAMPLED_PHASES``: Rook's bury lists 34,272 actions, ~40 ms a hand) is asked of the
    rules' own check instead (a refusal on a copy); the listing is held to that check at
    every step by ``test_properties.py::test_legal_actions_apply_and_others_are_refused``
    (listed actions apply, others are refused)."""
    if state.phase in state.SAMPLED_PHASES:
        try:
            state.check(action)
        except IllegalAction:
            return False
        return action.seat == seat
    return action in state.legal_actions(seat)
