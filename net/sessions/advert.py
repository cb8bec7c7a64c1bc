"""The table's mDNS advert, kept current: open seats, whether the game has begun, and
whether people may watch it.

A host on the network announces its table (``discovery.TableAdvertiser``) so lobbies
list it; a table against the computer has no advert. ``Advert`` builds the announcement
from the table and re-announces only when what a lobby shows has changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from net.adverts import TableAdvert

log = logging.getLogger(__name__)


def open_seats(authority) -> int:
    return sum(1 for i in authority.seats.values() if i.kind == "empty")


class Advertiser(Protocol):
    """An announcement on the network (``discovery.TableAdvertiser``; tests: a fake)."""

    async def start(self) -> None: ...

    async def update(self, **changes) -> None: ...

    async def stop(self) -> None: ...


class Advert:
    """``watchable``: whether people may watch the table now (a getter: the host's
    settings for watchers, and room for one more)."""

    def __init__(self, interfaces, make_advertiser: Callable[..., Advertiser] | None = None,
                 watchable: Callable[[], bool] = lambda: False):
        self.interfaces = interfaces
        self.make_advertiser = make_advertiser or _zeroconf_advertiser
        self.watchable = watchable
        self.advertiser: Advertiser | None = None
        # (open seats, in game, watchable) last announced
        self.shown: tuple[int, bool, bool] | None = None

    def _now(self, authority) -> tuple[int, bool, bool]:
        return open_seats(authority), authority.match is not None, self.watchable()

    async def start(self, identity, authority, port: int) -> None:
        game = authority.game
        self.shown = self._now(authority)
        advert = TableAdvert(name=authority.name, game=game.id, ruleset=game.ruleset.id,
                             mode=game.mode or "", host=identity.name,
                             fingerprint=identity.fingerprint, port=port,
                             open_seats=self.shown[0], in_game=self.shown[1],
                             table_id=authority.table or "", watchable=self.shown[2])
        self.advertiser = self.make_advertiser(advert, self.interfaces)
        await self.advertiser.start()

    def changes(self, authority) -> dict | None:
        """What to re-announce now (None: nothing changed, or no advert)."""
        now = self._now(authority)
        if self.advertiser is None or now == self.shown:
            return None
        self.shown = now
        return {"open_seats": now[0], "in_game": now[1], "watchable": now[2]}

    async def update(self, changes: dict) -> None:
        if self.advertiser is not None:  # (withdrawn meanwhile: the table is closing)
            await self.advertiser.update(**changes)

    async def stop(self) -> None:
        if self.advertiser is None:
            return
        try:
            await self.advertiser.stop()
        except Exception:  # noqa: BLE001 - leaving the network must not fail
            log.exception("advert withdrawal failed")
        self.advertiser = None


def _zeroconf_advertiser(advert, interfaces) -> Advertiser:
    from net.discovery import TableAdvertiser
    return TableAdvertiser(advert, interfaces=interfaces)
