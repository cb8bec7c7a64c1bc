"""About Parlour: the version, a readable summary of each game, and — generated from the
engine's ruleset data — which of a game's rulesets to pick (the rulesets on a grid of
what they differ in, a line each on whom it suits, a worked example, the rules that
differ with their sources) and every rule in plain words with where it comes from, our
rulings marked."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from app import version
from app.titles import presentation_class, rules_summary
from engine import TITLES, rulesets, title_info



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
    """``ruleset`` (an ``engine.info.RulesetInfo``): the host's choices and their defaults."""
    if not ruleset.options:
        return ""
    parts = ["<p><b>Choices the host makes:</b></p><ul>"]
    for option in ruleset.options:
        default = option.default
        named = next((c.name for c in option.choices if c.value == default), str(default))
        said = "off" if default is False else "on" if default is True else named.lower()
        parts.append(f"<li><b>{html.escape(option.name)}</b> (normally {html.escape(said)}): "
                     f"{html.escape(option.description)}</li>")
    parts.append("</ul>")
    return "".join(parts)


def sources_html(title: str) -> str:
    """The title's rules in plain words, each with its source and our rulings marked:
    the rules every ruleset shares once, then what each ruleset adds."""
    sets = list(rulesets(title).values())
    described = {r.id: r for r in title_info(title).rulesets}
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
        parts.append(_options_html(described[ruleset.id]))
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
    """Which of the title's rulesets to pick, from ``differences``: the rulesets on a
    grid of the two things they differ in (where there are two), one line each on whom
    it suits, a worked example of the difference that matters most (the title's own,
    ``Presentation.rulesets_example``), and each rule that differs, once, under what it
    is about, with its source."""
    sets, rows = differences(title)
    if not rows:
        return ""
    return (_grid_html(sets, rows) + _picks_html(sets)
            + presentation_class(title).rulesets_example() + _rules_that_differ_html(sets, rows))


def _values(sets, aspect: str) -> list[str]:
    """The values ``aspect`` takes in the rulesets, in their order."""
    return list(dict.fromkeys(str(r.extra.get(aspect, "")) for r in sets))


def _value_name(value: str) -> str:
    return VALUE_NAMES.get(value, value.capitalize())


def _ruleset_name(ruleset) -> str:
    return f"<b>{html.escape(ruleset.name)}</b>" + (" (the usual)" if ruleset.default else "")


def _grid_html(sets, rows) -> str:
    """Two things the rulesets differ in: one down, one across, a ruleset in each cell."""
    aspects = [aspect for aspect, _row in rows if aspect != "other"]
    if len(aspects) != 2:
        return ""
    down, across = aspects
    cell = "style='vertical-align:top;padding:6px'"
    parts = ["<table cellspacing='0' cellpadding='6' border='1' width='100%'><tr>"
             f"<th {cell}></th>"]
    parts += [f"<th {cell}>{html.escape(_value_name(v))}</th>" for v in _values(sets, across)]
    parts.append("</tr>")
    for row_value in _values(sets, down):
        parts.append(f"<tr><th {cell} align='left'>{html.escape(_value_name(row_value))}</th>")
        for column_value in _values(sets, across):
            here = [r for r in sets if str(r.extra.get(down)) == row_value
                    and str(r.extra.get(across)) == column_value]
            parts.append(f"<td {cell}>{'<br>'.join(_ruleset_name(r) for r in here) or '—'}</td>")
        parts.append("</tr>")
    parts.append("</table>")
    return "".join(parts)


def _picks_html(sets) -> str:
    picks = [f"<li>{_ruleset_name(r)}: {html.escape(r.pick)}</li>" for r in sets if r.pick]
    return f"<h3>Which to pick</h3><ul>{''.join(picks)}</ul>" if picks else ""


def _rules_that_differ_html(sets, rows) -> str:
    """Each rule that differs once, under the value of what it is about, with the
    rulesets that have it."""
    parts = ["<h3>The rules that differ</h3>"]
    for aspect, row in rows:
        parts.append(f"<h4>{html.escape(ASPECT_NAMES.get(aspect, 'Also'))}</h4>")
        values = _values(sets, aspect) if aspect != "other" else [r.id for r in sets]
        for value in values:
            holders = [i for i, r in enumerate(sets)
                       if (str(r.extra.get(aspect, "")) if aspect != "other" else r.id) == value]
            rules = list(dict.fromkeys(rule for i in holders for rule in row[i][1]))
            if not rules:
                continue
            names = ", ".join(html.escape(sets[i].name) for i in holders)
            heading = _value_name(value) if aspect != "other" else sets[holders[0]].name
            parts.append(f"<p><b>{html.escape(heading)}</b> <i>({names})</i></p>")
            for rule in rules:
                only = [sets[i].name for i in holders if rule in sets[i].rules]
                text = _rule_html(rule)
                if len(only) < len(holders):
                    text = text.replace("<p>", f"<p><i>{html.escape(', '.join(only))}:</i> ", 1)
                parts.append(text)
    return "".join(parts)


def rules_html() -> str:
    return "\n".join(f"<h2>{title_info(t).name}</h2>{rules_summary(t)}" for t in TITLES)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("About Parlour")
        self.resize(880, 600)  # (a 1024×640 screen still holds it)
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._page(self._about_html()), "About")
        self.tabs.addTab(self._page(rules_html()), "Rules")
        for title in TITLES:
            table = comparison_html(title)
            if table:
                name = title_info(title).name
                self.tabs.addTab(self._page(
                    f"<h2>{name}: which ruleset?</h2><p>The {name} rulesets differ only in the "
                    "rules below; everything else is the same in all of them.</p>" + table),
                    f"{name} rulesets")
        for title in TITLES:
            name = title_info(title).name
            self.tabs.addTab(self._page(f"<h2>{name}: the rules in full</h2>"
                                        "<p>Each rule says where it comes from. A <b>Parlour ruling</b> is "
                                        "our decision where the sources are silent or disagree.</p>"
                                        + sources_html(title)),
                             f"{name} rules")
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
