"""Under the mental deal the kitty is opened to its taker by the other parties' shares,
which come after the bidding ends. Until they come, the taker's replay holds made-up
cards where the kitty's are: its person must be offered nothing to decide on them, and
shown its real cards the moment the shares are logged (a "mental" entry, not a move)."""

import asyncio

from engine.cards import cards_of
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from tests.net.session_kit import PATIENT, ident
from tests.waits import until


def offered(event, kind: str) -> bool:
    return event["type"] == "state" and any(kind in choice for choice in event["legal"])


async def offered_only_real(events, real: set, host, guest, task) -> None:
    """Every discard offered showed the taker's real 14 cards; then the table closes."""
    shown = [set(e["view"]["hand"]) for e in events if offered(e, "discard")]
    assert shown and all(hand == real for hand in shown), (real, shown)
    await guest.stop()
    await host.stop()
    await asyncio.gather(task, return_exceptions=True)


def test_the_host_person_taking_the_kitty_decides_on_its_real_cards(tmp_path, arun):
    async def go():
        events = []
        host = HostCore(ident("Host"), {"game": "somerset", "ruleset": "kitty-doubled"},
                        state_dir=tmp_path / "host", emit=events.append, timings=PATIENT,
                        bots={2: "random", 3: "random"}, you=0, auto_start=True, hands=1,
                        mental_deal=True, table_seed=bytes([7]) * 32)  # seat 3 deals: 0 bids first
        await host.start()
        guest = GuestCore(ident("Guest"), address="127.0.0.1", port=host.port,
                          fingerprint=host.identity.fingerprint, timings=PATIENT,
                          state_dir=tmp_path / "guest", bot_level="random")
        task = asyncio.ensure_future(guest.run())
        auth = host.authority
        await until(lambda: auth.state is not None and auth.state.phase == "bidding")
        dealt = set(cards_of(auth.state.hands[0]))
        while auth.state.phase == "bidding":  # the host person bids the most it can
            await until(lambda: auth.state.phase != "bidding" or 0 in auth.state.to_act())
            if auth.state.phase == "bidding":
                top = any(a.kind == "bid" and a.value == 24 for a in auth.state.legal_actions(0))
                host.act({"bid": 24} if top else {"pass": True})
        assert auth.state.bidder == 0
        await until(lambda: any(offered(e, "discard") for e in events))
        discard = [auth.game.deck.name(c) for c in sorted(dealt)[-2:]]
        host.act({"discard": discard})
        await until(lambda: auth.state.phase != "kitty")
        real = {auth.game.deck.name(c) for c in cards_of(auth.state.hands[0])} | set(discard)
        await offered_only_real(events, real, host, guest, task)
    arun(go())


def test_a_guest_person_taking_the_kitty_is_offered_it_once_its_real_cards_come(tmp_path, arun):
    async def go():
        events = []
        host = HostCore(ident("Host"), {"game": "somerset", "ruleset": "kitty-doubled"},
                        state_dir=tmp_path / "host", timings=PATIENT, autoplay=True,
                        bots={2: "random", 3: "random"}, auto_start=True, hands=1,
                        mental_deal=True, table_seed=bytes([2]) * 32)  # seat 0 deals: 1 bids first
        await host.start()
        guest = GuestCore(ident("Guest"), address="127.0.0.1", port=host.port,
                          fingerprint=host.identity.fingerprint, timings=PATIENT,
                          state_dir=tmp_path / "guest", emit=events.append)
        task = asyncio.ensure_future(guest.run())

        def latest():
            states = [e for e in events if e["type"] == "state"]
            return states[-1] if states else None
        await until(lambda: latest() is not None and latest()["view"]["phase"] == "bidding")
        dealt = set(latest()["view"]["hand"])
        while latest()["view"]["phase"] == "bidding":  # the guest person bids the most it can
            await until(lambda: latest()["view"]["phase"] != "bidding" or offered(latest(), "bid")
                           or offered(latest(), "pass"))
            if latest()["view"]["phase"] == "bidding":
                top = {"bid": 24} in latest()["legal"]
                count = len(events)
                guest.act({"bid": 24} if top else {"pass": True})
                await until(lambda: len(events) > count)
        assert host.authority.state.bidder == 1
        await until(lambda: any(offered(e, "discard") for e in events))
        discard = sorted(dealt)[:2]
        guest.act({"discard": discard})
        await until(lambda: host.authority.state.phase != "kitty")
        await until(lambda: latest()["view"]["phase"] != "kitty")
        real = set(latest()["view"]["hand"]) | set(discard)
        await offered_only_real(events, real, host, guest, task)
    arun(go())
