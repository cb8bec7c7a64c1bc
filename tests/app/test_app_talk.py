"""Table talk on the table screen (issue 29): a bubble by the speaker's seat and a line in
the talk tab, shown as plain text whatever it holds; a person muted on this screen; the
talk box opened by "/", its words and reactions sent, Esc giving the keys back; the host's
mute for the table."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.screenshots import StubSession
from app.table import talk as talk_module
from app.table.talk import BUBBLE_WIDTH, TALK_KEY, TalkBubble, TalkLog, drawable, readable
from fit_scenes import FINGERPRINTS, LONG_NAMES, settle, sit_at
from tests.waits import qt_until

ROOK = {"game": "rook"}
SAID_AS_MARKUP = ["<b>bold</b> move", '<img src="file:///etc/passwd"> look',
                  '<a href="http://example.com">click</a>', "gg \u202eevil\u202c ok"]


class Talking(StubSession):
    """A session that records what the table screen asks of it."""

    def __init__(self):
        self.calls: list[tuple] = []

    def say(self, text):
        self.calls.append(("say", text))

    def react(self, reaction):
        self.calls.append(("react", reaction))

    def mute(self, fingerprint, on=True):
        self.calls.append(("mute", fingerprint, on))

    def act(self, action):
        self.calls.append(("act", action))


def talk(seat: int, text: str, kind: str = "say", **more) -> dict:
    return {"type": "talk", "kind": kind, "seat": seat, "name": LONG_NAMES[seat],
            "fingerprint": FINGERPRINTS[seat], "role": "player", "mine": seat == 0,
            "text": text, **more}


def at_the_table(window, session=None, until=lambda s: s.phase == "play", **table_kw):
    """The table screen mid-hand (at the first moment ``until`` holds); ``session``: the
    one its commands go to."""
    bridge, _game, _state = sit_at(window, ROOK, until, **table_kw)
    if session is not None:
        window.table.session = session
    return bridge


def bubbles(window) -> list[TalkBubble]:
    return [b for b in window.table.findChildren(TalkBubble) if b.isVisible()]


def test_markup_links_and_direction_overrides_are_shown_as_the_literal_text(window):
    bridge = at_the_table(window)
    for seat, text in enumerate(SAID_AS_MARKUP):
        bridge.deliver(talk(seat, text))
    settle()
    shown = {b.label.text(): b.label for b in bubbles(window)}
    assert set(shown) == set(SAID_AS_MARKUP)  # one bubble by each seat, every word as said
    for text, label in shown.items():
        assert label.textFormat() == Qt.PlainText and not label.openExternalLinks()
        as_markup = QLabel()
        as_markup.setTextFormat(Qt.RichText)
        as_markup.setText(text)
        if "<" in text:  # the tags are drawn as characters: wider than the markup would be
            assert label.sizeHint().width() > as_markup.sizeHint().width(), text
    lines = window.table.talk_list.lines()
    assert lines == ["You: <b>bold</b> move"] + [f"{LONG_NAMES[s]}: {t}" for s, t in
                                                 enumerate(SAID_AS_MARKUP) if s]
    assert all(label.textFormat() == Qt.PlainText for label in window.table.talk_list.labels)
    side = window.table.side
    assert side.isVisible() and side.tabs.isTabVisible(1)


def test_a_bubble_stands_by_its_speakers_seat(window):
    bridge = at_the_table(window)
    bridge.deliver(talk(2, "Well played", "react", reaction="well-played"))
    settle()
    [bubble] = bubbles(window)
    panel = window.table.ring.panel_of(2, window.table.data)  # across the table: the top plate
    assert panel is window.table.panels["top"]
    top_left = panel.mapTo(window.table, panel.rect().topLeft())
    assert bubble.geometry().bottom() <= top_left.y() + 2  # just above its plate
    assert bubble.geometry().left() < top_left.x() + panel.width()
    assert bubble.geometry().right() > top_left.x()


def test_a_person_muted_on_this_screen_is_not_shown(window):
    bridge = at_the_table(window)
    window.table.talk.mute_here(FINGERPRINTS[1], True)
    bridge.deliver(talk(1, "spam spam"))
    bridge.deliver(talk(2, "hello"))
    settle()
    assert [b.label.text() for b in bubbles(window)] == ["hello"]
    assert window.table.talk_list.lines() == [f"{LONG_NAMES[2]}: hello"]
    window.table.talk.mute_here(FINGERPRINTS[1], False)
    bridge.deliver(talk(1, "sorry"))
    settle()
    assert window.table.talk_list.lines()[-1] == f"{LONG_NAMES[1]}: sorry"


def test_refusals_shown_are_yours_or_name_someone():
    log = TalkLog()
    assert log.heard(talk(1, "A message was refused: too fast", "refused", blame="nobody")) is None
    assert log.heard(talk(1, "A message … forged — the host relayed it", "refused", blame="host"))
    assert log.heard({**talk(0, "Your message was refused: too long", "refused", blame="sender")})
    assert log.heard(talk(1, "Uncle wrote a message in Ann's name; it was refused", "refused",
                          blame="sender"))  # the host's person: a guest named
    assert len(log.shown()) == 3


def say_by_keys(qtbot, table, text: str) -> None:
    """"/" from the hand opens the talk box; ``text`` typed; Enter sends it."""
    assert table.talk_button.isVisible()
    table.hand.setFocus()
    qtbot.keyClicks(table.hand, TALK_KEY)
    qt_until(qtbot, lambda: table.talk_box.isVisible() and table.talk_box.line.hasFocus())
    qtbot.keyClicks(table.talk_box.line, text)
    qtbot.keyClick(table.talk_box.line, Qt.Key_Return)


def test_slash_opens_the_talk_box_enter_says_esc_gives_the_keys_back(window, qtbot):
    session = Talking()
    at_the_table(window, session)
    table = window.table
    say_by_keys(qtbot, table, "<b>hi</b> all")
    assert session.calls == [("say", "<b>hi</b> all")]
    assert not table.talk_box.isVisible()
    table.talk_button.click()
    qt_until(qtbot, table.talk_box.isVisible)
    table.talk_box.reactions["well-played"].click()
    assert session.calls[-1] == ("react", "well-played")
    table.talk_button.click()
    qt_until(qtbot, lambda: table.talk_box.line.hasFocus())
    qtbot.keyClick(table.talk_box.line, Qt.Key_Escape)
    qt_until(qtbot, lambda: not table.talk_box.isVisible() and table.hand.hasFocus())
    assert table.talk_box.line.maxLength() == 200


def test_the_return_that_sends_a_message_plays_no_card(window, qtbot):
    """Seen in a real window: the Return that sent a message went on to the table, which
    gives Return to the hand — a player at their turn played the card under the cursor
    (a watcher was told "only the players play their cards")."""
    session = Talking()
    at_the_table(window, session, until=lambda s: s.phase == "play" and 0 in s.to_act())
    table = window.table
    qt_until(qtbot, lambda: table.hand.mode == "play" and bool(table.legal))
    table.hand.setFocus()
    qtbot.keyClick(table.hand, Qt.Key_Right)  # a card under the cursor: Return would play it
    assert table.hand.cursor >= 0
    say_by_keys(qtbot, table, "my turn, one moment")
    settle()
    assert session.calls == [("say", "my turn, one moment")]  # the message, and no card
    assert table.hand.mode == "play" and not table.talk_box.isVisible()


def test_the_host_mutes_someone_for_the_table_and_everyone_mutes_on_their_own_screen(window):
    session = Talking()
    at_the_table(window, session)  # the host's screen (is_host)
    table = window.table
    table.talk.open_box()
    actions = {a.text(): a for a in table.talk_box.mute_button.menu().actions()}
    assert f"Mute {LONG_NAMES[0]} on my screen" not in actions  # not yourself
    actions[f"Mute {LONG_NAMES[1]} for the table"].trigger()
    assert session.calls == [("mute", FINGERPRINTS[1], True)]
    actions[f"Mute {LONG_NAMES[2]} on my screen"].trigger()
    assert FINGERPRINTS[2] in table.talk.log.muted and len(session.calls) == 1  # nothing sent
    guest = Talking()
    at_the_table(window, guest, is_host=False)
    table.talk.open_box()
    texts = [a.text() for a in table.talk_box.mute_button.menu().actions()]
    assert texts and not any("for the table" in t for t in texts)  # a guest mutes only here


def test_no_talk_in_a_game_against_the_computer(window, qtbot):
    window.start_local({"game": "rook"})
    qt_until(qtbot, window.setup.start_button.isEnabled)
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    qt_until(qtbot, lambda: window.table.isVisible() and bool(window.table.legal))
    assert not window.table.talk_button.isVisible()
    window.table.hand.setFocus()
    qtbot.keyClicks(window.table.hand, TALK_KEY)
    settle()
    assert not window.table.talk_box.isVisible()


# -- the watchers talk too ------------------------------------------------------------------------

def watchers(*names: str, you: str = "") -> dict:
    return {"type": "watchers", "open": True, "cap": 8, "you_watch": bool(you), "showing": [],
            "you": you, "watchers": [{"name": n, "fingerprint": f"w-{n}", "shown": []} for n in names]}


def watcher_talk(name: str, text: str, mine: bool = False) -> dict:
    return {"type": "talk", "kind": "say", "seat": None, "name": name, "fingerprint": f"w-{name}",
            "role": "watcher", "mine": mine, "text": text}


def test_a_watchers_words_are_named_as_a_watchers_below_the_watchers_line(window):
    bridge = at_the_table(window)
    bridge.deliver(watchers("Leo"))
    bridge.deliver(watcher_talk("Leo", "<b>Go</b> Grandma!"))
    settle()
    assert window.table.talk_list.lines() == ["Leo (watching): <b>Go</b> Grandma!"]
    [bubble] = bubbles(window)
    assert bubble.label.text() == "Leo (watching): <b>Go</b> Grandma!"  # (plain text, who said it)
    assert bubble.label.textFormat() == Qt.PlainText
    line = window.table.watchers_line
    assert line.isVisible()
    below = line.mapTo(window.table, line.rect().bottomLeft()).y()
    assert below <= bubble.geometry().top() <= below + 10  # just below the watchers' line


def test_the_mute_menu_holds_the_watchers_and_a_watcher_not_itself(window):
    session = Talking()
    bridge = at_the_table(window, session)  # the host's screen
    bridge.deliver(watchers("Leo", "Maya"))
    settle()
    table = window.table
    table.talk.open_box()
    texts = [a.text() for a in table.talk_box.mute_button.menu().actions()]
    assert "Mute Leo (watching) on my screen" in texts and "Mute Maya (watching) for the table" in texts
    {a.text(): a for a in table.talk_box.mute_button.menu().actions()}[
        "Mute Leo (watching) for the table"].trigger()
    assert session.calls == [("mute", "w-Leo", True)]
    bridge = at_the_table(window, Talking(), is_host=False)  # Leo's own screen, watching
    bridge.deliver(watchers("Leo", "Maya", you="w-Leo"))
    settle()
    table.talk.open_box()
    texts = [a.text() for a in table.talk_box.mute_button.menu().actions()]
    assert "Mute Maya (watching) on my screen" in texts
    assert not any("Leo" in t for t in texts)  # not yourself


def one_line(label: QLabel) -> bool:
    return label.height() < 2 * label.fontMetrics().lineSpacing()


def test_a_bubble_is_as_wide_as_its_words_then_wraps_at_its_width(window):
    """Seen in a real window: "Leo / (watching): / Nice lead, / Grandma!", "Thank you, /
    Leo! Watch / which two I / throw away." — a word-wrapped label left to itself picked
    a column far narrower than the bubble may be."""
    bridge = at_the_table(window)
    bridge.deliver(watchers("Leo"))
    bridge.deliver(talk(1, "Nice lead, Grandma!"))
    bridge.deliver(watcher_talk("Leo", "Nice lead, Grandma!"))
    bridge.deliver(talk(2, "Thank you, Leo! Watch which two I throw away, and why."))
    settle()
    by_text = {b.label.text(): b.label for b in bubbles(window)}
    short = by_text["Nice lead, Grandma!"]
    assert one_line(short), f"{short.width()} x {short.height()} px"
    for text in ("Leo (watching): Nice lead, Grandma!",
                 "Thank you, Leo! Watch which two I throw away, and why."):
        label = by_text[text]  # as wide as a bubble may be, then wrapped
        assert label.width() == BUBBLE_WIDTH, f"{text!r}: {label.width()} x {label.height()} px"


def test_a_reaction_no_font_here_can_draw_is_shown_in_words(window, monkeypatch):
    """👍 where no emoji font is installed was an empty box: a reaction's emoji that no
    font here draws is shown in words — on its button, its bubble and its line."""
    nowhere = "\U0010FFFD"  # (a private-use character: no font draws it)
    font = window.font()
    assert drawable("Well played", font) and not drawable(nowhere, font)
    monkeypatch.setitem(talk_module.SPOKEN, nowhere, "Thumbs up")
    assert readable(nowhere, font) == "Thumbs up" and readable("Oops", font) == "Oops"
    bridge = at_the_table(window)
    bridge.deliver(talk(1, nowhere, "react", reaction="thumbs-up"))
    settle()
    assert [b.label.text() for b in bubbles(window)] == ["Thumbs up"]
    assert window.table.talk_list.lines() == [f"{LONG_NAMES[1]}: Thumbs up"]
    thumbs = window.table.talk_box.reactions["thumbs-up"]  # 👍 itself where a font has it
    assert thumbs.text() in ("\U0001F44D", "Thumbs up") and drawable(thumbs.text(), thumbs.font())
