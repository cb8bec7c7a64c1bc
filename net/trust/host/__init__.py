"""The host's side of the trust protocol (no I/O): what only the table's authority runs.

``authority.py`` (``HostAuthority``: every change through one path — validate, sign,
persist, apply, publish), ``archive.py`` (what each seat was sent, to send it again on a
rejoin), ``recovery.py`` (``TailRecovery``: a restarted host takes back from its peers
the tail of its log it lost) and ``successor.py`` (a player's checked copy of the log
becomes the table's authority when the players carry the table on). The hand's deal
the authority holds is ``deals.host.HostDeal``; what both sides use is in ``net.trust``.
"""
