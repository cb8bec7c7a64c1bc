"""GuestCore's connection state machine is code: its states, the transitions allowed
between them, and the cause it ended with."""

import pytest

from net.sessions.guest_session import TRANSITIONS, GuestCore, GuestState
from tests.net.trust_table import identity

S = GuestState


def test_the_allowed_transitions_are_the_documented_cycle():
    assert TRANSITIONS[S.CONNECTING] == {S.JOINED, S.DROPPED, S.BACKING_OFF, S.ENDED}
    assert TRANSITIONS[S.JOINED] == {S.DROPPED, S.ENDED}
    assert TRANSITIONS[S.DROPPED] == {S.BACKING_OFF, S.ENDED}
    assert TRANSITIONS[S.BACKING_OFF] == {S.CONNECTING, S.ENDED}
    assert TRANSITIONS[S.ENDED] == set()  # nothing comes after the end


def test_a_transition_not_in_the_table_is_a_bug_and_the_end_keeps_its_cause():
    guest = GuestCore(identity("peer1"), address="127.0.0.1", port=1)
    assert guest.state is S.CONNECTING
    guest._to(S.JOINED)
    with pytest.raises(AssertionError, match="from joined to backing off"):
        guest._to(S.BACKING_OFF)  # skips "dropped"
    assert guest.state is S.JOINED
    guest._end("refused")
    guest._end("stopped")  # already ended: the first cause stays
    assert guest.state is S.ENDED and guest.ended_by == "refused"
    guest.receive({"type": "joined", "table": "t", "seat": 1, "head": 0})  # ignored now
    assert guest.state is S.ENDED and guest.replica is None
