"""A peer's side of the trust protocol (no I/O): what every guest runs to check its host.

``replica.py`` (``PeerReplica``: the peer's own copy of the table, checking the host
entry by entry), ``shadow.py`` (one hand replayed on what this seat knows), ``live.py``
(the deal and each move checked as they come) and ``privacy.py`` (what is sent to this
seat alone must be this seat's). The hand's deal the replica holds is
``deals.peer.PeerDeal``; what both sides use is in ``net.trust``.
"""
