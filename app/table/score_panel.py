"""The panel beside the felt: live scores for this hand and the game log, each shown
when the host turns it on for the table, and the talk tab beside the log (what was said
at the table), shown once anyone has said something."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QTabWidget, QVBoxLayout

from . import viewmodel as vm
from .game_log import GameLog
from .table_data import TableData

SIDE_MIN, SIDE_MAX = 230, 320  # the panel's width


class ScorePanel(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("sidePanel")
        self.setFixedWidth(SIDE_MAX)
        layout = QVBoxLayout(self)
        self.live_label = QLabel()
        self.live_label.setObjectName("liveText")
        self.live_label.setWordWrap(True)
        layout.addWidget(self.live_label)
        self.log_list = GameLog()
        self.talk_list = GameLog()  # the talk tab: plain-text lines, the latest in view
        self.talk_list.setObjectName("talkList")
        self.talk_list.setAccessibleName("Table talk")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("logTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.log_list, "Game log")
        self.tabs.addTab(self.talk_list, "Talk")
        layout.addWidget(self.tabs, 1)
        self.hide()

    def fit_width(self, table_width: int) -> None:
        """A quarter of the table's width, within reason."""
        self.setFixedWidth(max(SIDE_MIN, min(SIDE_MAX, int(table_width * 0.26))))
        self._keep_live_text()

    def _keep_live_text(self) -> None:
        """The live scores' lines, wrapped to the panel's width, are its least height: a
        short table squeezes the game log (it scrolls), never the scores (they do not)."""
        margins = self.layout().contentsMargins()
        width = self.width() - margins.left() - margins.right()
        self.live_label.setMinimumHeight(0)  # (a label's height for a width is never less than its minimum)
        self.live_label.setMinimumHeight(self.live_label.heightForWidth(width) if self.live_label.text() else 0)

    def refresh(self, data: TableData) -> None:
        options = data.table.get("table_options") or {}
        live, log = bool(options.get("live_scores")), bool(options.get("game_log"))
        talk = bool(self.talk_list.labels)
        self.setVisible(live or log or talk)
        self.live_label.setVisible(live)
        self.tabs.setVisible(log or talk)
        self.tabs.setTabVisible(0, log)
        self.tabs.setTabVisible(1, talk)
        if live:
            short = [vm.short_name(n) for n in data.names()]
            won = vm.tricks_by_seat(data.view, data.players)
            self.live_label.setText(data.look.live_text(data.view, short, vm.side_names(data.info, short), won))
            self._keep_live_text()
        if log:
            # what the table said of this hand (it was voided) first, then its plays
            self.log_list.set_lines(data.notes_for(data.hand_number)
                                    + vm.log_lines(data.info, data.view, data.names()))
