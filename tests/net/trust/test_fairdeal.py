"""Commit–reveal: the seed needs the secret and every contribution; the round's rules."""

import pytest

from net.trust.deals.seeded import fairdeal

SECRET = bytes(range(32))


def round_(required=(1, 2, 3)):
    return fairdeal.DealRound("t", 4, 1, fairdeal.commitment("t", 4, SECRET), list(required))


def body(seat, **change):
    b = {"table": "t", "hand": 4, "seat": seat, "commitment": fairdeal.commitment("t", 4, SECRET),
         "random": bytes([seat]) * 32}
    b.update(change)
    return b


def test_the_commitment_is_bound_to_table_and_hand():
    c = fairdeal.commitment("t", 4, SECRET)
    assert c != fairdeal.commitment("t", 5, SECRET) != fairdeal.commitment("u", 4, SECRET)
    assert len(c) == 32


def test_the_seed_depends_on_the_secret_and_every_contribution_in_seat_order():
    contribs = {1: b"a" * 32, 3: b"c" * 32}
    s = fairdeal.seed("t", 4, SECRET, contribs)
    assert s == fairdeal.seed("t", 4, SECRET, {3: b"c" * 32, 1: b"a" * 32})
    assert s != fairdeal.seed("t", 4, bytes(32), contribs)
    assert s != fairdeal.seed("t", 4, SECRET, {1: b"a" * 32, 3: b"d" * 32})
    assert s != fairdeal.seed("t", 4, SECRET, {1: b"a" * 32})
    assert s != fairdeal.seed("t", 4, SECRET, {1: b"c" * 32, 3: b"a" * 32})  # who gave what


def test_a_round_waits_for_every_required_seat():
    r = round_()
    assert r.waiting_for == [1, 2, 3] and not r.ready
    for seat in (3, 1):
        assert r.contribution_problem(body(seat)) is None
        r.add(seat, body(seat)["random"])
    r.waive(2)  # seat 2 dropped
    assert r.ready and r.contributors() == [1, 3]


@pytest.mark.parametrize("change, words", [
    ({"hand": 5}, "another hand"), ({"table": "u"}, "another hand"),
    ({"commitment": bytes(32)}, "another commitment"), ({"seat": 0}, "not asked"),
])
def test_contributions_for_anything_else_are_refused(change, words):
    assert words in round_().contribution_problem({**body(1), **change})


def test_no_second_contribution_and_none_after_the_deal():
    r = round_()
    r.add(1, b"a" * 32)
    assert "already" in r.contribution_problem(body(1))
    r.dealt = True
    assert "already dealt" in r.contribution_problem(body(2))


def test_the_reveal_must_open_the_commitment():
    r = round_()
    assert r.reveal_problem(SECRET) is None
    assert "does not match" in r.reveal_problem(bytes(32))
    assert "32 bytes" in r.reveal_problem(b"short")
    with pytest.raises(ValueError):
        r.seed()  # a peer cannot derive the seed before the reveal
    r.secret = SECRET
    assert len(r.seed()) == 32
