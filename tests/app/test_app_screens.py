"""The screens around the table: first start, lobby, host dialog, settings, about."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox

from app.about import AboutDialog, sources_html
from app.host_dialog import HostDialog
from app.settings import FirstStartDialog, Settings, SettingsDialog, system_user_name


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
                                 "name": "Ann's table"}
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
    assert titles[:2] == ["About", "Rules"] and len(titles) == 5
    somerset = sources_html("somerset")
    assert "kitty-keep" in somerset and "ruling" in somerset
    assert "Rook rulebook" in sources_html("rook")
