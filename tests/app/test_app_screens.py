"""The screens around the table: first start, lobby, host dialog, settings, about."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox

from app.about import AboutDialog, comparison_html, differences, sources_html
from app.host_dialog import HostDialog
from app.settings import FirstStartDialog, Settings, SettingsDialog, system_user_name
from engine import TITLES, rulesets


def test_first_start_asks_for_a_name_prefilled_from_the_system(qtbot, tmp_path):
    settings = Settings.at(str(tmp_path / "fresh.ini"))
    assert not settings.has_name
    dialog = FirstStartDialog(settings)
    qtbot.addWidget(dialog)
    assert dialog.name_edit.text() == system_user_name()
    dialog.name_edit.setText("")
    assert not dialog.ok_button.isEnabled()  # no nameless players
    qtbot.keyClicks(dialog.name_edit, "Grandma")
    qtbot.mouseClick(dialog.ok_button, Qt.LeftButton)
    assert Settings.at(str(tmp_path / "fresh.ini")).display_name == "Grandma"


def test_settings_dialog_saves_preferences(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.size_box.setCurrentIndex(dialog.size_box.findData("large"))
    dialog.animation_box.setCurrentIndex(dialog.animation_box.findData("relaxed"))
    dialog.colour_blind.setChecked(True)
    dialog.accept()
    assert (settings.card_size, settings.animation, settings.colour_blind_rook) == ("large", "relaxed", True)
    assert settings.card_width > 84 and settings.animation_ms > 0


TABLES = [
    {"id": "t1", "name": "Kitchen", "game": "rook", "ruleset": "rook", "mode": None, "host": "Dad",
     "fingerprint": "ab12", "open_seats": 2, "in_game": False, "address": "127.0.0.1", "port": 1, "protocol": 1},
    {"id": "t2", "name": "Den", "game": "somerset", "ruleset": "kitty-doubled", "mode": None, "host": "Mum",
     "fingerprint": "cd34", "open_seats": 0, "in_game": True, "address": "127.0.0.1", "port": 2, "protocol": 1},
]


def test_lobby_lists_tables_and_follows_updates(qtbot, window, directory):
    lobby = window.lobby
    assert lobby.list.count() == 0 and lobby.empty_hint.isVisible()
    directory.publish(TABLES)
    qtbot.waitUntil(lambda: lobby.list.count() == 2)
    assert "Kitchen" in lobby.list.item(0).text() and "Rook" in lobby.list.item(0).text()
    assert "full" in lobby.list.item(1).text()
    # Names, not ids; the host's fingerprint; whether a game is on.
    den = lobby.list.item(1).text()
    assert "Somerset · Kitty, winner takes all" in den and "kitty-doubled" not in den
    assert "Mum [cd34]" in den and "in progress" in den
    assert "(rook)" not in lobby.list.item(0).text() and "waiting" in lobby.list.item(0).text()
    lobby.list.setCurrentRow(1)
    assert not lobby.join_button.isEnabled()  # a full table can't be joined
    lobby.list.setCurrentRow(0)
    assert lobby.join_button.isEnabled()
    directory.publish([TABLES[1], {**TABLES[0], "open_seats": 1}])  # reordered, still there
    qtbot.waitUntil(lambda: "1 open seat " in lobby.list.item(1).text())
    assert lobby.selected_table()["id"] == "t1"  # the selection follows the table
    directory.publish([])
    qtbot.waitUntil(lambda: lobby.list.count() == 0)
    assert not lobby.join_button.isEnabled()


def test_a_table_whose_host_does_not_answer_is_greyed_and_cannot_be_joined_or_watched(
        qtbot, window, directory):
    """A host killed, or its laptop closed, says no goodbye: the directory marks its row
    ``"answering": False`` (net/sessions/answering.py) until it leaves the list."""
    from PySide6.QtWidgets import QLabel
    lobby = window.lobby
    silent = {**TABLES[0], "answering": False, "watchable": True}
    directory.publish([silent, {**TABLES[1], "answering": True}])
    qtbot.waitUntil(lambda: lobby.list.count() == 2)
    text = lobby.list.item(0).text()
    assert text.endswith("host Dad [ab12]  ·  not answering"), text  # (its seats meant nothing)
    row = lobby.list.itemWidget(lobby.list.item(0))
    assert not row.isEnabled()  # greyed
    assert "not answering" in [label.text() for label in row.findChildren(QLabel)]
    assert "does not answer" in lobby.list.item(0).toolTip()
    lobby.list.setCurrentRow(0)
    assert not lobby.join_button.isEnabled() and not lobby.watch_button.isEnabled()
    joined = []
    lobby.join_table.connect(joined.append)
    lobby.watch_table.connect(joined.append)
    lobby._join()  # (a double-click, or Enter)
    lobby._watch()
    assert joined == []
    directory.publish([{**silent, "answering": True}])  # it answers again
    qtbot.waitUntil(lambda: "not answering" not in lobby.list.item(0).text())
    assert lobby.join_button.isEnabled() and lobby.list.itemWidget(lobby.list.item(0)).isEnabled()


def test_lobby_names_horseshoes_by_its_mode():
    from app.lobby import describe_table
    attic = {"id": "t3", "name": "Attic", "game": "horseshoes", "ruleset": "horseshoes", "mode": "partners",
             "host": "Sam", "fingerprint": "ef56", "open_seats": 1, "in_game": False}
    assert "Horseshoes · Four players, partners opposite" in describe_table(attic)


def test_joining_without_network_support_says_so(qtbot, window, directory, monkeypatch):
    shown = []
    monkeypatch.setattr(window, "_network_missing", lambda: shown.append(True))
    directory.publish(TABLES)
    qtbot.waitUntil(lambda: window.lobby.list.count() == 2)
    window.lobby.list.setCurrentRow(0)
    qtbot.mouseClick(window.lobby.join_button, Qt.LeftButton)
    assert shown == [True]


def test_play_against_the_computer_goes_through_the_game_dialog(qtbot, window, monkeypatch):
    monkeypatch.setattr(window, "ask_game", lambda local: {"game": "rook", "ruleset": "rook", "mode": None,
                                                            "options": {}, "name": "t"})
    qtbot.mouseClick(window.lobby.local_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    assert window.stack.currentWidget() is window.setup
    assert "Rook" in window.setup.title.text()
    qtbot.mouseClick(window.setup.back_button, Qt.LeftButton)
    assert window.stack.currentWidget() is window.lobby and window.session is None


def test_host_dialog_offers_each_games_options(qtbot):
    dialog = HostDialog("Ann")
    qtbot.addWidget(dialog)
    dialog.select_game("somerset")
    assert dialog.ruleset_box.count() == 4
    assert dialog.settings()["ruleset"] == "kitty-doubled"
    assert dialog.mode_box.isHidden()
    dialog.select_game("rook")
    assert dialog.ruleset_box.isHidden() and dialog.mode_box.isHidden()
    assert dialog.settings() == {"game": "rook", "ruleset": "rook", "mode": None, "options": {},
                                 "name": "Ann's table", "private_deal": True,
                                 "watching": True, "max_watchers": 8}  # the defaults
    dialog.select_game("horseshoes")
    assert not dialog.mode_box.isHidden()
    assert dialog.mode_box.currentData() == "four"
    assert isinstance(dialog.option_widgets["breaking_trump"], QCheckBox)
    assert isinstance(dialog.option_widgets["target"], QComboBox)
    assert dialog.option_widgets["leftover"].isHidden()  # only three players have a left-over card
    dialog.option_widgets["breaking_trump"].setChecked(True)
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("three"))
    assert not dialog.option_widgets["leftover"].isHidden()
    chosen = dialog.settings()
    assert chosen["mode"] == "three"
    assert chosen["options"] == {"breaking_trump": True, "leftover": "dealer", "target": 13}


def test_about_lists_every_rule_source_and_marks_rulings(qtbot):
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    titles = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert titles == ["About", "Rules", "Somerset rulesets", "Somerset rules", "Rook rules", "Horseshoes rules"]
    somerset = sources_html("somerset")
    assert "Kitty, both sides keep" in somerset and "Parlour ruling" in somerset
    assert "Rook rulebook" in sources_html("rook")


def test_somerset_rulesets_side_by_side_one_row_per_difference():
    """A column per ruleset, a row per rule that differs, generated from the engine's
    ruleset data: every rule a ruleset does not share with all the others is in its
    column, once, in the row of what it is about, with its source under it."""
    sets, rows = differences("somerset")
    assert [r.id for r in sets] == list(rulesets("somerset"))
    assert [aspect for aspect, _row in rows] == ["spare", "scoring"]
    shared = [rule for rule in sets[0].rules if all(rule in other.rules for other in sets)]
    for column, ruleset in enumerate(sets):
        placed = [rule for _aspect, row in rows for rule in row[column][1]]
        assert sorted(placed, key=repr) == sorted((r for r in ruleset.rules if r not in shared), key=repr)
        spare, scoring = (row[column] for _aspect, row in rows)
        assert spare[0] == ruleset.extra["spare"] and scoring[0] == ruleset.extra["scoring"]
        assert all(rule.topic.startswith("Scoring") for rule in scoring[1])
        assert not any(rule.topic.startswith("Scoring") for rule in spare[1])
    table = comparison_html("somerset")
    for ruleset in sets:
        assert html.escape(ruleset.name) in table
        for rule in ruleset.rules:
            if rule not in shared:
                assert html.escape(rule.text) in table and html.escape(rule.source) in table
    assert comparison_html("rook") == ""  # one ruleset: nothing to compare


def test_the_somerset_rulesets_tab_says_which_to_pick_with_a_worked_example():
    """Issue 20: the rulesets on a grid of the two things they differ in (not four
    narrow columns), a line each on whom it suits, and the scoring worked through."""
    page = comparison_html("somerset")
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    grid = page[:page.index("</table>")]
    assert grid.count("<tr>") == 3 and grid.count("<td") == 4  # 2 × 2, and the headings
    for ruleset in rulesets("somerset").values():
        assert ruleset.pick and html.escape(ruleset.pick) in page
        assert html.escape(ruleset.name) in grid
    assert "Which to pick" in plain and "The difference that matters most: the scoring" in plain
    set_row = plain[plain.index("take 13"):plain.index("take 18")]
    made_row = plain[plain.index("take 18"):plain.index("Winner takes all is")]
    assert "bidders \u22126 (2 × (16 − 13)), defenders +22 (2 × 11)" in set_row
    assert "bidders \u221216 , defenders +11" in set_row
    assert "bidders +18 , defenders 0" in made_row and "bidders +18 , defenders +6" in made_row


def test_each_games_rules_read_in_plain_words_with_rulings_marked():
    for title in TITLES:
        text = sources_html(title)
        plain = re.sub(r"<[^>]+>", "", text)
        for jargon in ("seats 0", "seat 0", "seed", "option leftover", "|", "kitty-", "widow-"):
            assert jargon not in plain, (title, jargon)
        rules = {rule for ruleset in rulesets(title).values() for rule in ruleset.rules}
        for rule in rules:
            assert html.escape(rule.text) in text and html.escape(rule.source) in text
        marked = text.count("color:#b71c1c")
        assert marked >= len({rule for rule in rules if rule.ruling}) > 0
