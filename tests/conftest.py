"""Shared test setup: offscreen Qt, hypothesis profiles, and the engine variants.

* Qt tests must never open a window (CI has no display; a developer's desktop should not
  flash), so the offscreen platform is forced before anything imports Qt.
* Hypothesis: the "ci" profile (default) keeps property tests small enough for a shared
  two-core machine and never times examples (timings are not behaviour). Set
  ``HYPOTHESIS_PROFILE=thorough`` for a longer local run; ``make check`` runs "quick"
  (5 examples a property, a third of "ci": it is the tier run after every change,
  ``make test`` runs every property at "ci").
* No test may advertise or browse over mDNS on the machine's real interfaces
  (tests/mdns_guard.py, an autouse fixture).
* No test may read or write the person's own Parlour data (their identity, their
  tables): ``$PARLOUR_HOME`` is this run's own directory, for a test that names none (a
  ``parlour join`` without ``--state-dir``) and the processes it starts.
* A test that takes an ``any_variant`` argument runs once per (title, ruleset, mode)
  the engine knows, and for the test-only title Tiny Tricks (tests/engine/tiny_title),
  which this file registers with the engine. Marked ``costly_per_variant``, it runs a
  few of them (``FAST_VARIANTS``) in the fast tier and the rest in the slow one.
* Two tiers: the slow one (``SLOW``, and any test marked ``slow``) plays whole tables
  through sessions, processes, namespaces or the window; ``make check`` runs the rest
  (``-m "not slow"``), ``make test`` both. The slow tier runs first, so that the worker
  processes (pytest-xdist) end together rather than waiting on one long test started last,
  and its modules' tests interleaved, so that the tests that mostly wait are spread among
  those that compute rather than all run at once (``interleaved``).
* ``PARLOUR_TEST_CPU=FILE`` (opt-in): each test, its setup and teardown included,
  appended to FILE as a line ``<cpu>\t<worker>\t<start>\t<end>\t<queued>\t<nodeid>``:
  its CPU seconds — the worker's own (``time.process_time``) plus that of the processes
  it started and waited for (``RUSAGE_CHILDREN``) — the xdist worker that ran it, its
  wall-clock start and end (epoch seconds), and the seconds the worker's threads were
  ready to run but queued for a core (the kernel's ``/proc/self/task/*/schedstat``: the
  machine's load, not the test's waiting; the processes it starts queue uncounted). ``tests/cpu_table.py FILE`` sums the CPU and
  the waiting (wall − CPU − queued) by file and by test; ``--timeline`` shows how busy
  the workers and the cores were over the run. Under a CPU-bound suite, wall durations
  (``--durations``) mislead: a test waits on the CPU its neighbours use.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

# Forced, not defaulted: a desktop session often exports QT_QPA_PLATFORM=wayland or xcb.
os.environ["QT_QPA_PLATFORM"] = "offscreen"

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# Every test runs under the mDNS guard: no advert or browse on the real network.
from tests.mdns_guard import mdns_guard  # noqa: E402,F401


@pytest.fixture(autouse=True, scope="session")
def private_data_dir(tmp_path_factory):
    from net.constants import HOME_ENV

    os.environ[HOME_ENV] = str(tmp_path_factory.mktemp("parlour-home"))


def _queued_seconds() -> float:
    """How long this process's threads have waited, ready, for a core (0 where the
    kernel does not say: not Linux, or no schedstats)."""
    total = 0
    for thread in Path("/proc/self/task").glob("*/schedstat"):
        try:
            total += int(thread.read_text().split()[1])
        except (OSError, IndexError, ValueError):  # the thread ended meanwhile
            pass
    return total / 1e9


def _cpu_seconds() -> float:
    """This process's CPU so far, and its waited-for children's (user + system)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With ``PARLOUR_TEST_CPU`` set, append the test's CPU seconds, worker and wall
    times to that file (one short line, written whole with O_APPEND: the workers of one
    run share the file)."""
    record_to = os.environ.get("PARLOUR_TEST_CPU")
    if not record_to:
        yield
        return
    # The wall clock here only measures the run (tests/cpu_table.py --timeline lines the
    # workers up by it); nothing a test asserts depends on it.
    started, before, queued_before = time.time(), _cpu_seconds(), _queued_seconds()
    yield
    # (a thread that ended during the test takes its queueing with it: never below 0)
    cpu, ended = _cpu_seconds() - before, time.time()
    queued = max(_queued_seconds() - queued_before, 0.0)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    line = (f"{cpu:.3f}\t{worker}\t{started:.3f}\t{ended:.3f}\t{queued:.3f}\t"
            f"{item.nodeid}\n").encode()
    fd = os.open(record_to, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


settings.register_profile("ci", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# make check's: the fast tier's property tests on fewer examples (make test runs "ci").
settings.register_profile("quick", max_examples=5, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Make the test-only title known to the engine for the whole run (it is never
    listed in engine.TITLES, so the app never offers it)."""
    from engine import registry
    from tests.engine.tiny_title import TITLE

    registry.register(TITLE)


# -- the tiers --------------------------------------------------------------------------

#: The slow tier, by path under tests/: folders and files whose tests play a table
#: through sessions, real processes, namespaces or the window (a second or more each,
#: most of it waiting), or many private deals' hands, except the files in ``FAST`` inside
#: them (sans-I/O parts). A new file in a slow folder is slow until listed in ``FAST``;
#: elsewhere, mark a test that takes a second or more ``@pytest.mark.slow`` (``pytest -m
#: "not slow" -n 4 --durations=10`` shows the fast tier's slowest).
SLOW = (
    "net/sessions/", "net/houses/", "net/tools/", "net/test_cli.py",
    "app/test_app_back_after_restart.py", "app/test_app_continue.py", "app/test_app_fit.py",
    "app/test_app_flow.py", "app/test_app_lobby_netns.py", "app/test_app_mistakes.py",
    "app/test_app_network.py", "app/test_app_new_title.py", "app/test_app_play.py",
    "app/test_app_public.py", "app/test_app_refusals.py", "app/test_app_rejoin.py",
    "app/test_app_round_two.py", "app/test_app_single.py", "app/test_app_soak.py",
    "app/test_app_takeover.py", "app/test_app_waiting.py",
    # whole hands under the private deal, in one process (mental poker's CPU, not waits)
    "net/trust/test_mental_cheating.py", "net/trust/test_mental_drops.py",
    "net/trust/test_mental_restore.py", "net/trust/test_mental_takeover.py",
    "net/trust/mental/test_machine.py", "net/trust/mental/test_privacy.py",
    "net/trust/peer/test_replica.py", "net/trust/test_forfeits.py",
    "net/trust/test_takeover_standings.py", "net/trust/test_watching.py",
    "net/trust/mental/test_hand.py", "net/trust/mental/test_loopback.py",
    "net/trust/test_mental_shuffle_proofs.py",
    # hands played through sessions behind the window; the bundle's import scans
    "app/test_app_summary_back.py", "packaging/test_spec_excludes.py",
)
FAST = (
    "net/sessions/test_arrivals.py", "net/sessions/test_bots.py", "net/sessions/test_clock.py",
    "net/sessions/test_guest_states.py", "net/sessions/test_outbox.py",
    "net/sessions/test_seating.py", "net/sessions/test_stand_ins.py",
    "net/sessions/test_table_files.py", "net/tools/test_mdns_guard.py",
)
TESTS = Path(__file__).resolve().parent


def in_slow_tier(path: Path) -> bool:
    try:
        where = path.resolve().relative_to(TESTS).as_posix()
    except ValueError:  # not under tests/
        return False
    return where.startswith(SLOW) and where not in FAST


def pytest_collection_modifyitems(config, items):
    """Mark the slow tier, and put it first, its modules interleaved (``interleaved``);
    the fast tier after it in the collection's order. The same in every worker."""
    for item in items:
        if in_slow_tier(item.path):
            item.add_marker(pytest.mark.slow)
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    fast = [item for item in items if item.get_closest_marker("slow") is None]
    items[:] = interleaved(slow) + fast


def interleaved(items: list) -> list:
    """``items`` with each module's tests spread evenly over the whole list: the workers
    (handed one test at a time, in this order) then run tests of different modules at
    once. In the collection's order a module's tests ran together on every worker, and
    where a module mostly waits (links cut, deadlines, countdowns: test_outlives,
    test_waiting_for_a_player) the four workers all waited at once and a core stood idle
    for half a minute (ci29: 1.1 of 2 cores used there). A module whose tests share a
    fixture of a wider scope than the test (a namespace world, a module's dealt table)
    stays one block, the blocks spread in turn, so that its fixture is made once per
    worker as before, not once per test."""
    modules: dict[object, list] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    blocks = [path for path, tests in modules.items() if shares_a_fixture(tests)]
    places = []  # (where in the run, 0..1; the module's turn; the test's place in it)
    for number, (path, tests) in enumerate(modules.items()):
        if path in blocks:
            where = (blocks.index(path) + 0.5) / len(blocks)
            places += [(where, number, index, item) for index, item in enumerate(tests)]
        else:
            places += [((index + 0.5) / len(tests), number, index, item)
                       for index, item in enumerate(tests)]
    return [item for *_, item in sorted(places, key=lambda place: place[:3])]


def shares_a_fixture(module_items: list) -> bool:
    """Whether any of a module's tests uses a fixture of module (or wider, but not the
    whole session's) scope."""
    return any(definition.scope in ("module", "package", "class")
               for item in module_items
               for definitions in item._fixtureinfo.name2fixturedefs.values()
               for definition in definitions)


#: The variants a test marked ``costly_per_variant`` runs in the fast tier: each title's
#: default, Somerset's widow (its spare goes to the bidder, not the kitty's shape) and
#: Horseshoes partners (a partner's manners) beside the test-only title. Such a test runs
#: the other variants in the slow tier (``make test`` runs every one); a test whose every
#: variant costs a second or more of CPU (bots searching every decision of a hand) is
#: what the marker is for.
FAST_VARIANTS = (("somerset", "kitty-doubled", None), ("somerset", "widow-keep", None),
                 ("rook", "rook", None), ("horseshoes", "horseshoes", "partners"),
                 ("tiny", "tiny", None))


def engine_variant_params(costly: bool = False) -> list:
    """One pytest param per engine variant, the test-only title's included; with
    ``costly``, those outside ``FAST_VARIANTS`` marked slow."""
    from engine.registry import TITLES, variants

    return [pytest.param(variant, id="-".join(p for p in variant if p),
                         marks=[pytest.mark.slow] if costly and variant not in FAST_VARIANTS
                         else [])
            for variant in variants(TITLES + ("tiny",))]


def pytest_generate_tests(metafunc):
    if "any_variant" in metafunc.fixturenames:
        costly = metafunc.definition.get_closest_marker("costly_per_variant") is not None
        metafunc.parametrize("any_variant", engine_variant_params(costly))
