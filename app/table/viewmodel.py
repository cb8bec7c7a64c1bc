"""Reading the engine's per-seat view the same way for every title.

The three titles describe bids and contracts in their own shapes (Somerset lists every
call, Rook keeps passes apart, Horseshoes one bid per seat). These pure functions turn
a view into what the table shows: who bid what, the contract, who took how many tricks.
"""

from __future__ import annotations

from app import cardnames

TEAM_NAMES = ("Team A", "Team B")
TAKING_PHASES = ("kitty", "bury")  # the bidder has just taken the spare cards into hand


def partnerships(view: dict) -> bool:
    return view.get("game") != "horseshoes" or view.get("mode") == "partners"


def side_of(view: dict, seat: int) -> int:
    return seat % 2 if partnerships(view) else seat


def side_names(view: dict, names: list[str]) -> list[str]:
    """Score column headings: "Team A (Ann & Bob)" or each player's name."""
    if partnerships(view):
        return [f"{TEAM_NAMES[t]} ({names[t]} & {names[t + 2]})" if len(names) > t + 2 else TEAM_NAMES[t]
                for t in (0, 1)]
    return list(names)


def bidder(view: dict) -> int | None:
    contract = view.get("contract")
    if isinstance(contract, dict) and contract.get("bidder") is not None:
        return contract["bidder"]
    if view.get("game") == "somerset" and view.get("phase") != "bidding":
        return view.get("bidder")
    return None


def contract_amount(view: dict) -> int | None:
    contract = view.get("contract")
    if isinstance(contract, dict):
        return contract.get("bid", contract.get("amount"))
    return None


def auction_over(view: dict) -> bool:
    """Whether the auction has ended (a contract stands, or the hand was thrown in)."""
    return view.get("phase") not in ("bidding", "leftover", None)


def seat_bid(view: dict, seat: int) -> str:
    """What a seat said in the auction: "14", "Pass" or "". Once the auction is over
    only a contract is worth showing: Horseshoes' bids (each player's own), while in
    Somerset and Rook the bidder's star says it and the others' calls are cleared."""
    game = view.get("game")
    if game != "horseshoes" and auction_over(view):
        return ""
    if game == "horseshoes":
        bids = view.get("bids") or []
        return "" if seat >= len(bids) or bids[seat] is None else str(bids[seat])
    if game == "rook":
        if seat in (view.get("passed") or []):
            return "Pass"
        said = [amount for s, amount in view.get("bids") or [] if s == seat]
        return str(said[-1]) if said else ""
    last = view.get("last_bid") or []
    if seat < len(last) and last[seat] is not None:
        return "Pass" if last[seat] == "pass" else str(last[seat])
    return ""


def tricks_by_seat(view: dict, players: int) -> list[int]:
    won = [0] * players
    for trick in view.get("tricks") or []:
        won[trick["winner"]] += 1
    return won


def standing_bid(view: dict) -> int | None:
    return view.get("high_bid")


def contract_text(view: dict, names: list[str], short: bool = False) -> str:
    """The headline: "Contract 14 — Ann" / "Bids 3 + 4 + 2 = 9 of 13"; ``short``
    leaves out the names and the sum ("Contract 14", "Bids 9 of 13")."""
    game = view.get("game")
    if game == "horseshoes":
        bids = [b for b in view.get("bids") or [] if b is not None]
        if not bids:
            return "No bids yet"
        total = sum(bids)
        return f"Bids {total} of 13" if short else f"Bids {' + '.join(map(str, bids))} = {total} of 13"
    who, amount = bidder(view), contract_amount(view)
    if who is None or amount is None:
        high = standing_bid(view)
        if short:
            return f"Standing bid {high}" if high is not None else "No bid yet"
        return f"Bidding — standing bid {high}" if high is not None else "Bidding — no bid yet"
    stuck = " (stuck)" if (view.get("contract") or {}).get("stuck") else ""
    if short:
        return f"Contract {amount}{stuck}"
    return f"Contract {amount}{stuck} — {names[who] if who < len(names) else who}"


def trump_text(view: dict) -> str:
    return "Trump: " + cardnames.trump_name(view.get("game", ""), view.get("trump"))


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


def ace_calls(view: dict) -> dict[str, str]:
    """{card: "high" | "low"} for every ace declared this hand (each card is played once)."""
    return {e["play"]: e["ace"] for e in view.get("actions") or [] if "play" in e and e.get("ace")}


def card_text(game: str, card: str, ace: str | None = None) -> str:
    """A played card in words, with its declaration: "Ace of spades (high)"."""
    return cardnames.spoken(game, card) + (f" ({ace})" if ace else "")


def describe_action(view: dict, entry: dict, names: list[str]) -> str:
    """A log line for one public action record."""
    names = [short_name(n) for n in names]
    who = names[entry["seat"]] if entry.get("seat") is not None and entry["seat"] < len(names) else "?"
    game = view.get("game", "")
    if "play" in entry:
        return f"{who} plays {card_text(game, entry['play'], entry.get('ace'))}"
    if "bid" in entry:
        trump = f", trump {cardnames.trump_name(game, entry['trump'])}" if entry.get("trump") else ""
        return f"{who} bids {entry['bid']}{trump}"
    if "pass" in entry:
        return f"{who} passes"
    if "raise" in entry:
        return f"{who} keeps the contract" if entry["raise"] is None else f"{who} raises to {entry['raise']}"
    if "ack" in entry:
        return f"{who}: got it"
    if "bury" in entry:
        return f"{who} buries 5 cards, trump {cardnames.trump_name(game, entry.get('trump'))}"
    if "discard" in entry:
        return f"{who} discards 2 cards"
    if "leftover" in entry:
        return f"{who} turns the left-over card face {entry['leftover']}"
    if "trump" in entry:
        return f"{who} names trump: {cardnames.trump_name(game, entry['trump'])}"
    return f"{who}: {entry}"


def log_lines(view: dict, names: list[str]) -> list[str]:
    """The game log: bids, trump and the other decisions one per line, and each trick as
    one line — who led, what everyone played, who took it."""
    game = view.get("game", "")
    tricks = list(view.get("tricks") or [])
    aces = ace_calls(view)
    short = [short_name(n) for n in names]

    def name(seat) -> str:
        return short[seat] if seat is not None and seat < len(short) else "?"

    def plays(cards) -> str:
        return ", ".join(f"{name(seat)} {card_text(game, card, aces.get(card))}" for seat, card in cards)

    lines, current, done = [], [], 0
    for entry in view.get("actions") or []:
        if "play" not in entry:
            lines.append(describe_action(view, entry, names))
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


def short_side_names(view: dict, names: list[str]) -> list[str]:
    """"Team A" / "Team B" in partnerships, else each player's name."""
    return list(TEAM_NAMES) if partnerships(view) else list(names)


def score_explanation(view: dict, names: list[str], breakdown: dict | None) -> list[str]:
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
    sides = short_side_names(view, names)
    lines = []
    for term in terms:
        who = sides[term["side"]] if term["side"] < len(sides) else "?"
        lines.append(f"{who}: {term['working']} — {term['words']}, {signed(term['points'])}")
    return lines


def hidden_cards_text(view: dict, names: list[str], breakdown: dict | None) -> tuple[list[str], list[str]]:
    """What the summary says about the cards hidden during the hand, and the cards:
    (["Buried cards — 15 points, to Team B: buried by the bidder; …"], ["R5", …])."""
    if not breakdown:
        return [], []
    sides = short_side_names(view, names)
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
