"""The look: a green baize table, cream buttons, gold for "your turn"."""

STYLE = """
QMainWindow, QWidget#tableView, QWidget#page { background: qradialgradient(cx:0.5, cy:0.45, radius:0.9,
    stop:0 #2f7a4f, stop:1 #174a30); }
QWidget { color: #fdf6e3; font-size: 11pt; }
QLabel#pageTitle { font-size: 22pt; font-weight: bold; color: #fdf6e3; }
QLabel#inviteCode { font-size: 24pt; font-weight: bold; color: #f4c430; padding: 6px; }
QLabel#pageSubtitle { color: #d7e8dc; }
QLabel#setupWatching { font-weight: 600; }
QFrame#infoBar { background: rgba(0,0,0,0.35); border-radius: 8px; }
QToolButton#dealLock { background: transparent; border: none; padding: 0; color: #fdf6e3;
    font-weight: bold; }
QToolButton#dealLock:hover, QToolButton#dealLock:focus { background: rgba(253,246,227,0.18);
    border-radius: 6px; }
QLabel#tableTitle { font-weight: bold; }
QLabel#contractLabel, QLabel#trumpLabel { color: #f4c430; font-weight: bold; font-size: 12pt; }
QLabel#scoreLabel { color: #d7e8dc; font-size: 11pt; }
QFrame#seatPanel { background: rgba(0,0,0,0.35); border: 2px solid rgba(255,255,255,0.15);
    border-radius: 10px; min-width: 130px; }
QFrame#seatPanel[turn="true"] { border: 2px solid #f4c430; background: rgba(244,196,48,0.18); }
QLabel#seatName { font-weight: bold; }
QLabel#seatDetail { color: #d7e8dc; font-size: 11pt; }
QLabel#seatBid { color: #f4c430; font-size: 11pt; }
QLabel#dealerChip { background: #fdf6e3; color: #174a30; border-radius: 9px; padding: 0 5px;
    font-weight: bold; font-size: 10pt; }
QLabel#connDot { color: #81c784; }
QLabel#connDot[connected="false"] { color: #e57373; }
QLabel#turnStatus { font-size: 12pt; padding: 2px; }
QLabel#turnStatus[mine="true"] { color: #f4c430; font-weight: bold; }
QLabel#turnStatus[problem="true"] { color: #ffcdd2; font-weight: bold; }
QFrame#decisionPanel { background: rgba(0,0,0,0.4); border: 1px solid rgba(244,196,48,0.6);
    border-radius: 10px; }
QLabel#decisionTitle { font-weight: bold; font-size: 12pt; }
QLabel#note, QLabel#typedHint, QLabel#hostKey, QLabel#inviteDetails { color: #d7e8dc; font-size: 11pt; }
QPushButton { background: #fdf6e3; color: #1b3a2a; border: 1px solid #c9b98f; border-radius: 8px;
    padding: 6px 14px; font-weight: bold; }
QPushButton:hover { background: #fff8dc; border-color: #f4c430; }
QPushButton:focus { border: 2px solid #4fc3f7; padding: 5px 13px; }
QPushButton[compact="true"] { padding: 4px 9px; }
QPushButton[compact="true"]:focus { padding: 3px 8px; }
QPushButton:checked { background: #f4c430; }
QPushButton:disabled { background: #8a9a8f; color: #3a4a40; border-color: #6f7f74; }
QPushButton[role="secondary"] { background: transparent; color: #fdf6e3; border: 1px solid #d7e8dc; }
QPushButton[role="secondary"]:disabled { color: #7f9a88; border-color: #4f6a58; }
QMenu { background: #173d27; border: 1px solid #d7e8dc; padding: 4px; }
QMenu::item { padding: 5px 18px 5px 24px; }
QMenu::item:selected { background: #2e6b47; }
QMenu::separator { height: 1px; background: #4f6a58; margin: 4px 8px; }
QFrame#alertBanner { background: #b71c1c; border-radius: 8px; }
QFrame#waitingBar, QFrame#noticeBanner { background: rgba(0,0,0,0.45); border: 1px solid #f4c430;
    border-radius: 8px; }
QLabel#waitingTitle, QLabel#noticeTitle { font-weight: bold; color: #f4c430; }
QFrame#rejoinCard { background: rgba(244,196,48,0.18); border: 2px solid #f4c430; border-radius: 12px; }
QPushButton#rejoinTable { font-size: 13pt; text-align: left; padding: 8px 16px; }
QLabel#alertText { font-weight: bold; font-size: 12pt; }
QFrame#overlayPanel { background: #1d3b2b; border: 2px solid #f4c430; border-radius: 14px; }
QLabel#overlayTitle { font-size: 16pt; font-weight: bold; color: #f4c430; }
QLabel#summaryHeadline { font-size: 12pt; }
QFrame#sidePanel { background: rgba(0,0,0,0.35); border-radius: 8px; }
QListWidget { background: rgba(0,0,0,0.25); border: none; }
QListWidget::item { padding: 6px; }
QListWidget::item:selected { background: rgba(244,196,48,0.35); color: #fff; }
QListWidget#tableList::item { color: transparent; padding: 0; }  /* the row widget has its own margins */
QListWidget#tableList::item:selected { color: transparent; background: rgba(0,0,0,0.55);
    border: 2px solid #f4c430; border-radius: 8px; }  /* dark under the row's light words, gold round it */
QScrollBar:vertical { background: rgba(0,0,0,0.2); width: 10px; border: none; }
QScrollBar::handle:vertical { background: rgba(253,246,227,0.45); border-radius: 5px; min-height: 24px; }
QScrollBar::add-line, QScrollBar::sub-line { height: 0; width: 0; }
QScrollArea#logList, QScrollArea#talkList, QWidget#logPage { background: rgba(0,0,0,0.25); border: none; }
QFrame#talkBubble { background: #fdf6e3; border: 2px solid #f4c430; border-radius: 10px; }
QLabel#talkBubbleText { color: #1b3a2a; font-weight: bold; }
QFrame#talkBox { background: rgba(0,0,0,0.4); border: 1px solid rgba(253,246,227,0.4); border-radius: 10px; }
QToolButton#talkMute { background: transparent; color: #fdf6e3; border: 1px solid #d7e8dc;
    border-radius: 8px; padding: 4px 9px; }
QLabel#logLine { padding: 2px 0; }
QLabel#lobbyTableName { font-weight: bold; font-size: 12pt; }
QLabel#lobbyGame, QLabel#lobbyHost { color: #d7e8dc; }
QLabel#lobbySeats { color: #a5d6a7; font-weight: bold; }
QLabel#lobbyFull { color: #bfae8a; }
QLabel#lobbyTableName:disabled, QLabel#lobbyGame:disabled, QLabel#lobbyHost:disabled,
QLabel#lobbyFull:disabled { color: #8fa596; }
QFrame#card { background: rgba(0,0,0,0.30); border-radius: 12px; }
QDialog { background: #1d3b2b; }
QLineEdit, QComboBox, QSpinBox { background: #fdf6e3; color: #1b3a2a; border-radius: 6px; padding: 4px 8px; }
QComboBox QAbstractItemView { background: #fdf6e3; color: #1b3a2a; }
QCheckBox::indicator { width: 16px; height: 16px; }
QTabWidget::pane { border: 1px solid rgba(255,255,255,0.2); }
QTabBar::tab { background: rgba(0,0,0,0.3); padding: 6px 12px; }
QTabBar::tab:selected { background: rgba(244,196,48,0.35); }
QTextBrowser { background: #fdf6e3; color: #1b3a2a; }
QMessageBox QTextEdit { background: #fdf6e3; color: #1b3a2a; }
QToolTip { background: #fdf6e3; color: #1b3a2a; border: 1px solid #c9b98f; }
"""
