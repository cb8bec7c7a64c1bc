"""Somerset on the table: each seat's last call, the bidder once the auction ends, and
an open widow waiting for the first trick's winner.

The rest (names, sides, target, deck, trumps, decisions) is Somerset's GameInfo.
"""

from __future__ import annotations

from engine.somerset.rules import score_terms
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


# The worked example of the rulesets' scoring: the bidders bid 16 and take these points.
EXAMPLE_BID = 16
EXAMPLE_TAKEN = (13, 18)  # just short, and made
SCORINGS = (("doubled", "Winner takes all"), ("keep", "Both sides keep"))


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def _points(term) -> str:
    """"<b>−6</b> (2 × (16 − 13))": the points, and the sum behind them if there is one."""
    sum_behind = f" ({term.working})" if "×" in term.working else ""
    return f"<b>{signed(term.points)}</b>{sum_behind}"


def scoring_example() -> str:
    """The rulesets' two scorings side by side for one bid made and missed, computed by
    the engine's own scoring (``engine.somerset.rules.score_terms``)."""
    cell = "style='vertical-align:top;padding:6px'"
    parts = [f"<h3>The difference that matters most: the scoring</h3><p>Say a side bids "
             f"{EXAMPLE_BID} of the 24 points. What each side scores:</p>"
             "<table cellspacing='0' cellpadding='6' border='1' width='100%'>"
             f"<tr><th {cell}></th>" + "".join(f"<th {cell}>{name}</th>" for _s, name in SCORINGS)
             + "</tr>"]
    for took in EXAMPLE_TAKEN:
        outcome = "made" if took >= EXAMPLE_BID else "set"
        parts.append(f"<tr><th {cell} align='left'>The bidders take {took}, the defenders "
                     f"{24 - took} ({outcome})</th>")
        for scoring, _name in SCORINGS:
            bidders, defenders = score_terms(scoring, 0, EXAMPLE_BID, (took, 24 - took))
            parts.append(f"<td {cell}>bidders {_points(bidders)}, defenders {_points(defenders)}</td>")
        parts.append("</tr>")
    parts.append("</table><p>Winner takes all is all or nothing: falling just short costs the "
                 "bidders little but gives the defenders double, and a made bid leaves the "
                 "defenders nothing. With both sides keeping, every point taken counts and a "
                 "missed bid costs the whole bid.</p>")
    return "".join(parts)


class SomersetPresentation(Presentation):
    rules_summary = RULES_SUMMARY

    @staticmethod
    def rulesets_example() -> str:
        return scoring_example()

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
