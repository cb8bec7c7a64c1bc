"""tests/cpu_table.py reads what the recorder (``PARLOUR_TEST_CPU``) wrote: CPU and waiting
(wall less CPU less time queued for a core) by test, a test recorded twice counted twice, and by file; an older recording (CPU only)
still read; the timeline's workers busy at once and its idle tail."""

from __future__ import annotations

import pytest

from tests.cpu_table import Record, buckets, busy_seconds, read, summed, table, tail_below


def test_the_lines_are_summed_by_test_and_by_file(tmp_path):
    recorded = tmp_path / "cpu.tsv"
    recorded.write_text("1.500\tgw0\t100.0\t103.0\t0.5\ttests/a.py::test_one[x]\n"
                        "0.250\tgw1\t100.0\t100.5\t0.0\ttests/a.py::test_two\n"
                        "2.000\tgw1\t100.5\t102.5\t0.0\ttests/b.py::test_three\n"
                        "0.500\tgw0\t200.0\t201.0\t0.0\ttests/a.py::test_one[x]\n"  # again
                        "\n")
    records = read(recorded)
    per_test = summed(records, lambda r: r.nodeid)
    assert {name: (s.cpu, s.wall, s.wait) for name, s in per_test.items()} == {
        "tests/a.py::test_one[x]": (2.0, 4.0, 1.5), "tests/a.py::test_two": (0.25, 0.5, 0.25),
        "tests/b.py::test_three": (2.0, 2.0, 0.0)}
    per_file = summed(records, lambda r: r.file)
    assert {name: s.tests for name, s in per_file.items()} == {"tests/a.py": 3, "tests/b.py": 1}
    shown = table("by file", per_file, top=1, by="wait", timed=True).splitlines()
    assert shown[0] == "by file, by wait (top 1 of 2):"
    assert shown[2].split() == ["2.2", "4.5", "0.5", "1.8", "100.0%", "tests/a.py"]


def test_an_older_recording_has_cpu_only(tmp_path):
    recorded = tmp_path / "cpu.tsv"
    recorded.write_text("1.500\ttests/a.py::test_one\n0.500\ttests/b.py::test_two\n")
    records = read(recorded)
    assert records == [Record("tests/a.py::test_one", 1.5), Record("tests/b.py::test_two", 0.5)]
    assert not any(r.timed for r in records)
    shown = table("by file", summed(records, lambda r: r.file), top=2, by="cpu",
                  timed=False).splitlines()
    assert shown[2].split() == ["1.5", "75.0%", "tests/a.py"]


def test_the_timeline_counts_workers_busy_at_once_and_the_idle_tail():
    # gw0 busy 0-10; gw1 busy 2-4 and 5-6 (CPU 1 s over 2 s, then 1 s over 1 s)
    records = [Record("t::a", 4.0, "gw0", 0.0, 10.0), Record("t::b", 1.0, "gw1", 2.0, 4.0),
               Record("t::c", 1.0, "gw1", 5.0, 6.0)]
    assert busy_seconds(records) == pytest.approx({0: 0.0, 1: 7.0, 2: 3.0})
    assert tail_below(records, 2) == pytest.approx(4.0)  # two busy last at 6 s, the end at 10
    per_five = buckets(records, 5.0)
    assert [offset for offset, _, _ in per_five] == [0.0, 5.0, 10.0]
    # 0-5 s: gw0 whole (0.4 cores), gw1 2 s of b (0.5 cores) -> 1.4 workers, 0.6 cores
    assert per_five[0][1:] == pytest.approx((1.4, 0.6))
    assert per_five[1][1:] == pytest.approx((1.2, 0.6))
