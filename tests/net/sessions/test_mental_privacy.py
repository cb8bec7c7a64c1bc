"""Nobody sees another human's cards before they are played — through the sessions.

The host's HostCore records every message it receives from its guests, and holds its own
deal messages and its secrets (its party's). Before it handles each move a human plays,
the deal-level attack (``every_way_to_decrypt``: every subset of the shares it has, its
own share, the shares of played cards) runs on that record, and opens no card still in
a human's hand; it does open the host's own hand and every card played (it is not
empty-handed), and everything it opens is the verified deal's. On today's seeded deal
the host's authority holds every hand outright.
"""

import asyncio

import pytest

from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from tests.net.session_kit import PATIENT, Table, assert_all_verified
from tests.net.trust.mental.test_privacy import every_way_to_decrypt
from tests.waits import until

VARIANTS = [
    ({"game": "rook"}, 3),
    ({"game": "somerset", "ruleset": "kitty-doubled"}, 3),
    ({"game": "somerset", "ruleset": "widow-keep"}, 3),
    ({"game": "horseshoes", "mode": "three", "options": {"leftover": "down"}}, 2),
    ({"game": "horseshoes", "mode": "four"}, 3),
]


class HostRecord:
    """What the host's client receives (the guests' deal messages) and holds (its own)."""

    def __init__(self, table):
        self.table, self.received = table, []
        self.checks, self.found = 0, {}
        host = table.host
        receive = host.receive

        def spy(fp, link, msg):
            self.before(msg)
            envelopes = [msg["signed"]] if msg.get("type") == "mental" else msg.get("mental") or []
            self.received += [(None, e["body"]) for e in envelopes]
            receive(fp, link, msg)
        host.receive = spy

    def record(self) -> list:
        auth = self.table.host.authority
        context = auth.deal.setup.context
        own = [(0, s.body["signed"]["body"]) for s in auth.log
               if s.kind == ml.MESSAGE and s.body["party"] == 0]
        return [(p, b) for p, b in own + self.received
                if (b["hand"], b["attempt"]) == (context.hand, context.attempt)]

    def before(self, msg) -> None:
        """A human's card is about to be played: nothing of any human hand is open."""
        auth = self.table.host.authority
        if msg.get("type") != "action" or auth.deal is None or not auth.deal.dealt:
            return
        if "play" not in msg["signed"]["body"]["action"]:
            return
        setup, record = auth.deal.setup, self.record()
        found = every_way_to_decrypt(record, auth.deal.party.client.machine.secrets, setup.deck_size)
        played = {b["position"] for _, b in record if b["type"] == mm.PLAY}
        for party in setup.parties[1:]:
            for seat in party.seats:
                in_hand = set(setup.dealt(seat)) - played
                assert not in_hand & set(found), f"the host opened a card of seat {seat}"
        assert set(found) >= played | set(setup.dealt(0))
        self.found.update(found)
        self.checks += 1


@pytest.mark.parametrize("settings, guests", VARIANTS,
                         ids=["rook", "kitty", "widow", "hs3-down", "hs4"])
def test_the_hosts_record_opens_no_human_card_before_it_is_played(tmp_path, settings, guests):
    async def main():
        table = Table(tmp_path, guests=guests, hands=1, host_kw={"mental_deal": True}, timings=PATIENT,
                      **settings)
        spy = HostRecord(table)
        await table.start()
        try:
            summaries = await table.finish(timeout=60)
        finally:
            await table.close()
        return table, spy, summaries

    table, spy, summaries = asyncio.run(main())
    assert_all_verified(summaries, hands=1)
    game = table.host.game
    assert spy.checks == game.hand_size * guests  # before every card a human played
    # everything the attack opened is the verified deal's (the test knows it now)
    verified = table.host.authority.deal.party.verified
    setup = table.host.authority.deal.setup
    truth = {}
    for seat in range(game.num_players):
        truth.update(zip(setup.dealt(seat), verified.hands[seat]))
    truth.update(zip(setup.spare(), verified.spare))
    assert spy.found and all(truth[p] == card for p, card in spy.found.items())


def test_on_todays_seeded_deal_the_host_holds_every_hand(tmp_path):
    """The same table without the mental deal: the host's authority computes the deal,
    so every guest's hand is in its state, exactly as the guest's own view shows it."""
    async def main():
        table = Table(tmp_path, guests=3, hands=1, game="rook", host_kw={"mental_deal": False})
        await table.start()
        seen = []

        def in_step():  # every guest holds the host's whole log: compare at this moment
            auth = table.host.authority
            replicas = [g.replica for g in table.guests]
            if auth.state is None or any(r is None or r.view is None or r.seq != auth.chain.seq
                                         for r in replicas):
                return False
            seen.append(([list(auth.state.view(r.seat)["hand"]) for r in replicas],
                         [list(r.view["hand"]) for r in replicas]))
            return True
        await until(in_step)
        await table.close()
        return seen[-1]

    held_by_host, guest_views = asyncio.run(main())
    assert held_by_host == guest_views and all(guest_views)
