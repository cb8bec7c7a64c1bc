"""A guest's events come from the host's builders: the same kinds, field for field, and
the same seats (bot levels included) — over a real session on loopback. Host and guest
alike are shown the hand's last card before its end (issue 20)."""

import pytest

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
        # (the host person's own: whom it may wait for, why, and to whom it may hand the table)
        assert set(last(host, kind)) - set(last(guest, kind)) <= {"waiting", "reasons", "heirs"}, kind
    host_seats, guest_seats = last(host, "table")["seats"], last(guest, "table")["seats"]
    assert [(s["name"], s["kind"], s["level"], s["fingerprint"]) for s in guest_seats] == \
        [(s["name"], s["kind"], s["level"], s["fingerprint"]) for s in host_seats]
    assert [s["level"] for s in guest_seats if s["kind"] == "bot"] == ["random", "random"]
    assert last(guest, "hand_over")["hand"] == last(host, "hand_over")["hand"] == 0
    assert last(guest, "hand_over")["result"] == last(host, "hand_over")["result"]


@pytest.mark.parametrize("settings, mental", [
    ({"game": "rook"}, False), ({"game": "rook"}, True),
    ({"game": "somerset"}, False), ({"game": "horseshoes", "mode": "four"}, False)],
    ids=["rook-seeded", "rook-private", "somerset-seeded", "horseshoes-seeded"])
def test_host_and_guest_are_shown_the_last_trick_before_the_hand_ends(arun, tmp_path, settings, mental):
    """The move that ends a hand comes (under the seeded deal) with the hand's end in one
    batch; its "state" event comes all the same, before "hand_over": every card on the
    table, the hand's number and the scores before it."""
    async def main():
        table = Table(tmp_path, hands=1, guests=1, bots=2, host_kw={"mental_deal": mental}, **settings)
        await table.start()
        try:
            await table.finish()
        finally:
            await table.close()
        return table.host_events, table.guest_events[0]

    for events in arun(main(), timeout=90):
        shown = [e for e in events if e["type"] in ("state", "hand_over")]
        end = next(i for i, e in enumerate(shown) if e["type"] == "hand_over")
        final, over = shown[end - 1], shown[end]
        view = final["view"]
        assert view["phase"] == "done" and not view["trick"] and not view["hand"]
        assert not any(view["cards_left"])  # every card played, the last trick complete
        assert final["hand_number"] == over["hand"] + 1  # the hand that ended, not the next
        assert final["scores"] == [0] * len(over["scores"])  # before the hand's score is banked


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
    assert advert.changes(t.authority) == {"open_seats": 2, "in_game": False, "watchable": False} == \
        {"open_seats": open_seats(t.authority), "in_game": False, "watchable": False}
    assert advert.changes(t.authority) is None


def test_the_advert_says_when_people_may_watch_and_when_the_watchers_are_full(arun):
    t = RecordingTable()
    room = [True]
    advert = Advert([], make_advertiser=FakeAdvertiser, watchable=lambda: room[0])

    async def main():
        await advert.start(t.authority.identity, t.authority, 4711)
    arun(main(), timeout=5)
    assert advert.advertiser.advert.watchable and advert.advertiser.advert.txt()["watch"] == "1"
    room[0] = False  # the watchers full, or the host turned watching off
    assert advert.changes(t.authority) == {"open_seats": 3, "in_game": False, "watchable": False}
    assert advert.changes(t.authority) is None
