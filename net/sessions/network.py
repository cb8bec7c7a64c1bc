"""What the desktop app uses to play across the network (``app.window.default_network``).

``NETWORK.host(settings, name, on_event)`` opens a table (``session.HostSession``; the
one left unfinished by a crash with ``resume=True``, offered by ``NETWORK.unfinished()``),
``NETWORK.join(table, name, on_event)`` sits at one found in the lobby (a TableInfo),
offered for a rejoin (a remembered table), typed as ``"host:port"`` or, in another
house, by the code its host read out (``{"code": …}``)
(``session.GuestSession``), and ``NETWORK.directory()`` is the lobby's live list of
tables and its rejoin offer (``session.Lobby``). All of them use this installation's
identity and data directory, and every network interface: this is the real app. Tests
build a ``Network`` of their own with no interfaces (join by address only), a private
data directory and quick timings.

A guest of the app may carry the table on should its host leave for good
(``succession``): it keeps a standby listener on the interface it reaches the host
from (``CARRY_ON``), and if it becomes the host the window goes on as the host's.
"""

from __future__ import annotations

from functools import cache

from net.wire.address import parse_address
from net.constants import CARRIED_ON_DIR, RECONNECT_ATTEMPTS
from net.wire.identity import data_dir, load_identity
from net.sessions.last_table import LastTable
from net.sessions.session import GuestSession, HostSession, Lobby
from net.sessions.succession import TOWARDS_HOST
from net.sessions.table_files import discard, unfinished

HOST_DIR = "host"  # the hosted table's state directory in the data directory

# A guest's part in a takeover: a standby on the interface it reaches the host from, and,
# should it carry the table on, a table hosted as the app hosts one (the person deals,
# says when a computer player stands in, may offer a rematch: the HostCore's defaults).
CARRY_ON = {"bind": TOWARDS_HOST, "host_kw": {}}


class Network:
    def __init__(self, interfaces=None, home=None, timings=None):
        """``interfaces``: where mDNS runs (None: every interface; []: nowhere);
        ``home``: the data directory (None: ``identity.data_dir()``); ``timings``: the
        sessions' delays (None: the protocol's)."""
        self.interfaces = interfaces
        self.home = home
        self.timings = timings

    def _home(self):
        return data_dir(self.home)

    def _identity(self, name: str):
        identity = _identity_in(self._home())
        return identity.with_name(name) if name else identity

    def _interfaces(self):
        if self.interfaces is not None:
            return self.interfaces
        from net.discovery import DEFAULT_INTERFACES
        return DEFAULT_INTERFACES

    def host(self, settings: dict, name: str, on_event, resume: bool = False,
             where: str = HOST_DIR) -> HostSession:
        """A new table (an unfinished one is kept aside), or, ``resume``, the one left
        unfinished (``unfinished``: ``where`` it is)."""
        return HostSession(on_event, settings, self._identity(name),
                           state_dir=self._home() / where, interfaces=self._interfaces() or None,
                           bind="0.0.0.0", resume=resume, fresh=not resume, timings=self.timings)

    def unfinished(self) -> dict | None:
        """The table this installation hosted — or carried on after its host left — and
        left unfinished (it crashed, or the computer stopped), for the lobby to offer:
        ``table_files.unfinished``, with ``where`` it is."""
        for where in (HOST_DIR, CARRIED_ON_DIR):
            found = unfinished(self._home() / where)
            if found is not None:
                return {**found, "where": where}
        return None

    def discard_unfinished(self, where: str = HOST_DIR) -> None:
        discard(self._home() / where)

    def join(self, table, name: str, on_event, watch: bool = False) -> GuestSession:
        """``table``: a TableInfo or remembered table (a dict), or ``"host:port"``
        (AddressError, with a sentence for the person, when it is not one); ``watch``: to
        watch it, not to play (as a code made for a watcher does by itself)."""
        identity = self._identity(name)
        # interfaces: where a table we carry on is advertised (the table is found here by
        # its address either way)
        common = {"state_dir": self._home(), "give_up": RECONNECT_ATTEMPTS,
                  "remember": LastTable(self._home()), "takeover": CARRY_ON,
                  "interfaces": self._interfaces() or None, "timings": self.timings,
                  "watch": watch or (isinstance(table, dict) and bool(table.get("watch")))}
        if isinstance(table, str):
            address, port = parse_address(table)
            return GuestSession(on_event, identity, address=address, port=port, **common)
        if table.get("code"):  # a table in another house, by the code its host read out
            return GuestSession(on_event, identity, code=table["code"], **common)
        return GuestSession(on_event, identity, address=table["address"], port=table["port"],
                            fingerprint=table["fingerprint"], table_name=table.get("name"),
                            seat=table.get("seat"), **common)

    def directory(self) -> Lobby:
        home = self._home()
        return Lobby(self._interfaces(), memory=LastTable(home),
                     identity=lambda: _identity_in(home))


@cache
def _identity_in(home):
    """This installation's identity (read once per data directory)."""
    return load_identity(home)


NETWORK = Network()
