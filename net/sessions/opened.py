"""What a host's authority holds once its table is open, for the parts that run after.

``HostAuthority`` learns its table's id, chain and game from the table's first entry
(``open_table``, or the log replayed by ``restore``); until then they are None.
``HostCore.start`` opens the table before any part of the host runs, so the parts read
them through these, which say so plainly should that ever not hold.
"""

from __future__ import annotations

from engine import Game
from net.trust.host.authority import HostAuthority
from net.trust.log import Chain

NOT_OPEN = "the table is not open yet: its first entry is not in the log"


def chain_of(auth: HostAuthority) -> Chain:
    """The table's chain: the last entry's ``seq`` and ``head`` hash."""
    if auth.chain is None:
        raise RuntimeError(NOT_OPEN)
    return auth.chain


def table_of(auth: HostAuthority) -> str:
    """The table's id, as every entry names it."""
    if auth.table is None:
        raise RuntimeError(NOT_OPEN)
    return auth.table


def game_of(auth: HostAuthority) -> Game:
    """The game the table plays (its title, ruleset, mode and options)."""
    if auth.game is None:
        raise RuntimeError(NOT_OPEN)
    return auth.game
