"""Table talk over real sessions on loopback (issue 29), under the seeded and the private
deal alike — talk does not depend on the deal, and this proves it: everyone hears what each
says while a hand is played; a forged message is refused and named, at the host and at a
client a dishonest host relayed it to; a burst past the rate is refused by the host and
by every client; the host's mute is checked by every client, and reaches one that joins
later; and talk leaves the log, its hashes and the hand's replay exactly as they were."""

from __future__ import annotations

import pytest

from net.trust import talk as t
from net.trust.signing import seal
from tests.net.session_kit import PATIENT, Table, assert_all_verified, ident
from tests.waits import until

PACE = 0.08  # every bot's pause: a hand lasts a few seconds, long enough to talk in


def said(events: list[dict], kind: str | None = None) -> list[dict]:
    return [e for e in events if e["type"] == "talk" and (kind is None or e["kind"] == kind)]


def words(events: list[dict]) -> list[str]:
    return [e["text"] for e in said(events) if e["kind"] in ("say", "react")]


async def talking_table(tmp_path, deal: bool, guests: int = 3, **kw) -> Table:
    """A Rook table on loopback: the host's seat and each guest's played by a bot at
    ``PACE``; the game starts once every seat is taken."""
    table = Table(tmp_path, game="rook", hands=1, guests=0, timings=PATIENT,
                  host_kw={"mental_deal": deal, "bot_delay": PACE}, **kw)
    await table.start()
    for i in range(guests):
        table.add_guest(ident(f"Talker{i}"), bot_delay=PACE)
    return table


def everyone(table: Table) -> list[list[dict]]:
    return [table.host_events] + [table.guest_events[i] for i in range(len(table.guests))]


def test_everyone_hears_what_each_says_while_a_hand_is_played(arun, tmp_path, deal):
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            await until(table.hand_started, 30, "the first hand under way")
            first, second = table.guests[0], table.guests[1]
            first.talk.react("well-played")
            await until(lambda: all(words(ev) for ev in everyone(table)), 10,
                        lambda: f"the reaction everywhere: {[words(ev) for ev in everyone(table)]}")
            second.talk.say("<b>nice</b> trick")
            await until(lambda: all(len(words(ev)) == 2 for ev in everyone(table)), 10)
            table.host.talk.say("Thanks, both")
            await until(lambda: all(len(words(ev)) == 3 for ev in everyone(table)), 10)
            table.hurry()  # (all said, mid-hand: the rest of the hand at once)
            return await table.finish(), [said(ev) for ev in everyone(table)], table.host.authority
        finally:
            await table.close()

    summaries, heard, auth = arun(main(), timeout=90)
    assert_all_verified(summaries, hands=1)  # the hand went on, every entry checked
    names = {seat: info.name for seat, info in auth.seats.items()}
    for events in heard:
        assert [e["text"] for e in events] == ["Well played", "<b>nice</b> trick", "Thanks, both"]
        react, say, host = events
        assert (react["kind"], react["reaction"], react["name"]) == ("react", "well-played", "Talker0")
        assert say["name"] == "Talker1" and names[say["seat"]] == "Talker1"
        assert host["role"] == "player" and host["seat"] == 0  # the host's person, seated
    assert [e["mine"] for e in heard[1]] == [True, False, False]  # each sees its own marked
    assert [e["mine"] for e in heard[0]] == [False, False, True]
    assert all(s.kind != "talk" for s in auth.log)


def test_a_forged_message_is_refused_and_named(arun, tmp_path, deal):
    """A guest that sends a message in another's name is refused by the host (and told
    why), and the host's person is told who did it; a dishonest host that relays a forged
    message is named by every client, which does not show it."""
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            await until(table.hand_started, 30)
            liar, victim = table.guests[0], table.guests[1]
            body = t.talk_body(liar.table, victim.identity.public_key, 1, say="I give up")
            forged = {"type": "talk", "signed": {"body": body,
                                                 "sig": seal(liar.identity, t.TALK_DOMAIN, body)["sig"]}}
            liar.link.send(forged)
            await until(lambda: said(table.guest_events[0], "refused"), 10)
            await until(lambda: said(table.host_events, "refused"), 10)
            # the host relays the same forgery without checking it (a dishonest host)
            for link in list(table.host.outbox.links.values()):
                link.send(forged)
            await until(lambda: all(said(table.guest_events[i], "refused")
                                    for i in (1, 2)), 10)
            return [said(ev) for ev in everyone(table)]
        finally:
            await table.close()

    host, liar, victim, other = arun(main(), timeout=90)
    [told] = host
    assert told["kind"] == "refused" and "Talker1's name" in told["reason"]
    assert "Talker0 wrote a message in Talker1's name" in told["text"]
    assert any("Talker1's name" in e["reason"] and e["mine"] for e in liar)  # refused back to it
    for events in (victim, other):
        [refused] = events  # nothing shown, one refusal, naming the host that relayed it
        assert refused["blame"] == "host" and "forged" in refused["reason"]
        assert refused["name"] == "Talker1" and "the host relayed it" in refused["text"]
    assert not any(e["kind"] in ("say", "react") for events in (host, liar, victim, other)
                   for e in events)


def test_more_than_five_in_ten_seconds_are_refused_by_the_host_and_every_client(arun, tmp_path, deal):
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            await until(table.hand_started, 30)
            chatty = table.guests[0]
            for _ in range(7):
                chatty.talk.react("thinking")
            await until(lambda: len(said(table.guest_events[0], "refused")) == 2, 10,
                        lambda: f"the host's two refusals: {said(table.guest_events[0])}")
            await until(lambda: all(len(words(ev)) == 5 for ev in everyone(table)), 10)
            # a dishonest host relays a burst of seven from one person: each client shows five
            burst = [t.talk_message(t.sign_talk(table.guests[1].identity, chatty.table,
                                                10**15 + i, react="oops")) for i in range(7)]
            for link in list(table.host.outbox.links.values()):
                for message in burst:
                    link.send(message)
            await until(lambda: all(len(said(table.guest_events[i], "refused")) >= 2
                                    for i in (0, 2)), 10)
            return [said(ev) for ev in everyone(table)]
        finally:
            await table.close()

    host, chatty, victim, other = arun(main(), timeout=90)
    refusals = [e for e in chatty if e["kind"] == "refused"]
    assert len(refusals) >= 2 and all(e["mine"] and "more than 5" in e["reason"] for e in refusals[:2])
    for events in (host, victim, other):
        assert words(events).count("Thinking\u2026") == 5
    for events in (chatty, other):  # the host's burst of seven: five shown, two refused
        assert words(events).count("Oops") == 5
        late = [e for e in events if e["kind"] == "refused" and e["name"] == "Talker1"]
        assert len(late) == 2 and all(e["blame"] == "nobody" for e in late)


def test_the_hosts_mute_is_checked_by_every_client_and_reaches_a_latecomer(arun, tmp_path, deal):
    async def main():
        table = await talking_table(tmp_path, deal, guests=2)
        try:
            await until(lambda: len(table.host.outbox.links) == 2, 30)
            noisy = table.guests[0]
            table.host.talk.mute(noisy.identity.fingerprint)
            await until(lambda: all(said(ev, "mute") for ev in everyone(table)), 10)
            late = table.add_guest(ident("Talker2"), bot_delay=PACE)  # joins after the mute
            await until(lambda: late.talk.desk.muted(noisy.identity.public_key), 10)
            await until(table.hand_started, 30)
            noisy.talk.say("can you hear me?")
            await until(lambda: said(table.guest_events[0], "refused"), 10)
            # a guest cannot mute anyone (only the host's key may)
            late.link.send(t.talk_message(t.sign_talk(late.identity, late.table, 5,
                                                      mute=(table.host.key, True))))
            await until(lambda: said(table.guest_events[2], "refused"), 10)
            table.host.talk.mute(noisy.identity.fingerprint, on=False)
            await until(lambda: all(len(said(ev, "mute")) == 2 for ev in everyone(table)), 10)
            noisy.talk.say("thank you")
            await until(lambda: all("thank you" in words(ev) for ev in everyone(table)), 10)
            return [said(ev) for ev in everyone(table)], late.talk.desk
        finally:
            await table.close()

    (host, noisy, quiet, late), late_desk = arun(main(), timeout=90)
    for events in (host, noisy, quiet, late):
        assert "can you hear me?" not in words(events)
        mutes = [e for e in events if e["kind"] == "mute"]
        assert [e["on"] for e in mutes] == [True, False] and mutes[0]["target_name"] == "Talker0"
        assert "The host muted Talker0" in mutes[0]["text"]
    [refused] = [e for e in noisy if e["kind"] == "refused"]
    assert refused["mine"] and "muted by the host" in refused["reason"]
    assert any("only the host mutes" in e["reason"] for e in late if e["kind"] == "refused")
    assert not late_desk.mutes_in_force()


def test_talk_leaves_the_log_and_its_hashes_as_they_were(arun, tmp_path, deal):
    """The same table twice, every key, seed and randomness fixed: once in silence, once
    with every guest reacting to every position it is shown. Under the seeded deal the
    host's log — every entry's hash, the hand's replay — is the same byte for byte. Under
    the private deal a guest's deal messages draw on its randomness in an order that
    depends on when it was seated against the deal's first attempt (seen under load: a
    party's key at attempt 1 drawn from another counter), so there the logs must hold the
    same entries kind for kind, none of them talk, each verified by every guest."""
    def fixed(n: int):
        import hashlib
        counter = [0]

        def rng(size: int) -> bytes:
            counter[0] += 1
            return hashlib.sha256(f"guest-{n}-{counter[0]}".encode()).digest()[:size] \
                if size <= 32 else bytes(size)
        return rng

    async def run(where, chatter: bool):
        table = Table(where, game="rook", hands=1, guests=0, timings=PATIENT,
                      host_kw={"mental_deal": deal, "table_seed": b"talk" * 8})
        await table.start()
        try:
            for i in range(3):
                guest = table.add_guest(ident(f"Quiet{i}"), seat=i + 1, rng=fixed(i))
                await until(lambda: len(table.host.outbox.links) == i + 1, 20)
                if chatter:
                    events = table.guest_events[i]
                    guest.emit = chatty(guest, events)
            summaries = await table.finish()
            heard = sum(len(words(ev)) for ev in everyone(table))
            log = [(s.entry.kind, s.hash) for s in table.host.authority.log]
            return log, summaries, heard
        finally:
            await table.close()

    def chatty(guest, events):
        def emit(event):
            events.append(event)
            if event["type"] == "state":
                guest.talk.react("thumbs-up")
        return emit

    silent, silent_summaries, none = arun(run(tmp_path / "silent", False), timeout=120)
    talked, talked_summaries, heard = arun(run(tmp_path / "talked", True), timeout=120)
    assert none == 0 and heard > 20, heard  # there was talk, and plenty of it
    assert_all_verified(silent_summaries + talked_summaries, hands=1)
    kinds = [[kind for kind, _ in log] for log in (silent, talked)]
    assert kinds[0] == kinds[1] and "talk" not in kinds[1], \
        f"talk changed the log: kinds silent {kinds[0]}, with talk {kinds[1]}"
    if not deal:
        assert talked == silent, "talk changed the log's hashes"


def test_parlour_join_prints_the_talk_it_hears_as_json_lines(arun, tmp_path):
    """A headless guest (``parlour join``, its own process) checks the talk the host relays
    and prints each as one JSON line, as it does every event; it says nothing itself."""
    from tests.net.proc_kit import Peers

    async def main(peers):
        # The talk before the deal (the game started once both lines are in, not when the
        # seat is taken): no hand has to last long enough to talk in, so the bots are quick.
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=2,
                      host_kw={"bot_delay": 0.01, "auto_start": False})
        await table.start()
        try:
            join = peers.start(["join", "--address", f"127.0.0.1:{table.host.port}",
                                "--fingerprint", table.host.identity.fingerprint, "--bot",
                                "random", "--delay", "0.01", "--state-dir", tmp_path / "j",
                                "--quick"], name="join")
            await until(lambda: table.host.outbox.links, 30, "parlour join seated")
            await until(lambda: join.events("connection"), 30)
            table.host.talk.say("<b>Welcome</b>, headless friend")
            table.host.talk.react("well-played")
            await until(lambda: len(join.events("talk")) == 2, 20,
                        lambda: f"two talk lines: {join.lines[-5:]} {join.stderr[-5:]}")
            table.host.start_game()
            await table.finish(90)
            return join.events("talk"), join.wait(30)
        finally:
            await table.close()

    with Peers() as peers:
        lines, status = arun(main(peers), timeout=150)
    assert status == 0
    say, react = lines
    assert (say["kind"], say["text"], say["seat"], say["mine"]) == \
        ("say", "<b>Welcome</b>, headless friend", 0, False)
    assert (react["kind"], react["reaction"], react["text"]) == ("react", "well-played", "Well played")
    assert say["fingerprint"] and say["name"]


def test_bad_talk_is_refused_with_a_reason_and_the_game_goes_on(arun, tmp_path, deal):
    """Malformed and abusive talk from a guest, and the same relayed by a host to its
    guests: each refused with a reason, nobody disconnected, the hand played to its end
    and verified by every guest."""
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            await until(table.hand_started, 30)
            rude = table.guests[0]
            good = t.sign_talk(rude.identity, rude.table, 7, say="hi")
            bad = [{"signed": {}}, {"signed": {"body": {}, "sig": b"x" * 64}},
                   {"signed": {**good, "sig": bytes(64)}},
                   {"signed": {"body": {**good["body"], "say": 5}, "sig": good["sig"]}},
                   {"signed": t.sign_talk(rude.identity, rude.table, 8, say="\U0001F600" * 10_000)},
                   {"signed": t.sign_talk(rude.identity, rude.table, 9, say="<b>\u202e</b>")},
                   {"signed": t.sign_talk(rude.identity, rude.table, 10, say="one\ntwo")},
                   {"signed": t.sign_talk(rude.identity, rude.table, 11, react="shrug")}]
            for message in bad:
                rude.link.send({"type": "talk", **message})
            await until(lambda: len(said(table.guest_events[0], "refused")) == len(bad), 20,
                        lambda: f"a refusal for each: {said(table.guest_events[0])}")
            for link in list(table.host.outbox.links.values()):  # a host relaying them all
                for message in bad:
                    link.send({"type": "talk", **message})
            await until(lambda: all(len(said(table.guest_events[i], "refused")) >= 2 * len(bad) - 1
                                    if i == 0 else len(said(table.guest_events[i], "refused")) == len(bad)
                                    for i in range(3)), 20)
            table.hurry()
            return await table.finish(), [said(table.guest_events[i]) for i in range(3)], \
                table.guests[0].reconnects
        finally:
            await table.close()

    summaries, heard, reconnects = arun(main(), timeout=120)
    assert_all_verified(summaries, hands=1)
    assert reconnects == 0  # nobody was cut off for it
    reasons = [e["reason"] for e in heard[0][:8]]
    assert all(e["mine"] for e in heard[0][:8])
    assert sum("malformed" in r for r in reasons) == 3 and any("forged" in r for r in reasons)
    assert any("at most 200 characters" in r for r in reasons)
    assert any("direction override" in r for r in reasons)
    assert any("control characters" in r for r in reasons)
    assert any("no reaction" in r for r in reasons)
    for events in heard[1:]:  # relayed by a host that checked nothing: each named
        assert [e["kind"] for e in events] == ["refused"] * 8
        assert all(e["blame"] == "host" for e in events)


def test_a_client_that_rejoins_keeps_the_hosts_mute_and_names_nobody(arun, tmp_path, deal):
    """A guest whose link drops and comes back is sent the host's mutes in force again, as
    a newcomer is: it takes them without a word (not as a replay the host relayed, not as
    a second mute), and the muted person stays muted on its screen."""
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            await until(table.hand_started, 30)
            noisy, quiet = table.guests[:2]
            table.host.talk.mute(noisy.identity.fingerprint)
            await until(lambda: all(said(ev, "mute") for ev in everyone(table)), 10)
            quiet.link.close("cut")  # the link drops; the same client connects again
            await until(lambda: quiet.reconnects >= 1 and quiet.link is not None
                        and quiet.state.value == "joined", 30,
                        lambda: f"back at the table: {quiet.state}, {quiet.reconnects}")
            table.host.talk.say("welcome back")
            await until(lambda: "welcome back" in words(table.guest_events[1]), 10,
                        lambda: f"the host's words after the rejoin: {said(table.guest_events[1])}")
            return said(table.guest_events[1]), quiet.talk.desk.muted(noisy.identity.public_key)
        finally:
            await table.close()

    heard, still_muted = arun(main(), timeout=90)
    assert still_muted
    assert [e["kind"] for e in heard] == ["mute", "say"], heard  # no refusal, no second mute


# -- watchers talk too ------------------------------------------------------------------------------

def watching(table: Table, name: str):
    """A watcher of ``table`` (no seat, no bot) and its events."""
    guest = table.add_guest(ident(name), watch=True, bot_level=None)
    return guest, table.guest_events[len(table.guests) - 1]


def listed(guest, name: str) -> bool:
    return name in [w["name"] for w in guest.watch_list["watchers"]]


def test_a_watcher_talks_checked_by_everyone_and_named_as_a_watcher(arun, tmp_path, deal):
    """A watcher's talk is signed by it, checked by the host and relayed to every player
    and watcher, each of whom checks it again: named as a watcher (no seat), held to the
    same rate, and muted by the host for the table like anyone."""
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            leo, leo_events = watching(table, "Leo")
            await until(lambda: all(listed(g, "Leo") for g in table.guests), 30,
                        lambda: f"Leo in every list: {[g.watch_list for g in table.guests]}")
            await until(table.hand_started, 30)
            heard_by = everyone(table)  # the host, the players and Leo
            leo.talk.say("Go Grandma!")
            await until(lambda: all("Go Grandma!" in words(ev) for ev in heard_by), 10,
                        lambda: f"Leo's words everywhere: {[words(ev) for ev in heard_by]}")
            table.guests[0].talk.react("well-played")
            await until(lambda: "Well played" in words(leo_events), 10)
            for _ in range(7):  # past the rate (with "Go Grandma!" or without, if it is
                leo.talk.react("thinking")  # 10 s old by now): refused by the host, as anyone's

            def thinking() -> list[int]:
                return [words(ev).count("Thinking\u2026") for ev in heard_by]
            await until(lambda: len(set(thinking())) == 1
                        and thinking()[0] + len(said(leo_events, "refused")) == 7, 10,
                        lambda: f"each one's count alike, the rest refused: {thinking()}, "
                                f"{said(leo_events, 'refused')}")
            shown = thinking()[0]
            table.host.talk.mute(leo.identity.fingerprint)
            await until(lambda: all(said(ev, "mute") for ev in heard_by), 10)
            leo.talk.say("still here")
            await until(lambda: len(said(leo_events, "refused")) == 8 - shown, 10,
                        lambda: said(leo_events))
            table.hurry()
            return await table.finish(timeout=120), [said(ev) for ev in heard_by], shown
        finally:
            await table.close()

    summaries, heard, shown = arun(main(), timeout=180)
    assert shown in (4, 5)  # at most 5 of Leo's within 10 s, on every screen
    assert_all_verified(summaries, hands=1)  # the players' hand went on, Leo checked it too
    for events in heard:
        [leo_said] = [e for e in events if e["text"] == "Go Grandma!"]
        assert (leo_said["name"], leo_said["role"], leo_said["seat"]) == ("Leo", "watcher", None)
        assert "still here" not in words(events)
        [mute] = [e for e in events if e["kind"] == "mute"]
        assert mute["target_name"] == "Leo" and mute["on"]
    leo_heard = heard[-1]
    assert [e["mine"] for e in leo_heard if e["text"] == "Go Grandma!"] == [True]
    *rate, muted = [e for e in leo_heard if e["kind"] == "refused"]
    assert rate and all(e["mine"] and "more than 5" in e["reason"] for e in rate)
    assert "muted by the host" in muted["reason"]


def test_a_watchers_forged_talk_is_refused_and_named(arun, tmp_path, deal):
    """A watcher that sends a message in a player's name is refused (and told why), named
    to the host's person as the watcher it is, and stays; a dishonest host that relays a
    message said to be the watcher's but not signed by it is named by every client."""
    async def main():
        table = await talking_table(tmp_path, deal)
        try:
            leo, leo_events = watching(table, "Leo")
            await until(lambda: all(listed(g, "Leo") for g in table.guests), 30)
            victim = table.guests[1]
            body = t.talk_body(leo.table, victim.identity.public_key, 1, say="I give up")
            leo.link.send(t.talk_message(seal(leo.identity, t.TALK_DOMAIN, body)))
            await until(lambda: said(leo_events, "refused"), 10, lambda: said(leo_events))
            await until(lambda: said(table.host_events, "refused"), 10,
                        lambda: f"the host's person told: {said(table.host_events)}")
            body = t.talk_body(leo.table, leo.identity.public_key, 1, say="I am Leo")
            forged = t.talk_message(seal(victim.identity, t.TALK_DOMAIN, body))
            for link in [*table.host.outbox.links.values(), *table.host.watchers.links()]:
                link.send(forged)  # (a dishonest host relays it unchecked)
            players = [table.guest_events[i] for i in range(3)]
            await until(lambda: all(said(ev, "refused") for ev in players)
                        and len(said(leo_events, "refused")) == 2, 10,
                        lambda: f"each refused it: {[said(ev) for ev in [*players, leo_events]]}")
            assert table.host.watchers.holds(leo.identity.fingerprint)  # (still watching)
            return [said(ev) for ev in everyone(table)]
        finally:
            await table.close()

    host, *players, leo = arun(main(), timeout=90)
    [told] = host
    assert "Leo wrote a message in Talker1's name" in told["text"]
    refused_back, named = leo
    assert refused_back["mine"] and "Talker1's name" in refused_back["reason"]
    for events in [*players, [named]]:
        [refused] = events  # not shown: refused, naming the host that relayed it
        assert refused["blame"] == "host" and "forged" in refused["reason"]
        assert (refused["name"], refused["role"]) == ("Leo", "watcher")
    assert not any(e["kind"] in ("say", "react") for events in (host, *players, leo) for e in events)
