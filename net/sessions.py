"""What the desktop app uses to play across the network (``app.window.default_network``).

``NETWORK.host(settings, name, on_event)`` opens a table (``session.HostSession``),
``NETWORK.join(table, name, on_event)`` sits at one found in the lobby (a TableInfo) or
typed as ``"host:port"`` (``session.GuestSession``), and ``NETWORK.directory()`` is the
lobby's live list of tables (``session.Lobby``). All three use this installation's
identity and every network interface: this is the real app, never the tests.
"""

from __future__ import annotations

from .constants import RECONNECT_ATTEMPTS
from .identity import data_dir, load_identity
from .session import GuestSession, HostSession, Lobby


class _Network:
    def _identity(self, name: str):
        identity = load_identity()
        return identity.with_name(name) if name else identity

    @staticmethod
    def _interfaces():
        from .discovery import DEFAULT_INTERFACES
        return DEFAULT_INTERFACES

    def host(self, settings: dict, name: str, on_event) -> HostSession:
        return HostSession(on_event, settings, self._identity(name),
                           state_dir=data_dir() / "host", interfaces=self._interfaces(),
                           bind="0.0.0.0")

    def join(self, table, name: str, on_event) -> GuestSession:
        identity = self._identity(name)
        if isinstance(table, str):
            address, _, port = table.rpartition(":")
            return GuestSession(on_event, identity, address=address, port=int(port),
                                state_dir=data_dir(), give_up=RECONNECT_ATTEMPTS)
        return GuestSession(on_event, identity, address=table["address"], port=table["port"],
                            fingerprint=table["fingerprint"], table_name=table.get("name"),
                            state_dir=data_dir(), give_up=RECONNECT_ATTEMPTS)

    def directory(self) -> Lobby:
        return Lobby(self._interfaces())


NETWORK = _Network()
