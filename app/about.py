"""About Parlour: the version, a readable summary of each game, and — generated from the
engine's ruleset data — the rulesets of a game side by side (one row per rule that
differs, one column per ruleset) and every rule in plain words with where it comes
from, our rulings marked."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from app import version
from app.host_dialog import CHOICE_NAMES, GAME_NAMES
from engine import TITLES, rulesets

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


# How the rulesets' differences read in the comparison table (Ruleset.extra values).
ASPECT_NAMES = {"spare": "The two spare cards", "scoring": "Scoring"}
VALUE_NAMES = {"kitty": "A kitty: face down, to the high bidder",
               "widow": "An open widow: face up, to the first trick's winner",
               "doubled": "Winner takes all: a set side pays double",
               "keep": "Both sides keep what they took"}
RULING_MARK = "<b style='color:#b71c1c'>Parlour ruling</b>"


def _rule_html(rule, with_topic: bool = True) -> str:
    """One rule as a short paragraph: what it says, then where it comes from."""
    said = html.escape(rule.source)
    if not rule.ruling:
        said = f"Source: {said}"
    elif "ruling" in rule.source.lower():  # the source is our ruling, and says so
        said = RULING_MARK.replace("Parlour ruling", said)
    else:
        said = f"{RULING_MARK} · {said}"
    if not rule.checked:
        said += " · <i>source not checked in full</i>"
    source = f"<br><span style='color:#5b6b61;font-size:small'>{said}</span>"
    topic = f"<b>{html.escape(rule.topic)}.</b> " if with_topic else ""
    return f"<p>{topic}{html.escape(rule.text)}{source}</p>"


def _options_html(ruleset) -> str:
    if not ruleset.options:
        return ""
    parts = ["<p><b>Choices the host makes:</b></p><ul>"]
    for option in ruleset.options:
        default = option.default
        said = ("off" if default is False else "on" if default is True
                else CHOICE_NAMES.get(str(default), str(default)).lower())
        parts.append(f"<li><b>{html.escape(option.name)}</b> (normally {html.escape(said)}): "
                     f"{html.escape(option.help)}</li>")
    parts.append("</ul>")
    return "".join(parts)


def sources_html(title: str) -> str:
    """The title's rules in plain words, each with its source and our rulings marked:
    the rules every ruleset shares once, then what each ruleset adds."""
    sets = list(rulesets(title).values())
    shared = [rule for rule in sets[0].rules if all(rule in other.rules for other in sets[1:])]
    parts = []
    if len(sets) > 1:
        parts.append("<h3>Every ruleset</h3>")
    parts += [_rule_html(rule) for rule in shared]
    for ruleset in sets:
        own = [rule for rule in ruleset.rules if rule not in shared]
        if len(sets) > 1:
            parts.append(f"<h3>{html.escape(ruleset.name)}</h3><p><i>{html.escape(ruleset.summary)}</i></p>")
        parts += [_rule_html(rule) for rule in own]
        parts.append(_options_html(ruleset))
    return "\n".join(parts)


def differences(title: str) -> tuple[list, list[tuple[str, list[tuple[str, list]]]]]:
    """The title's rulesets side by side: (rulesets, [(aspect, [(value, rules)] per
    ruleset)]), one row per aspect the rulesets differ in (``Ruleset.extra``), each
    cell the rules that ruleset has for it and the others do not all share."""
    sets = list(rulesets(title).values())
    if len(sets) < 2:
        return sets, []
    aspects = [key for key in sets[0].extra
               if len({repr(other.extra.get(key)) for other in sets}) > 1]
    shared = {rule for rule in sets[0].rules if all(rule in other.rules for other in sets[1:])}
    cells = {(aspect, ruleset.id): [] for aspect in aspects + ["other"] for ruleset in sets}
    for ruleset in sets:
        for rule in ruleset.rules:
            if rule in shared:
                continue
            holders = {other.id for other in sets if rule in other.rules}
            fits = [aspect for aspect in aspects
                    if holders <= {o.id for o in sets if o.extra.get(aspect) == ruleset.extra.get(aspect)}]
            if len(fits) > 1:  # a rule of this ruleset alone: its topic says which aspect
                fits = [aspect for aspect in fits if aspect in rule.topic.lower()] or fits[:1]
            cells[(fits[0] if fits else "other", ruleset.id)].append(rule)
    rows = []
    for aspect in aspects + ["other"]:
        row = [(str(ruleset.extra.get(aspect, "")), cells[(aspect, ruleset.id)]) for ruleset in sets]
        if any(rules for _value, rules in row):
            rows.append((aspect, row))
    return sets, rows


def comparison_html(title: str) -> str:
    """The side-by-side table of ``differences``: a column per ruleset, a row per
    difference, the source under each rule and the sources of each column at the foot."""
    sets, rows = differences(title)
    if not rows:
        return ""
    cell = "style='vertical-align:top;padding:6px'"
    parts = ["<table cellspacing='0' cellpadding='6' border='1' width='100%'>",
             "<tr><th></th>" + "".join(f"<th {cell}>{html.escape(r.name)}</th>" for r in sets) + "</tr>"]
    for aspect, row in rows:
        parts.append(f"<tr><th {cell} align='left'>{html.escape(ASPECT_NAMES.get(aspect, 'Also'))}</th>")
        for value, rules in row:
            heading = f"<b>{html.escape(VALUE_NAMES.get(value, value.capitalize()))}</b>" if value else ""
            parts.append(f"<td {cell}>{heading}{''.join(_rule_html(rule) for rule in rules)}</td>")
        parts.append("</tr>")
    parts.append(f"<tr><th {cell} align='left'>Sources</th>")
    for column in range(len(sets)):
        sources = []
        for _aspect, row in rows:
            for rule in row[column][1]:
                if rule.source not in sources:
                    sources.append(rule.source)
        parts.append(f"<td {cell}><span style='font-size:small'>"
                     f"{'<br>'.join(html.escape(x) for x in sources)}</span></td>")
    parts.append("</tr></table>")
    return "".join(parts)


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
            table = comparison_html(title)
            if table:
                name = GAME_NAMES.get(title, title)
                self.tabs.addTab(self._page(
                    f"<h2>{name}: the rulesets side by side</h2><p>The {name} rulesets differ only "
                    "in these rules; everything else is the same in all of them.</p>" + table),
                    f"{name} rulesets")
        for title in TITLES:
            self.tabs.addTab(self._page(f"<h2>{GAME_NAMES.get(title, title)}: the rules in full</h2>"
                                        "<p>Each rule says where it comes from. A <b>Parlour ruling</b> is "
                                        "our decision where the sources are silent or disagree.</p>"
                                        + sources_html(title)),
                             f"{GAME_NAMES.get(title, title)} rules")
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
