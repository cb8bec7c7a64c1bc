"""ShuffleWatch on its own: a skip timed on this peer's clock from when the commitment
came live, and the skipped seat's own knowledge of when it sent its shuffle."""

from net.trust.deals.seeded.deadline import ShuffleWatch


def test_a_skip_sooner_than_the_deadline_less_the_slack_is_the_hosts():
    watch = ShuffleWatch(deadline=10.0, slack=2.0)
    watch.committed(hand=3, live=True, arrived=100.0)
    assert "7.9 s after the commitment; it must wait 10 s" in watch.skip_problem(3, 1, False, 107.9)
    assert watch.skip_problem(3, 1, False, 108.0) is None
    assert watch.skip_problem(4, 1, False, 100.5) is None  # another hand's commitment


def test_a_commitment_caught_up_in_a_sync_cannot_be_timed():
    watch = ShuffleWatch(deadline=10.0, slack=2.0)
    watch.committed(hand=3, live=False, arrived=100.0)
    assert watch.skip_problem(3, 1, False, 100.1) is None


def test_the_skipped_seat_knows_it_sent_its_shuffle_in_time():
    watch = ShuffleWatch(deadline=10.0, slack=2.0)
    watch.committed(hand=3, live=True, arrived=100.0)
    watch.contributed(hand=3, now=101.0)
    assert "which I sent 1.0 s after" in watch.skip_problem(3, 1, True, 110.0)
    assert watch.skip_problem(3, 1, False, 110.0) is None  # another seat cannot know
    watch.resynced()  # a restarted host may never have had it
    assert watch.skip_problem(3, 1, True, 110.0) is None
