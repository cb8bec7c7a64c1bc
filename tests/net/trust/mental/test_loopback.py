"""Whole hands of every title and mode with the mental deal over real sockets: the
host's sequencer and party, each guest a DealClient on its own TLS connection on
loopback, every hidden-information flow through the wire (loopback_kit.py)."""

import pytest

from engine.registry import title
from net.trust.deals.mental.machine import Dealt, Opened, Played, Verified
from tests.net.trust.mental.loopback_kit import LoopbackTable
from tests.net.trust.mental_table import first_choice


def make_game(name, ruleset, mode, options):
    return title(name).make(ruleset, mode, options)


# (title, ruleset, mode, options), seat -> identity (0: the host; the host's other seats
# are its computer players), and the spare's audience: "all", "bidder" or None (closed)
VARIANTS = [
    (("rook", "rook", None, None), [0, 1, 0, 2], "all"),  # widow up, then to the bidder; bury
    (("somerset", "kitty-doubled", None, None), [0, 1, 2, 3], "bidder"),  # kitty; discard
    (("somerset", "widow-keep", None, None), [0, 1, 0, 2], "all"),  # open widow from the deal
    (("horseshoes", "horseshoes", "three", {"leftover": "up"}), [0, 1, 2], "all"),
    (("horseshoes", "horseshoes", "three", {"leftover": "down"}), [0, 1, 2], None),
    (("horseshoes", "horseshoes", "three", {"leftover": "dealer"}), [0, 1, 2], "all"),
    (("horseshoes", "horseshoes", "four", None), [0, 1, 2, 3], None),
    (("horseshoes", "horseshoes", "partners", None), [0, 1, 0, 2], None),
]


@pytest.mark.parametrize("variant, seats, audience", VARIANTS,
                         ids=[f"{v[0]}-{v[1]}-{v[2]}-{(v[3] or {}).get('leftover', '')}" for v, _, _ in VARIANTS])
def test_a_whole_hand_over_loopback(arun, variant, seats, audience):
    async def play():
        async with LoopbackTable(make_game, variant, seats) as table:
            await table.deal()
            truth_hands, truth_spare = table.setup.layout(table.god_view())
            for index, client in enumerate(table.clients):  # each its own seats' hands only
                hands = [x for x in client.learned if isinstance(x, Dealt)]
                assert sorted(h.seat for h in hands) == sorted(s for s, i in enumerate(seats) if i == index)
                assert all(list(h.cards) == truth_hands[h.seat] for h in hands)
            state = await table.play_hand(first_choice)
            assert state.is_over
            plays = [(s, c) for trick in state.tricks for s, c in trick.cards]
            for client in table.clients:
                assert [(p.seat, p.card) for p in client.learned if isinstance(p, Played)] == plays
                [verified] = [v for v in client.learned if isinstance(v, Verified)]
                assert [list(h) for h in verified.hands] == truth_hands
                assert list(verified.spare) == truth_spare
            opened = [[o for o in c.learned if isinstance(o, Opened)] for c in table.clients]
            if audience == "all":
                assert all(o and o[0].public and list(o[0].cards) == truth_spare for o in opened)
            elif audience == "bidder":
                bidder = table.setup.owner(state.bidder)
                assert [bool(o) for o in opened] == [i == bidder for i in range(len(opened))]
                assert not opened[bidder][0].public and list(opened[bidder][0].cards) == truth_spare
            else:
                assert not any(opened)
            return len(table.sequencer.log)
    assert arun(play()) > 0
