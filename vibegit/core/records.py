"""Records: classes made of named fields, as ``dataclasses`` makes them,
without its import cost (``dataclasses`` pulls in ``inspect``, ``ast`` and
``tokenize``, and compiles each class's methods at import).

``@frozen`` makes an immutable record (``__init__``, ``__eq__``,
``__hash__``, ``__repr__``; assigning a field raises), ``@mutable`` one whose
fields can be set (no ``__hash__``). The fields are the class's annotations in
order; a class attribute is a field's default, ``field(default_factory=f)``
gives each instance a new ``f()``. ``replace(r, name=value)`` is a copy with
changes, ``fields(r)`` the names, ``is_record(value)`` says whether a value is
one. The methods are the same generic functions for every class, so making a
class costs next to nothing; type checkers see dataclass semantics
(``dataclass_transform``), so every constructor call is checked.

``NamedTuple`` is ``typing.NamedTuple`` without importing ``typing`` (which
costs milliseconds at every start): the same class statement makes
``collections.namedtuple``'s class, and type checkers see typing's.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar
    from typing import NamedTuple as NamedTuple

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[T], T]:
        return lambda f: f

    class _TupleMeta(type):
        """``class X(NamedTuple): a: int; b: str = ""`` makes ``collections.namedtuple``'s
        class, as ``typing.NamedTuple`` does, without importing ``typing``."""

        def __new__(mcls, name, bases, ns):
            if not bases:
                return super().__new__(mcls, name, bases, ns)  # NamedTuple itself
            from collections import namedtuple

            names = tuple(ns.get("__annotations__", {}))
            defaults = [ns[n] for n in names if n in ns]
            if any(n in ns for n in names[: len(names) - len(defaults)]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = namedtuple(name, names, defaults=defaults, module=ns["__module__"])
            for key, value in ns.items():
                if key not in names and key not in ("__module__", "__qualname__", "__annotations__"):
                    setattr(made, key, value)  # the docstring, methods, properties
            return made

    class NamedTuple(metaclass=_TupleMeta):
        pass


if TYPE_CHECKING:
    T = TypeVar("T")
FIELDS = "__record_fields__"  # the class attribute holding the field names, in order
_MISSING = object()


class FrozenError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A field's default made anew for each instance (a list, a dict)."""
    return _Factory(default_factory)  # type: ignore[return-value]


def fields(value: object) -> tuple[str, ...]:
    """The field names of a record or record class, in order."""
    names: tuple[str, ...] = getattr(value, FIELDS)
    return names


def is_record(value: object) -> bool:
    """Whether ``value`` is a record (an instance, not the class)."""
    return hasattr(type(value), FIELDS)


if TYPE_CHECKING:  # type checkers check each change against its field, as for a dataclass
    from dataclasses import replace as replace
else:

    def replace(value, /, **changes):
        """A copy of the record ``value`` with ``changes`` to some of its fields."""
        return type(value)(**{**{name: getattr(value, name) for name in fields(value)}, **changes})


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: type[T]) -> type[T]:
    """An immutable record: hashable when its fields are, equal by value."""
    return _make(cls, True)


@dataclass_transform(field_specifiers=(field,))
def mutable(cls: type[T]) -> type[T]:
    """A record whose fields can be assigned: equal by value, not hashable."""
    return _make(cls, False)


def _make(cls: type[T], is_frozen: bool) -> type[T]:
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063 - the class's own, without inspect
    known = frozenset(names)
    defaults: dict[str, Any] = {}
    for name in names:
        default = cls.__dict__.get(name, _MISSING)
        if default is not _MISSING:
            defaults[name] = default
            if isinstance(default, _Factory):
                delattr(cls, name)  # as dataclasses: no class attribute for a factory
        elif defaults:
            raise TypeError(f"{cls.__qualname__}: field {name!r} without a default follows one with a default")
    values = attrgetter(*names) if names else (lambda _: ())

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not args and len(kwargs) == len(names) and known.issuperset(kwargs):  # every field by name
            self.__dict__.update(kwargs)  # (as replace and the parsers build them: the quick way)
            return
        if len(args) > len(names):
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} positional arguments but {len(args)} were given")
        given = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in known:
                raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {key!r}")
            if key in given:
                raise TypeError(f"{cls.__qualname__}() got multiple values for argument {key!r}")
            given[key] = value
        attrs = self.__dict__
        for name in names:
            if name in given:
                attrs[name] = given[name]
            else:
                default = defaults.get(name, _MISSING)
                if default is _MISSING:
                    raise TypeError(f"{cls.__qualname__}() missing required argument: {name!r}")
                attrs[name] = default.make() if isinstance(default, _Factory) else default

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self is other or values(self) == values(other))

    def __hash__(self: Any) -> int:
        return hash(values(self))

    def __setattr__(self: Any, name: str, value: object) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")

    methods: dict[str, Any] = {"__init__": __init__, "__repr__": __repr__, "__eq__": __eq__}
    if is_frozen:
        methods.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
    else:
        methods["__hash__"] = None  # equal by value and mutable: unhashable, as dataclasses makes it
    for name, method in methods.items():
        if name not in cls.__dict__ or (name == "__hash__" and cls.__dict__[name] is None):
            if method is not None:
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    setattr(cls, FIELDS, names)
    return cls
