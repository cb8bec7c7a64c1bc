"""The app's one door into the network layer: commands in, events out.

The Qt client never touches sockets, asyncio or the engine's replicas directly. It
holds a ``Session`` and

* calls its command methods from any thread (each is posted to the session's own
  asyncio loop, which runs in a background thread and never blocks the GUI);
* receives events, plain dicts, through the ``on_event`` callback it passed in. The
  callback is called on the session's thread; the app re-posts each event to the GUI
  thread (a Qt signal with a queued connection does exactly that).

Actions are given in hand-record form without the seat (the session knows whose seat
is yours): ``{"bid": 14}``, ``{"play": "8/8"}``, ``{"play": "AS", "ace": "high"}``,
``{"bury": ["R5", …], "trump": "G"}``.

Events are plain dicts, ``type`` first, every field a plain JSON-able value; each
kind is a ``TypedDict`` below (``EVENTS`` maps the type to it), built by
``net.sessions.events`` for every kind of session. A field marked ``NotRequired`` may be
missing; the app treats a missing one as its default.

"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, TypedDict

from net.adverts import TableInfo  # the lobby's tables: discovery finds them
from net.sessions.answering import ListedTable  # … and the lobby checks they answer

#: An event as it is handed on: a JSON-able mapping, ``type`` first. Each kind's fields
#: are its TypedDict below (what the builders in ``net.sessions.events`` return); a
#: callback that takes every kind reads them as plain JSON values.
Event = Mapping[str, Any]
#: Whom a session, or a part of one, tells an event (the app, the CLI, a test).
EventCallback = Callable[[Event], None]

# Values some events' fields take (named once: the builders in net.sessions.events take them).
SeatKind = Literal["human", "bot", "empty"]
DealKind = Literal["private", "private, held by the host", "seeded"]
LinkState = Literal["connected", "reconnecting", "dropped", "stand_in", "readmitted",
                    "waiting", "refused"]
WaitingFor = Literal["shuffle", "return", "held", "restart", "void"]
WhyRestarted = Literal["gone", "chosen", "silent", "cheat", "away"]
TakeoverStage = Literal["searching", "following", "hosting", "done"]
#: Why a session ended (a fatal "error" event's ``cause``): the host closed the table; the
#: host could not be reached (or stopped answering); the host turned this player away (or
#: its key or version is not the one expected); the table cannot go on (a takeback failed);
#: a check on this computer failed (a bug here); the players carried the table on without
#: this host; this host could not open its table.
FatalCause = Literal["closed", "lost", "refused", "failed", "bug", "carried-on", "unopened"]


# -- the events --------------------------------------------------------------------------
class TablesEvent(TypedDict):
    """The lobby's list of tables, the whole list each time; each says whether its host
    answers now (``answering``: a table that does not cannot be joined)."""
    type: Literal["tables"]
    tables: list[ListedTable]


class RejoinEvent(TypedDict):
    """Lobby: the table this key holds a seat at, reachable now (``last_table`` fields
    and ``"where": "network" | "address"``), or None when it no longer is."""
    type: Literal["rejoin"]
    table: dict | None


class SeatInfo(TypedDict):
    seat: int
    name: str
    fingerprint: str
    kind: SeatKind
    level: str | None  # a bot's level (None for a person or nobody)
    connected: bool


class TableSettings(TypedDict):
    game: str
    ruleset: str | None
    mode: str | None
    options: dict
    name: str


class TableEvent(TypedDict):
    """Who sits where and how the table is set up."""
    type: Literal["table"]
    seats: list[SeatInfo]
    you: int | None
    is_host: bool
    host_seat: int | None  # the seat of the player whose computer hosts the table
    settings: TableSettings
    table_options: dict  # {"live_scores": bool, "game_log": bool}
    started: bool
    waiting: NotRequired[list[dict]]  # host: strangers asking in, [{"fingerprint", "name"}]
    address: NotRequired[str]  # a network host's: what others type in Join by address
    # A network host's: the players it may hand the table to on leaving (their computers can
    # carry it on: each named a standby), lowest seat first.
    heirs: NotRequired[list[int]]


class StateEvent(TypedDict):
    """A position: your view, what just happened, and what you may do."""
    type: Literal["state"]
    view: dict  # engine State.view(you)
    events: list[dict]  # engine events
    scores: list[int]  # per side
    hand_number: int
    legal: list[dict]  # your legal actions, hand-record form without the seat
    info: dict  # engine.info.to_plain(game.info): names, sides, deck, decisions (the title's)
    reasons: NotRequired[dict]  # {card: why it may not be played}, while you are to play
    # How the hand was dealt (a network table; a game against the computer says nothing):
    # "private" (the mental-poker deal: only your computer learns your cards), "private,
    # held by the host" (that deal, but your cards went to the host's computer this hand:
    # you were away for the shuffle) or "seeded" (the host's computer knows every hand).
    deal: NotRequired[DealKind]
    # You watch (no seat): ``view`` is the public one — or, with ``coach``, the hand its
    # player shows you (``view["seat"]``), with its ``legal`` moves: yours to see, never
    # to play.
    watching: NotRequired[bool]
    coach: NotRequired[bool]


class HandOverEvent(TypedDict):
    """A hand is over: ``breakdown`` says how it was scored and shows the cards it kept
    hidden (``engine.scoring.breakdown``; None for a hand thrown in); ``history`` the
    totals after each hand of the game so far, this one's last (from the log: every
    hand, whatever this screen saw)."""
    type: Literal["hand_over"]
    result: dict  # {"taken", "made", "score", "thrown_in"} (and "forfeit" for a forfeited hand)
    scores: list[int]
    record_path: str | None
    hand: int
    breakdown: dict | None
    history: list[list[int]]
    # A hand a player's proven cheat ended: {"seat", "side", "rule", "did"} ("did": what
    # that player's computer did, in words: "played a card it was not allowed to (a revoke)").
    forfeit: NotRequired[dict]


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    winner: int  # a side
    scores: list[int]


class ConnectionEvent(TypedDict):
    """A seat's link: "reconnecting" is your own link coming back (``attempt`` of
    ``attempts``, None: no limit); "stand_in": a bot plays a dropped seat for now;
    "readmitted": the seat was given to a new key; "waiting"/"refused": (host) a key
    asking in, or one turned away."""
    type: Literal["connection"]
    seat: int | None
    state: LinkState
    detail: str
    attempt: NotRequired[int]
    attempts: NotRequired[int | None]


class ReadmitEvent(TypedDict):
    """(host only) A new key asks for an away player's seat: the host person says yes
    (``set_seat(seat, "human", player=new_fingerprint)``) or no (``turn_away``)."""
    type: Literal["readmit"]
    seat: int
    name: str
    old_fingerprint: str
    new_fingerprint: str
    new_name: str


class AlertEvent(TypedDict):
    """An integrity alert. ``goes_on``: a player's proven cheat under the private deal,
    named while the table goes on — ``forfeits``: that player's side forfeits the hand
    (a log written before protocol 8 dealt it again), ``did``: what its computer did, in
    words; absent: the client stopped checking at it. ``reported_by``: the seat whose
    client found it and sent its signed evidence (a report); ``checked``: with it, whether
    this client checked the claim itself (True: the same finding here, and it stopped) or
    tells it as that player's word (False: about what that player alone was sent; this
    client goes on)."""
    type: Literal["alert"]
    seat: int | None
    rule: str
    detail: str
    evidence_path: str | None
    goes_on: NotRequired[bool]
    forfeits: NotRequired[bool]
    did: NotRequired[str]
    reported_by: NotRequired[int]
    checked: NotRequired[bool]


class ErrorEvent(TypedDict):
    """A person-readable problem about this player's own action (others' refusals are
    logged, not sent); ``fatal``: the session has ended (wrong key, wrong version,
    refused, table full, host gone or closed, or a check on this computer failed) — go
    back to the lobby. ``details``: what a helper would want besides (a server's address:
    never in ``message``); ``waited``: seconds a protocol's own timer ran before it gave up
    (across houses). ``bug_report``: the report saved for a check that failed here (a bug
    in this copy of Parlour, nobody's cheat), for the person to send (None: it could not
    be saved). ``cause`` (a fatal one's): what ended the session, for the app to title
    its message by (``FatalCause``; missing: not known)."""
    type: Literal["error"]
    message: str
    fatal: NotRequired[bool]
    cause: NotRequired[FatalCause]
    details: NotRequired[str]
    waited: NotRequired[float]
    bug_report: NotRequired[str | None]


class HintEvent(TypedDict):
    """The answer to ``hint()``: one sentence from a bot's reasoning, and the move it
    would make (hand-record form without the seat; None: nothing to decide)."""
    type: Literal["hint"]
    text: str
    action: dict | None


# The deal has waited a while for these players' contributions ("Waiting for Dad's
# shuffle…"), or, at the deadline, "Dealt without Dad's shuffle: …". Under the private
# deal: "return" — players gone whose cards are locked with their key, waited for: the
# hand goes on without them in ``within`` seconds unless they come back (None: unknown:
# the drop came in a catch-up, or the host keeps waiting), and, the host's own only, the
# host person may "Deal again without Dad" in ``choice_in`` seconds (0: now) or keep
# waiting; "held" — a player gone whose cards the host's computer holds this hand (after
# a void or a takeover, or away at the deal): a computer plays for them in ``within``
# seconds unless they come back (None: unknown); "restart" (the deal starts again without players) or "void" (the hand so far
# is void, the scores unchanged), with ``why`` ("gone": they left and were waited for in
# vain; "chosen": they left and the host dealt again without them; "silent": their
# computer did not answer the deal in time; "cheat": it broke a rule, named in an
# "alert"; "away": told from a catch-up, where a guest cannot time why) and ``reason``
# in words, to this player ("Dad left and did not come back in time"; "you were away
# from the table"). Their ``seats`` go with them: the host's computer holds their cards
# this hand. A player back, or an app restarted, is told only the restart still in force
# (the last of the deal on the table), never one of the table's past.
# (Written this way because one field is called "for".)
WaitingEvent = TypedDict("WaitingEvent", {"type": Literal["waiting"],
                                          "for": WaitingFor,
                                          "names": list[str], "detail": str,
                                          "seats": NotRequired[list[int]],
                                          "within": NotRequired[float | None],
                                          "choice_in": NotRequired[float],
                                          "why": NotRequired[WhyRestarted],
                                          "reason": NotRequired[str]})


class NoticeEvent(TypedDict):
    """Something a person should know that is not a problem (a host found an unfinished
    table and kept it aside)."""
    type: Literal["notice"]
    message: str


class TakeoverEvent(TypedDict):
    """The host left for good (or handed the table over) and a player carries the table
    on (``succession``): ``stage`` "searching" (finding who hosts now, or waiting for
    enough of the players to reach each other: ``text`` says), "following"
    (reconnecting to the player who does, or not reaching them), "hosting" (you do) or
    "done" (the takeover is in your log);
    ``text`` says it in words ("Grandma's computer left the game — Dad is now hosting");
    ``abandoned``: the hand dealt again; ``departed_seat``: the seat held for the host."""
    type: Literal["takeover"]
    stage: TakeoverStage
    departed: str
    successor: str
    abandoned: int | None
    reason: str | None
    you: bool
    departed_seat: int | None
    text: str


class WatcherInfo(TypedDict):
    name: str
    fingerprint: str
    shown: list[int]  # the seats whose players show this watcher their hand


class WatchersEvent(TypedDict):
    """Who watches the table ("watching: Leo, Maya"), on every change: ``open`` and ``cap``
    the host's settings; ``you_watch``: you are a watcher here (nothing is yours to play);
    ``showing``: the fingerprints of the watchers you show your own hand to; ``you``: your
    own fingerprint (a watcher finds itself in the list by it)."""
    type: Literal["watchers"]
    watchers: list[WatcherInfo]
    open: bool
    cap: int
    you_watch: bool
    showing: list[str]
    you: str


class ShownEvent(TypedDict):
    """(a watcher) The player in ``seat`` shows you their hand from now on (``showing``),
    or stops: ``text`` says it ("Grandma is showing you her cards"). The hand comes in
    the "state" events (``coach``)."""
    type: Literal["shown"]
    seat: int
    name: str
    showing: bool
    text: str


class InviteEvent(TypedDict):
    """A host's code for a player in another house (``net.houses``): "waiting" (read it
    out), "joining" (it matched another Parlour: connecting), "used" (they are in),
    "burnt" (someone typed it wrong: each code allows one try), "spent" (it was used, but
    nobody came through it — something that is not Parlour, or no connection: make a new
    one at once) or "failed" (no code, or it stopped working). ``message`` says what
    happened in words; ``details`` what a helper would want besides (a server's address);
    ``waited``: seconds the protocol's own timer ran, when one gave up."""
    type: Literal["invite"]
    seat: int | None  # None: a code for a watcher (``watch``)
    state: Literal["waiting", "joining", "used", "burnt", "spent", "failed"]
    code: str
    message: str
    details: NotRequired[str]
    waited: NotRequired[float]
    watch: NotRequired[bool]  # a code that lets its holder watch, not sit


class TalkEvent(TypedDict):
    """Table talk (``net.sessions.talk``), never part of the game's log. ``kind``: "say" (a
    message: ``text`` its words, plain text to be shown as such), "react" (a quick
    reaction: ``reaction`` its id, ``text`` its words), "mute" (the host muted, ``on``, or
    unmuted ``target`` — a fingerprint, ``target_name`` — for the table; ``text`` says so)
    or "refused" (a message not shown: ``reason``, and ``text`` saying who refused it;
    ``blame``: "sender" — the speaker broke a rule, "host" — only a host that failed its
    own checks could have relayed it, "nobody"). ``seat``, ``name``, ``fingerprint``,
    ``role`` ("player", "host" or "watcher"): who spoke (for a refusal,
    who the message claims); ``mine``: it was this person's own."""
    type: Literal["talk"]
    kind: Literal["say", "react", "mute", "refused"]
    seat: int | None
    name: str
    fingerprint: str
    role: str
    mine: bool
    text: str
    reaction: NotRequired[str]
    target: NotRequired[str]
    target_name: NotRequired[str]
    on: NotRequired[bool]
    reason: NotRequired[str]
    blame: NotRequired[Literal["sender", "host", "nobody"]]


# Every event the app is sent, by type (the app's bridge has one signal per type).
EVENTS: dict[str, type] = {
    "tables": TablesEvent, "rejoin": RejoinEvent, "table": TableEvent, "state": StateEvent,
    "hand_over": HandOverEvent, "game_over": GameOverEvent, "connection": ConnectionEvent,
    "alert": AlertEvent, "error": ErrorEvent, "hint": HintEvent, "waiting": WaitingEvent,
    "readmit": ReadmitEvent, "notice": NoticeEvent, "takeover": TakeoverEvent,
    "invite": InviteEvent, "watchers": WatchersEvent, "shown": ShownEvent, "talk": TalkEvent,
}


class Session(ABC):
    """One player's connection to one table (hosted, joined, or local against bots)."""

    def __init__(self, on_event: EventCallback):
        self.on_event = on_event

    # -- table setup ---------------------------------------------------------------
    @abstractmethod
    def sit(self, seat: int) -> None:
        """Ask for a seat (the host arranges; a guest asks)."""

    @abstractmethod
    def set_seat(self, seat: int, kind: str, level: str | None = None,
                 player: str | None = None) -> None:
        """Host only: put a bot of ``level``, a joined player (by fingerprint), or nobody
        in ``seat``."""

    @abstractmethod
    def start_game(self, level: str | None = None) -> None:
        """Host only: deal the first hand (empty seats are filled with bots). ``level``:
        the computer level the host chose for the table, which a bot standing in for a
        dropped player plays at (None: as before, else the table's strongest bot's)."""

    # -- in game -------------------------------------------------------------------
    @abstractmethod
    def act(self, action: dict) -> None:
        """Your decision, in hand-record form without the seat."""

    @abstractmethod
    def set_table_option(self, name: str, value: bool) -> None:
        """Host only: ``live_scores`` or ``game_log``, shown to everyone."""

    @abstractmethod
    def next_hand(self) -> None:
        """Deal the next hand once everyone has seen the summary (host)."""

    @abstractmethod
    def rematch(self) -> None:
        """Host only: a new game at the same table."""

    @abstractmethod
    def stand_in(self, seat: int, bot: bool) -> None:
        """Host only: let a bot play a dropped seat (True) or keep waiting (False)."""

    @abstractmethod
    def keep_waiting(self, seat: int) -> None:
        """Host only: under the private deal, keep waiting for ``seat``'s player, gone: the
        countdown to the hand dealt again without them starts again (and no bot stands in)."""

    @abstractmethod
    def deal_again_without(self, seat: int) -> None:
        """Host only: under the private deal, deal the hand again now without ``seat``'s
        player, gone (allowed once they have been away for the contribution deadline:
        the "waiting" event's ``choice_in``); their cards are the host's this hand."""

    @abstractmethod
    def hint(self) -> None:
        """What a bot would do in your seat: a "hint" event with one sentence (or why
        there is nothing to suggest), computed on the session's thread."""

    @abstractmethod
    def close(self) -> None:
        """Leave the table and stop the session's thread."""

    # -- table talk (a "talk" event answers each) ----------------------------------------
    def say(self, text: str) -> None:
        """Say ``text`` at the table (plain text, at most ``TALK_MAX_CHARS`` characters)."""

    def react(self, reaction: str) -> None:
        """A quick reaction, by its id (``net.constants.TALK_REACTIONS``)."""

    def mute(self, fingerprint: str, on: bool = True) -> None:
        """Host only: mute (``on``) or unmute the person with ``fingerprint`` for the table."""

    def hand_over(self, seat: int) -> bool:
        """Host only: leave, handing the table to the player in ``seat`` (one of the
        "table" event's ``heirs``), who carries it on at once; the others follow. Whether it was
        handed over (if not, the table is closed for everyone, as ``close`` does). Stops
        the session's thread, as ``close`` does."""
        self.close()
        return False
