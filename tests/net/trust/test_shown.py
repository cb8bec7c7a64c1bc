"""A player's hand sealed for one watcher ("Show my cards to…", ``net.trust.shown``): only
that watcher opens it, nobody else can make one, and what opens must be that table's
seat, for that watcher, a hand's private view."""

import pytest

from engine import canonical
from net.trust import shown
from net.trust.shown import ShownError, ShownHand
from tests.net.trust_table import identity

TABLE = "t-1"
GRANDMA, LEO, MAYA, HOST = (identity(n) for n in ("grandma", "leo", "maya", "host"))
VIEW = {"seat": 2, "hand": ["R5", "G14", "ROOK"], "buried": ["B5", "B10"]}


def sealed(view=VIEW, to=LEO, seq=14, seat=2, table=TABLE, by=GRANDMA, nonce=bytes(24)) -> bytes:
    return shown.seal(by, to.public_key, ShownHand(table, seat, to.public_key, seq, 1, view), nonce)


def test_the_named_watcher_opens_the_hand():
    hand = shown.unseal(LEO, GRANDMA.public_key, sealed(), table=TABLE, seat=2)
    assert hand == ShownHand(TABLE, 2, LEO.public_key, 14, 1, VIEW)


def test_nobody_else_opens_it_the_host_included():
    box = sealed()
    for who in (HOST, MAYA):
        with pytest.raises(ShownError, match="does not open"):
            shown.unseal(who, GRANDMA.public_key, box, table=TABLE, seat=2)


def test_a_hand_the_host_made_up_does_not_open_as_the_players():
    """The host (or anyone) may seal a box for Leo with its own key; read as Grandma's, it
    does not open: only Grandma's key makes her boxes."""
    forged = sealed(by=HOST)
    with pytest.raises(ShownError, match="does not open"):
        shown.unseal(LEO, GRANDMA.public_key, forged, table=TABLE, seat=2)


def test_a_box_changed_on_the_way_does_not_open():
    box = bytearray(sealed())
    box[40] ^= 1
    with pytest.raises(ShownError, match="does not open"):
        shown.unseal(LEO, GRANDMA.public_key, bytes(box), table=TABLE, seat=2)


@pytest.mark.parametrize("where", [{"table": "t-2"}, {"seat": 3}], ids=["another table", "another seat"])
def test_a_box_relayed_for_another_table_or_seat_is_refused(where):
    """The host relays a box of Grandma's as another seat's, or at another table of hers."""
    box = sealed(**where, view=None if "seat" in where else VIEW)
    with pytest.raises(ShownError, match="not seat 2 of this table to you"):
        shown.unseal(LEO, GRANDMA.public_key, box, table=TABLE, seat=2)


def test_stopping_is_sealed_too():
    assert shown.unseal(LEO, GRANDMA.public_key, sealed(view=None), table=TABLE, seat=2).view is None


@pytest.mark.parametrize("view", [
    {"seat": 1, "hand": []},  # another seat's view
    {"seat": 2},  # no hand
    {"seat": 2, "hand": ["R5"], "scores": [1, 2]},  # a field no private view has
    {"seat": 2, "hand": [5]},  # not card names
    {"seat": 2, "hand": ["R5"] * 65},  # more cards than a hand holds
], ids=["another seat", "no hand", "another field", "not names", "too many"])
def test_what_is_not_a_private_view_is_refused(view):
    with pytest.raises(ShownError):
        shown.unseal(LEO, GRANDMA.public_key, sealed(view=view), table=TABLE, seat=2)


def test_a_box_of_the_wrong_size_or_not_a_shown_hand_is_refused():
    import nacl.public
    from net.wire.identity import curve_public, curve_secret
    for box in (b"", bytes(24), bytes(shown.MAX_SEALED + 1)):
        with pytest.raises(ShownError, match="size"):
            shown.unseal(LEO, GRANDMA.public_key, box, table=TABLE, seat=2)
    other = nacl.public.Box(nacl.public.PrivateKey(curve_secret(GRANDMA)),
                            nacl.public.PublicKey(curve_public(LEO.public_key)))
    wrong_domain = bytes(other.encrypt(canonical.encode(["parlour-other/1", {}]), bytes(24)))
    with pytest.raises(ShownError, match="not a shown hand"):
        shown.unseal(LEO, GRANDMA.public_key, wrong_domain, table=TABLE, seat=2)


def test_the_private_part_of_a_view_is_what_it_adds_to_the_public_one():
    public = {"phase": "play", "widow": ["B1"], "trick": []}
    view = {**public, "seat": 2, "hand": ["R5"], "buried": ["B5"]}
    assert shown.private_part(view, public) == {"seat": 2, "hand": ["R5"], "buried": ["B5"]}
