"""tests/suite_order.py: the slow tier spread over the suite's areas, each area's order
kept, and a module's tests that share a setup kept together."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests.suite_order import area, spread_over_areas

TESTS = Path("/suite/tests")


def fake_item(where: str, name: str, shared: bool = False):
    scope = "module" if shared else "function"
    fixtures = {"setup": [SimpleNamespace(scope=scope)]}
    return SimpleNamespace(path=TESTS / where, name=name,
                           _fixtureinfo=SimpleNamespace(name2fixturedefs=fixtures))


def names(items) -> list[str]:
    return [item.name for item in items]


def test_the_areas_are_a_folder_or_a_folder_of_net():
    assert area(fake_item("app/test_a.py", "a"), TESTS) == "app"
    assert area(fake_item("net/sessions/test_b.py", "b"), TESTS) == "net/sessions"
    assert area(fake_item("net/test_cli.py", "c"), TESTS) == "net"
    assert area(fake_item("test_top.py", "d"), TESTS) == ""


def test_each_area_is_spread_over_the_whole_order_in_its_own_order():
    # four window tests, two session tests (a module sharing a setup), two engine tests
    items = [fake_item("app/test_a.py", f"app{i}") for i in range(4)] + \
        [fake_item("net/sessions/test_s.py", f"shared{i}", shared=True) for i in range(2)] + \
        [fake_item("engine/test_e.py", f"engine{i}") for i in range(2)]
    spread = names(spread_over_areas(items, TESTS))
    assert sorted(spread) == sorted(names(items))
    # the two shared ones are one unit, at the middle of the order (1/2), and stay together
    assert spread == ["app0", "engine0", "app1", "shared0", "shared1", "app2", "engine1", "app3"]
    for prefix in ("app", "engine", "shared"):
        own = [name for name in spread if name.startswith(prefix)]
        assert own == sorted(own)


def test_tests_sharing_a_setup_stay_together_only_within_their_module():
    items = [fake_item("net/houses/test_one.py", "one0", shared=True),
             fake_item("net/houses/test_one.py", "one1", shared=True),
             fake_item("net/houses/test_two.py", "two0", shared=True),
             fake_item("net/houses/test_two.py", "plain", shared=False),
             fake_item("app/test_a.py", "app0"), fake_item("app/test_a.py", "app1")]
    spread = names(spread_over_areas(items, TESTS))
    # houses: units [one0 one1] [two0] [plain] at 1/6, 1/2, 5/6; app at 1/4, 3/4
    assert spread == ["one0", "one1", "app0", "two0", "app1", "plain"]
