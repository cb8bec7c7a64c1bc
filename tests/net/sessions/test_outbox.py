"""The outbox: every entry to each peer once and in order, a gap filled by a sync, a
sync in frames that fit, acknowledgements heard (sans-I/O: links that keep sends)."""

from net.constants import MAX_FRAME
from net.sessions.outbox import Outbox, fitting
from net.wire import framing
from net.wire import messages as m
from tests.net.sessions.parts_kit import FakeLink


def entry(seq: int, padding: int = 0) -> dict:
    return m.entry_message({"entry": {"seq": seq, "kind": "action", "pad": "x" * padding}})


class Log:
    """What the trust layer would sync: entries after a position."""

    def __init__(self, head: int):
        self.head = head
        self.asked: list[tuple[str, int]] = []

    def sync(self, fp: str, after: int) -> list[dict]:
        self.asked.append((fp, after))
        return [m.sync_message([entry(s) for s in range(after + 1, self.head + 1)], True)]


def seqs(link: FakeLink) -> list[int]:
    out = []
    for msg in link.sent:
        if msg["type"] == m.ENTRY:
            out.append(msg["entry"]["entry"]["seq"])
        elif msg["type"] == m.SYNC:
            out += [e["entry"]["entry"]["seq"] for e in msg["entries"]]
    return out


def test_entries_go_once_in_order_and_a_gap_is_filled_by_a_sync():
    log = Log(head=4)
    box, link = Outbox(log.sync), FakeLink()
    box.attach("fp1", link, 1)  # the peer holds the log up to entry 1
    box.send("fp1", entry(2))
    box.send("fp1", entry(2))  # twice: sent once
    box.send("fp1", entry(4))  # 3 is missing: the sync sends 3 and 4
    box.send("fp1", entry(4))
    assert seqs(link) == [2, 3, 4] and log.asked == [("fp1", 2)]


def test_a_peer_without_a_link_gets_nothing_and_a_replaced_link_is_closed():
    box = Outbox(Log(0).sync)
    box.send("nobody", entry(0))
    old, new = FakeLink(), FakeLink()
    box.attach("fp1", old, -1)
    box.attach("fp1", new, -1)
    assert old.closed == "replaced by a new connection from the same key"
    assert not box.detach("fp1", old) and box.detach("fp1", new) and not box.holds("fp1")


def test_a_sync_too_big_for_one_frame_is_split_into_frames_that_fit():
    big = [entry(s, padding=MAX_FRAME // 5) for s in range(12)]
    chunks = fitting(big, last=True)
    assert len(chunks) > 1 and all(len(framing.encode(c)) <= MAX_FRAME + 4 for c in chunks)
    assert [e["entry"]["entry"]["seq"] for c in chunks for e in c["entries"]] == list(range(12))
    assert [c["last"] for c in chunks] == [False] * (len(chunks) - 1) + [True]


def test_a_dishonest_host_may_withhold_an_entry_and_acks_are_heard():
    heard = []
    box = Outbox(Log(0).sync, tamper=lambda fp, msg: None if msg["entry"]["entry"]["seq"] == 1 else msg)
    box.ack_listeners.append(lambda fp, seq: heard.append((fp, seq)))
    link = FakeLink()
    box.attach("fp1", link, -1)
    for seq in range(3):
        box.send("fp1", entry(seq))
    assert seqs(link) == [0, 2]
    box.on_ack("fp1", FakeLink(), 2)  # not its link: ignored
    box.on_ack("fp1", link, 2)
    assert heard == [("fp1", 2)] and box.acked("fp1") == 2 and box.all_acked(2)


def test_what_the_trust_layer_answers_is_delivered_and_a_garbling_peer_cut_off():
    box, link = Outbox(Log(0).sync), FakeLink()
    box.attach("fp1", link, -1)
    box.deliver([("fp1", {"type": "error", "reason": "no"})], ["fp1"])
    assert link.kinds() == ["error"] and link.closed == "rejected: disconnected after a malformed message"


def test_the_host_knows_when_every_peer_has_hung_up():
    box, first, second = Outbox(Log(0).sync), FakeLink(), FakeLink()
    assert box.all_hung_up()  # nobody seated
    box.attach("fp1", first, -1)
    box.attach("fp2", second, -1)
    box.broadcast({"type": "end", "reason": "bye", "head": 0})
    first.close("read end")
    assert not box.all_hung_up()
    second.close("read end")
    assert box.all_hung_up()
