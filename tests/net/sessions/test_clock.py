"""Named timers: arming a name again replaces its timer; cancelling is idempotent."""

from net.sessions.clock import Timers
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
