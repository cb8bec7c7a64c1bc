"""Table talk at the table: a brief bubble by the speaker's seat, the talk tab beside the
game log, and the talk box (quick reactions, a short message, mutes).

Everything said is shown as plain text, whatever it holds (``<b>``, ``<img …>``, a link,
an emoji): every label here is ``Qt.PlainText``, so nothing is ever read as markup, and
the network layer has already refused control characters and direction overrides
(``net.trust.talk.text_problem``). A person mutes another on this screen alone
(``TalkLog.mute``: nothing of theirs is shown from then on); the host's person may also
mute someone for the whole table (``session.mute``, which every client checks came
from the host).

The box opens with ``/`` (a key no decision, card or hint uses) or the bar's Talk
button; Enter sends (and goes no further: never on to the hand), Esc closes it and gives
the keys back to your hand. A reaction whose emoji no font here can draw (👍 where no
emoji font is installed) is shown in words instead (``readable``), on its button, its
bubble and its line, never as an empty box. A bubble is as wide as its words, up to
``BUBBLE_WIDTH``, then wraps.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QTextLayout
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QLineEdit, QMenu, QPushButton,
                               QToolButton, QWidget)

from app.menus import keep_inside_window
from net.api import TALK_MAX_CHARS, TALK_REACTIONS

TALK_KEY = "/"  # opens the talk box (no decision, card or hint key is a slash)
BUBBLE_MS = 4500  # how long a bubble stays by its speaker's seat
BUBBLE_WIDTH = 220
#: A reaction's emoji, in words: what is shown where no font here can draw it.
SPOKEN = {"\U0001F44D": "Thumbs up"}


def drawable(text: str, font: QFont) -> bool:
    """Whether every character of ``text`` has a glyph in ``font`` or in a font Qt falls
    back to (a character none has is drawn as glyph 0: an empty box)."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return all(0 not in run.glyphIndexes() for run in layout.glyphRuns())


def readable(words: str, font: QFont) -> str:
    """A reaction's ``words`` as this screen can show them: an emoji no font here draws,
    in words (``SPOKEN``); anything else as it is."""
    spoken = SPOKEN.get(words)
    return spoken if spoken is not None and not drawable(words, font) else words


@dataclass(frozen=True)
class TalkLine:
    """One line of the talk tab: who said it (``fingerprint``, ``seat``) and the line shown."""

    fingerprint: str
    seat: int | None
    name: str
    words: str
    kind: str  # "say", "react", "mute", "refused"
    mine: bool
    role: str = "player"  # or "host", or "watcher" (no seat: named as one)

    @property
    def who(self) -> str:
        """The speaker as the talk tab names them: a watcher as one."""
        return f"{self.name} (watching)" if self.role == "watcher" else self.name

    @property
    def line(self) -> str:
        if self.kind in ("say", "react"):
            return f"{'You' if self.mine else self.who}: {self.words}"
        return self.words  # a mute or a refusal says itself


class TalkLog:
    """What was said at this table, as this screen shows it (no Qt): the lines, and the
    people muted here. A muted person's words are neither kept nor shown."""

    def __init__(self) -> None:
        self.lines: list[TalkLine] = []
        self.muted: set[str] = set()  # fingerprints muted on this screen

    def heard(self, event: dict) -> TalkLine | None:
        """A "talk" event; the line it adds (None: nothing to show — a muted person's, or
        a refusal that is nobody's fault and not yours: a burst a slow link bunched, a
        muted person's words a host relayed)."""
        kind = event.get("kind", "")
        if kind in ("say", "react") and event.get("fingerprint") in self.muted:
            return None
        if kind == "refused" and not event.get("mine") and event.get("blame") == "nobody":
            return None
        line = TalkLine(event.get("fingerprint", ""), event.get("seat"), event.get("name", ""),
                        event.get("text", ""), kind, bool(event.get("mine")),
                        event.get("role", "player"))
        self.lines.append(line)
        return line

    def mute(self, fingerprint: str, on: bool = True) -> None:
        (self.muted.add if on else self.muted.discard)(fingerprint)

    def shown(self) -> list[str]:
        return [line.line for line in self.lines]

    def clear(self) -> None:
        self.lines.clear()


def plain_label(text: str, name: str) -> QLabel:
    """A label that shows ``text`` exactly as typed: never markup, never a link."""
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.PlainText)
    label.setTextInteractionFlags(Qt.NoTextInteraction)
    label.setOpenExternalLinks(False)
    label.setWordWrap(True)
    label.setText(text)
    return label


class TalkBubble(QFrame):
    """A brief bubble: who spoke, and what, by their seat; gone after ``BUBBLE_MS``."""

    def __init__(self, parent: QWidget, line: TalkLine):
        super().__init__(parent)
        self.setObjectName("talkBubble")
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        # by a seat, the words; with no seat to stand by (a watcher's), who said them too
        text = line.words if line.seat is not None else line.line
        self.label = plain_label(text, "talkBubbleText")
        row.addWidget(self.label)
        # as wide as the words on one line, up to BUBBLE_WIDTH (a word-wrapped label left
        # to itself picks a narrow column: "Nice / lead, / Grandma!")
        self.label.ensurePolished()  # (in the window now: its style sheet's font, to measure)
        one_line = self.label.fontMetrics().horizontalAdvance(text) + 2
        self.label.setFixedWidth(min(BUBBLE_WIDTH, one_line))
        self.setAccessibleName(f"{line.who} says: {line.words}")
        self.adjustSize()
        QTimer.singleShot(BUBBLE_MS, self, self.deleteLater)


class MessageEdit(QLineEdit):
    """The line to type in. Its Return ends here: a QLineEdit emits ``returnPressed`` and
    then lets the key go on to its parents (for a dialog's default button), and the table
    gives Return to the hand — the Return that sent a message played a card."""

    def keyPressEvent(self, event) -> None:
        super().keyPressEvent(event)
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            event.accept()


class TalkBox(QFrame):
    """The talk box: four quick reactions, a line to type (at most ``TALK_MAX_CHARS``),
    and the mute menu. ``say`` / ``react`` / ``mute`` carry what the person chose."""

    say = Signal(str)
    react = Signal(str)
    mute_here = Signal(str, bool)  # (fingerprint, on): on this screen
    mute_table = Signal(str, bool)  # the host's: for everyone
    closed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("talkBox")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 6, 4)
        self.reactions: dict[str, QPushButton] = {}
        for reaction, words in TALK_REACTIONS.items():
            button = QPushButton()
            button.setObjectName(f"react-{reaction}")
            button.setText(readable(words, button.font()))
            button.setProperty("compact", True)
            button.clicked.connect(lambda _=False, r=reaction: self._react(r))
            row.addWidget(button)
            self.reactions[reaction] = button
        self.line = MessageEdit()
        self.line.setObjectName("talkLine")
        self.line.setMaxLength(TALK_MAX_CHARS)
        self.line.setPlaceholderText(f"Say something (at most {TALK_MAX_CHARS} characters) — "
                                     "Enter sends, Esc closes")
        self.line.setAccessibleName("Say something to the table")
        self.line.returnPressed.connect(self._send)
        row.addWidget(self.line, 1)
        self.mute_button = QToolButton()
        self.mute_button.setObjectName("talkMute")
        self.mute_button.setText("Mute…")
        self.mute_button.setPopupMode(QToolButton.InstantPopup)
        self.mute_button.setMenu(QMenu(self.mute_button))
        keep_inside_window(self.mute_button.menu(), self.mute_button)  # (at the box's right end)
        row.addWidget(self.mute_button)
        self.hide()

    def open(self) -> None:
        self.show()
        self.line.setFocus()

    def close_box(self) -> None:
        self.hide()
        self.closed.emit()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape:
            self.close_box()
            return
        super().keyPressEvent(event)

    def people(self, others: list[tuple[str, str]], muted: set[str], host: bool,
               muted_for_table: set[str]) -> None:
        """The mute menu: each other person (name, fingerprint), on this screen, and —
        for the host's person — for the table."""
        menu = self.mute_button.menu()
        menu.clear()
        for name, fp in others:
            here = menu.addAction(f"Mute {name} on my screen")
            here.setCheckable(True)
            here.setChecked(fp in muted)
            here.toggled.connect(lambda on, f=fp: self.mute_here.emit(f, on))
            if host:
                table = menu.addAction(f"Mute {name} for the table")
                table.setCheckable(True)
                table.setChecked(fp in muted_for_table)
                table.toggled.connect(lambda on, f=fp: self.mute_table.emit(f, on))
        self.mute_button.setEnabled(bool(others))

    def _send(self) -> None:
        text = self.line.text()
        if text.strip():
            self.say.emit(text)
            self.line.clear()
        self.close_box()

    def _react(self, reaction: str) -> None:
        self.react.emit(reaction)
        self.close_box()


class TableTalk:
    """Table talk on the table screen: the box, the bubbles by the seats and the talk tab,
    wired to the session. ``table`` is the ``TableView`` (the bubbles' parent; its seat
    panels and data say where each seat is), ``tab`` the talk tab (a ``GameLog``)."""

    def __init__(self, table, box: TalkBox, tab, shown) -> None:
        self.table, self.box, self.tab, self._shown = table, box, tab, shown
        self.log = TalkLog()
        self.host_mutes: set[str] = set()
        box.say.connect(lambda text: self._session("say", text))
        box.react.connect(lambda reaction: self._session("react", reaction))
        box.mute_here.connect(self.mute_here)
        box.mute_table.connect(lambda fp, on: self._session("mute", fp, on))
        box.closed.connect(table.hand.setFocus)

    def reset(self) -> None:
        self.log.clear()
        self.host_mutes.clear()
        self.tab.clear()
        self.box.hide()

    def open_box(self) -> None:
        data = self.table.data
        seats = data.table.get("seats") or []
        others = [(s["name"], s["fingerprint"]) for s in seats
                  if s.get("kind") == "human" and s.get("fingerprint") and s["seat"] != data.you]
        watching = self.table.watchers_line.event  # (the watchers talk too)
        others += [(f"{w['name']} (watching)", w["fingerprint"])
                   for w in watching.get("watchers") or [] if w["fingerprint"] != watching.get("you")]
        self.box.people(others, self.log.muted, bool(data.table.get("is_host")), self.host_mutes)
        self.box.open()

    def mute_here(self, fingerprint: str, on: bool) -> None:
        self.log.mute(fingerprint, on)

    def on_talk(self, event: dict) -> None:
        if event.get("kind") == "mute" and event.get("target"):
            (self.host_mutes.add if event.get("on") else self.host_mutes.discard)(event["target"])
        if event.get("kind") == "react":  # (an emoji this screen cannot draw, in words)
            event = {**event, "text": readable(event.get("text", ""), self.table.font())}
        line = self.log.heard(event)
        if line is None:
            return
        self.tab.set_lines(self.log.shown())
        self._shown()
        if line.kind in ("say", "react"):
            self._bubble(line)

    def _session(self, command: str, *args) -> None:
        session = self.table.session
        if session is not None and callable(getattr(session, command, None)):
            getattr(session, command)(*args)

    def _bubble(self, line: TalkLine) -> None:
        """A bubble by the speaker's seat plate, above its top edge; a watcher's (no seat)
        just below the line that names who watches."""
        if line.seat is not None:
            anchor = self.table.ring.panel_of(line.seat, self.table.data)
        else:
            anchor = self.table.watchers_line if line.role == "watcher" else None
        if anchor is None or not anchor.isVisible():
            return
        bubble = TalkBubble(self.table, line)
        if line.seat is None:  # (the watchers' line: the bubble hangs below its start)
            corner = anchor.mapTo(self.table, QPoint(bubble.width() // 2 + 10, anchor.height()))
            y = corner.y() + 2
        else:
            corner = anchor.mapTo(self.table, QPoint(anchor.width() // 2, 0))
            y = max(4, corner.y() - bubble.height() - 2)
        x = max(4, min(corner.x() - bubble.width() // 2, self.table.width() - bubble.width() - 4))
        bubble.move(x, y)
        bubble.show()
        bubble.raise_()
