"""Named timers: arming a name again replaces its timer; cancelling is idempotent. A
bounded wait ends when its condition comes true, or says it did not."""

import asyncio

from net.sessions.clock import Timers, wait_until
from tests.net.sessions.parts_kit import FakeClock


def test_a_timer_armed_again_replaces_the_first_and_cancel_all_clears():
    clock, fired = FakeClock(), []
    timers = Timers(clock.call_later)
    timers.later(("stand-in", 1), 5, fired.append, "first")
    timers.later(("stand-in", 1), 7, fired.append, "second")
    timers.later(("absent", 2), 1, fired.append, "absent")
    assert ("stand-in", 1) in timers and len(clock.live()) == 2
    clock.run_all()
    assert sorted(fired) == ["absent", "second"] and not timers.armed
    timers.later(("x",), 1, fired.append, "x")
    timers.cancel(("x",))
    timers.cancel(("x",))
    timers.later(("y",), 1, fired.append, "y")
    timers.cancel_all()
    clock.run_all()
    assert sorted(fired) == ["absent", "second"]


def test_a_bounded_wait_ends_when_another_task_makes_it_true_or_says_it_did_not(arun):
    async def main():
        done = []
        asyncio.get_running_loop().call_later(0.03, done.append, True)
        came = await wait_until(lambda: bool(done), within=5.0, poll=0.005)
        never = await wait_until(lambda: False, within=0.02, poll=0.005)
        return came, never, await wait_until(lambda: True, within=0.0)
    assert arun(main()) == (True, False, True)  # already true: no wait at all
