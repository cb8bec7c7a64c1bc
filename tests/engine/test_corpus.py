"""The engine plays every recorded hand as it did when the corpus was recorded.

``tests/engine/corpus/corpus.json`` holds, for 40 random hands of every variant, the
digests of what the public API said and showed (``tests/engine/corpus.py`` says what
is in each group). It was recorded from the engine before issue 31 rewrote its hot
paths for speed, so this test is what holds the faster engine to the same legal
actions in the same order, the same events, state hashes, canonical encodings, views,
refusals, results and hand records, byte for byte.
"""

from __future__ import annotations

import json

import pytest

from tests.engine.corpus import CORPUS, GROUPS, HANDS_PER_VARIANT, corpus_variants, label_of, trace_hand

RECORDED = json.loads(CORPUS.read_text())


def test_the_corpus_covers_every_variant():
    assert RECORDED["hands_per_variant"] == HANDS_PER_VARIANT
    assert set(RECORDED["variants"]) == {label_of(v) for v in corpus_variants()}


@pytest.mark.slow  # 40 hands traced in full: about a second of CPU per variant
@pytest.mark.parametrize("variant", corpus_variants(), ids=label_of)
def test_every_hand_plays_as_recorded(variant):
    recorded = RECORDED["variants"][label_of(variant)]
    assert len(recorded) == HANDS_PER_VARIANT
    differences = []
    for number, expected in enumerate(recorded):
        got = trace_hand(variant, number)
        changed = [key for key in ("actions", "final_hash", *GROUPS) if got[key] != expected[key]]
        if changed:
            differences.append(f"hand {number}: {', '.join(changed)}")
    assert not differences, f"{label_of(variant)} differs from the corpus in " + "; ".join(differences)
