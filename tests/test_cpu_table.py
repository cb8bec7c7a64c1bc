"""tests/cpu_table.py sums what the CPU recorder (``PARLOUR_TEST_CPU``) wrote: by test,
a test recorded twice counted twice, and by file."""

from __future__ import annotations

from tests.cpu_table import by_file, read, table


def test_the_lines_are_summed_by_test_and_by_file(tmp_path):
    recorded = tmp_path / "cpu.tsv"
    recorded.write_text("1.500\ttests/a.py::test_one[x]\n"
                        "0.250\ttests/a.py::test_two\n"
                        "2.000\ttests/b.py::test_three\n"
                        "0.500\ttests/a.py::test_one[x]\n"  # a second run appended
                        "\n")
    per_test = read(recorded)
    assert per_test == {"tests/a.py::test_one[x]": 2.0, "tests/a.py::test_two": 0.25,
                        "tests/b.py::test_three": 2.0}
    assert by_file(per_test) == {"tests/a.py": 2.25, "tests/b.py": 2.0}
    shown = table("by file", by_file(per_test), top=1, total=4.25).splitlines()
    assert shown[0] == "by file (top 1 of 2):" and shown[2].split() == ["2.2", "52.9%", "tests/a.py"]
