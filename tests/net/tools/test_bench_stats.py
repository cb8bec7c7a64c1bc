"""bench_stats: the paired statistic a bench on a shared machine reports (no clock)."""

import random

import pytest

from net.tools.bench_stats import (OUTSIDE, UNDECIDED, WITHIN, Comparison, Round, abba_order,
                                   direction, verdict)


def test_the_runs_alternate_a_b_then_b_a():
    assert abba_order(4) == [(False, True), (True, False), (False, True), (True, False)]


def test_a_round_s_difference_is_b_s_median_minus_a_s():
    assert Round(a=(1.0, 2.0, 10.0), b=(4.0, 5.0, 6.0, 100.0)).difference == 5.5 - 2.0


def test_the_estimate_is_the_mean_of_the_paired_differences_not_of_the_pooled_samples():
    # the machine was loaded in the second round: both sides slower by 10, and B took
    # fewer samples then; pooled, B's median would be 2 and A's 11 (B 9 faster); paired,
    # each round says B is 1 slower
    comparison = Comparison.of([([1.0, 1.0, 1.0], [2.0, 2.0, 2.0]),
                                ([11.0] * 5, [12.0])])
    assert comparison.differences() == [1.0, 1.0]
    assert comparison.estimate() == 1.0
    assert comparison.interval() == (1.0, 1.0)


def test_a_round_missing_a_side_is_left_out():
    comparison = Comparison.of([([1.0], [3.0]), ([], [5.0]), ([2.0], [])])
    assert comparison.differences() == [2.0]


def test_the_interval_holds_the_estimate_and_narrows_with_more_rounds():
    rng = random.Random(7)

    def rounds(n):  # B is 0.5 slower; each round's load moves both sides by up to 20
        pairs = []  # (10 samples a side: the narrowing comes from the rounds, and the
        for _ in range(n):  # bootstrap's cost from the samples it redraws)
            load = rng.uniform(0, 20)
            pairs.append(([load + rng.gauss(5, 2) for _ in range(10)],
                          [load + 0.5 + rng.gauss(5, 2) for _ in range(10)]))
        return Comparison.of(pairs)
    few, many = rounds(4), rounds(40)
    for comparison in (few, many):
        low, high = comparison.interval()
        assert low <= comparison.estimate() <= high
    assert many.interval()[1] - many.interval()[0] < few.interval()[1] - few.interval()[0]


def test_the_interval_is_the_same_for_the_same_samples_and_leaves_the_global_random_alone():
    comparison = Comparison.of([([1.0, 2.0, 3.0], [2.0, 4.0, 3.5]), ([0.5, 1.5], [1.0, 3.0])])
    state = random.getstate()
    assert comparison.interval() == comparison.interval()
    assert random.getstate() == state


@pytest.mark.parametrize("interval, expected", [
    ((-0.4, 0.9), WITHIN), ((-1.0, 1.0), WITHIN),
    ((0.2, 1.3), UNDECIDED), ((-1.5, 0.0), UNDECIDED), ((-2.0, 2.0), UNDECIDED),
    ((1.1, 4.0), OUTSIDE), ((-3.0, -1.2), OUTSIDE)])
def test_the_verdict_says_within_outside_or_that_it_cannot_tell(interval, expected):
    assert verdict(interval, 1.0) == expected


@pytest.mark.parametrize("interval, expected", [
    ((0.1, 2.0), "longer"), ((-2.0, -0.1), "shorter"), ((-0.1, 0.1), "no difference shown"),
    ((0.0, 3.0), "no difference shown")])
def test_the_direction_is_shown_only_when_the_interval_leaves_out_zero(interval, expected):
    assert direction(interval) == expected
