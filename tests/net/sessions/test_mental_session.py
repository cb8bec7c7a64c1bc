"""Whole hands through the sessions under the mental-poker deal: a HostCore with
``mental_deal`` and GuestCores, each on its own TLS connection on loopback, every title
and mode. Each guest checks every entry (its own deal client, the played cards' proofs,
the verified deal at the end) and raises no alert; the host's client never holds a
guest's hand."""

import asyncio

import pytest

from net.trust import mental_log as ml
from tests.net.session_kit import Table, assert_all_verified

VARIANTS = [
    ({"game": "rook"}, 3),
    ({"game": "somerset", "ruleset": "kitty-doubled"}, 3),
    ({"game": "somerset", "ruleset": "widow-keep"}, 3),
    ({"game": "horseshoes", "mode": "three", "options": {"leftover": "down"}}, 2),
    ({"game": "horseshoes", "mode": "three", "options": {"leftover": "up"}}, 2),
    ({"game": "horseshoes", "mode": "four"}, 3),
]


@pytest.mark.parametrize("settings, guests", VARIANTS,
                         ids=["rook", "kitty", "widow", "hs3-down", "hs3-up", "hs4"])
def test_a_whole_hand_under_the_mental_deal_through_the_sessions(tmp_path, settings, guests):
    async def main():
        table = Table(tmp_path, guests=guests, hands=1, host_kw={"mental_deal": True}, **settings)
        await table.start()
        try:
            summaries = await table.finish(timeout=60)
        finally:
            await table.close()
        return table, summaries

    table, summaries = asyncio.run(main())
    assert_all_verified(summaries, hands=1, head=table.head())
    kinds = [signed.kind for signed in table.host.authority.log]
    assert ml.DEAL in kinds and ml.DEALT in kinds and "commit" not in kinds
