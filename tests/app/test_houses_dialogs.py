"""The dialogs for playing across houses: the host's "Invite from another house" (a code
in large type, Copy, New code, what became of it) and the guest's "Join by code"
(checked as typed, the code's words offered), and the servers in Settings."""

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QGuiApplication

from app.bridge import EventBridge
from app.houses_dialogs import InviteDialog, JoinCodeDialog
from app.lobby import LobbyPage
from app.settings import SettingsDialog
from app.theme import STYLE
import net.houses as houses
from net.houses import code_words
from net.houses.tables import SPENT


class FakeHost:
    def __init__(self):
        self.asked: list[int] = []

    def invite(self, seat: int) -> None:
        self.asked.append(seat)


def invite_event(state, code="7-guitarist-revenge", message="", seat=3):
    return {"type": "invite", "seat": seat, "state": state, "code": code, "message": message}


def test_the_invitation_shows_the_code_large_copies_it_and_makes_a_new_one_when_burnt(qtbot):
    host, bridge = FakeHost(), EventBridge()
    dialog = InviteDialog(host, bridge, 3, "across")
    qtbot.addWidget(dialog)
    dialog.setStyleSheet(STYLE)  # as under the app's window (its style sets every font's size)
    assert host.asked == [3]  # a code is asked for at once
    assert not dialog.copy_button.isEnabled()
    bridge.deliver(invite_event("waiting"))
    qtbot.waitUntil(lambda: dialog.code_label.text() == "7-guitarist-revenge")
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.code_label.font().pointSize() >= 2 * dialog.status.font().pointSize()
    qtbot.mouseClick(dialog.copy_button, Qt.LeftButton)
    assert QGuiApplication.clipboard().text() == "7-guitarist-revenge"
    bridge.deliver(invite_event("burnt", message="Someone typed a wrong code, so that code "
                                                  "no longer works (each code allows one try). Make a new one."))
    qtbot.waitUntil(lambda: "wrong code" in dialog.status.text())
    assert dialog.code_label.text() == "—" and not dialog.copy_button.isEnabled()
    qtbot.mouseClick(dialog.new_button, Qt.LeftButton)
    assert host.asked == [3, 3]
    bridge.deliver(invite_event("waiting", code="12-banjo-miracle"))
    bridge.deliver(invite_event("used", code="7-guitarist-revenge"))  # the old code's news: ignored
    bridge.deliver(invite_event("waiting", code="99-other-seat", seat=2))  # another seat's
    qtbot.waitUntil(lambda: dialog.code_label.text() == "12-banjo-miracle")
    bridge.deliver(invite_event("used", code="12-banjo-miracle"))
    qtbot.waitUntil(lambda: "in" in dialog.status.text() and "They're" in dialog.status.text())


def test_an_invitation_that_cannot_be_made_says_why(qtbot):
    host, bridge = FakeHost(), EventBridge()
    dialog = InviteDialog(host, bridge, 1, "to your left")
    qtbot.addWidget(dialog)
    dialog.show()
    bridge.deliver({**invite_event("failed", code="", seat=1,
                                   message="Can't reach the invitation service (x). Check this "
                                           "computer's internet connection."),
                    "details": "Invitation service: ws://x:4000/v1"})
    qtbot.waitUntil(lambda: "Can't reach the invitation service" in dialog.status.text())
    assert dialog.new_button.isEnabled()
    # the address is on a line of its own, under the sentence
    assert dialog.details.isVisible() and dialog.details.text() == "Invitation service: ws://x:4000/v1"


def test_a_code_spent_with_nobody_in_is_replaced_at_once_saying_why(qtbot):
    """Something that is not Parlour used the code, or no connection came: the code was
    right, so this is no guess at it — a new code at once, and why, until it is typed."""
    host, bridge = FakeHost(), EventBridge()
    dialog = InviteDialog(host, bridge, 3, "across")
    qtbot.addWidget(dialog)
    dialog.setStyleSheet(STYLE)  # as under the app's window
    dialog.show()
    qtbot.waitExposed(dialog)
    bridge.deliver(invite_event("waiting"))
    qtbot.waitUntil(lambda: dialog.code_label.text() == "7-guitarist-revenge")
    bridge.deliver(invite_event("joining"))
    qtbot.waitUntil(lambda: dialog.status.text() == "They typed the code. Connecting…")
    why = SPENT["relay-there"]
    bridge.deliver({**invite_event("spent", message=why), "details": "Relay: tcp:relay.example:4001"})
    qtbot.waitUntil(lambda: host.asked == [3, 3])  # the next code, asked for at once
    assert dialog.status.text() == why and "They're in" not in dialog.status.text()
    assert not dialog.copy_button.isEnabled()  # the spent code is not offered
    assert dialog.details.text() == "Relay: tcp:relay.example:4001" and "tcp:" not in why
    bridge.deliver(invite_event("waiting", code="12-banjo-miracle"))
    qtbot.waitUntil(lambda: dialog.code_label.text() == "12-banjo-miracle")
    assert dialog.status.text() == f"{why} Here is a new code to read out."
    assert dialog.copy_button.isEnabled()
    # the dialog grew to the longer sentence: none of it is cut off
    qtbot.waitUntil(lambda: dialog.status.height() >= dialog.status.heightForWidth(dialog.status.width()))
    bridge.deliver(invite_event("joining", code="12-banjo-miracle"))
    qtbot.waitUntil(lambda: dialog.status.text() == "They typed the code. Connecting…")
    assert not dialog.details.isVisible()  # the last code's relay is not this one's news
    bridge.deliver(invite_event("used", code="12-banjo-miracle"))
    qtbot.waitUntil(lambda: dialog.status.text() == "They're in. You can close this.")


def test_join_by_code_checks_what_is_typed_and_tidies_it(qtbot):
    dialog = JoinCodeDialog(load_words=False)
    qtbot.addWidget(dialog)
    assert not dialog.join_button.isEnabled() and dialog.problem.text() == ""
    for bad, says in (("guitarist revenge", "starts with the host's number"),
                      ("7 guitarist", "a number and two words"),
                      ("7-guitar1st-revenge", "only words")):
        dialog.field.setText(bad)
        assert not dialog.join_button.isEnabled()
        assert says in dialog.problem.text(), (bad, dialog.problem.text())
    dialog.field.setText("  7 Guitarist  revenge ")
    assert dialog.join_button.isEnabled() and dialog.problem.text() == ""
    assert dialog.code() == "7-guitarist-revenge"


def test_join_by_code_refuses_words_that_are_not_code_words(qtbot):
    """Each code allows one try: a word that is not a code word must not spend it."""
    dialog = JoinCodeDialog()  # the words load in the background, from the library's list
    qtbot.addWidget(dialog)
    dialog.field.setText("42 zzz qqq")
    qtbot.waitUntil(lambda: dialog.words.rowCount() == 512, timeout=60000)  # (importing the library)
    assert not dialog.join_button.isEnabled()
    assert dialog.problem.text() == "“zzz” is not one of the code words. Check the code with the host."
    dialog.field.setText("7 revenge guitarist")
    assert not dialog.join_button.isEnabled() and "order" in dialog.problem.text()
    dialog.field.setText("7 guitarist revenge")
    assert dialog.join_button.isEnabled() and dialog.problem.text() == ""


def test_join_by_code_offers_the_words_of_the_code_list(qtbot):
    words = code_words()  # from the wormhole library's own list
    everything = words.everything()
    assert "guitarist" in everything and "revenge" in everything and len(everything) == 512
    dialog = JoinCodeDialog(load_words=False)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.set_words(words)
    qtbot.keyClicks(dialog.field, "7-guita")
    qtbot.waitUntil(lambda: dialog.completer.popup().isVisible())
    assert dialog.completer.currentCompletion() == "guitarist"
    dialog.completer.activated.emit("guitarist")
    assert dialog.field.text() == "7-guitarist"


def code_dialog_typing(qtbot, typed: str) -> JoinCodeDialog:
    """The Join by code dialog on screen, its words loaded, ``typed`` typed in it."""
    dialog = JoinCodeDialog(load_words=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.set_words(code_words())
    qtbot.keyClicks(dialog.field, typed)
    return dialog


def press(qtbot, dialog: JoinCodeDialog, key) -> None:
    """``key`` where a person's key goes: to the word list while it is open (it takes
    the keys), else to the field."""
    popup = dialog.completer.popup()
    qtbot.keyClick(popup if popup.isVisible() else dialog.field, key)


def test_return_with_a_whole_code_joins_at_once(qtbot):
    """Seen in a real window: the list stayed open offering the word just typed
    ("revenge" under "7 guitarist revenge"), and the first Return only closed it."""
    dialog = code_dialog_typing(qtbot, "7 guitarist revenge")
    assert dialog.join_button.isEnabled()
    assert not dialog.completer.popup().isVisible()  # a whole word: nothing to offer
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        press(qtbot, dialog, Qt.Key_Return)
    assert dialog.code() == "7-guitarist-revenge"


def test_escape_closes_the_word_list_first_then_the_dialog(qtbot):
    dialog = code_dialog_typing(qtbot, "7 guitarist rev")
    popup = dialog.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    press(qtbot, dialog, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not popup.isVisible())
    assert dialog.isVisible() and dialog.field.text() == "7 guitarist rev", "the first Esc closed the dialog"
    with qtbot.waitSignal(dialog.rejected, timeout=5000):
        press(qtbot, dialog, Qt.Key_Escape)


def test_the_word_list_leaves_the_words_that_explain_what_to_type_in_sight(qtbot):
    """The list covered the dialog's explanation (the field moved under it, up the
    dialog, when the note under the field came and went) and the note itself."""
    dialog = code_dialog_typing(qtbot, "7 guitarist revenge")  # (the note came and went)
    dialog.field.clear()
    qtbot.keyClicks(dialog.field, "7 zzz rev")  # a whole word wrong, the next half typed
    popup = dialog.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.waitUntil(lambda: "“zzz”" in dialog.problem.text() and dialog.problem.isVisible())

    def on_screen(widget):
        return widget.geometry() if widget.isWindow() else \
            QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())
    shown = on_screen(popup)
    for words in (dialog.intro, dialog.field, dialog.problem):
        assert not shown.intersects(on_screen(words)), (words.objectName(), shown, on_screen(words))


def test_a_word_half_typed_is_not_called_wrong_until_it_is_whole(qtbot):
    """Seen: "“rev” is not one of the code words" under the field while “revenge” was
    still being typed. Nothing is said of a word while it may still become a code word
    (the list offers it); once a space follows it, or Join is pressed, it is judged."""
    dialog = code_dialog_typing(qtbot, "7 guitarist rev")
    qtbot.waitUntil(dialog.completer.popup().isVisible)
    assert dialog.completer.currentCompletion() == "revenge"  # (offered instead)
    assert dialog.problem.text() == "" and not dialog.problem.isVisible()
    assert not dialog.join_button.isEnabled()  # (not a code yet, all the same)
    qtbot.keyClicks(dialog.field, "enge")
    assert dialog.join_button.isEnabled() and dialog.problem.text() == ""
    dialog.field.setText("7 guitarist rev ")  # a space after it: the word is whole
    assert "“rev” is not one of the code words" in dialog.problem.text()
    dialog.field.setText("7 guitarist qqq")  # no code word starts with it: said at once
    assert "“qqq” is not one of the code words" in dialog.problem.text()
    dialog.field.setText("7 guitarist rev")
    assert dialog.problem.text() == ""
    dialog.accept()  # Join asked for with the word half typed: said, and the dialog stays
    assert dialog.isVisible() and "“rev” is not a whole code word yet" in dialog.problem.text()
    assert dialog.problem.isVisible()


def test_the_lobby_joins_by_the_code_typed(qtbot, monkeypatch):
    lobby = LobbyPage()
    qtbot.addWidget(lobby)
    monkeypatch.setattr(JoinCodeDialog, "exec", lambda self: self.field.setText("7 guitarist revenge") or 1)
    with qtbot.waitSignal(lobby.join_table) as joined:
        qtbot.mouseClick(lobby.code_button, Qt.LeftButton)
    assert joined.args == [{"code": "7-guitarist-revenge"}]


def test_the_servers_for_other_houses_are_settings(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.mailbox_edit.setText("http://nope")
    assert not dialog.save_button.isEnabled() and "ws://" in dialog.houses_note.text()
    dialog.mailbox_edit.setText("ws://mailbox.family.example:4000/v1")
    dialog.relay_edit.setText("transit.family.example")
    assert not dialog.save_button.isEnabled() and "tcp:" in dialog.houses_note.text()
    dialog.relay_edit.setText("tcp:transit.family.example:4001")
    assert dialog.save_button.isEnabled()
    try:
        dialog.accept()
        assert settings.mailbox == "ws://mailbox.family.example:4000/v1"
        assert houses.SETTINGS.mailbox == "ws://mailbox.family.example:4000/v1"
        assert houses.SETTINGS.relay == "tcp:transit.family.example:4001"
    finally:
        houses.configure()
    assert houses.SETTINGS.mailbox == houses.DEFAULT_MAILBOX


def test_a_join_that_failed_keeps_the_servers_address_behind_show_details(qtbot, window):
    """The sentence says "the relay"; the address is under Show Details, and readable
    there (it was cream on white under the window's style)."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QTextEdit

    from tests.app.test_app_mistakes import _contrast
    window.show_problem("Couldn't join the table",
                        "Couldn't join by code: this computer can't reach the relay that links "
                        "it to the host's house.", "Relay: tcp:relay.example:4001")
    qtbot.waitUntil(lambda: window.problem_box is not None and window.problem_box.isVisible())
    box = window.problem_box
    assert "tcp:" not in box.text() and box.detailedText() == "Relay: tcp:relay.example:4001"
    details = box.findChild(QTextEdit)
    assert details is not None
    details.show()
    details.ensurePolished()
    palette = details.palette()
    text, ground = palette.color(QPalette.Text), palette.color(QPalette.Base)
    assert _contrast(text, ground) >= 4.5, (text.name(), ground.name())
