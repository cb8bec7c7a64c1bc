"""The expert's race (``expert.Race``): over the same deals, a card that scores exactly
as an earlier one is its twin, one clearly behind is dropped and never chosen, and one
within the manners' margin, or too close to call, stays in."""

from __future__ import annotations

from engine.bots.expert import Race


def race_after(values: list[list[float]], keep_within: float = 0.0,
               weights: list[int] | None = None) -> Race:
    """A race of ``len(values)`` actions that met the same deals, then narrowed."""
    race = Race(len(values), keep_within)
    deals = len(values[0])
    race.weights.extend(weights or [1] * deals)
    for i, seen in enumerate(values):
        race.values[i].extend(seen)
    race.narrow()
    return race


def test_an_action_scoring_exactly_as_an_earlier_one_is_its_twin():
    scores = [float(d % 5) for d in range(16)]
    race = race_after([scores, [s + 1 for s in scores], list(scores)])
    assert 2 not in race.alive and race.twin == {2: 0}
    assert race.means()[2] == race.means()[0]


def test_a_twin_of_a_dropped_action_is_dropped_with_it():
    leader = [10.0 + d % 3 for d in range(16)]
    behind = [v - 6 for v in leader]
    race = race_after([behind, leader, list(behind)], keep_within=2.0)
    assert race.alive == [1] and race.twin == {2: 0}
    race.weights.extend([1] * 16)  # the leader alone meets more deals, and fares worse
    race.values[1].extend([0.0] * 16)
    means = race.means()
    assert means[2] == means[0] < means[1] - 2.0, means


def test_an_action_clearly_behind_is_dropped_and_never_the_best():
    leader = [10.0 + d % 3 for d in range(16)]
    behind = [v - 6 for v in leader]
    race = race_after([behind, leader])
    assert race.alive == [1]
    means = race.means()
    assert means[0] < means[1]


def test_an_action_within_the_manners_margin_stays_in():
    leader = [10.0 + d % 3 for d in range(16)]
    polite = [v - 6 for v in leader]  # 6 behind on every deal: within a margin of 8
    race = race_after([polite, leader], keep_within=8.0)
    assert race.alive == [0, 1]


def test_a_close_noisy_race_is_not_called():
    a = [10.0, -10.0] * 8
    b = [-9.0, 11.0] * 8  # the leader, by 1.0 on average, the gap swinging ±20 a deal
    c = [9.0, -12.0] * 8  # 2.5 behind it, with as much noise
    race = race_after([a, b, c])
    assert race.alive == [0, 1, 2]


def test_weights_count_a_deal_drawn_twice_twice():
    race = race_after([[0.0, 4.0], [2.0, 2.0]], weights=[3, 1])
    assert race.means() == [1.0, 2.0]
