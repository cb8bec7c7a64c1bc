"""The facade's events, built the same way by every kind of session.

Local, hosting and guest sessions all tell the app what happens with the events that
``net.sessions.facade`` describes; this module is the one place that shapes them, so
a guest's "table" or "hand_over" event is the host's, field for field. Three additions
to the "state" event's basic fields:

* ``info``: what the title says about itself (``engine.info.to_plain(game.info)``:
  names, sides, target, deck and card names, trumps, decisions), so the app draws and
  names everything from it and never switches on the title's id. Every session kind
  sends it from its own ``Game`` (a guest's replica has one too), so nothing on the
  wire changes and a new title needs nothing here.
* ``reasons``: ``{card: why it may not be played}`` for the cards you hold but may not
  play, while you are to play — the table shows it on dimmed cards.
* ``legal`` entries for a combinatorial choice (Rook's bury of 5, Somerset's discard of
  2) are one template instead of every combination (34,272 for a Rook bury):
  ``{"bury": 5, "trump": ["B", "R", "G", "Y"]}`` / ``{"discard": 2}``. Which phases ask
  for one is the title's ``DecisionInfo`` (``cards`` > 0); the choices that go with the
  cards are the trump named with them.
"""

from __future__ import annotations

import hashlib
from typing import Final, cast
from weakref import WeakKeyDictionary

from engine.bots import make_bot
from engine.errors import RecordError
from engine.info import DecisionInfo, to_plain
from engine.records import play_record
from engine.scoring import breakdown
from net.sessions.answering import ListedTable
from net.sessions.facade import (ConnectionEvent, DealKind, ErrorEvent, FatalCause, GameOverEvent,
                                 HandOverEvent, HintEvent, LinkState, NoticeEvent, ReadmitEvent,
                                 RejoinEvent, SeatInfo, SeatKind, ShownEvent, StateEvent,
                                 TableEvent, TablesEvent, TakeoverEvent, TakeoverStage,
                                 WaitingEvent, WatchersEvent, WhyRestarted)
from net.trust.deals.mental import log as ml
from net.trust.entries import HandEndBody, StartBody
from net.trust.values import NOBODY, Seat
from net.wire.identity import fingerprint

#: Entries after which a seat is shown its hand anew ("state"): a deal — the seeded
#: deal's, or the mental-poker deal's "mental-dealt", which starts play — or a move.
DEALT_OR_MOVED = frozenset({"deal", ml.DEALT, "action"})


def shows_hand(kinds, playing: bool) -> bool:
    """Whether entries of ``kinds`` change what a seat sees of the hand: a deal or a move,
    or, under the mental deal once the cards are dealt (``playing``), a deal message — it
    may open a kitty or a widow to this client, and the seat's decision waited for it."""
    return bool(set(kinds) & DEALT_OR_MOVED) or (playing and ml.MESSAGE in kinds)

_plain_info: WeakKeyDictionary = WeakKeyDictionary()  # game -> to_plain(game.info), made once


def plain_info(game) -> dict:
    """``game.info`` as the plain values an event carries (the same dict each time:
    readers must not change it)."""
    plain = _plain_info.get(game)
    if plain is None:
        plain = _plain_info[game] = to_plain(game.info)
    return plain


def state_event(game, state, seat: int | None, events: list[dict], scores: list[int],
                hand_number: int, view: dict | None = None,
                deal: DealKind | None = None) -> StateEvent:
    """The "state" event for ``seat`` (None: a watcher, who gets the public view).

    ``view`` overrides the state's own view: a guest shows the view the host sent,
    while ``state`` is its replica, which knows only the guest's own hand (None: there
    is nothing to decide now — between hands, or our move is on its way). ``deal``: how
    the hand was dealt, as ``deal_kind`` says (None: nothing to say)."""
    if view is None:
        view = state.view(seat) if seat is not None else state.public_view()
    event: StateEvent = {"type": "state", "view": view, "events": list(events), "scores": list(scores),
             "hand_number": hand_number, "legal": legal_for(game, state, seat), "info": plain_info(game)}
    if deal is not None:
        event["deal"] = deal
    if seat is not None and state is not None and state.phase == "play" and seat in state.to_act():
        event["reasons"] = reasons_for(game, state, seat)
    return event


#: How a hand was dealt, as the "state" event says it (``deal``): by the mental-poker deal,
#: each player's computer alone learning its own cards ("private"); by it, but this seat's
#: cards dealt to the host's computer this hand — it was away for the shuffle
#: ("private, held by the host"); or by the seeded deal, the host's computer knowing
#: every hand ("seeded"). A game against the computer says nothing.
PRIVATE: Final = "private"
HELD_BY_HOST: Final = "private, held by the host"
SEEDED: Final = "seeded"


def deal_kind(private: bool, held_by_host: bool = False) -> DealKind:
    return (HELD_BY_HOST if held_by_host else PRIVATE) if private else SEEDED


def legal_for(game, state, seat: int | None) -> list[dict]:
    """``seat``'s legal actions as hand-record dicts without the seat (empty when it is
    not to act)."""
    if seat is None or state is None or state.is_over or seat not in state.to_act():
        return []
    template = card_template(game, state.phase)
    if template is not None:
        entry: dict = {template.kind: template.cards}
        if template.choices:
            entry["trump"] = list(template.choices)
        return [entry]
    out = []
    for action in state.legal_actions(seat):
        data = game.action_to_json(action)
        data.pop("seat", None)
        out.append(data)
    return out


def card_template(game, phase: str) -> DecisionInfo | None:
    """The decision asked in ``phase`` that names several cards at once, if it is one."""
    return next((d for d in game.info.decisions if d.phase == phase and d.cards > 0), None)


def reasons_for(game, state, seat: int) -> dict:
    """Why each card ``seat`` holds but may not play is refused, by card name."""
    legal = state.legal_play_mask(seat)
    deck = game.deck
    return {deck.name(card): state.play_reason(seat, card) for card in range(deck.size)
            if state.hands[seat] >> card & 1 and not legal >> card & 1}


def hand_breakdown(state) -> dict | None:
    """The "breakdown" of a hand-over event: how the finished hand ``state`` was scored
    (``engine.scoring.breakdown``), or None for a hand thrown in or not finished."""
    if state is None or not state.is_over or state.result().thrown_in:
        return None
    return breakdown(state)


def record_breakdown(record: dict | None) -> dict | None:
    """``hand_breakdown`` of a verified hand record (a guest knows every card only
    from the record, once the host has revealed the hand); None if it cannot be read."""
    if record is None:
        return None
    try:
        state, error = play_record(record)
    except RecordError:
        return None
    if error is not None:
        return None
    return hand_breakdown(state)


# -- who sits where ------------------------------------------------------------------------
def seat_info(seat: int, info: Seat | None, connected: bool) -> SeatInfo:
    """A SeatInfo from a seat as the trust layer keeps it (None: nobody). ``level`` is
    a bot's only."""
    info = info or NOBODY
    key = info.key
    return {"seat": seat, "name": info.name,
            "fingerprint": fingerprint(key) if isinstance(key, bytes) and len(key) == 32 else "",
            # Seat.kind is typed str in the trust layer, but is always one of SeatKind.
            "kind": cast(SeatKind, info.kind), "level": info.level if info.kind == "bot" else None,
            "connected": bool(connected)}


def table_event(game, name: str, seats: list[SeatInfo], you: int | None, is_host: bool,
                options: dict, started: bool, waiting: list[dict] | None = None,
                host_seat: int | None = None) -> TableEvent:
    """The "table" event: ``seats`` are SeatInfos, ``options`` the table's options,
    ``host_seat`` the seat of the player whose computer hosts the table."""
    key = game.key()  # {"game", "ruleset", "mode", "options"}
    event: TableEvent = {
             "type": "table", "seats": seats, "you": you, "is_host": is_host, "host_seat": host_seat,
             "settings": {"game": key["game"], "ruleset": key["ruleset"], "mode": key["mode"],
                          "options": key["options"], "name": name},
             "table_options": {"live_scores": bool(options.get("live_scores")),
                               "game_log": bool(options.get("game_log"))},
             "started": started}
    if waiting is not None:
        event["waiting"] = waiting
    return event


# -- the end of a hand ----------------------------------------------------------------------
def score_history(entries, hand: int) -> list[list[int]]:
    """The running totals after each hand of the game, through hand ``hand``, from the
    table's log (``entries``: its signed entries, in order): every ``hand_end`` since the
    game's ``start``. The log holds them all, so a player back after a restart, or a
    game continued, charts every hand, not only those its screen saw."""
    history: list[list[int]] = []
    for entry in entries:
        body = entry.content
        if isinstance(body, StartBody):
            history = []
        elif isinstance(body, HandEndBody):
            history.append(list(body.scores))
            if body.hand == hand:
                break
    return history


def hand_over_events(result: dict, scores: list[int], hand: int, winner: int | None,
                     hand_breakdown: dict | None, record_path: str | None = None,
                     history: list[list[int]] | None = None,
                     ) -> list[HandOverEvent | GameOverEvent]:
    """The "hand_over" event, and "game_over" after it when the hand won the game;
    ``history``: the totals after each hand of the game (``score_history``), this one's
    last. A hand a player's proven cheat forfeited says so (``forfeit``: seat, side, rule
    and what the computer ``did``, in words)."""
    over: HandOverEvent = {"type": "hand_over", "result": result, "scores": list(scores),
                           "record_path": record_path, "hand": hand, "breakdown": hand_breakdown,
                           "history": history if history is not None else [list(scores)]}
    forfeit = result.get("forfeit")
    if isinstance(forfeit, dict):
        over["forfeit"] = {**forfeit, "did": cheat_words(str(forfeit.get("rule")))}
    events: list[HandOverEvent | GameOverEvent] = [over]
    if winner is not None:
        events.append({"type": "game_over", "winner": winner, "scores": list(scores)})
    return events


# -- a player's proven cheat ------------------------------------------------------------------
#: What a player's computer did, in plain words, by the rule its proven cheat broke (the
#: private deal's verdicts: ``Cheat.rule``, or "illegal-action" for a move the rules
#: forbid, seen once every card was revealed): "Dad's computer <did>".
CHEAT_WORDS: Final = {
    "illegal-action": "played a card it was not allowed to (a revoke)",
    "not-held": "played a card it did not hold",
    "played-twice": "played the same card twice",
    "redeal-claim": "claimed the hand had to be dealt again when it did not",
    "redeal-missed": "kept a hand that had to be dealt again",
    "false-alarm": "raised a false alarm about the deal",
    "shuffle": "shuffled the deck dishonestly (a card copied or swapped)",
    "share": "sent a false key to a card",
    "commitment": "did not bury or discard the cards it said it had",
    "key": "sent a false deal key",
    "order": "took its turn in the deal out of order",
    "malformed": "sent a garbled deal message",
    "reveal": "did not reveal its deal secrets as it must",
}


def cheat_words(rule: str) -> str:
    """What a computer whose proven cheat broke ``rule`` did, in plain words."""
    return CHEAT_WORDS.get(rule, f"broke a rule of the deal ({rule})")


def named_event(event: dict, forfeits: bool) -> dict:
    """The "alert" event of a player's proven cheat the table goes on after: what its
    computer ``did`` in words, and whether it ``forfeits`` the hand (a log written before
    protocol 8 dealt such a hand again instead)."""
    return {**event, "goes_on": True, "forfeits": forfeits, "did": cheat_words(event["rule"])}


# -- advice ---------------------------------------------------------------------------------
NOTHING_TO_DECIDE = "Nothing to decide just now."


def hint_event(game, state_or_view, seat: int | None, seed: str) -> HintEvent:
    """The "hint" event: what a "normal" bot would do in ``seat`` (a State, or the seat's
    own view dict) — one sentence from its reasoning, and the move itself (hand-record
    form, no seat: the table points at its card or button) — or why there is nothing
    to suggest (no move)."""
    if state_or_view is None or seat is None:
        return {"type": "hint", "text": NOTHING_TO_DECIDE, "action": None}
    view = state_or_view if isinstance(state_or_view, dict) else state_or_view.view(seat)
    if seat not in (view.get("to_act") or []) or view.get("phase") == "done":
        return {"type": "hint", "text": NOTHING_TO_DECIDE, "action": None}
    decision = make_bot("normal", hashlib.sha256(seed.encode()).digest()).decide(game, view)
    action = game.action_to_json(decision.action)
    action.pop("seat", None)
    return {"type": "hint", "text": decision.reason, "action": action}


# -- connections and the deal ------------------------------------------------------------
def connection_event(seat: int | None, state: LinkState, detail: str = "",
                     attempt: int | None = None, attempts: int | None = None) -> ConnectionEvent:
    """A "connection" event; a reconnection's says it is ``attempt`` of ``attempts``
    (None: no limit)."""
    event: ConnectionEvent = {"type": "connection", "seat": seat, "state": state, "detail": detail}
    if attempt is not None:
        event["attempt"] = attempt
        event["attempts"] = attempts
    return event


def watchers_event(message: dict, you_watch: bool, showing=(), you: str = "") -> WatchersEvent:
    """The "watchers" event from a "watchers" message (``you_watch``: this client is one
    of them; ``showing``: the keys of those this seat's player shows its hand to; ``you``:
    this client's fingerprint)."""
    showing = set(showing)
    return {"type": "watchers", "open": bool(message["open"]), "cap": int(message["cap"]),
            "you_watch": you_watch, "you": you,
            "watchers": [{"name": w["name"], "fingerprint": fingerprint(w["key"]),
                          "shown": list(w["shown"])} for w in message["watchers"]],
            "showing": [fingerprint(w["key"]) for w in message["watchers"] if w["key"] in showing]}


def shown_event(seat: int, name: str, showing: bool) -> ShownEvent:
    """(a watcher) ``name`` in ``seat`` shows you their hand now, or no longer."""
    who = name or f"The player in seat {seat + 1}"
    text = f"{who} is showing you their cards" if showing else f"{who} stopped showing you their cards"
    return {"type": "shown", "seat": seat, "name": name, "showing": showing, "text": text}


def takeover_event(stage: TakeoverStage, departed: str, successor: str, abandoned: int | None,
                   reason: str | None, you: bool = False, departed_seat: int | None = None,
                   text: str | None = None, handed: bool = False) -> TakeoverEvent:
    """The "takeover" event: the host left for good and a player carries the table on.
    ``stage``: "searching" (the host has been gone past the wait: finding who hosts
    now — or, ``text`` says, waiting for enough of the players to reach each other),
    "following" (another player hosts: reconnecting to it — or, ``text`` says, not
    reaching it), "hosting" (we do), or "done" (the takeover entry is in our log).
    ``abandoned``: the hand dealt again; ``handed``: the host left on purpose and handed
    the table to that player."""
    return {"type": "takeover", "stage": stage, "departed": departed, "successor": successor,
            "abandoned": abandoned, "reason": reason, "you": you, "departed_seat": departed_seat,
            "text": text or takeover_text(stage, departed, successor, abandoned, you, handed)}


def takeover_text(stage: str, departed: str, successor: str, abandoned: int | None,
                  you: bool = False, handed: bool = False) -> str:
    """A takeover in words: "Grandma's computer left the game — Dad is now hosting"."""
    gone = f"{departed}'s computer" if departed else "The host's computer"
    if stage == "searching":
        return f"{gone} has stopped answering — finding who carries the table on…"
    who = "you are" if you else f"{successor or 'another player'} is"
    text = f"{gone} left the game — {who} now hosting"
    if handed:
        text = (f"{departed or 'The host'} left and handed the table to "
                f"{'you' if you else successor or 'another player'}"
                + (" — you are now hosting" if you else ""))
    if stage == "following":
        text += " (reconnecting…)"
    if abandoned is not None:
        text += f". Hand {abandoned + 1} is dealt again (its cards left with {departed or 'the host'}); scores are unchanged"
    return text + "."


def readmitted_event(seat: int, name: str, key: bytes) -> ConnectionEvent:
    """What every seat is told when a seat goes to a new key (re-admission)."""
    return connection_event(seat, "readmitted", f"{name}'s seat was given to a new key "
                            f"(fingerprint {fingerprint(key)})")


def stand_in_event(seat: int, name: str) -> ConnectionEvent:
    return connection_event(seat, "stand_in", f"a bot plays for {name} until they come back")


def shuffle_event(names: list[str], skipped: bool = False, dealt: bool = False) -> WaitingEvent:
    """The "waiting" event: whose shuffle (deal contribution) the table awaits, or,
    ``skipped``, whose it dealt without; ``dealt``: the cards are dealt, and the private
    deal awaits those players' computers' part in opening some (a widow, a kitty, the
    hand's end)."""
    who = " and ".join(f"{n}'s" for n in names)
    detail = (f"Dealt without {who} shuffle: it did not come in time." if skipped
              else f"Waiting for {who} computer to open the cards…" if dealt
              else f"Waiting for {who} shuffle…")
    return {"type": "waiting", "for": "shuffle", "names": list(names),
            "detail": detail if names else ""}


#: Why a private deal went on without players (``deal_restart_event``): they left and
#: were waited for in vain ("gone"), they left and the host person dealt again without
#: them ("chosen"), their computer stayed but did not answer the deal in time ("silent"),
#: it broke a rule of the deal ("cheat", named in an "alert" event) — or, told from a
#: catch-up (a player back, or an app restarted), only that they were away from the deal
#: ("away": a guest times why only as it happens).
WHY_GONE: Final = "gone"
WHY_CHOSEN: Final = "chosen"
WHY_SILENT: Final = "silent"
WHY_CHEAT: Final = "cheat"
WHY_AWAY: Final = "away"


def listed(words: list[str]) -> str:
    """"Dad", "Dad and Uncle", "you, Dad and Uncle"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def whose_cards(seats: list[int], you: int | None) -> str:
    """Whose cards the host's computer holds, said to the player in ``you``: "your",
    "their", or "your and their" (their seats and others')."""
    if you in seats:
        return "your" if len(seats) == 1 else "your and their"
    return "their"


def deal_restart_event(names: list[str], seats: list[int], voided: bool,
                       why: WhyRestarted = WHY_GONE, you: int | None = None) -> WaitingEvent:
    """The "waiting" event of a mental-poker deal restarted without players (``why``:
    ``WHY_*``); ``voided``: the hand had been dealt — it is void, the scores unchanged.
    Their seats' cards are the host's until the next hand. ``reason`` says why in words,
    for "Hand 3 is void: …", to the player in seat ``you`` (among them, they are "you":
    "you left and did not come back in time", "you and Dad were away")."""
    people = ["you" if seat == you else name for seat, name in zip(seats, names)]
    mine = you in seats
    who, them = listed(people), ("you" if mine else "them")
    possessives = ["your" if person == "you" else f"{person}'s" for person in people]
    computers = f"{listed(possessives)} computer{'s' if len(people) > 1 else ''}"
    were = "were" if mine or len(people) > 1 else "was"
    reason = {WHY_CHOSEN: f"{who} left, and the host dealt again without {them}",
              WHY_SILENT: f"{computers} did not answer the deal in time",
              WHY_CHEAT: f"{computers} broke a rule — see the alert",
              WHY_AWAY: f"{who} {were} away from the table"}.get(
                  why, f"{who} left and did not come back in time")
    their = whose_cards(seats, you)
    detail = (f"The hand is void: {reason}. Dealing again; the host's computer holds {their} "
              "cards this hand." if voided else
              f"The deal starts again: {reason}. The host's computer holds {their} cards this hand.")
    return {"type": "waiting", "for": "void" if voided else "restart", "names": list(names),
            "seats": list(seats), "why": why, "reason": reason, "detail": detail}


def away_event(names: list[str], seats: list[int], within: float | None,
               choice_in: float | None = None) -> WaitingEvent:
    """The "waiting" event of a private deal waiting for players gone, whose cards are
    locked with their key: the hand goes on without them in ``within`` seconds unless
    they come back (None: unknown — this client could not time their drop, or the host
    chose to keep waiting); ``choice_in`` (the host's own only): seconds until the host
    person may deal again without them (0: now)."""
    who = " and ".join(names)
    event: WaitingEvent = {"type": "waiting", "for": "return", "names": list(names), "seats": list(seats),
             "detail": f"Waiting for {who} to come back — only their computer knows their cards",
             "within": within}
    if choice_in is not None:
        event["choice_in"] = choice_in
    return event


def held_event(name: str, seat: int, within: float | None) -> WaitingEvent:
    """The "waiting" event for a player gone whose cards the host's computer holds this
    hand (after a void or a takeover, or away at the deal, under the private deal): a
    computer plays for them in ``within`` seconds unless they come back (None: unknown —
    this client could not time their drop)."""
    return {"type": "waiting", "for": "held", "names": [name], "seats": [seat],
            "detail": f"Waiting for {name} to come back — the computer plays for them if not",
            "within": within}


def readmit_event(seat: int, name: str, old_fingerprint: str, new_fingerprint: str,
                  new_name: str) -> ReadmitEvent:
    """(host) A new key asks for an away player's seat: the host person decides."""
    return {"type": "readmit", "seat": seat, "name": name, "old_fingerprint": old_fingerprint,
            "new_fingerprint": new_fingerprint, "new_name": new_name}


def tables_event(tables: list[ListedTable]) -> TablesEvent:
    return {"type": "tables", "tables": list(tables)}


def rejoin_event(table: dict | None) -> RejoinEvent:
    return {"type": "rejoin", "table": table}


def notice_event(message: str) -> NoticeEvent:
    return {"type": "notice", "message": message}


def error_event(message: str, fatal: bool = False, details: str = "",
                waited: float | None = None, cause: FatalCause | None = None) -> ErrorEvent:
    """An "error" event; ``cause`` only with ``fatal``: what ended the session."""
    event: ErrorEvent = {"type": "error", "message": message}
    if fatal:
        event["fatal"] = True
        if cause is not None:
            event["cause"] = cause
    if details:
        event["details"] = details
    if waited is not None:
        event["waited"] = round(waited, 2)
    return event
