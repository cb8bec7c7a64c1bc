"""The host's roster of standby addresses, without I/O: a standby is its player's, and
the list every guest is sent says the seat each player holds now (issue 28, item 3)."""

from __future__ import annotations

from types import SimpleNamespace

from net.sessions.roster import Roster


class Link:
    def __init__(self, address: str):
        self.conn = SimpleNamespace(address=(address, 50000))
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)


def a_roster():
    seats = {"maya": 1, "dad": 2, "sam": 3}
    links = {fp: Link(f"10.0.0.{n}") for n, fp in enumerate(seats, 1)}
    return Roster(lambda: links.values(), seat_of=seats.get), seats, links


def test_a_standby_moves_with_its_player_when_seats_are_swapped():
    roster, seats, links = a_roster()
    roster.joined("maya", links["maya"], {"standby": 4001})
    roster.joined("dad", links["dad"], {"standby": None})  # cannot carry the table on
    roster.joined("sam", links["sam"], {"standby": 4003})
    assert roster.standby == {1: ("10.0.0.1", 4001), 3: ("10.0.0.3", 4003)}
    seats["maya"], seats["dad"] = 2, 1  # the host swapped them before the deal
    assert roster.reseated()
    assert roster.standby == {2: ("10.0.0.1", 4001), 3: ("10.0.0.3", 4003)}
    expected = {"type": "roster", "peers": [[2, "10.0.0.1", 4001], [3, "10.0.0.3", 4003]]}
    assert all(link.sent[-1] == expected for link in links.values())
    assert not roster.reseated()  # nothing new: nothing sent again
    assert all(link.sent[-1] == expected for link in links.values())


def test_a_player_back_without_a_standby_is_forgotten():
    roster, _seats, links = a_roster()
    roster.joined("maya", links["maya"], {"standby": 4001})
    assert roster.joined("maya", links["maya"], {})  # its client can no longer carry on
    assert roster.standby == {}
    assert links["maya"].sent[-1] == {"type": "roster", "peers": []}


def test_a_seated_guest_that_changes_nothing_is_sent_the_list_as_it_stands():
    roster, _seats, links = a_roster()
    roster.joined("sam", links["sam"], {"standby": 4003})
    before = len(links["dad"].sent)
    assert not roster.joined("dad", links["dad"], {})
    assert len(links["dad"].sent) == before + 1
    assert links["dad"].sent[-1]["peers"] == [[3, "10.0.0.3", 4003]]
