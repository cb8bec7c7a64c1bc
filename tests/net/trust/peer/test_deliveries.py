"""Which of this client's deal messages the host had (``Deliveries``), on its own: a
message counts as the host's only if it went on a link the host later cut for our not
answering, at least the slack before the cut — never on a link that merely dropped, nor
one sent just before the cut, nor one of an earlier deal."""

from net.trust.peer.deliveries import Deliveries


def message(kind: str, hand: int = 0, attempt: int = 0) -> dict:
    return {"body": {"type": kind, "hand": hand, "attempt": attempt}, "sig": kind.encode() * 4}


def test_only_a_message_well_before_the_host_cut_its_link_for_silence_was_the_hosts():
    d = Deliveries()
    d.sending(message("key"), link=1, now=10.0)
    d.sending(message("shuffle"), link=1, now=12.5)
    d.sending(message("shares"), link=2, now=20.0)  # a link that only dropped
    assert d.had(slack=1.0) == []  # nothing cut yet
    d.cut(1, now=13.0)
    assert d.had(slack=1.0) == [(message("key"), 3.0)]  # the shuffle went 0.5 s before: maybe not
    d.cut(1, now=99.0)  # (the first cut is the one)
    assert d.had(slack=1.0) == [(message("key"), 3.0)]


def test_an_earlier_deals_messages_are_forgotten():
    d = Deliveries()
    d.sending(message("key", attempt=0), link=1, now=0.0)
    d.sending(message("key", attempt=1), link=1, now=5.0)
    d.cut(1, now=9.0)
    assert d.had(slack=1.0) == [(message("key", attempt=1), 4.0)]
