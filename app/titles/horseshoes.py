"""Horseshoes on the table: everyone's own bid (tricks against bids), the left-over
card of the three-player game, and the ace declared high or low.

The rest (names, sides, target, deck, trumps, decisions) is Horseshoes' GameInfo.
"""

from __future__ import annotations

from html import escape

from app.titles import OpenCards, Presentation

RULES_SUMMARY = """
<p>Three or four players, each alone, or four in partnerships, with a standard deck
(no court cards with three players). <b>Lowest score wins.</b></p>
<ul>
<li>Everyone <b>bids</b> how many tricks they will take, 0 to 13; the first bidder also
names trump (or No Trump).</li>
<li><b>Play</b>: follow suit if you can. An ace of the suit led or of trump is declared
<b>high</b> or <b>low</b> as you play it.</li>
<li>Every trick off your bid is a penalty point; if everyone is exact, everyone scores 3.
The game ends when someone reaches the target (13 by default).</li>
</ul>"""


class HorseshoesPresentation(Presentation):
    rules_summary = RULES_SUMMARY

    def seat_bid(self, view: dict, seat: int) -> str:
        """Each player's bid is their own contract: shown all hand long."""
        bids = view.get("bids") or []
        return "" if seat >= len(bids) or bids[seat] is None else str(bids[seat])

    def contract_text(self, view: dict, names: list[str], short: bool = False) -> str:
        """"Bids 3 + 4 + 2 = 9 of 13 tricks" ("Bids 9 of 13 tricks" when ``short``, and
        while one player has bid: a sum of one is no sum)."""
        bids = [b for b in view.get("bids") or [] if b is not None]
        if not bids:
            return "No bids yet"
        total, tricks = sum(bids), self.info.hand_size
        if short or len(bids) == 1:
            return f"Bids {total} of {tricks} tricks"
        return f"Bids {' + '.join(map(str, bids))} = {total} of {tricks} tricks"

    def open_cards(self, view: dict) -> OpenCards:
        left = view.get("leftover")
        if not left:
            return super().open_cards(view)
        if left.get("card"):
            return OpenCards((left["card"],), "Left-over card, face up")
        if left.get("face") == "down":
            return OpenCards((), "Left-over card, face down", hidden=1)
        return OpenCards()

    def live_text(self, view: dict, names: list[str], side_names: list[str], won: list[int]) -> str:
        """Every player has a contract: tricks against bids, seat by seat."""
        taken = view.get("taken") or []
        bids = view.get("bids") or []
        lines = ["<b>Tricks against bids</b>"]
        lines += [f"{side.name}: {t} tricks" for side, t in zip(self.info.sides, taken) if side.name]
        for seat, who in enumerate(escape(n) for n in names):
            bid = bids[seat] if seat < len(bids) else None
            if bid is None:
                lines.append(f"{who}: {won[seat]} taken, no bid yet")
                continue
            gap = bid - won[seat]
            state = f"{gap} to go" if gap > 0 else "exactly on" if gap == 0 else f"{-gap} over"
            lines.append(f"{who}: {won[seat]} of {bid} — {state}")
        return "<br>".join(lines)

    def ace_prompt(self, card_words: str) -> str:
        top = "the 10" if self.info.mode == "three" else "the king"  # three players: no court cards
        return (f"Play the {card_words} high (above {top}) or low (below the 2)? "
                "Everyone sees what you declare.")


PRESENTATION = HorseshoesPresentation
