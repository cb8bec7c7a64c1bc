"""Whether each table the lobby lists still answers (``net.sessions.answering``): the state
machine told the time and what each check found, then its driver on a loop with a probe
that records its calls, then the real probe against a listening host on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket

from net.sessions.admission import Admission
from net.sessions.answering import Answering, Check, CheckTimings, TableChecks, answers
from net.wire.identity import Identity
from net.wire.transport import start_server
from tests.waits import until

T = CheckTimings(every=3.0, again=0.5, timeout=1.0, misses=2, forget_after=30.0)


def table(id="a", address="10.0.0.1", port=4000, name="Friday") -> dict:
    return {"id": id, "name": name, "game": "rook", "ruleset": "rook", "mode": "", "host": "Ann",
            "fingerprint": "3f9a-07c2-b1d4-e608", "open_seats": 2, "in_game": False,
            "address": address, "port": port, "protocol": 1, "table": "", "watchable": False}


def shown(machine: Answering, now: float) -> dict[str, bool]:
    return {t["id"]: t["answering"] for t in machine.shown(now)}


def test_a_table_found_is_listed_at_once_as_answering_and_checked_at_once():
    machine = Answering(T)
    machine.listed([table("a"), table("b", port=4001)], now=100.0)
    assert shown(machine, 100.0) == {"a": True, "b": True}
    assert machine.due(100.0) == [Check("a", "10.0.0.1", 4000), Check("b", "10.0.0.1", 4001)]
    assert machine.due(100.0) == []  # one check at a time for a row
    assert machine.next_change() is None  # both being checked: nothing else due


def test_a_table_that_answers_is_checked_again_every_few_seconds_not_sooner():
    machine = Answering(T)
    machine.listed([table()], now=0.0)
    (check,) = machine.due(0.0)
    machine.heard(check, True, now=0.2)
    assert machine.next_change() == 3.2
    assert machine.due(3.1) == [] and machine.due(3.2) == [check]


def test_two_misses_in_a_row_make_it_not_answering_then_it_leaves_the_list():
    machine = Answering(T)
    machine.listed([table()], now=0.0)
    (check,) = machine.due(0.0)
    machine.heard(check, False, now=0.1)  # one miss: a busy machine may lose a check
    assert shown(machine, 0.1) == {"a": True}
    assert machine.due(0.5) == [] and machine.due(0.6) == [check]  # asked again soon
    machine.heard(check, False, now=0.7)
    assert shown(machine, 0.7) == {"a": False}  # greyed: "not answering"
    assert machine.next_change() == 0.7 + T.again
    machine.due(1.2)  # (still checked, in case it comes back)
    assert machine.next_change() == 0.7 + T.forget_after  # when it is to leave the list
    assert shown(machine, 30.6) == {"a": False}
    assert shown(machine, 30.7) == {}  # silent long enough: off the list


def test_one_answer_brings_a_table_back_even_after_it_left_the_list():
    machine = Answering(T)
    machine.listed([table()], now=0.0)
    now = 0.0
    for _ in range(2):
        (check,) = machine.due(now)
        machine.heard(check, False, now)
        now += T.again
    assert shown(machine, 40.0) == {}
    (check,) = machine.due(40.0)
    machine.heard(check, True, 40.1)  # the laptop was opened again
    assert shown(machine, 40.1) == {"a": True}


def test_a_miss_then_an_answer_starts_the_count_again():
    machine = Answering(T)
    machine.listed([table()], now=0.0)
    for answered, at in ((False, 0.0), (True, 0.5), (False, 3.5)):
        (check,) = machine.due(at)
        machine.heard(check, answered, at)
    assert shown(machine, 3.5) == {"a": True}  # misses not in a row: still answering


def test_a_table_found_at_another_address_is_checked_afresh_and_old_answers_ignored():
    machine = Answering(T)
    machine.listed([table()], now=0.0)
    (old,) = machine.due(0.0)
    machine.listed([table(port=4999)], now=0.1)  # its host restarted on another port
    (new,) = machine.due(0.1)
    assert new == Check("a", "10.0.0.1", 4999)
    machine.heard(old, False, 0.2)
    machine.heard(old, False, 0.3)  # (answers about the old port say nothing of the new)
    assert shown(machine, 0.3) == {"a": True}
    machine.listed([], now=0.4)  # gone from mDNS: forgotten, and late answers ignored
    machine.heard(new, False, 0.5)
    assert machine.shown(0.5) == [] and machine.due(10.0) == []


def test_back_in_the_lobby_every_table_is_checked_at_once():
    machine = Answering(T)
    machine.listed([table("a"), table("b", port=1)], now=0.0)
    for check in machine.due(0.0):
        machine.heard(check, True, 0.0)
    assert machine.due(1.0) == []
    machine.check_all_now(1.0)
    assert [c.id for c in machine.due(1.0)] == ["a", "b"]


def test_the_shown_list_keeps_the_browsers_order_and_its_fields():
    machine = Answering(T)
    found = [table("b", name="Alpha"), table("a", name="Beta")]
    machine.listed(found, now=0.0)
    assert machine.shown(0.0) == [{**t, "answering": True} for t in found]


# -- the driver, on a loop: a probe that records its calls ------------------------------

QUICK = CheckTimings(every=0.2, again=0.05, timeout=0.5, misses=2, forget_after=0.3)


class Probe:
    """Answers as ``alive`` says, recording every call."""

    def __init__(self):
        self.alive = True
        self.calls: list[tuple[str, int]] = []

    async def __call__(self, address: str, port: int, timeout: float) -> bool:
        self.calls.append((address, port))
        return self.alive


def test_the_driver_reports_a_table_that_stops_answering_then_drops_it(arun):
    async def go():
        probe, reports = Probe(), []
        checks = TableChecks(reports.append, QUICK, probe=probe)
        running = asyncio.ensure_future(checks.run())
        checks.listed([table()])
        await until(lambda: len(probe.calls) >= 2, what=lambda: f"checks again, saw {probe.calls}")
        assert reports[-1] == [{**table(), "answering": True}]
        probe.alive = False
        await until(lambda: reports[-1] and reports[-1][0]["answering"] is False,
                    what=lambda: f"marked not answering, saw {reports}")
        await until(lambda: reports[-1] == [], what=lambda: f"left the list, saw {reports}")
        probe.alive = True
        await until(lambda: reports[-1] and reports[-1][0]["answering"],
                    what=lambda: f"back once it answers, saw {reports}")
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    arun(go())


def test_the_driver_does_not_check_while_paused_and_checks_at_once_on_resume(arun):
    async def go():
        probe = Probe()
        checks = TableChecks(lambda tables: None, QUICK, probe=probe)
        checks.pause()
        running = asyncio.ensure_future(checks.run())
        checks.listed([table()])
        for _ in range(5):
            await asyncio.sleep(0)  # (the loop turns; nothing is due while paused)
        assert probe.calls == [] and checks.shown[0]["answering"]
        checks.resume()
        await until(lambda: probe.calls, what="a check once the lobby is shown again")
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    arun(go())


def test_a_probe_that_breaks_is_a_miss_not_a_crash(arun):
    async def go():
        async def broken(address, port, timeout):
            raise RuntimeError("boom")
        reports: list = []
        checks = TableChecks(reports.append, QUICK, probe=broken)
        running = asyncio.ensure_future(checks.run())
        checks.listed([table()])
        await until(lambda: reports[-1] and reports[-1][0]["answering"] is False,
                    what=lambda: f"marked not answering, saw {reports}")
        assert not running.done()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    arun(go())


# -- the real probe: a host's server on 127.0.0.1 ---------------------------------------

def test_a_listening_host_answers_and_takes_the_check_for_a_look_not_a_refusal(arun):
    async def go():
        async def on_connection(conn):
            pass
        admission = Admission()  # (it sees each connection come and go)
        server = await start_server("127.0.0.1", 0, Identity.generate("Host"), on_connection,
                                    admission=admission)
        try:
            assert await answers("127.0.0.1", server.port, 5.0)
            assert await answers("127.0.0.1", server.port, 5.0)
            await until(lambda: admission.most >= 1 and len(admission) == 0,
                        what=lambda: f"the host to see the checks come and go: {admission.most}, "
                                     f"{len(admission)} unseated")
            assert server.refused == 0 and not server.refusals  # (nothing to log: a lobby looked in)
        finally:
            server.close()
            await server.wait_closed()
    arun(go())


def test_a_port_nobody_listens_on_does_not_answer(arun):
    with socket.socket() as sock:  # a free port, closed again: a killed host's
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert arun(answers("127.0.0.1", port, 5.0)) is False


# -- the command line's finder (net.sessions.finder) gives its tables the same check -----

class FoundAtOnce:
    """A stand-in for the mDNS browser: ``found`` listed as soon as it starts."""
    found: list[dict] = []

    def __init__(self, *, interfaces, on_change):
        self._on_change = on_change

    async def start(self) -> None:
        self._on_change(list(self.found))

    async def stop(self) -> None:
        pass


def test_the_finder_passes_over_a_table_whose_host_does_not_answer(arun, monkeypatch):
    """A killed host's advert stays in mDNS for many minutes: ``parlour join --table
    Friday`` took it (the first listed) and failed to connect, though a live "Friday"
    was listed too. The finder takes only a table whose host answers; the dead one is
    listed as not answering, and with no other it is not found at all."""
    import net.discovery
    from net.sessions.finder import NotFound, TableFinder
    monkeypatch.setattr(net.discovery, "TableBrowser", FoundAtOnce)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]  # (closed again: nothing listens there)
    live = socket.create_server(("127.0.0.1", 0))
    dead = table("a-dead", "127.0.0.1", dead_port)
    alive = table("b-live", "127.0.0.1", live.getsockname()[1])

    async def find(found: list[dict]):
        FoundAtOnce.found = found
        events: list[dict] = []
        finder = TableFinder(None, "Friday", within=1.0, emit=events.append)
        try:
            return await finder.find(None), events
        except NotFound as exc:
            return exc, events
        finally:
            await finder.stop()
    try:
        picked, events = arun(find([dead, alive]))
        assert picked["id"] == "b-live", picked
        assert {t["id"]: t["answering"] for t in events[-1]["tables"]} == {"a-dead": False, "b-live": True}
        alone, _ = arun(find([dead]))
        assert isinstance(alone, NotFound) and "Friday" in str(alone), alone
    finally:
        live.close()
