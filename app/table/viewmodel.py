"""Reading the engine's per-seat view the same way for every title.

What a title is — its sides, deck, trumps — comes from its description
(``engine.info.GameInfo``, ``info`` below); what its own view fields say (an auction, a
contract) from its presentation (``app.titles``). These pure functions turn a view into
what the table shows: who is on which side, who took how many tricks, the game log, the
hand summary's sentences.
"""

from __future__ import annotations

from app import cardnames
from engine.info import GameInfo


def partnerships(info: GameInfo) -> bool:
    """Whether players score together (a side of more than one seat)."""
    return any(len(side.seats) > 1 for side in info.sides)


def side_of(info: GameInfo, seat: int) -> int:
    """The score column ``seat`` counts in."""
    return next(i for i, side in enumerate(info.sides) if seat in side.seats)


def team_of(info: GameInfo, seat: int) -> str:
    """The team a seat plays in ("Team A"), or "" where everyone plays alone."""
    side = info.sides[side_of(info, seat)]
    return side.name if side.name and len(side.seats) > 1 else ""


def forfeit_sentence(info: GameInfo | None, names: list[str], seat: int | None, did: str) -> str:
    """A player's proven cheat and what it costs, in plain words: "Dad's computer played a
    card it was not allowed to (a revoke): Dad's team forfeits the hand." (``did``: the
    session's words for the rule it broke; alone, "Dad forfeits the hand")."""
    who = names[seat] if seat is not None and 0 <= seat < len(names) else \
        (f"Seat {seat + 1}" if seat is not None else "A player")
    loser = f"{who}'s team" if info is not None and partnerships(info) else who
    return f"{who}'s computer {did or 'broke a rule of the deal'}: {loser} forfeits the hand."


def side_names(info: GameInfo, names: list[str]) -> list[str]:
    """Score column headings: "Team A (Ann & Bob)" or each player's name."""
    out = []
    for side in info.sides:
        if side.name is None:
            out.append(names[side.seats[0]] if side.seats[0] < len(names) else f"Seat {side.seats[0] + 1}")
        elif all(seat < len(names) for seat in side.seats):
            out.append(f"{side.name} ({' & '.join(names[seat] for seat in side.seats)})")
        else:
            out.append(side.name)
    return out


def short_side_names(info: GameInfo, names: list[str]) -> list[str]:
    """"Team A" / "Team B" in partnerships, else each player's name."""
    return [side.name if side.name is not None else
            (names[side.seats[0]] if side.seats[0] < len(names) else f"Seat {side.seats[0] + 1}")
            for side in info.sides]


def taking_phases(info: GameInfo) -> set[str]:
    """The phases in which the bidder has just taken spare cards into hand (a kitty, a
    widow): the decisions that name several cards at once."""
    return {decision.phase for decision in info.decisions if decision.cards}


def tricks_by_seat(view: dict, players: int) -> list[int]:
    won = [0] * players
    for trick in view.get("tricks") or []:
        won[trick["winner"]] += 1
    return won


def trump_text(info: GameInfo, view: dict) -> list[str]:
    """"Trump: Green", fullest first: "Trump: not named yet", then "Trump: not yet" where
    the bar is short of room."""
    named = cardnames.trump_name(info, view.get("trump"))
    if named == cardnames.NOT_NAMED:
        return ["Trump: " + named, "Trump: not yet"]
    return ["Trump: " + named]


def kinds(legal: list[dict]) -> set[str]:
    """The decision kinds on offer: {"bid", "pass"}, {"play"}, {"bury"} …"""
    out = set()
    for entry in legal:
        for key in ("bid", "pass", "raise", "ack", "bury", "discard", "leftover", "play"):
            if key in entry:
                out.add(key)
                break
        else:
            if "trump" in entry:
                out.add("trump")
    return out


LOG_NAME_CHARS = 12  # a longer name is cut short in the log: the bid or card after it matters more
NAME_LIMITS = (None, 16, 12, 9, 6, 3, 2)  # letters a name keeps where room is short, fullest first


def short_name(name: str, limit: int | None = LOG_NAME_CHARS) -> str:
    """``name`` cut to ``limit`` characters with an ellipsis ("Grandma Jose…"); None
    keeps it whole."""
    if limit is None or len(name) <= limit:
        return name
    return name[:max(limit - 1, 1)].rstrip() + "\u2026"


def name_variants(render, limits=NAME_LIMITS) -> list[str]:
    """``render(limit)`` for each name limit, fullest first, without repeats: the same
    line with names cut shorter and shorter, the amounts in it kept."""
    out: list[str] = []
    for limit in limits:
        text = render(limit)
        if text not in out:
            out.append(text)
    return out


def told_apart(names: list[str]) -> list[str]:
    """Each name as short as it can be and still told apart from the others, for a line
    with no room for names: its first letter ("Uncle Bob" beside "Bot 2": "U"), else its
    initials ("B2": a number is kept whole), else its start up to the letter that sets it
    apart if that is short ("Bea" beside "Ben"), else its first letter and that letter
    ("Gm" for "Grandma" beside "Grandpa"). Names no rule tells apart stay whole."""
    def initials(name: str) -> str:
        return "".join(word if word.isdigit() else word[0] for word in name.split()) or name

    def apart(i: int, name: str) -> str:
        others = names[:i] + names[i + 1:]
        if all(not other.startswith(name[:1]) for other in others):
            return name[:1]
        if initials(name) not in {initials(other) for other in others}:
            return initials(name)
        rivals = [other for other in others if other[:1] == name[:1]]
        k = next((k for k in range(1, len(name)) if all(other[k:k + 1] != name[k] for other in rivals)), None)
        if k is None:
            return name
        return name[:k + 1] if k < 3 else name[0] + name[k]
    labels = [apart(i, name) for i, name in enumerate(names)]
    return labels if len(set(labels)) == len(labels) else list(names)


def ace_calls(view: dict) -> dict[str, str]:
    """{card: "high" | "low"} for every ace declared this hand (each card is played once)."""
    return {e["play"]: e["ace"] for e in view.get("actions") or [] if "play" in e and e.get("ace")}


def card_text(info: GameInfo, card: str, ace: str | None = None) -> str:
    """A played card in words, with its declaration: "Ace of spades (high)"."""
    return cardnames.spoken(info, card) + (f" ({ace})" if ace else "")


def describe_action(info: GameInfo, entry: dict, names: list[str]) -> str:
    """A log line for one public action record."""
    names = [short_name(n) for n in names]
    who = names[entry["seat"]] if entry.get("seat") is not None and entry["seat"] < len(names) else "?"
    if "play" in entry:
        return f"{who} plays {card_text(info, entry['play'], entry.get('ace'))}"
    if "bid" in entry:
        trump = f", trump {cardnames.trump_name(info, entry['trump'])}" if entry.get("trump") else ""
        return f"{who} bids {entry['bid']}{trump}"
    if "pass" in entry:
        return f"{who} passes"
    if "raise" in entry:
        return f"{who} keeps the contract" if entry["raise"] is None else f"{who} raises to {entry['raise']}"
    if "ack" in entry:
        return f"{who}: got it"
    if "bury" in entry:
        trump = cardnames.trump_name(info, entry.get("trump"))
        return f"{who} buries {_count(info, 'bury', entry['bury'])} cards, trump {trump}"
    if "discard" in entry:
        return f"{who} discards {_count(info, 'discard', entry['discard'])} cards"
    if "leftover" in entry:
        return f"{who} turns the left-over card face {entry['leftover']}"
    if "trump" in entry:
        return f"{who} names trump: {cardnames.trump_name(info, entry['trump'])}"
    return f"{who}: {entry}"


def _count(info: GameInfo, kind: str, cards: list | None) -> int:
    """How many cards an action names; a public record hides them (None), and then the
    decision says how many it always is."""
    if cards is not None:
        return len(cards)
    return next((d.cards for d in info.decisions if d.kind == kind and d.cards), 0)


def log_lines(info: GameInfo, view: dict, names: list[str]) -> list[str]:
    """The game log: bids, trump and the other decisions one per line, and each trick as
    one line — who led, what everyone played, who took it."""
    tricks = list(view.get("tricks") or [])
    aces = ace_calls(view)
    short = [short_name(n) for n in names]

    def name(seat) -> str:
        return short[seat] if seat is not None and seat < len(short) else "?"

    def plays(cards) -> str:
        return ", ".join(f"{name(seat)} {card_text(info, card, aces.get(card))}" for seat, card in cards)

    lines, current, done = [], [], 0
    for entry in view.get("actions") or []:
        if "play" not in entry:
            lines.append(describe_action(info, entry, names))
            continue
        current.append((entry.get("seat"), entry["play"]))
        if done < len(tricks) and len(current) == len(tricks[done]["cards"]):
            trick = tricks[done]
            lines.append(f"Trick {done + 1}: {name(current[0][0])} led — {plays(current)} — "
                         f"{name(trick.get('winner'))} took it")
            current, done = [], done + 1
    if current:
        lines.append(f"Trick {done + 1} (so far): {name(current[0][0])} led — {plays(current)}")
    return lines


# -- the hand summary ------------------------------------------------------------------
def signed(points: int) -> str:
    """"+28", "−8" (a real minus sign), "0"."""
    return f"{points:+d}".replace("-", "\u2212") if points else "0"


def points(score: int) -> str:
    """A score as it is read: "120", "−120" — a real minus sign, which does not look like
    a dash, the same on every line of the table, the summary and the lobby."""
    return f"\u2212{-score}" if score < 0 else str(score)


def score_explanation(info: GameInfo, names: list[str], breakdown: dict | None) -> list[str]:
    """The hand's arithmetic in the ruleset's words, one line per sentence, from the
    engine's scoring terms: "Bid 14, took 10: set — double the shortfall, −8; the
    other side banks double what they took, +28." (Somerset, Rook), or per player
    "Ann: bid 3, took 5 — 2 off the bid — a penalty point for each, +2" (Horseshoes)."""
    if not breakdown:
        return []
    terms = breakdown.get("terms") or []
    contract = breakdown.get("contract")
    if contract:
        ordered = sorted(terms, key=lambda t: t["side"] != contract["side"])  # the bidders first
        said = "; ".join(f"{t['words']}, {signed(t['points'])}" for t in ordered)
        return [f"Bid {contract['bid']}, took {contract['took']}: {said}."]
    sides = short_side_names(info, names)
    lines = []
    for term in terms:
        who = sides[term["side"]] if term["side"] < len(sides) else "?"
        lines.append(f"{who}: {term['working']} — {term['words']}, {signed(term['points'])}")
    return lines


def hidden_cards_text(info: GameInfo, names: list[str], breakdown: dict | None) -> tuple[list[str], list[str]]:
    """What the summary says about the cards hidden during the hand, and the cards:
    (["Buried cards — 15 points, to Team B: buried by the bidder; …"], ["R5", …])."""
    if not breakdown:
        return [], []
    sides = short_side_names(info, names)
    lines, cards = [], []
    for group in breakdown.get("cards") or []:
        if not group.get("cards"):
            continue
        extra = []
        if group.get("points") is not None:
            extra.append(f"{group['points']} point{'s' if group['points'] != 1 else ''}")
        if group.get("side") is not None and group["side"] < len(sides):
            extra.append(f"to {sides[group['side']]}")
        detail = f" — {', '.join(extra)}" if extra else ""
        lines.append(f"{group['label']}{detail}: {group['words']}")
        cards += list(group["cards"])
    return lines, cards


def last_trick_cards(view: dict, names: list[str]) -> tuple[str, list[tuple[str, str, str | None]]]:
    """The hand's last trick for the summary: ("Taken by Ann", [(card, who, ace call)])."""
    tricks = view.get("tricks") or []
    if not tricks:
        return "No trick was played.", []
    last = tricks[-1]
    aces = ace_calls(view)

    def name(seat) -> str:
        return names[seat] if seat is not None and seat < len(names) else "?"

    return (f"Trick {len(tricks)}, taken by {name(last['winner'])}",
            [(card, name(seat), aces.get(card)) for seat, card in last["cards"]])
