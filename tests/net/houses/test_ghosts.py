"""When a claim is a ghost's (net/houses/links.py ``Claim``, net/houses/awake.py), without a
mailbox: the wormhole is a fake whose calls are recorded and whose answers the test gives,
and the reactor is Twisted's ``task.Clock``.

A claim whose other side sent its key but never its confirmation is a ghost's (an app
that died holding the code). A live side on a busy, old computer answers late; and when
*this* process is starved, every timer that fell due meanwhile fires at once, before the
reactor reads what came. Neither may be taken for a ghost: a right code would be lost
and a wrong one told "stopped answering" instead of "did not match"."""

from __future__ import annotations

import pytest
from twisted.internet import defer, task
from wormhole import errors as wormhole_errors

from net.houses import links
from net.houses.awake import AwakeDeadline
from net.wire.identity import Identity


class FakeWormhole:
    """What a ``Claim`` uses of ``wormhole.create``'s wormhole: the calls recorded, each
    answer a Deferred the test fires."""

    def __init__(self):
        self.calls: list[str] = []
        self.code, self.welcome = defer.Deferred(), defer.Deferred()
        self.key, self.versions = defer.Deferred(), defer.Deferred()

    def dilate(self, **_kw):
        self.calls.append("dilate")
        return self

    def allocate_code(self, _length):
        self.calls.append("allocate_code")

    def set_code(self, code):
        self.calls.append(f"set_code {code}")

    def get_code(self):
        return self.code

    def get_welcome(self):
        return self.welcome

    def get_unverified_key(self):
        return self.key

    def get_versions(self):
        return self.versions

    def close(self):
        self.calls.append("close")
        return defer.succeed(None)


@pytest.fixture
def clock(monkeypatch):
    """The reactor the houses' code sees: a clock only the test moves."""
    clock = task.Clock()
    monkeypatch.setattr(links, "reactor", clock)
    return clock


@pytest.fixture
def wormholes(monkeypatch):
    """Every fake wormhole made, in order."""
    made: list[FakeWormhole] = []

    def create(*_args, **_kw):
        made.append(FakeWormhole())
        return made[-1]
    monkeypatch.setattr(links.wormhole, "create", create)
    return made


class Outcome:
    """What became of a claim: ``live`` or ``dead`` (why)."""

    def __init__(self):
        self.live = False
        self.dead: str | None = None

    def claim(self) -> links.Claim:
        return links.Claim("7-adroitness-aardvark", {}, self._live, self._dead)

    def _live(self, _claim):
        self.live = True

    def _dead(self, _claim, why):
        self.dead = why

    def __repr__(self):
        return f"<live={self.live} dead={self.dead}>"


def keyed(w: FakeWormhole) -> None:
    """The mailbox welcomed us and the other side's key came."""
    w.welcome.callback({})
    w.key.callback(b"k" * 32)


def steadily(clock: task.Clock, seconds: float, step: float = 0.05) -> None:
    """``seconds`` pass with this process running all along (the reactor turns often)."""
    for _ in range(round(seconds / step)):
        clock.advance(step)


def test_a_stall_of_this_process_is_not_counted_against_the_other_side(clock, wormholes):
    outcome = Outcome()
    outcome.claim()
    [w] = wormholes
    keyed(w)
    steadily(clock, 1.0)
    # We were not scheduled for 30 s: everything due fires at once, before the reactor
    # reads the other side's confirmation, which came meanwhile.
    clock.advance(30.0)
    assert outcome.dead is None, f"a stall of ours was taken for a ghost: {outcome}, {w.calls}"
    w.versions.callback({"parlour": {}})
    assert outcome.live and outcome.dead is None, outcome


def test_a_busy_host_that_answers_in_seconds_is_no_ghost(clock, wormholes):
    outcome = Outcome()
    outcome.claim()
    [w] = wormholes
    keyed(w)
    steadily(clock, 5.0)  # an old laptop, busy: five seconds to answer
    assert outcome.dead is None, f"a live side was taken for a ghost after 5 s: {outcome}"
    w.versions.callback({"parlour": {}})
    assert outcome.live, outcome
    assert "close" not in w.calls, w.calls


def test_a_ghost_is_still_found_after_its_allowance(clock, wormholes):
    outcome = Outcome()
    outcome.claim()
    [w] = wormholes
    keyed(w)
    steadily(clock, links.GHOST_AFTER - 0.5)
    assert outcome.dead is None, outcome
    steadily(clock, 1.0)
    assert outcome.dead == "ghost", f"no ghost {links.GHOST_AFTER + 0.5} s after the key: {outcome}"
    assert w.calls[-1] == "close", w.calls  # its wormhole closed: the code is let go


def test_many_stalls_count_only_the_time_this_process_ran():
    deadline = AwakeDeadline(6.0, start=100.0, step=0.25)
    now = 100.0
    for _ in range(10):  # ten stalls of a minute each, a tick between them
        now += 60.0
        assert not deadline.tick(now), deadline
    assert deadline.waited == pytest.approx(10 * 2 * 0.25)  # each counted as two steps
    for _ in range(3):  # steps on time
        now += 0.25
        assert not deadline.tick(now), deadline
    assert deadline.tick(now + 0.25), deadline  # the fourth spends it


def test_a_late_tick_never_says_the_allowance_is_spent():
    """What came during a stall is read before the next tick: only a tick on time decides."""
    deadline = AwakeDeadline(1.0, start=0.0, step=0.25)
    assert not deadline.tick(0.25) and not deadline.tick(0.5) and not deadline.tick(0.75)
    assert not deadline.tick(30.0), deadline  # late: it would spend the allowance, and does not say so
    assert deadline.waited >= deadline.allowance
    assert deadline.tick(30.25), deadline  # the next one, on time, does
    assert not AwakeDeadline(3.0, start=5.0).tick(4.0)  # a clock gone back counts nothing


def test_a_wrong_code_answered_late_is_told_it_did_not_match(clock, wormholes):
    me = Identity.generate("Grandma")
    told: list[str] = []
    found = links.Hub().use_code(me, "7-adroitness-aardvark", None, timeout=60.0)
    found.addCallbacks(lambda _ok: told.append("joined"), lambda f: told.append(str(f.value)))
    [w] = wormholes
    assert "set_code 7-adroitness-aardvark" in w.calls, w.calls
    keyed(w)
    steadily(clock, 4.0)  # the host, busy, reads the guest's key four seconds later
    clock.advance(20.0)  # and this computer did not run for twenty
    assert told == [], f"the guest was told before the host answered: {told}"
    w.versions.errback(wormhole_errors.WrongPasswordError())
    assert len(told) == 1 and "did not match" in told[0], told


def test_a_person_is_told_the_hosts_invitation_stopped_answering(clock, wormholes):
    me = Identity.generate("Grandma")
    told: list[str] = []
    found = links.Hub().use_code(me, "7-adroitness-aardvark", None, timeout=60.0)
    found.addErrback(lambda f: told.append(str(f.value)))
    [w] = wormholes
    keyed(w)
    steadily(clock, links.INVITED_GHOST_AFTER + 0.5)
    assert len(told) == 1 and "stopped answering" in told[0], told
