"""The trust protocol, sans I/O, in rooms that say whose side they are on.

``host/`` is the host's side (the authority, its archive, taking back a lost tail, the
successor), ``peer/`` a peer's (the replica and its checks), ``deals/`` the two deals a
hand can be dealt by (each with a host part and a peer part). The modules here are what
both sides use: ``values.py`` (the typed values read once at the edge), ``signing.py``
(every signature), ``log.py`` (the hash chain), ``store.py`` (the durable log: the host's
and each guest's copy), ``moves.py`` (a player's signed move and its checks),
``takeover.py`` (the players' standings and the takeover entry) and ``alerts.py``
(integrity alerts and their evidence).
"""
