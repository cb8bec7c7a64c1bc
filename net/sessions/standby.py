"""What travels on a standby connection (``succession``): the players' own small TLS
servers, where they find each other when their host is gone.

A player offers its signed standing and is answered where the table is carried on, or
why it is not; the departed host, if it is still running and finds most of its players
gone (``whereabouts``), asks where its table went. An answer that the table is carried
on carries its proof, ``took``: the takeover entry (signed by the player who carries it
on, with the standings of the majority behind it), which whoever reads it checks
against its own log before it follows — or, the departed host, before it believes it.
A player that stopped at an alert sends the others its signed report (``reporting``).
"""

from __future__ import annotations

from net.wire import transport
from net.wire.framing import SCHEMAS, ConnectionClosed, ProtocolError
from net.wire.identity import Identity, fingerprint
from net.wire.transport import HandshakeError, open_connection, within

# A standby link is a transport connection: it begins with the handshake, whose messages
# ``transport`` declares in SCHEMAS as it is imported — before this copy is made.
assert "hello" in SCHEMAS, transport
STANDBY = SCHEMAS.copy()
#: a player's standing (and the host's handover, if it left one: the heir may read this
#: before its own copy from the host)
STANDBY.message("standing", {"handover": dict}, signed=dict)
#: the departed host, still running, asks where its table ``table`` is now
STANDBY.message("where", table=str)
#: we carry the table on: rejoin us at ``port`` (our address); ``took``: our takeover
#: entry (it extends the entry to roll back to)
STANDBY.message("hosting", port=int, took=dict)
#: the player in ``seat`` carries the table on, at ``address``:``port``; ``took``: its
#: takeover entry
STANDBY.message("follow", seat=int, address=str, port=int, took=dict)
#: not carried on (``reason``: "connected", we still have the host; "majority", too few
#: players reach each other — ``have`` of the ``need`` it takes; "nobody", no one answered)
STANDBY.message("declined", {"have": int, "need": int}, reason=str)
#: a player that stopped at an alert tells the others why, with its signed evidence
#: (``trust.reports``; no answer)
STANDBY.message("report", signed=dict)


async def ask_where(identity: Identity, table: str, key: bytes, address: str, port: int,
                    timeout: float) -> dict | None:
    """Where the player with ``key``, at its standby ``address``:``port``, says ``table`` is
    carried on (its "follow", to be checked by the asker), or None: no answer, or another."""
    try:
        conn = await open_connection(address, port, identity, fingerprint(key),
                                     schemas=STANDBY, timeout=timeout)
    except (HandshakeError, OSError, TimeoutError, ProtocolError):
        return None
    try:
        await conn.send({"type": "where", "table": table})
        reply = await within(timeout, conn.recv())
    except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
        return None
    finally:
        await conn.close()
    return reply if reply.get("type") == "follow" else None
