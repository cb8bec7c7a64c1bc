"""A pair's link between two players (net/houses/links.py ``Pair``), without a mailbox: a
dial waits for a link that works, and the one a code just made is such a link once
Dilation connects it."""

from twisted.internet import defer

from net.houses import links, reactor
from net.houses.pairs import Book, stays
from net.wire.identity import Identity


class FakeClaim:
    """What a ``Link`` needs of its wormhole: its Dilation status, and a place to listen."""

    def __init__(self):
        self.status_listeners = []
        self.peer_connected = False
        self.dilated = self

    def listener_for(self, _subprotocol):
        return self

    def listen(self, _factory):
        pass

    def connects(self):
        self.peer_connected = True
        for listener in list(self.status_listeners):
            listener(self)

    def close(self):
        return defer.succeed(None)


def coming_pair():
    """Two identities, ordered so that ``me`` is the pair's coming side (the one whose
    dial waits for a link that works)."""
    a, b = Identity.generate("A"), Identity.generate("B")
    me, them = (a, b) if not stays(a.public_key, b.public_key) else (b, a)
    return me, them.public_key


def test_a_coming_sides_dial_gets_the_codes_link_once_dilation_connects_it():
    me, them = coming_pair()

    def scenario():
        claim = FakeClaim()
        pair = links.Pair(me, them, "table-1", Book(None), links.HUB.tell)
        pair.adopt(links.Link(claim, me, "table-1", them))  # the code matched: live, not connected
        pair.want()
        dialled = pair.wait_link()
        before = dialled.called
        claim.connects()
        after = dialled.called
        pair.close()
        return before, after
    before, after = reactor.call(scenario).result(5)
    assert (before, after) == (False, True)
