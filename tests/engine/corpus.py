"""The engine's recorded corpus: what many random hands of every variant said and showed.

``trace_hand(variant, number)`` deals hand ``number`` of a variant from a fixed seed and
plays it out with random choices (a generator seeded per hand), recording everything a
caller of the public API can observe, in groups:

* ``legal``: at each step, the seats to act and the acting seat's legal actions (in
  their order: a random player's choice depends on it), or the sampled action where
  the title samples (``SAMPLED_PHASES``), and whether a second "Got it" repeats;
* ``events``: each action applied, in its hand-record form, and the events it returned;
* ``hashes``: the state hash and the canonical encoding of the public view after every
  action;
* ``views``: every seat's ``private_view(seat)`` after every action, and its whole
  ``view(seat)`` after every eighth and the last, canonically encoded;
* ``play``: in play, what bots read of the trick (``winning_seat``, ``led_mask``,
  ``trump_mask``, ``legal_if_held`` of another hand) and the reason an illegal play is
  refused (with the state unchanged);
* ``result``: the hand's result, its score terms and scored cards, its hand record and
  what ``engine.records.replay`` makes of that record;
* ``clone``: a clone taken at a random step, played on with the same actions, ends
  with the same hash, result and events as the hand itself (a check, not a recording:
  it adds only its final hash).

Each group is hashed (SHA-256 of its canonical encoding, 16 hex digits kept), so a
change shows which kind of thing changed, in which hand. ``tests/engine/corpus/``
holds the digests recorded from the engine before issue 31 made it faster;
``tests/engine/test_corpus.py`` replays them. To record them again (only for an
intended change of behaviour)::

    python -m tests.engine.corpus --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from engine import IllegalAction, canonical
from engine.deal import derive_seed
from engine.records import record_from_state, replay
from engine.registry import make_game, variants

CORPUS = Path(__file__).parent / "corpus" / "corpus.json"
CORPUS_SEED = b"parlour-corpus/1".ljust(32, b".")
HANDS_PER_VARIANT = 40
WHOLE_VIEW_EVERY = 8  # every seat's whole view after every 8th action (and the last)
MAX_ACTIONS = 500
GROUPS = ("legal", "events", "hashes", "views", "play", "result", "clone")


def corpus_variants() -> list[tuple]:
    """Every product variant, and the test-only title (it shares the base State)."""
    from engine import registry
    from engine.errors import UnknownTitle
    try:
        registry.title("tiny")  # registered by tests/conftest.py under pytest
    except UnknownTitle:
        from tests.engine.tiny_title import TITLE
        registry.register(TITLE)
    return list(variants(registry.TITLES + ("tiny",)))


def label_of(variant: tuple) -> str:
    return "/".join(p for p in variant if p)


def _plain_events(events) -> list:
    return [dict(e) for e in events]


def _play_probe(state, seat: int, rng: random.Random) -> list:
    """What bots read of a trick in play, and one refused play with its reason."""
    out: list = [state.winning_seat, state.led_mask, state.trump_mask]
    other = rng.randrange(state.n)
    out.append(state.legal_if_held(seat, state.hands[other] | state.hands[seat]))
    held, legal = state.hands[seat], state.legal_play_mask(seat)
    refused = held & ~legal or state.deck.full_mask & ~held
    if refused:
        cards = [c for c in range(state.deck.size) if refused >> c & 1]
        card = rng.choice(cards)
        before = state.state_hash()
        try:
            state.apply(state.play_action(seat, card))
        except IllegalAction as exc:
            out.append([card, exc.reason])
        else:
            raise AssertionError(f"{state.game.id}: card {card} was accepted though not legal")
        assert state.state_hash() == before, "a refused play changed the state"
    return out


def _views(state, whole: bool) -> list:
    """Each seat's own part of its view; with ``whole``, each seat's whole view (the
    public part is in ``hashes`` at every step: encoding it again each time would
    make the corpus slow to check)."""
    if whole:
        public = state.public_view()
        return [canonical.encode(state.view(s, public)).hex() for s in range(state.n)]
    return [canonical.encode(state.private_view(s)).hex() for s in range(state.n)]


def _choose(state, seat: int, rng: random.Random, legal_log: list):
    if state.phase in state.SAMPLED_PHASES:
        action = state.sample_action(seat, rng)
        legal_log.append(["sampled", state.game.action_to_json(action)])
        return action
    legal = state.legal_actions(seat)
    legal_log.append([state.game.action_to_json(a) for a in legal])
    return rng.choice(legal)


def trace_hand(variant: tuple, number: int) -> dict:
    """Hand ``number`` of ``variant`` played out; the digest of each group (see above)."""
    game = make_game(*variant)
    label = label_of(variant)
    state = game.deal(derive_seed(CORPUS_SEED, label, number), number % game.num_players)
    rng = random.Random(f"parlour-corpus:{label}:{number}")
    groups: dict[str, list] = {g: [] for g in GROUPS}
    groups["hashes"].append([state.state_hash(), state.public_encoding().hex()])
    clone_at = rng.randrange(40)
    clone = None
    applied: list = []
    for _ in range(MAX_ACTIONS):
        seats = state.to_act()
        groups["legal"].append(list(seats))
        if not seats:
            break
        if len(applied) == clone_at:
            clone = state.clone()
        seat = rng.choice(seats)
        if state.phase == "play" and seat == state.turn:
            groups["play"].append(_play_probe(state, seat, rng))
        action = _choose(state, seat, rng, groups["legal"])
        events = state.apply(action)
        applied.append((action, events))
        groups["legal"].append(state.repeats(action))
        groups["events"].append([game.action_to_json(action), _plain_events(events)])
        groups["hashes"].append([state.state_hash(), state.public_encoding().hex()])
        groups["views"].append(_views(state, whole=len(applied) % WHOLE_VIEW_EVERY == 0))
    else:
        raise AssertionError(f"{label} hand {number} did not end in {MAX_ACTIONS} actions")
    groups["views"].append(_views(state, whole=True))
    result = state.result()
    record = record_from_state(state)
    groups["result"] = [result._asdict() if result else None,
                        [t._asdict() for t in state.score_terms()] if result and not result.thrown_in else None,
                        [s._asdict() for s in state.scored_cards()] if result else None,
                        state.contract_line() if result and not result.thrown_in else None,
                        record, replay(json.loads(json.dumps(record)))]
    if clone is not None:
        start = len(clone.history)
        for action, events in applied[start:]:
            assert clone.apply(action) == events, f"{label} hand {number}: a clone went its own way"
        assert clone.state_hash() == state.state_hash(), f"{label} hand {number}: the clone's hash"
        assert clone.result() == state.result()
        groups["clone"].append(clone.state_hash())
    return {"actions": len(applied), "final_hash": state.state_hash(),
            **{g: _digest(v) for g, v in groups.items()}}


def _digest(value) -> str:
    return hashlib.sha256(canonical.encode(_jsonable(value))).hexdigest()[:16]


def _jsonable(value):
    """Tuples and named tuples as lists, nested: what canonical.encode takes."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def trace_variant(variant: tuple, hands: int = HANDS_PER_VARIANT) -> list[dict]:
    return [trace_hand(variant, n) for n in range(hands)]


def _corpus_text(corpus: dict[str, list[dict]]) -> str:
    """The corpus as JSON with one line per hand (diffs then name the hands)."""
    lines = ['{"format": "parlour-engine-corpus/1",', f' "hands_per_variant": {HANDS_PER_VARIANT},',
             ' "variants": {']
    for i, (label, hands) in enumerate(sorted(corpus.items())):
        lines.append(f'  {json.dumps(label)}: [')
        lines += [f'   {json.dumps(hand, sort_keys=True)}' + ("," if j < len(hands) - 1 else "")
                  for j, hand in enumerate(hands)]
        lines.append("  ]" + ("," if i < len(corpus) - 1 else ""))
    return "\n".join(lines + [" }", "}"]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.corpus", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"record the corpus into {CORPUS}")
    args = parser.parse_args(argv)
    corpus = {label_of(v): trace_variant(v) for v in corpus_variants()}
    text = _corpus_text(corpus)
    if args.write:
        CORPUS.parent.mkdir(exist_ok=True)
        CORPUS.write_text(text)
        print(f"wrote {sum(map(len, corpus.values()))} hands to {CORPUS}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
