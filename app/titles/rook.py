"""Rook on the table: the auction's passes and bids, and the widow turned up for all.

The rest (names, sides, target, deck, trumps, decisions) is Rook's GameInfo.
"""

from __future__ import annotations

from app.titles import OpenCards, Presentation, auction_over

RULES_SUMMARY = """
<p>Four players in two partnerships with the 57-card Rook deck: 1–14 in Black, Red, Green
and Yellow, plus the Rook bird. 1s are high. Points: Rook 20, 1s 15, 14s and 10s 10,
5s 5 — 180 in all.</p>
<ul>
<li><b>Bid</b> in fives from 100 to 180, or pass for good. If the first three pass, the
dealer is stuck at 100.</li>
<li>The winner may <b>raise</b> once, then everyone sees the <b>widow</b> and says
<i>Got it</i>. The bidder takes it, <b>buries 5</b> and names a trump colour.</li>
<li><b>Play</b>: follow the colour led; if you can't, you must trump if you can. The Rook is
the top trump.</li>
<li>Make your contract to score it, or lose it. First team to <b>500</b> wins.</li>
</ul>"""


class RookPresentation(Presentation):
    rules_summary = RULES_SUMMARY

    def seat_bid(self, view: dict, seat: int) -> str:
        """A pass is for good; otherwise the seat's last bid. Once the auction is over the
        bidder's star says it."""
        if auction_over(view):
            return ""
        if seat in (view.get("passed") or []):
            return "Pass"
        said = [amount for s, amount in view.get("bids") or [] if s == seat]
        return str(said[-1]) if said else ""

    def open_cards(self, view: dict) -> OpenCards:
        if view.get("phase") == "widow":
            return OpenCards(tuple(view.get("widow") or ()), "The widow")
        return super().open_cards(view)


PRESENTATION = RookPresentation
