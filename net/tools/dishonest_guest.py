"""A dishonest guest, to try the forfeit ruling by hand.  ``python -m net.tools.dishonest_guest``

    python -m net.tools.dishonest_guest --cheat revoke -- --address 127.0.0.1:4871 --bot easy

It joins a table exactly as ``parlour join`` does (everything after ``--`` is
``parlour join``'s arguments; a bot plays its seat) and cheats once, as a modified
client would (issue 27, item 3):

* ``revoke``: the first time its bot could play a card the rules forbid (it holds the
  suit led), it plays that card instead, signed and proven like any card. Under the
  private deal the host cannot see it: it is found once every party reveals, and this
  player's side forfeits the hand. Its own client does not check its own plays (as a
  cheating client would not), so that it goes on to the reveal. Under the seeded deal
  the host refuses the card, and the bot plays a legal one.
* ``redeal-claim``: as soon as its cards are dealt it shows its hand claiming it holds
  no point card (Rook), which every party's check refuses: it forfeits the hand.
* ``audit``: after ``--after-tricks`` tricks it asks every party to reveal with nothing
  to explain: the audit names it (``false-alarm``), and it forfeits the hand.

Under the seeded deal a redeal claim or an audit is a private-deal message for the hand
under way, which the host refuses. A tool for tests and for looking at the real window;
never part of the product's command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from engine import Contradiction, IllegalAction
from engine.bots.random_bot import RandomBot
from engine.partial import PartialHand
from net import cli
from net.sessions import guest_session
from net.sessions.guest_player import Sent
from net.trust.deals.mental import hand as mental_hand
from net.trust.deals.mental.peer import MentalPeer
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.signing import read_action, seal, sign_action
from net.wire import messages as m

CHEATS = ("revoke", "redeal-claim", "audit")


class _Unchecking(PartialHand):
    """This client's replay of the hand takes its own card the rules forbid (a cheating
    client does not check its own plays), where an honest one would stop at it."""

    def _apply(self, state, excluded, action, hidden, plays, played):
        try:
            return super()._apply(state, excluded, action, hidden, plays, played)
        except Exception:  # noqa: BLE001 - IllegalAction: the cheat it means to make
            return state.apply_unseen(action)


def revoke_chance(replica) -> str | None:
    """A card this seat holds that the rules forbid it to play now (it holds the suit led;
    an ace, which may need a declaration, is left alone), by name; None if there is none."""
    state, seat = replica.decision_state(), replica.seat
    if state is None or state.phase != "play" or seat not in state.to_act() or not state.trick:
        return None
    illegal = state.hands[seat] & ~state.legal_play_mask(seat)
    names = [state.deck.name(c) for c in range(state.deck.size) if illegal >> c & 1]
    plain = [n for n in names if not n.startswith("A")] or names
    return plain[0] if plain else None


def unchecked_move(replica, data: dict) -> dict:
    """The move message ``replica.act`` makes, without its check of the rules."""
    parsed = read_action(replica.game, data, replica.seat)
    message = sign_action(replica.identity, replica.game, parsed, table=replica.table,
                          hand=replica.hand_number, seen=replica.chain.seq, head=replica.chain.head,
                          rng=replica.rng, mental=replica.deal.play_proof(parsed)).message()
    return replica.deal.act(parsed, message)


def made_up_message(replica, body: dict) -> dict:
    """A private-deal message for the hand under way, signed with this client's key (what
    it sends where the hand is dealt by the seeded deal)."""
    return seal(replica.identity, MENTAL_DOMAIN, {"hand": replica.hand_number, "attempt": 0, **body})


class Revoking:
    """A seat's bot that, the first time its seat could play a card the rules forbid,
    plays it (once); afterwards, where its reading of the hand — misled by that very
    revoke, which says the seat is void in a suit it holds — fails or picks a card the
    rules forbid, the first card they allow."""

    def __init__(self, bot, replica: Callable, pick: Callable):
        """``replica()``: the seat's replica; ``pick(replica)``: the card to revoke with now,
        once (None: not now)."""
        self.bot, self.replica, self.pick = bot, replica, pick

    def choose(self, game, view):
        replica = self.replica()
        state, seat = replica.decision_state(), replica.seat
        card = self.pick(replica)
        if card is not None:
            return game.action_from_json({"seat": seat, "play": card})
        try:
            action = self.bot.choose(state, seat) if isinstance(self.bot, RandomBot) \
                else self.bot.choose(game, view)
            if state is not None:
                state.clone().apply(action)
            return action
        except (IllegalAction, Contradiction):
            if state is None:
                raise
            return state.legal_actions(seat)[0]


class Cheater:
    """The one cheat this guest makes, watched for at every event its session emits."""

    def __init__(self, cheat: str, after_tricks: int):
        self.cheat, self.after_tricks = cheat, after_tricks
        self.done = False
        self.revoke: dict | None = None  # the revoke chosen, until it is sent

    def install(self) -> None:
        setattr(mental_hand, "PartialHand", _Unchecking)  # (this process's client only)
        real_init = guest_session.GuestCore.__init__
        cheater = self

        def init(core, *args, **kwargs):
            real_init(core, *args, **kwargs)
            emit = core.emit

            def watched(event):
                emit(event)
                cheater.consider(core)
            core.emit = watched
            if cheater.cheat == "revoke":
                cheater.wrap_bot(core)
        setattr(guest_session.GuestCore, "__init__", init)

    def wrap_bot(self, core) -> None:
        """Its seat's bot revokes once (``Revoking``), and that move goes out without its
        own client's check of the rules."""
        player = core.player
        player.bot = Revoking(player.bot, lambda: core.replica, self.pick_revoke)
        real_send = player.send

        def send(data):
            if self.revoke is None or data != self.revoke:
                return real_send(data)
            self.revoke = None
            replica, link = core.replica, core.link
            message = unchecked_move(replica, data)
            link.send(message)
            player.in_flight = Sent(replica.seq, message["signed"]["sig"])
        player.send = send

    def pick_revoke(self, replica) -> str | None:
        card = None if self.done else revoke_chance(replica)
        if card is not None:
            self.done, self.revoke = True, {"play": card}
            print(f"dishonest guest: revoking with {card}", file=sys.stderr, flush=True)
        return card

    def consider(self, core) -> None:
        """A redeal claim or an audit, once the moment for it has come."""
        replica, link = core.replica, core.link
        if self.done or self.cheat == "revoke" or replica is None or link is None \
                or replica.seat is None or replica.hand is None or not replica.hand.playing:
            return
        deal = replica.deal
        state = replica.decision_state()
        if self.cheat == "audit" and (state is None or len(state.tricks) < self.after_tricks):
            return
        self.done = True
        print(f"dishonest guest: making a false {self.cheat}", file=sys.stderr, flush=True)
        for envelope in self._envelopes(replica, deal):
            link.send({"type": m.MENTAL, "signed": envelope})

    def _envelopes(self, replica, deal) -> list[dict]:
        seat = replica.seat
        if isinstance(deal, MentalPeer) and not deal.party.onlooker:
            client = deal.party.client
            if self.cheat == "redeal-claim":
                return client.claim_redeal(seat)
            return client.audit("a card seen twice (it was not)")
        if self.cheat == "redeal-claim":
            size = replica.game.hand_size
            return [made_up_message(replica, {"type": "mental-show", "seat": seat,
                                              "positions": list(range(size)),
                                              "shares": bytes(32 * size), "proof": bytes(64)})]
        return [made_up_message(replica, {"type": "mental-reveal", "reason": "audit",
                                          "secret": bytes(64), "openings": []})]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.tools.dishonest_guest",
                                     description="join a table as parlour join does, and cheat once")
    parser.add_argument("--cheat", choices=CHEATS, required=True)
    parser.add_argument("--after-tricks", type=int, default=2, help="audit: after this many tricks")
    parser.add_argument("join", nargs=argparse.REMAINDER, help="-- then parlour join's arguments")
    args = parser.parse_args(argv)
    join = [a for a in args.join if a != "--"] if args.join[:1] == ["--"] else args.join
    Cheater(args.cheat, args.after_tricks).install()
    return cli.main(["join", *join])


if __name__ == "__main__":
    sys.exit(main())
