"""A standing cannot lie about what its player saw (issue 27, item 1), under both deals,
message by message (no sockets).

A player's standing says which entry it holds; its own signed moves — a move's ``seen``,
a contribution's commitment, a deal message's hand — say what it held (``net.trust.held``).
A standing that says less is understated: told to roll the table back to before the end
of a hand that was scored, the others would deal that hand again. Here the host goes for
good a few moves into the second hand, and

* a player who is not the successor understates: the successor puts the proof of what it
  held in its takeover entry, every player names it, and the table is carried on from
  where it was — the first hand's score kept;
* the successor itself understates: every other player refuses its takeover and names
  it; the next seat carries the table on, from where it was, with the liar's own standing
  (and the proof) in its entry;
* a proof that is not what the liar signed, or shows nothing more, is refused.
"""

from __future__ import annotations

import pytest

from net.trust import held as shown_by
from net.trust import takeover
from net.trust.host import successor
from net.trust.signing import seal
from net.trust.values import Entry, SignedEntry
from net.wire import messages as m
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust.test_takeover import Recording
from tests.net.trust_table import TABLE, Table

ROOK = ("rook", None, None)


class Seeded(Recording, Table):
    def __init__(self, seed=5):
        super().__init__(ROOK, seed=seed)


class Private(Recording, MentalTrustTable):
    def __init__(self, seed=5):
        super().__init__(ROOK, seed=seed)


KITS = {"seeded": Seeded, "private": Private}


@pytest.fixture(params=list(KITS))
def kit(request):
    return KITS[request.param]


def into_the_second_hand(kit, moves: int = 3):
    """The first hand played and scored, the second dealt and ``moves`` into."""
    t = kit()
    t.start()
    t.play_hand()
    t.next_hand()
    for _ in range(moves):
        t.step()
    assert not t.alerts and not t.errors
    return t


def first_hand_end(t) -> int:
    return next(e.seq for e in t.host.log if e.kind == "hand_end")


def standing(t, seat: int, seq: int | None = None) -> dict:
    """Seat ``seat``'s signed standing: honest, or saying it holds only entry ``seq``."""
    replica = t.replicas[seat]
    if seq is None:
        return takeover.stand(replica)
    body = takeover.standing_body(TABLE, seat, seq, replica.log.hash_at(seq), replica.host_key)
    return seal(t.ids[seat], takeover.STANDING_DOMAIN, body)


def host_with(t, seat: int, standings, *, held=(), base=None):
    """``seat``'s player writes its takeover from its log rolled back to ``base`` (what
    ``gather`` chose; by default the last entry every standing holds, as a successor that
    reads its standings no further does). The authority, and its takeover entry."""
    base = takeover.common_seq(standings, held) if base is None else base
    rolled = takeover.rolled_back(t.replicas[seat], t.accepted[seat], base, t.restore(seat))
    host, _ = successor.succeed(t.ids[seat], rolled, standings,
                                [a for a in t.accepted[seat] if a.entry.seq <= base],
                                rng=t._bytes, held=held, base=base)
    return host, next(e for e in host.log if e.kind == takeover.KIND)


def audits(t, took, followers) -> dict:
    """Each follower's reading of the takeover entry against its whole log (before it
    rolls anything back)."""
    return {s: takeover.audit(takeover.Holder.of(t.replicas[s]), t.replicas[s].log, took)
            for s in followers}


def follow(t, host, seat: int, took, followers, departed_seat: int = 0) -> None:
    """``seat``'s player hosts now: each of ``followers`` rolls back to the entry the
    takeover extends and rejoins it (a player behind it is sent what it lacks); the
    departed host and anyone else hear nothing; computer players stand in for the seats
    left empty."""
    base = took.seq - 1
    t.host, t.host_id, t.host_seat = host, t.ids[seat], seat
    for s in list(t.replicas):
        if s not in followers:
            del t.replicas[s]
            t.peer_seats.remove(s)
    for s in followers:
        t.replicas[s] = takeover.rolled_back(t.replicas[s], t.accepted[s], base, t.restore(s))
        t.accepted[s] = [a for a in t.accepted[s] if a.entry.seq <= base]
        t._record(s)
    live = {t.fp(s) for s in followers}
    t.tamper = lambda fp, msg: msg if fp in live else None
    for s in followers:
        t.deliver(host.rejoin(t.fp(s), s, t.replicas[s].seq))
    for empty in sorted({departed_seat, *range(4)} - {seat, *followers}):
        t.deliver(host.seat(empty, "bot", name="Stand-in", level="random"))


def played_on(t) -> None:
    """The table goes on: the hand abandoned at the takeover dealt again, and played."""
    t.next_hand()
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_standing_is_checked_against_what_its_player_signed(kit):
    t = into_the_second_hand(kit)
    end = first_hand_end(t)
    shown = shown_by.furthest(t.replicas[2].log, t.replicas[2].seats.players(), TABLE)
    assert set(shown) == {0, 1, 2, 3}  # the host's own seat's moves are signed by its key too
    for seat, proof in shown.items():
        if seat == 0:
            continue
        assert proof.seq > end, (seat, proof)  # each took part in the second deal, at least
        assert proof.seq <= t.replicas[seat].seq
        # a proof read back as it travels in a takeover entry: the same
        read = shown_by.read(proof.wire(), t.replicas[3].seats.players(),
                             takeover.Holder.of(t.replicas[3]).proofs_log())
        assert (read.seat, read.seq) == (seat, proof.seq)


def test_a_majority_member_understating_is_named_and_the_scored_hand_stays(kit):
    """Seat 3 (not the successor) says it holds the log only up to the entry before the
    first hand's end. The successor, seat 1, puts what seat 3's own signed messages show
    in its takeover entry: every player names seat 3, and the table is carried on from
    the second hand — the first hand's score kept."""
    t = into_the_second_hand(kit)
    end, scores = first_hand_end(t), list(t.replicas[1].scores)
    lie = standing(t, 3, end - 1)
    standings = [standing(t, 1), standing(t, 2), lie]
    assert takeover.common_seq(standings) == end - 1  # (what the lie alone would roll back to)
    gathered = takeover.gather(t.replicas[1], standings)
    [proof] = gathered.held
    assert proof.seat == 3 and proof.seq > end and gathered.base > end
    [named] = gathered.named  # the successor names it
    assert (named.seat, named.party, named.rule) == (3, "player", "standing")
    assert lie in named.evidence
    host, took = host_with(t, 1, gathered.standings, held=gathered.held, base=gathered.base)
    assert took.body["held"] == [proof.wire()]
    for seat, audit in audits(t, took, [2, 3]).items():
        assert audit.refusal is None and audit.named == [], (seat, audit)
    follow(t, host, 1, took, [2, 3])
    for seat in (2, 3):  # every player names it, the evidence in the takeover entry
        [(by, alert)] = [n for n in t.named if n[0] == seat]
        assert (alert.seat, alert.party, alert.rule) == (3, "player", "standing")
        assert took.wire in alert.evidence and "shows it held entry" in alert.detail
        assert t.replicas[seat].scores == scores and t.replicas[seat].hand_number == 1
    assert host.match.scores == scores and host.match.hand_number == 1
    played_on(t)
    assert [e.body["hand"] for e in t.host.log if e.kind == "hand_end"] == [0, 1]


def test_a_successor_understating_is_refused_and_the_next_seat_carries_on(kit):
    """Seat 1 says it holds the log only up to the entry before the first hand's end,
    and carries the table on from there: seats 2 and 3 refuse it, each naming seat 1
    from its own log; seat 2 carries the table on with the three standings — seat 1's
    with the proof — from the second hand, and seat 3 follows it."""
    t = into_the_second_hand(kit)
    end, scores = first_hand_end(t), list(t.replicas[2].scores)
    lie = standing(t, 1, end - 1)
    honest = [standing(t, 2), standing(t, 3)]
    _, took = host_with(t, 1, [lie] + honest)  # the liar's own takeover, from its lie
    assert took.seq == end  # (it would deal the first hand again)
    for seat, audit in audits(t, took, [2, 3]).items():
        assert audit.refusal is not None and "shows it held entry" in audit.refusal, seat
        [named] = audit.named
        assert (named.seat, named.party, named.rule) == (1, "player", "standing")
        assert took.wire in named.evidence
    gathered = takeover.gather(t.replicas[2], honest + [lie])  # the liar's standing, from its entry
    assert [h.seat for h in gathered.held] == [1] and gathered.base > end
    assert takeover.successor_seat(gathered.standings, None, {1}) == 2
    host, carried = host_with(t, 2, gathered.standings, held=gathered.held, base=gathered.base)
    assert carried.body["seat"] == 2 and carried.seq > end
    [audit] = audits(t, carried, [3]).values()
    assert audit.refusal is None and audit.named == []
    follow(t, host, 2, carried, [3])
    [(_, alert)] = [n for n in t.named if n[0] == 3]
    assert (alert.seat, alert.rule) == (1, "standing")
    assert t.replicas[3].scores == scores == host.match.scores
    played_on(t)


def test_a_successor_that_leaves_a_proof_out_is_refused_by_a_player_who_holds_it(kit):
    """Seat 1 (honest about itself) leaves seat 3's lie uncorrected: the takeover rolls
    the first hand back. Seat 2 holds seat 3's signed messages, names seat 3, and refuses
    the takeover, naming seat 1 too (it held the proof)."""
    t = into_the_second_hand(kit)
    end = first_hand_end(t)
    standings = [standing(t, 1), standing(t, 2), standing(t, 3, end - 1)]
    _, took = host_with(t, 1, standings)  # from the lie, no proof
    [audit] = audits(t, took, [2]).values()
    assert audit.refusal is not None and "result would be thrown away" in audit.refusal
    assert sorted((a.seat, a.rule) for a in audit.named) == [(1, "takeover"), (3, "standing")]


def test_a_proof_that_is_not_the_players_or_shows_nothing_more_is_refused(kit):
    t = into_the_second_hand(kit)
    end = first_hand_end(t)
    standings = [standing(t, 1), standing(t, 2), standing(t, 3, end - 1)]
    gathered = takeover.gather(t.replicas[1], standings)
    [proof] = gathered.held
    other = shown_by.furthest(t.replicas[1].log, t.replicas[1].seats.players(), TABLE)[2]

    def forged(edit):
        host, took = host_with(t, 1, gathered.standings, held=gathered.held, base=gathered.base)
        body = dict(took.body, held=[edit(proof.wire())])
        return SignedEntry.sign(t.ids[1], Entry(**{**took.entry.wire(), "body": body}))

    cases = {
        "someone else's message": lambda w: dict(w, entries=[e.wire for e in other.entries],
                                                 seq=other.seq),
        "a different entry": lambda w: dict(w, seq=w["seq"] + 1),
        "nothing more": lambda w: dict(w, seat=2, entries=[e.wire for e in other.entries],
                                       seq=other.seq),
    }
    for case, edit in cases.items():
        took = forged(edit)
        replica = takeover.rolled_back(t.replicas[2], t.accepted[2], took.seq - 1, t.restore(2))
        [alert] = replica.receive(m.entry_message(took.wire)).alerts
        assert alert.rule == "takeover" and alert.seat == 1, (case, alert)
        assert "proof" in alert.detail, (case, alert.detail)


def test_a_player_behind_the_last_hand_end_is_sent_it_and_nothing_is_dealt_again(kit):
    """The host goes just as the first hand ends; seat 3 never got the hand's end (its
    link was slow), and nothing anyone signed shows more: its standing is honest, and
    says less than the successor holds. The takeover still keeps the first hand — seat 3
    is sent what it lacks — and nothing is dealt again."""
    t = kit()
    t.start()
    closing = {"hand_end", "reveal"}
    t.tamper = lambda fp, msg: None if fp == t.fp(3) and msg.get("type") == "entry" \
        and msg["entry"]["entry"]["kind"] in closing else msg
    t.play_hand()
    end, scores = first_hand_end(t), list(t.replicas[1].scores)
    assert t.replicas[3].seq == end - 1 and t.replicas[1].seq == end + 1
    standings = [standing(t, 1), standing(t, 2), standing(t, 3)]
    assert takeover.common_seq(standings) == end - 1  # (the roll-back this used to be)
    gathered = takeover.gather(t.replicas[1], standings)
    assert gathered.held == [] and gathered.named == [] and gathered.base == end + 1
    host, took = host_with(t, 1, gathered.standings, base=gathered.base)
    assert took.body["abandoned"] is None
    for audit in audits(t, took, [2, 3]).values():
        assert audit.refusal is None and audit.named == []
    follow(t, host, 1, took, [2, 3])
    assert not t.alerts and not t.errors
    assert all(r.scores == scores and r.hand_number == 1 and r.log[took.seq].hash == took.hash
               for r in t.replicas.values())
    played_on(t)


def test_the_departed_host_believes_an_honest_takeover_and_no_lying_one(kit):
    """The host that went, still running, is told its table was carried on: it checks the
    takeover entry against its own whole log (``whereabouts.proof_problem``)."""
    from net.sessions.whereabouts import proof_problem

    t = into_the_second_hand(kit)
    departed, end = t.host, first_hand_end(t)

    def told(took) -> dict:
        return {"type": "follow", "seat": took.body["seat"], "address": "127.0.0.1", "port": 9,
                "took": took.wire}
    honest = [standing(t, s) for s in (1, 2, 3)]
    gathered = takeover.gather(t.replicas[1], honest)
    _, took = host_with(t, 1, gathered.standings, held=gathered.held, base=gathered.base)
    assert proof_problem(departed, told(took)) == (None, [])
    _, lie = host_with(t, 1, [standing(t, 1, end - 1)] + honest[1:])  # the successor understates
    problem, [named] = proof_problem(departed, told(lie))
    assert "shows it held entry" in problem and (named.seat, named.rule) == (1, "standing")
    rolled = takeover.rolled_back(t.replicas[1], t.accepted[1], gathered.base, t.restore(1))
    body = takeover.takeover_body(rolled, honest[:2], t.ids[1].public_key)  # two of four
    short = SignedEntry.sign(t.ids[1], Entry(TABLE, gathered.base + 1, rolled.chain.head,
                                             takeover.KIND, body.wire()))
    problem, [named] = proof_problem(departed, told(short))
    assert "not a majority" in problem and (named.seat, named.rule) == (1, "takeover")
    problem, named = proof_problem(departed, {**told(took), "took": {"entry": {}, "sig": b""}})
    assert problem == "the answer carries no takeover entry" and named == []


def test_the_departed_host_judges_a_takeover_by_the_seats_it_extends(kit):
    """The host that went logged on alone after it lost the others (its hold on a silent
    player ran out, and a computer took that seat — seen on a loaded machine, a network
    split): the takeover is still judged by the seats of the entry it extends, not by
    the host's own later ones, and believed."""
    from net.sessions.whereabouts import proof_problem

    t = into_the_second_hand(kit)
    departed = t.host
    honest = [standing(t, s) for s in (1, 2, 3)]
    gathered = takeover.gather(t.replicas[1], honest)
    _, took = host_with(t, 1, gathered.standings, held=gathered.held, base=gathered.base)
    departed.drop(2)
    departed.seat(2, "bot", name="Stand-in", level="random")  # heard by nobody
    assert not departed.seats[2].is_player
    told = {"type": "follow", "seat": 1, "address": "127.0.0.1", "port": 9, "took": took.wire}
    assert proof_problem(departed, told) == (None, [])

