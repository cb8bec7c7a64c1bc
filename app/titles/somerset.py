"""Somerset on the table: each seat's last call, the bidder once the auction ends, and
an open widow waiting for the first trick's winner.

The rest (names, sides, target, deck, trumps, decisions) is Somerset's GameInfo.
"""

from __future__ import annotations

from app.titles import OpenCards, Presentation, auction_over

RULES_SUMMARY = """
<p>Four players in two partnerships (partners sit opposite). The 50 cards are stacked
numbers like <b>3/8</b>: the lower number is the suit, the upper the rank. Every trick
is worth a point and the red count cards 12 more — 24 points in every deal.</p>
<ul>
<li><b>Bid</b> how many of the 24 points your side will take (12 to 24), or pass; a pass
is not final. Four passes throw the hand in.</li>
<li>The high bidder takes the kitty and discards two (kitty rules), then <b>names trump</b>:
one of the seven suits or No Trump.</li>
<li><b>Play</b>: follow suit if you can. The <b>0/0</b> (the Rover) may be played any time and
turns every double on its trick into a trump. The <b>S/S</b> is the lowest trump (worth 3).</li>
<li>First side to <b>66</b> wins.</li>
</ul>"""


class SomersetPresentation(Presentation):
    rules_summary = RULES_SUMMARY

    def bidder(self, view: dict) -> int | None:
        """The contract's bidder, or the high bidder once bidding is over (the view names
        them before the contract is set: kitty, trump)."""
        found = super().bidder(view)
        if found is None and view.get("phase") != "bidding":
            return view.get("bidder")
        return found

    def seat_bid(self, view: dict, seat: int) -> str:
        """Each seat's last call while the auction runs (a pass is not final)."""
        if auction_over(view):
            return ""
        last = view.get("last_bid") or []
        if seat < len(last) and last[seat] is not None:
            return "Pass" if last[seat] == "pass" else str(last[seat])
        return ""

    def open_cards(self, view: dict) -> OpenCards:
        if view.get("widow") and view.get("widow_side") is None:
            return OpenCards(tuple(view["widow"]), "Open widow — goes to the first trick's winner")
        return super().open_cards(view)


PRESENTATION = SomersetPresentation
