"""About Parlour: the version, a readable summary of each game, and — generated from the
engine's ruleset data — where every rule comes from, with our rulings marked."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from app import version
from engine import TITLES, rulesets

GAME_NAMES = {"somerset": "Somerset", "rook": "Rook", "horseshoes": "Horseshoes"}

RULES_SUMMARY = {
    "somerset": """
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
</ul>""",
    "rook": """
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
</ul>""",
    "horseshoes": """
<p>Three or four players, each alone, or four in partnerships, with a standard deck
(no court cards with three players). <b>Lowest score wins.</b></p>
<ul>
<li>Everyone <b>bids</b> how many tricks they will take, 0 to 13; the first bidder also
names trump (or No Trump).</li>
<li><b>Play</b>: follow suit if you can. An ace of the suit led or of trump is declared
<b>high</b> or <b>low</b> as you play it.</li>
<li>Every trick off your bid is a penalty point; if everyone is exact, everyone scores 3.
The game ends when someone reaches the target (13 by default).</li>
</ul>""",
}


def sources_html(title: str) -> str:
    """Every ruleset of ``title`` with each rule's source; rulings and unchecked marked."""
    parts = []
    for ruleset in rulesets(title).values():
        parts.append(f"<h3>{html.escape(ruleset.name)} <small>({html.escape(ruleset.id)})</small></h3>")
        parts.append(f"<p>{html.escape(ruleset.summary)}</p>")
        parts.append("<table cellspacing='0' cellpadding='4' border='1' width='100%'>"
                     "<tr><th>Topic</th><th>Rule</th><th>Source</th></tr>")
        for rule in ruleset.rules:
            marks = []
            if rule.ruling:
                marks.append("<b style='color:#b71c1c'>ruling</b>")
            if not rule.checked:
                marks.append("<i>source not checked in full</i>")
            note = f"<br>{' · '.join(marks)}" if marks else ""
            parts.append(f"<tr><td>{html.escape(rule.topic)}</td><td>{html.escape(rule.text)}</td>"
                         f"<td>{html.escape(rule.source)}{note}</td></tr>")
        parts.append("</table>")
        if ruleset.options:
            parts.append("<p><b>Host options:</b></p><ul>")
            for option in ruleset.options:
                parts.append(f"<li><b>{html.escape(option.name)}</b> (default {html.escape(str(option.default))}): "
                             f"{html.escape(option.help)}</li>")
            parts.append("</ul>")
    return "\n".join(parts)


def rules_html() -> str:
    return "\n".join(f"<h2>{GAME_NAMES.get(t, t)}</h2>{RULES_SUMMARY.get(t, '')}" for t in TITLES)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("About Parlour")
        self.resize(760, 600)
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._page(self._about_html()), "About")
        self.tabs.addTab(self._page(rules_html()), "Rules")
        for title in TITLES:
            self.tabs.addTab(self._page(f"<h2>{GAME_NAMES.get(title, title)}: sources</h2>"
                                        "<p>Where each rule comes from. A <b>ruling</b> is our decision where "
                                        "the sources are silent or disagree.</p>" + sources_html(title)),
                             f"{GAME_NAMES.get(title, title)} sources")
        layout.addWidget(self.tabs)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _page(self, body: str) -> QTextBrowser:
        page = QTextBrowser()
        page.setOpenExternalLinks(False)
        page.setHtml(body)
        return page

    def _about_html(self) -> str:
        return (f"<h1>Parlour</h1><p>Version {html.escape(version())}</p>"
                "<p>Somerset, Rook and Horseshoes at your own table, across your home network. "
                "No server, no accounts: the host's computer keeps the game, and every other "
                "player's computer checks every move with its own copy of the rules.</p>"
                "<p>Card art is drawn by Parlour's own generator.</p>")
