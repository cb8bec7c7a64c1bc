"""A host that logs a player's seat as dropped while that player's link is up (a false
drop: its seat would go to a stand-in, and under the private deal its cards to the
host's client) is named by that player's own replica, under either deal, at any point
of the table; a drop the player reads in its catch-up after coming back is no alert."""

import pytest

from net.trust import sent
from net.trust.alerts import HOST
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust_table import Table

DEALS = {"seeded": Table, "private": MentalTrustTable}
#: Both deals; the private one's hands cost mental poker's CPU (seconds): the slow tier.
BOTH = [pytest.param("seeded"), pytest.param("private", marks=pytest.mark.slow)]
VICTIM = 2


@pytest.mark.parametrize("deal", BOTH)
@pytest.mark.parametrize("moves", [0, 5])  # between hands (before the first deal), mid-hand
def test_a_drop_of_its_own_seat_received_live_names_the_host(deal, moves):
    table = DEALS[deal]()
    if moves:
        table.start()
        for _ in range(moves):
            table.step()
    kept = []
    table.tamper = lambda fp, msg: (fp == table.fp(VICTIM) and kept.append(msg)) or msg
    table.deliver(table.host.drop(VICTIM))  # sent to the victim too: its link is up
    alert = table.replicas[VICTIM].halted
    assert alert is not None and (alert.party, alert.seat, alert.rule) == (HOST, 0, "drop"), alert
    assert f"my seat {VICTIM} as dropped while my link to it is up" in alert.detail
    assert all(table.replicas[s].halted is None for s in table.peer_seats if s != VICTIM)
    # what it was sent is the host's word, signed as sent live to that seat
    sent_to_victim = [m for m in kept if m["type"] == "entry"
                      and m["entry"]["entry"]["seq"] == alert.seq][-1]
    assert alert.sent is not None and alert.sent["message"] == sent_to_victim and alert.sent["live"]
    assert sent.problem(table.host_id.public_key, alert.sent["message"], VICTIM,
                        table.ids[VICTIM].public_key, True) is None


@pytest.mark.parametrize("deal", BOTH)
def test_a_drop_read_in_the_catch_up_after_coming_back_is_no_alert(deal):
    table = DEALS[deal]()
    table.start()
    for _ in range(5):
        table.step()
    victim_fp = table.fp(VICTIM)
    table.tamper = lambda fp, msg: None if fp == victim_fp else msg  # its link is down
    table.deliver(table.host.drop(VICTIM))
    table.tamper = None
    table.deliver(table.host.rejoin(victim_fp, VICTIM, table.replicas[VICTIM].seq))
    assert not table.alerts and table.heads_agree()
