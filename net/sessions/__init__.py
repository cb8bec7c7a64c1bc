"""Sessions: the table core and its parts, the guest, the facade the app uses.

The sessions are the boss above the wire and the houses, so they wire the one to the
other here, before any of their modules runs: the wire reaches a house address through
the houses (``transport.reach_houses_with``), which sit above it.
"""

from net.wire import transport


async def _dial_house(identity, address: str, port: int):
    """A connected socket to the server at ``port`` of the player at house ``address``."""
    from net.houses import service  # Twisted and magic-wormhole: only when used
    return await service.dial(identity, address, port)


transport.reach_houses_with(_dial_house)
