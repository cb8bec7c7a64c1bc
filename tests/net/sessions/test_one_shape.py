"""A guest's events come from the host's builders: the same kinds, field for field, and
the same seats (bot levels included) — over a real session on loopback."""

from net.sessions.advert import Advert, open_seats
from tests.net.session_kit import Table
from tests.net.sessions.parts_kit import RecordingTable


def last(events: list[dict], kind: str) -> dict:
    return [e for e in events if e["type"] == kind][-1]


def test_host_and_guest_tell_a_hand_with_the_same_events(arun, tmp_path):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=1, bots=2)
        await table.start()
        try:
            await table.finish()
        finally:
            await table.close()
        return table.host_events, table.guest_events[0]

    host, guest = arun(main(), timeout=60)
    for kind in ("table", "state", "hand_over"):
        assert set(last(guest, kind)) <= set(last(host, kind)), kind
        assert set(last(host, kind)) - set(last(guest, kind)) <= {"waiting", "reasons"}, kind
    host_seats, guest_seats = last(host, "table")["seats"], last(guest, "table")["seats"]
    assert [(s["name"], s["kind"], s["level"], s["fingerprint"]) for s in guest_seats] == \
        [(s["name"], s["kind"], s["level"], s["fingerprint"]) for s in host_seats]
    assert [s["level"] for s in guest_seats if s["kind"] == "bot"] == ["random", "random"]
    assert last(guest, "hand_over")["hand"] == last(host, "hand_over")["hand"] == 0
    assert last(guest, "hand_over")["result"] == last(host, "hand_over")["result"]


class FakeAdvertiser:
    def __init__(self, advert, interfaces):
        self.advert, self.updates, self.started = advert, [], False

    async def start(self):
        self.started = True

    async def update(self, **changes):
        self.updates.append(changes)

    async def stop(self):
        pass


def test_the_advert_is_announced_again_only_when_what_a_lobby_shows_changes(arun):
    t = RecordingTable()
    advert = Advert([], make_advertiser=FakeAdvertiser)
    assert advert.changes(t.authority) is None  # no advert yet: nothing to announce

    async def main():
        await advert.start(t.authority.identity, t.authority, 4711)
    arun(main(), timeout=5)
    sent = advert.advertiser.advert
    assert (sent.port, sent.open_seats, sent.in_game, sent.name) == (4711, 3, False, "Test table")
    assert advert.changes(t.authority) is None
    t.authority.seat(1, "bot", name="Bot 2", level="easy")
    assert advert.changes(t.authority) == {"open_seats": 2, "in_game": False} == \
        {"open_seats": open_seats(t.authority), "in_game": False}
    assert advert.changes(t.authority) is None
