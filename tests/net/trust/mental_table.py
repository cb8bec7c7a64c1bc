"""A table of mental-poker parties in one process (``InProcessDeal``) for the tests:
cheats played by rewriting a party's messages, cheats caught per party, restarts.

``MentalTable.deal()`` runs a deal to the end of step 3 (every hand decrypted);
``run(party, outputs)`` feeds one party's outputs to the log and delivers until quiet.
Every output any party produced is recorded per party (``outputs[i]``), and so is
everything each received (``received[i]``), for the privacy tests.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.registry import title
from net.trust.deals.mental import flows
from net.trust.deals.mental.chain import ShuffleChain
from net.trust.deals.mental.errors import Cheat
from net.trust.deals.mental.inprocess import InProcessDeal
from net.trust.deals.mental.keys import DealContext, PartySecrets
from net.trust.deals.mental.machine import MentalDeal
from net.wire.identity import Identity


def accept_every_shuffle(monkeypatch) -> None:
    """Every shuffle taken without its proof checked, as if the proof had a flaw: what the
    end-of-hand check (every shuffle redone from its revealed seed) and the audits still
    catch, and what a shuffle could do were its proof not checked."""
    monkeypatch.setattr(ShuffleChain, "check", lambda chain: None)
    monkeypatch.setattr(ShuffleChain, "check_each", lambda chain: None)


def fixed_identity(n: int) -> Identity:
    """The same key in every run, so that every deal in the tests is the same."""
    return Identity(Ed25519PrivateKey.from_private_bytes(bytes([n + 1]) * 32), f"P{n}")


def make_game(name: str, mode: str | None = None):
    t = title(name)
    return t.make(next(iter(t.rulesets)), mode, None)


class MentalTable(InProcessDeal):
    def __init__(self, game, seats_by_party, dealer=0, table="t-0001", hand=3, attempt=0,
                 needs_redeal=None, identities=None):
        identities = identities or [fixed_identity(i) for i in range(len(seats_by_party))]
        super().__init__(game, identities, seats_by_party, dealer,
                         DealContext(table, hand, attempt), needs_redeal)
        self.received = [[] for _ in self.machines]
        self.tamper = None  # tamper(sender, message) -> message, to play a cheat
        self.caught: dict[int, Cheat] = {}  # party -> the cheat its machine named
        # the session's calls, as (log length then, party or None for everyone, call):
        # a restarted client makes them again at the same points of the log
        self.calls: list = []

    def publish(self, party: int, message: dict) -> None:
        if self.tamper is not None:
            message = self.tamper(party, message)
        super().publish(party, message)

    def deliver(self, party: int, sender: int, message: dict) -> list:
        if party in self.caught:
            return []  # a machine that named a cheat stops
        self.received[party].append((sender, message))
        try:
            return super().deliver(party, sender, message)
        except Cheat as cheat:
            self.caught[party] = cheat
            return []

    def _attempt(self, party: int, call) -> None:
        try:
            self.take(party, call() or [])
        except Cheat as cheat:
            self.caught[party] = cheat

    def call(self, party: int, call) -> None:
        """``call(machine)`` at one party, remembered for a restart (a commit: the client
        knows its own secret action from the log's private part)."""
        self.calls.append((len(self.log), party, call))
        self.run(party, call(self.machines[party]))

    def restart(self, party: int) -> list:
        """The party's client restarts: new secrets from its identity, the whole log and the
        session's calls again. Returns what the new machine sent (it must all be logged)."""
        fresh = MentalDeal(self.setup, party, PartySecrets.derive(self.identities[party],
                                                                  self.setup.context))
        outputs = list(fresh.start())
        calls = [(at, call) for at, who, call in self.calls if who in (None, party)]
        for index, (sender, message) in enumerate(self.log):
            outputs += [o for at, call in calls if at == index for o in (call(fresh) or [])]
            outputs += fresh.receive(sender, message)
        outputs += [o for at, call in calls if at == len(self.log) for o in (call(fresh) or [])]
        self.machines[party] = fresh
        return outputs

    def everyone(self, call) -> None:
        """``call(machine)`` at every party (the game reached the same step everywhere)."""
        self.calls.append((len(self.log), None, call))
        for i, machine in enumerate(self.machines):
            if i not in self.caught:
                self._attempt(i, lambda: call(machine))
        self.flush()


# -- a whole hand, refereed by the engine -------------------------------------------------

def god_view(table: MentalTable) -> list[int]:
    """The card at every final deck position, from every party's secrets (the test's
    view; no client has it)."""
    from net.trust.deals.mental import deck as decks
    machine = table.machines[0]
    cards = []
    for ciphertext in machine.final:
        shares = [s.x * ciphertext.c1 for s in table.secrets]
        cards.append(decks.card_lookup(machine.size)[decks.decrypt(ciphertext, shares)])
    return cards


def play_hand(table: MentalTable, choose=None, before_action=None, finish=False):
    """Deal (already done), then play the hand to its end on the engine with the true
    deal, doing every hidden-information step through the parties' machines as the
    sessions do (``net.trust.deals.mental.flows``). Returns the engine state at the end.
    ``choose(state, seat)`` picks an action (default: the first legal one, passing where
    it can after the opening bid); ``before_action(state, action)`` lets a test act
    first (cheat tests); ``finish``: take the hand's last step (every party reveals)."""
    from net.trust.deals.mental.machine import Played

    game, setup = table.game, table.setup
    cards = god_view(table)
    hands, spare = setup.layout(cards)
    state = game.new_hand(hands, spare, setup.dealer)
    spare_positions = list(setup.spare())
    opened = False

    def everyone(steps):
        nonlocal opened
        for step in steps:
            if isinstance(step, flows.Finish) and not finish:
                continue
            opened = opened or isinstance(step, flows.OpenToAll)
            table.everyone(lambda m, step=step: flows.take(m, step, spare_positions))

    everyone(flows.at_deal(game, state))
    choose = choose or first_choice
    while state.to_act():
        seat = state.to_act()[0]
        action = choose(state, seat)
        if before_action is not None:
            before_action(state, action)
        owner = setup.owner(seat)
        own = flows.by_player(action)
        if isinstance(own, flows.Commit):
            table.call(owner, lambda m, own=own: flows.take(m, own, spare_positions))
        elif isinstance(own, flows.PlayCard):
            before = len(table.events(0, Played))
            table.run(owner, flows.take(table.machines[owner], own, spare_positions))
            for i in table.parties:
                played = table.events(i, Played)
                assert len(played) == before + 1 and played[-1].card == action.value
        events = state.apply(action)
        everyone(flows.after(game, state, events, opened))
    return state


def first_choice(state, seat):
    """The first bid anyone can make, then passes; otherwise the first legal action."""
    actions = state.legal_actions(seat)
    kinds = {a.kind for a in actions}
    if "bid" in kinds and "pass" in kinds and getattr(state, "_mental_bid", False):
        return next(a for a in actions if a.kind == "pass")
    if "bid" in kinds:
        state._mental_bid = True
        return next(a for a in actions if a.kind == "bid")
    return actions[0]
