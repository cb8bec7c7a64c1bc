"""Table talk's checks without I/O (net.trust.talk): signed, bound to its table and its
number, limited in length and rate, plain text only, muted by the host alone — at the host
(blaming the sender) and at a client (blaming the host where only it could be at fault)."""

from __future__ import annotations

import pytest

from net.constants import TALK_BURST, TALK_MAX_CHARS, TALK_WINDOW
from net.trust import talk as t
from net.trust.signing import ACTION_DOMAIN, opens, seal
from tests.net.trust_table import identity

TABLE = "table-talk"
HOST, DAD, GRAN, STRANGER = (identity(n) for n in ("TalkHost", "Dad", "Gran", "Stranger"))
SEATED = {HOST.public_key: t.Speaker(HOST.public_key, "Host", 0),
          DAD.public_key: t.Speaker(DAD.public_key, "Dad", 1),
          GRAN.public_key: t.Speaker(GRAN.public_key, "Gran", 2)}


def desk(relays: bool, window: float = TALK_WINDOW) -> t.TalkDesk:
    return t.TalkDesk(lambda: TABLE, lambda: HOST.public_key, SEATED.get, relays=relays,
                      window=window)


class Speaking:
    """A speaker's client: its numbers go up by one a message."""

    def __init__(self, who):
        self.who, self.n = who, 0

    def __call__(self, table: str = TABLE, **said) -> dict:
        self.n += 1
        return t.sign_talk(self.who, table, self.n, **said)


def test_a_message_signed_by_its_speaker_is_taken_and_read():
    dad = Speaking(DAD)
    said = desk(relays=False).check(dad(say="Well done, Gran!"), now=0.0)
    assert isinstance(said, t.Talk), said
    assert (said.speaker.name, said.speaker.seat, said.kind, said.words) == ("Dad", 1, "say", "Well done, Gran!")
    react = desk(relays=False).check(Speaking(GRAN)(react="well-played"), now=0.0)
    assert isinstance(react, t.Talk) and react.words == "Well played"


def test_the_signature_is_in_its_own_domain():
    envelope = t.sign_talk(DAD, TABLE, 1, say="hello")
    assert opens(DAD.public_key, t.TALK_DOMAIN, envelope)
    assert not opens(DAD.public_key, ACTION_DOMAIN, envelope)  # never passes for a move
    # and a move's signature over the same body never passes for talk
    as_move = seal(DAD, ACTION_DOMAIN, envelope["body"])
    refused = desk(relays=False).check(as_move, now=0.0)
    assert isinstance(refused, t.Refusal) and "forged" in refused.reason


@pytest.mark.parametrize("relays, blamed", [(True, "sender"), (False, "host")])
def test_a_forged_message_is_refused_and_named(relays, blamed):
    """Signed by another key than the one it names (Gran writing as Dad), or its words
    changed after signing: refused, naming the speaker it claims; at the host the sender
    is to blame, at a client the host that relayed it."""
    body = t.talk_body(TABLE, DAD.public_key, 1, say="I fold")
    forged = {"body": body, "sig": seal(GRAN, t.TALK_DOMAIN, body)["sig"]}
    refused = desk(relays).check(forged, now=0.0)
    assert isinstance(refused, t.Refusal) and refused.blame == blamed
    assert "Dad" in refused.reason and "forged" in refused.reason
    altered = Speaking(DAD)(say="nice")
    altered["body"]["say"] = "rude"
    assert isinstance(desk(relays).check(altered, now=0.0), t.Refusal)


def test_the_host_refuses_a_link_speaking_in_another_name():
    """A message Dad really signed, sent on Gran's link (a copy): refused, blaming Gran."""
    refused = desk(relays=True).check(Speaking(DAD)(say="hi"), now=0.0, sent_by=GRAN.public_key)
    assert isinstance(refused, t.Refusal) and refused.blame == "sender"
    assert "Dad's name" in refused.reason


def test_a_message_is_bound_to_its_table_and_its_number():
    dad = Speaking(DAD)
    d = desk(relays=False)
    first = dad(say="one")
    assert isinstance(d.check(first, now=0.0), t.Talk)
    again = d.check(first, now=1.0)
    assert isinstance(again, t.Refusal) and "replay" in again.reason and again.blame == "host"
    older = t.sign_talk(DAD, TABLE, 0 + 1, say="older")  # a lower number than the last: refused too
    d.check(dad(say="two"), now=2.0)
    assert isinstance(d.check(older, now=3.0), t.Refusal)
    elsewhere = d.check(dad(table="another-table", say="hi"), now=4.0)
    assert isinstance(elsewhere, t.Refusal) and "another table" in elsewhere.reason


def test_numbers_go_on_above_a_restart_without_being_kept():
    numbers = t.TalkNumbers()
    first = [numbers.next(1000.0) for _ in range(3)]
    assert first == [1_000_000, 1_000_001, 1_000_002]  # the clock's, then one more
    restarted = t.TalkNumbers()  # a new run, a second later: above them all
    assert restarted.next(1001.0) > first[-1]
    assert numbers.next(999.0) == 1_000_003  # a clock gone back: still one more


def test_someone_not_at_the_table_is_refused():
    refused = desk(relays=False).check(Speaking(STRANGER)(say="hi"), now=0.0)
    assert isinstance(refused, t.Refusal) and "not at this table" in refused.reason


@pytest.mark.parametrize("words, why", [
    ("x" * (TALK_MAX_CHARS + 1), "at most 200 characters"),
    ("\U0001F600" * 10_000, "at most 200 characters"),  # 10,000 emoji
    ("gg\u202eevil", "direction override"),  # a right-to-left override
    ("a\u2066b", "direction override"),  # an isolate
    ("line one\nline two", "control characters"),
    ("bell\x07", "control characters"),
    ("nul\x00", "control characters"),
    ("next\u2028line", "control characters"),
    ("   ", "nothing to say"),
])
def test_words_that_cannot_be_said_are_refused_with_a_reason(words, why):
    assert why in t.text_problem(words)
    refused = desk(relays=True).check(Speaking(DAD)(say=words), now=0.0)
    assert isinstance(refused, t.Refusal) and why in refused.reason


@pytest.mark.parametrize("words", [
    "<b>bold</b>", '<img src="http://x/y.png">', "http://example.com <a href='x'>link</a>",
    "\U0001F44D" * 200, "שלום עולם", "x" * TALK_MAX_CHARS, "family \U0001F468\u200d\U0001F469\u200d\U0001F467",
])
def test_markup_links_emoji_and_scripts_are_words_like_any_other(words):
    """Taken as they are (the app shows them as plain text, never as rich text)."""
    assert t.text_problem(words) is None
    said = desk(relays=False).check(Speaking(DAD)(say=words), now=0.0)
    assert isinstance(said, t.Talk) and said.words == words


def test_an_unknown_reaction_is_refused():
    refused = desk(relays=False).check(Speaking(DAD)(react="rude-gesture"), now=0.0)
    assert isinstance(refused, t.Refusal) and "no reaction" in refused.reason


def test_malformed_messages_are_refused_not_raised():
    d = desk(relays=False)
    good = Speaking(DAD)(say="hi")
    for bad in (None, {}, {"body": good["body"]}, {"body": {}, "sig": good["sig"]},
                {"body": {**good["body"], "react": "oops"}, "sig": good["sig"]},
                {"body": {**good["body"], "n": True}, "sig": good["sig"]},
                {"body": {**good["body"], "n": -4}, "sig": good["sig"]},
                {"body": {**good["body"], "say": b"bytes"}, "sig": good["sig"]},
                {"body": {**good["body"], "extra": 1}, "sig": good["sig"]}):
        refused = d.check(bad, now=0.0)
        assert isinstance(refused, t.Refusal) and "malformed" in refused.reason, bad


def test_more_than_five_in_ten_seconds_are_refused_on_the_receivers_clock():
    d = desk(relays=False)
    dad = Speaking(DAD)
    taken = [d.check(dad(react="oops"), now=i * 1.0) for i in range(TALK_BURST)]
    assert all(isinstance(x, t.Talk) for x in taken)
    sixth = d.check(dad(react="oops"), now=9.9)
    assert isinstance(sixth, t.Refusal) and "more than 5" in sixth.reason
    assert sixth.blame == "nobody"  # a slow link may bunch them: nobody is named
    # Gran is not held back by Dad's burst; Dad may speak again once the first left the window
    assert isinstance(d.check(Speaking(GRAN)(say="ok"), now=9.9), t.Talk)
    assert isinstance(d.check(dad(say="sorry"), now=10.0), t.Talk)


def test_what_an_honest_host_relays_passes_every_client_even_bunched():
    """The host's window is longer by the heartbeat's timeout: six messages it let through
    arrive at least 10 s apart at a client even when the first is held back that long."""
    timeout = 4.0
    host, client = desk(True, TALK_WINDOW + t.relay_slack(timeout)), desk(False)
    dad = Speaking(DAD)
    relayed = []
    for second in range(60):  # Dad tries once a second for a minute
        said = host.check(dad(react="thinking"), now=float(second), sent_by=DAD.public_key)
        if isinstance(said, t.Talk):
            relayed.append((float(second), said.envelope))
    assert len(relayed) < 60  # the host held him back
    # each one delayed by up to the timeout, the first of each burst the most
    for i, (sent, envelope) in enumerate(relayed):
        delay = timeout * 0.99 if i % TALK_BURST == 0 else 0.0
        assert isinstance(client.check(envelope, now=sent + delay), t.Talk), (i, sent)


def test_only_the_host_mutes_and_a_muted_person_is_refused_everywhere():
    host_says, client, host = Speaking(HOST), desk(relays=False), desk(relays=True)
    dad = Speaking(DAD)
    by_gran = desk(relays=False).check(Speaking(GRAN)(mute=(DAD.public_key, True)), now=0.0)
    assert isinstance(by_gran, t.Refusal) and "only the host" in by_gran.reason
    mute = host_says(mute=(DAD.public_key, True))
    for d in (client, host):
        muted = d.check(mute, now=0.0, **({"sent_by": HOST.public_key} if d is host else {}))
        assert isinstance(muted, t.Talk) and muted.kind == "mute" and muted.on
        assert d.muted(DAD.public_key) and d.mutes_in_force() == [muted]
    words = dad(say="let me speak")
    at_host = host.check(words, now=1.0, sent_by=DAD.public_key)
    assert isinstance(at_host, t.Refusal) and "muted by the host" in at_host.reason
    assert at_host.blame == "sender"
    at_client = client.check(words, now=1.0)  # (a host that relayed it anyway)
    assert isinstance(at_client, t.Refusal) and at_client.blame == "nobody"
    unmute = host_says(mute=(DAD.public_key, False))
    assert isinstance(client.check(unmute, now=2.0), t.Talk) and not client.muted(DAD.public_key)
    assert isinstance(client.check(dad(say="thank you"), now=3.0), t.Talk)


def test_a_rejoining_client_takes_back_the_mutes_the_host_sends_again_and_drops_the_rest():
    """As a client (re)joins, the host sends its mutes in force: the very mute it held is
    in force again without a word (not a replay); one the host no longer sends — it
    unmuted meanwhile, or restarted and forgot — lapses."""
    client, host_says = desk(relays=False), Speaking(HOST)
    on_dad, on_gran = host_says(mute=(DAD.public_key, True)), host_says(mute=(GRAN.public_key, True))
    for mute in (on_dad, on_gran):
        assert isinstance(client.check(mute, now=0.0), t.Talk)
    client.joined()  # the link dropped and came back
    again = client.check(on_dad, now=5.0)
    assert isinstance(again, t.Talk) and again.again, again
    assert client.muted(DAD.public_key) and not client.muted(GRAN.public_key)
    assert isinstance(client.check(Speaking(GRAN)(say="back again"), now=6.0), t.Talk)
    # once the host has unmuted Dad, its old mute of him shown again is a replay
    assert isinstance(client.check(host_says(mute=(DAD.public_key, False)), now=7.0), t.Talk)
    replayed = client.check(on_dad, now=8.0)
    assert isinstance(replayed, t.Refusal) and "replay" in replayed.reason
    assert replayed.blame == "host" and not client.muted(DAD.public_key)


def test_a_departed_hosts_mutes_lapse_at_a_takeover():
    hosting = [HOST.public_key]
    client = t.TalkDesk(lambda: TABLE, lambda: hosting[0], SEATED.get, relays=False)
    assert isinstance(client.check(Speaking(HOST)(mute=(DAD.public_key, True)), now=0.0), t.Talk)
    assert client.muted(DAD.public_key)
    hosting[0] = GRAN.public_key  # Gran carries the table on
    assert not client.muted(DAD.public_key) and client.mutes_in_force() == []
    assert isinstance(client.check(Speaking(DAD)(say="free again"), now=1.0), t.Talk)
