"""canonical(): the fast path for exact plain types gives what the general rules give."""

from __future__ import annotations

from collections import OrderedDict
from enum import IntEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import canonical


def reference(value):
    """The rules as first written (one isinstance chain, a call per value)."""
    if isinstance(value, dict):
        return [[k, reference(value[k])] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [reference(v) for v in value]
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    raise TypeError(f"not a canonical plain value: {type(value).__name__}")


class Seat(IntEnum):
    NORTH = 0


class Name(str):
    pass


scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1),  # msgpack's range
                    st.text(max_size=5), st.binary(max_size=5), st.just(Seat.NORTH),
                    st.just(Name("x")))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=4), inner, max_size=4),
    st.dictionaries(st.text(max_size=4), inner, max_size=4).map(OrderedDict)), max_leaves=20)


@given(values)
def test_canonical_follows_the_general_rules(value):
    assert canonical.canonical(value) == reference(value)
    assert canonical.encode(value) == canonical.encode(reference(value))


@pytest.mark.parametrize("bad", [1.5, [1, 2.0], {"a": (1, {"b": 0.1})}, {1, 2}])
def test_floats_and_other_types_are_refused_alike(bad):
    with pytest.raises(TypeError) as fast:
        canonical.canonical(bad)
    with pytest.raises(TypeError) as slow:
        reference(bad)
    assert str(fast.value) == str(slow.value)
