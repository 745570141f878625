"""Records behave as the dataclasses they replace: the same class written with
``dataclasses`` is the oracle for equality, hashing, repr and replace."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vibegit.core import records
from vibegit.core.records import FrozenError, field, fields, frozen, is_record, mutable, replace


@frozen
class Point:
    x: int
    label: str = ""
    tags: tuple[str, ...] = ()
    extra: dict[str, int] = field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Oracle:
    x: int
    label: str = ""
    tags: tuple[str, ...] = ()
    extra: dict[str, int] = dataclasses.field(default_factory=dict)


@mutable
class Counter:
    name: str
    seen: list[str] = field(default_factory=list)


@frozen
class Empty:
    pass


values = st.fixed_dictionaries(
    {"x": st.integers()},
    optional={"label": st.text(max_size=5), "tags": st.lists(st.text(max_size=3), max_size=3).map(tuple)},
)


@given(values, values)
def test_equality_and_hash_follow_the_fields(a: dict, b: dict) -> None:
    ours_a, ours_b = Point(**a), Point(**b)
    theirs_a, theirs_b = Oracle(**a), Oracle(**b)
    assert (ours_a == ours_b) is (theirs_a == theirs_b)
    assert ours_a == Point(**a)
    assert repr(ours_a) == repr(theirs_a).replace("Oracle", "Point", 1)
    with pytest.raises(TypeError):
        hash(ours_a)  # a dict field: unhashable, as the dataclass


@given(values)
def test_hash_is_the_fields_hash(a: dict) -> None:
    @frozen
    class Hashable:
        x: int
        label: str = ""
        tags: tuple[str, ...] = ()

    @dataclasses.dataclass(frozen=True)
    class HashableOracle:
        x: int
        label: str = ""
        tags: tuple[str, ...] = ()

    assert hash(Hashable(**a)) == hash(HashableOracle(**a))
    assert Hashable(**a) == Hashable(**a)
    assert len({Hashable(**a), Hashable(**a)}) == 1


@given(values, st.text(max_size=5))
def test_frozen_refuses_assignment_and_replace_copies(a: dict, label: str) -> None:
    point = Point(**a)
    with pytest.raises(FrozenError):
        point.x = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.label
    changed = replace(point, label=label)
    assert changed.label == label
    assert (changed.x, changed.tags) == (point.x, point.tags)
    assert point == Point(**a)  # the original is untouched
    assert replace(point) == point


def test_defaults_and_factories() -> None:
    a, b = Point(1), Point(2)
    assert (a.label, a.tags, a.extra) == ("", (), {})
    assert a.extra is not b.extra  # a new dict per instance
    assert "extra" not in vars(Point)  # no shared factory left on the class
    assert Point.label == ""  # plain defaults stay class attributes, as with dataclasses
    assert fields(Point) == fields(a) == ("x", "label", "tags", "extra")
    assert vars(a) == {"x": 1, "label": "", "tags": (), "extra": {}}


def test_bad_calls_are_type_errors() -> None:
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        Point(1, y=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        Point(1, x=2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="takes 4 positional arguments but 5"):
        Point(1, "", (), {}, 5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        replace(Point(1), nope=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="without a default follows"):

        @frozen
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]


def test_mutable_records_can_change_and_are_not_hashable() -> None:
    c = Counter("c")
    c.seen.append("x")
    c.name = "d"
    assert c == Counter("d", ["x"])
    assert Counter("a").seen is not Counter("a").seen
    with pytest.raises(TypeError):
        hash(c)
    assert repr(c) == "Counter(name='d', seen=['x'])"


def test_what_is_a_record() -> None:
    assert is_record(Point(1)) and is_record(Counter("c")) and is_record(Empty())
    assert not is_record(Point) and not is_record(Oracle(1)) and not is_record(1)
    assert Empty() == Empty() and hash(Empty()) == hash(())
    assert repr(Empty()) == "Empty()"
    assert Point(1) != Oracle(1)  # equal only within one class
    assert records.FIELDS in vars(Point)


class Span(records.NamedTuple):
    """A span of lines."""

    start: int
    end: int = 0
    note: str = ""

    @property
    def size(self) -> int:
        return self.end - self.start


def test_records_named_tuple_is_typings_without_its_import() -> None:
    import typing

    class Oracle(typing.NamedTuple):
        start: int
        end: int = 0
        note: str = ""

    span, oracle = Span(3, 7), Oracle(3, 7)
    assert span == oracle == (3, 7, "") and hash(span) == hash(oracle) and isinstance(span, tuple)
    assert Span._fields == Oracle._fields and Span._field_defaults == Oracle._field_defaults
    assert repr(span) == repr(oracle).replace("Oracle", "Span") == "Span(start=3, end=7, note='')"
    assert span._replace(note="x") == (3, 7, "x") and span.size == 4 and Span(1).size == -1
    assert Span.__doc__ == "A span of lines." and Span.__module__ == __name__ and Span.__qualname__ == "Span"
    start, end, note = span
    assert (start, end, note) == (3, 7, "")
    with pytest.raises(TypeError):
        Span()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(records.NamedTuple):
            first: int = 0
            second: int  # type: ignore[misc]
