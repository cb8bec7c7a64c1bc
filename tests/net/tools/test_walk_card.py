"""The walk of a guest's card (``python -m net.tools.walk_card``): what the trace sees of
one card played under the private deal, from the app's session call to every peer's check."""

from __future__ import annotations

from net.tools import walk_card

#: How far one card travels today (Rook, private deal: 59 files, 146-151 distinct arrows
#: on 2026-12-06 after "players first" added two — outbox -> host_session, watchers ->
#: clock), with a little room. The arrows vary by a few between runs of the same code
#: (what the loop's timers and acks happen to run while the card walks: 146, 148, 151 in
#: four runs; 151 failed a ceiling of 150 in a clean-clone run), so the room is above the
#: highest seen. A change that makes a card cross more files raises these on purpose, in
#: its own commit that says why — the walk must not grow unnoticed.
MAX_FILES, MAX_ARROWS = 62, 158


def test_a_guests_card_is_traced_through_the_host_and_every_peers_check():
    result = walk_card.walk("rook")
    app, host, move, check, other = result.parts
    # the app's call, handed to the guest's loop
    assert ("net/sessions/session.py", "GuestSession.act") in app.functions
    # the guest's replica signs and proves its card; the host admits it and the engine applies it
    assert ("net/trust/peer/replica.py", "PeerReplica.act") in move.functions
    # (a card already face up, the widow's say, needs no decryption proof: ``machine.play``)
    assert ("net/trust/deals/mental/peer.py", "MentalPeer.play_proof") in move.functions
    assert ("net/trust/moves.py", "admit") in host.functions
    assert ("net/trust/deals/mental/host.py", "MentalHost.log_move") in host.functions
    assert ("engine/state.py", "State.apply_unseen") in host.functions
    # each guest's replica checks the logged entry, the player's own included
    for peer in (check, other):
        assert ("net/trust/peer/replica.py", "PeerReplica.receive") in peer.functions
        assert ("engine/state.py", "State.apply") in peer.functions
    assert ("net/trust/deals/mental/peer.py", "MentalPeer._on_action") in other.functions
    # the figures add up: no arrow without a call, every part's files among the walk's
    arrows = result.arrows()
    assert len(result.files()) >= 3 and 0 < len(arrows) <= result.calls()
    assert result.calls() == sum(arrows.values())
    assert all(a in result.files() and b in result.files() and a != b for a, b in arrows)
    assert all(not f.startswith("net/tools/") for f in result.files())


def test_the_walk_stays_within_its_ceiling():
    result = walk_card.walk("rook")
    files, arrows = len(result.files()), len(result.arrows())
    assert files <= MAX_FILES and arrows <= MAX_ARROWS, (
        f"a card now crosses {files} files by {arrows} arrows (ceiling {MAX_FILES}/{MAX_ARROWS}): "
        "simplify, or raise the ceiling on purpose and say why")


def test_the_report_groups_the_files_by_room():
    result = walk_card.walk("rook")
    lines: list[str] = []
    walk_card.report(result, out=lines.append)
    text = "\n".join(lines)
    assert f"files {len(result.files())}, distinct arrows {len(result.arrows())}" in text
    assert "    net/trust/peer/ (" in text and "net/trust/peer/replica.py" in text
