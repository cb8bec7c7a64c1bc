"""The trust-protocol table (``trust_table.Table``) under the mental-poker deal: the host
is a ``HostAuthority`` with ``mental_deal`` on, each peer a ``PeerReplica``; all in
process, no sockets. A cheating guest is its replica with its outgoing deal messages
(and the played card proofs its moves carry) bent and signed again with its own key
(``cheat``)."""

from __future__ import annotations

from net.trust.deals.mental.machine import MentalDeal
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.host.authority import HostAuthority
from net.trust.peer.replica import PeerReplica
from net.trust.signing import ACTION_DOMAIN, seal
from tests.net.trust_table import TABLE, Table


class MentalTrustTable(Table):
    def __init__(self, variant=("rook", None, None), **kwargs):
        super().__init__(variant, open_=False, **kwargs)
        self.host = HostAuthority(self.host_id, self._bytes, persist=lambda s, p: self.persist(s, p),
                                    mental_deal=True, clock=lambda: 0.0)
        self.replicas = {seat: PeerReplica(self.ids[seat], self.host_id.public_key, TABLE, self._bytes)
                         for seat in self.peer_seats}
        self.open()

    def choose(self, seat: int) -> dict:
        """A peer decides on its own replay (the host does not know its hand), or, when its
        cards are the host's party's this hand, on the host's."""
        replica = self.replicas.get(seat)
        own = replica is not None and replica.halted is None and not replica.deal.party.onlooker
        state = replica.deal.party.state if own else self.host.state
        action = self.bot.choose(state, seat)
        data = state.game.action_to_json(action)
        data.pop("seat")
        return data

    def cheat(self, seat: int, bend) -> None:
        """Seat ``seat``'s client bends each deal message body it sends (``bend(body)``:
        the new body, or the same) — a played card's proof in the move that carries it —
        and signs it (the move) with its own key."""
        replica = self.replicas[seat]
        receive, act = replica.receive, replica.act

        def resign(envelope):
            body = bend(envelope["body"])
            return envelope if body is envelope["body"] else seal(replica.identity, MENTAL_DOMAIN, body)

        def bent_receive(msg):
            out = receive(msg)
            out.sends = [dict(s, signed=resign(s["signed"])) if s.get("type") == "mental" else s
                         for s in out.sends]
            return out

        def bent_act(action):
            message = act(action)
            signed = message["signed"]
            proof = signed["body"].get("mental")
            if proof is not None and bend(proof) is not proof:
                signed = seal(replica.identity, ACTION_DOMAIN, dict(signed["body"], mental=bend(proof)))
            return dict(message, signed=signed, mental=[resign(e) for e in message.get("mental") or []])
        replica.receive, replica.act = bent_receive, bent_act

    def honest(self, seat: int) -> None:
        """Seat ``seat``'s client sends what its deal makes again (``cheat`` undone)."""
        replica = self.replicas[seat]
        vars(replica).pop("receive", None)
        vars(replica).pop("act", None)

    def play_until(self, done, limit: int = 200) -> None:
        """Moves until ``done()`` (or the hand ends, or nobody can move: the deal stopped)."""
        for _ in range(limit):
            state = self.host.state
            if done() or state is None or state.is_over:
                return
            seat = state.to_act()[0]
            if seat in self.replicas and self.replicas[seat].halted is not None:
                return
            self.step(seat)


def wrong_share_to(monkeypatch, maker: int, victim: int) -> None:
    """Party ``maker``'s client makes a wrong decryption share for the first card dealt
    to seat ``victim`` (another position's share: a point of the group, the wrong one) —
    a bug or a cheat, in the batch it publishes and remembers as its own."""
    real = MentalDeal._my_share

    def wrong(self, position):
        dealt = self.setup.dealt(victim)
        if self.me == maker and position == dealt[0]:
            return real(self, dealt[1])
        return real(self, position)
    monkeypatch.setattr(MentalDeal, "_my_share", wrong)
