"""A peer's side of the trust protocol (no I/O): what every guest runs to check its host.

``replica.py`` (``PeerReplica``: the peer's own copy of the table, checking the host
entry by entry), ``testimony.py`` and ``deliveries.py`` (what it says and is told of
others' evidence). The hand's deal the replica holds is ``deals.peer.PeerDeal``; the
replay of a hand it and the deals check with is ``net.trust.replay``; what both sides use
is in ``net.trust``.
"""
