"""Reading the engine's per-seat view the same way for every title.

The three titles describe bids and contracts in their own shapes (Somerset lists every
call, Rook keeps passes apart, Horseshoes one bid per seat). These pure functions turn
a view into what the table shows: who bid what, the contract, who took how many tricks.
"""

from __future__ import annotations

from app import cardnames

TEAM_NAMES = ("Team A", "Team B")


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


def seat_bid(view: dict, seat: int) -> str:
    """What a seat said in the auction: "14", "Pass", "3 (♥ trump)" or ""."""
    game = view.get("game")
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


def contract_text(view: dict, names: list[str]) -> str:
    """The headline: "Contract 14 — Ann" / "Bids 3 + 4 + 2 = 9 of 13"."""
    game = view.get("game")
    if game == "horseshoes":
        bids = [b for b in view.get("bids") or [] if b is not None]
        if not bids:
            return "No bids yet"
        total = sum(bids)
        return f"Bids {' + '.join(map(str, bids))} = {total} of 13"
    who, amount = bidder(view), contract_amount(view)
    if who is None or amount is None:
        high = standing_bid(view)
        return f"Bidding — standing bid {high}" if high is not None else "Bidding — no bid yet"
    stuck = " (stuck)" if (view.get("contract") or {}).get("stuck") else ""
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


def describe_action(view: dict, entry: dict, names: list[str]) -> str:
    """A log line for one public action record."""
    who = names[entry["seat"]] if entry.get("seat") is not None and entry["seat"] < len(names) else "?"
    game = view.get("game", "")
    if "play" in entry:
        ace = f" ({entry['ace']})" if entry.get("ace") else ""
        return f"{who} plays {cardnames.spoken(game, entry['play'])}{ace}"
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

    def name(seat) -> str:
        return names[seat] if seat is not None and seat < len(names) else "?"

    def plays(cards) -> str:
        return ", ".join(f"{name(seat)} {cardnames.spoken(game, card)}" for seat, card in cards)

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
