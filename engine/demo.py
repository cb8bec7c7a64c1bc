"""``python -m engine.demo [--game G]``: random bots play one hand, printed readably.

Shows the deal, every decision in order, each trick as it closes and the score, so a
newcomer (``make demo``) can watch the engine play without the app. The hand is dealt
from a fixed seed unless ``--seed`` names another, so two runs print the same hand.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from .bots.random_bot import RandomBot
from . import registry
from .registry import make_game
from .state import State


def play_and_tell(state: State, bot: RandomBot, out) -> None:
    """Let ``bot`` play every seat to the end, writing each decision and trick."""
    game = state.game
    while not state.is_over:
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else bot.rng.choice(seats)
        action = bot.choose(state, seat)
        events = state.apply(action)
        out.write(f"  {describe(game, action)}\n")
        for event in events:
            if event.get("type") == "trick":
                trick = state.tricks[-1]
                cards = " ".join(state.deck.name(card) for _seat, card in trick.cards)
                out.write(f"    trick {event.get('number')}: {cards} "
                          f"-> seat {trick.winner}\n")


def describe(game, action) -> str:
    """The action in words, face-down cards included (the demo sees everything)."""
    words = []
    for key, value in game.action_to_json(action).items():
        if key == "seat":
            continue
        if value is True:
            words.append(key)
        elif isinstance(value, list):
            words.append(f"{key} {' '.join(value)}")
        else:
            words.append(f"{key} {'keeps the bid' if value is None else value}")
    return f"Seat {action.seat}: {', '.join(words)}"


def show_deal(state: State, out) -> None:
    name = state.deck.name
    out.write(f"Dealer: seat {state.dealer}\n")
    for seat, hand in enumerate(state.dealt):
        out.write(f"  seat {seat}: {' '.join(name(c) for c in hand)}\n")
    if state.spare:
        out.write(f"  spare:  {' '.join(name(c) for c in state.spare)}\n")


def show_result(state: State, out) -> None:
    result = state.result()
    if result is None:
        raise ValueError("the hand is not over")
    if result.thrown_in:
        out.write("Thrown in: nobody bid.\n")
        return
    sides = "team" if state.game.partnerships else "seat"
    made = "" if result.made is None else f"  contract {'made' if result.made else 'set'}"
    out.write(f"Taken per {sides}: {list(result.taken)}{made}\n")
    out.write(f"Score per {sides}: {list(result.score)}\n")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        game = make_game(args.game, args.ruleset, args.mode)
    except ValueError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    seed = hashlib.sha256(args.seed.encode("utf-8")).digest()
    state = game.deal(seed, dealer=0)
    out = sys.stdout
    key = game.key()
    mode = f", {key['mode']}" if key["mode"] else ""
    out.write(f"{key['game']} ({key['ruleset']}{mode}) — one hand by random bots\n")
    show_deal(state, out)
    play_and_tell(state, RandomBot(seed), out)
    show_result(state, out)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=registry.TITLES, default=registry.TITLES[0])
    parser.add_argument("--ruleset", help="ruleset id (default: the game's default)")
    parser.add_argument("--mode", help="Horseshoes: three, four or partners")
    parser.add_argument("--seed", default="parlour demo", help="any text; the deal's seed")
    return parser


if __name__ == "__main__":
    sys.exit(main())
