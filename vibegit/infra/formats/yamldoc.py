"""YAML for the state files, parsed strictly and safely: a safe loader with
no aliases (no billion-laughs), no object-constructing tags, scalars kept as
text but for null, booleans and integers, bounded sizes, and every error
naming the file and line."""

from __future__ import annotations

from vibegit.core.text import MAX_TEXT, bad_char
from vibegit.errors import BadInput
from vibegit.infra import plainyaml

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from typing import Any, TypeVar

MAX_FILE_BYTES = plainyaml.MAX_BYTES

if TYPE_CHECKING:
    E = TypeVar("E")


def decode(data: bytes, name: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise BadInput(f"{name}: too large ({len(data)} bytes, at most {MAX_FILE_BYTES})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise BadInput(f"{name}:{line}: not valid UTF-8") from None
    if "\0" in text:
        raise BadInput(f"{name}:{text[: text.index(chr(0))].count(chr(10)) + 1}: contains a NUL byte")
    return text


# -- YAML ---------------------------------------------------------------------


_PYYAML: list[Any] = []  # PyYAML, its safe loader below and its dumper, once imported


def _pyyaml() -> tuple[Any, Any, Any]:
    """PyYAML, the loader and the dumper: imported only when ``plainyaml``
    cannot read or write a document (its Python modules cost start-up time)."""
    if not _PYYAML:
        import yaml

        base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it: 20x faster

        class Loader(base):  # type: ignore[misc]  # PyYAML's loaders are untyped
            """Safe loader; plain scalars stay strings but for null, booleans and
            integers (so ``step: 4.3`` and timestamps stay text). Aliases are refused
            after composing (``_no_aliases``): libyaml shares the node of an alias, so
            the graph is never expanded (no billion laughs), and it refuses nesting
            deeper than 1000 itself."""

        Loader.yaml_implicit_resolvers = {
            ch: [(tag, rx) for tag, rx in resolvers if tag.endswith((":null", ":bool", ":int"))]
            for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter writes the same text, faster
        _PYYAML.extend((yaml, Loader, dumper))
    return _PYYAML[0], _PYYAML[1], _PYYAML[2]


_PLAIN_TAGS = {f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "bool", "null", "seq", "map")}


def _short(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")[:60]


def _plain(yaml: Any, loader: Any, root: Any) -> None:
    """Refuse, with its line, what the state files never hold: a node reached
    twice (an alias, ``*name``), a tag (``!!timestamp``, ``!!binary``, ``!!set``:
    objects no JSON or text holds, or an ``!!int`` that is no number), a key
    that is not text."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", node.start_mark)
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            plain = not node.style  # None or "" (libyaml) for a plain scalar
            implicit = loader.resolve(yaml.ScalarNode, node.value, (plain, not plain))
            if node.tag != implicit and node.tag != "tag:yaml.org,2002:str":
                raise yaml.composer.ComposerError(None, None, f"tag {_short(node.tag)} is not allowed", node.start_mark)
        elif node.tag not in _PLAIN_TAGS:
            raise yaml.composer.ComposerError(None, None, f"tag {_short(node.tag)} is not allowed", node.start_mark)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        else:
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode) or key.tag != "tag:yaml.org,2002:str":
                    raise yaml.composer.ComposerError(None, None, "a key must be text", key.start_mark)
                stack.extend((key, value))


class YamlDoc:
    """A parsed YAML mapping that remembers where each key was."""

    def __init__(self, data: bytes, name: str) -> None:
        self.name = name
        text = decode(data, name)
        self._text = text
        self._lines: dict[plainyaml.Keys, int] | None = None  # read again for the first error that needs them
        self._node: Any = None
        self.data: dict[str, Any]
        try:
            self.data, _ = plainyaml.read(text, lines=False)
            return
        except plainyaml.Unsure:
            pass  # not in the shape vibegit writes: PyYAML reads it, and says what is wrong
        yaml, loader_class, _ = _pyyaml()
        loader = None
        try:
            loader = loader_class(text)
            self._node = loader.get_single_node()
            if self._node is not None:
                _plain(yaml, loader, self._node)
            value = loader.construct_document(self._node) if self._node is not None else None
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
            if mark is not None:
                line = mark.line + 1
            else:  # a ReaderError: an unprintable character at a position
                line = text[: getattr(err, "position", 0)].count("\n") + 1
            problem = getattr(err, "problem", None) or getattr(err, "reason", None) or "unreadable"
            raise BadInput(f"{name}:{line}: invalid YAML: {problem}") from None
        except RecursionError:
            raise BadInput(f"{name}: invalid YAML: nested too deeply") from None
        finally:
            if loader is not None:
                loader.dispose()
        if not isinstance(value, dict):
            raise BadInput(f"{name}:1: expected a mapping of keys, found {type(value).__name__}")
        self.data = value

    def line(self, *path: str | int) -> int:
        """The line of the deepest of ``path``'s keys (and list indexes) the document has; 1 for none."""
        found = 1
        if self._node is None:  # read by plainyaml, which says each line when asked
            if self._lines is None:
                self._lines = plainyaml.read(self._text)[1]
            for n in range(1, len(path) + 1):
                if path[:n] not in self._lines:
                    break
                found = self._lines[path[:n]]
            return found
        yaml = _pyyaml()[0]
        node = self._node
        for key in path:
            if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
                node = node.value[key]
                found = node.start_mark.line + 1
            elif isinstance(node, yaml.MappingNode) and isinstance(key, str):
                match = next(((k, v) for k, v in node.value if k.value == key), None)
                if match is None:
                    break
                found, node = match[0].start_mark.line + 1, match[1]
            else:
                break
        return found

    def error(self, path: tuple[str, ...], message: str) -> BadInput:
        return BadInput(f"{self.name}:{self.line(*path)}: {'.'.join(path)}: {message}")

    def section(self, key: str, required: bool = True) -> dict[str, Any]:
        value = self.data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.error((key,), "expected a mapping")
        return value

    def str_(self, sec: dict[str, Any], path: tuple[str, ...], *, optional: bool = True) -> str | None:
        value = sec.get(path[-1])
        if value is None:
            if optional:
                return None
            raise self.error(path, "missing")
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise self.error(path, f"expected text, found {type(value).__name__}")
        value = str(value)
        if len(value) > MAX_TEXT * 4:
            raise self.error(path, f"text too long ({len(value)} characters)")
        bad = bad_char(value)  # every text of the state files is one line: it reaches commit trailers
        if bad is not None:
            raise self.error(path, f"holds a control or line-break character ({bad!r})")
        return value

    def int_(self, sec: dict[str, Any], path: tuple[str, ...]) -> int | None:
        value = sec.get(path[-1])
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 10**9:
            raise self.error(path, f"expected a positive whole number, found {value!r:.40}")
        return value

    def bool_(self, sec: dict[str, Any], path: tuple[str, ...], default: bool) -> bool:
        value = sec.get(path[-1], default)
        if not isinstance(value, bool):
            raise self.error(path, f"expected true or false, found {value!r:.40}")
        return value

    def enum(self, sec: dict[str, Any], path: tuple[str, ...], kind: type[E], default: E | None) -> E | None:
        value = sec.get(path[-1])
        if value is None:
            return default
        try:
            return kind(str(value))  # type: ignore[call-arg]
        except ValueError:
            allowed = " ".join(m.value for m in kind)  # type: ignore[attr-defined]
            raise self.error(path, f"{value!r:.40} is not one of: {allowed}") from None

    def seq(self, sec: dict[str, Any], path: tuple[str, ...], limit: int, noun: str = "") -> list[Any]:
        """The list at ``path`` (empty when absent), at most ``limit`` long; ``noun`` names its items in errors."""
        value = sec.get(path[-1]) or []
        if not isinstance(value, list):
            raise self.error(path, f"expected a list of {noun}" if noun else "expected a list")
        if len(value) > limit:
            raise self.error(path, f"too many {noun or 'items'} ({len(value)}, at most {limit})")
        return value

    def str_list(self, sec: dict[str, Any], path: tuple[str, ...]) -> tuple[str, ...]:
        value = sec.get(path[-1]) or []
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
            raise self.error(path, "expected a list of text")
        for item in value:
            if bad_char(str(item)) is not None or len(str(item)) > MAX_TEXT * 4:
                raise self.error(path, "an item is too long or holds a control or line-break character")
        return tuple(str(v) for v in value)


def extra(sec: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in sec.items() if k not in known}


def dump(data: dict[str, Any]) -> str:
    """``data`` as block-style YAML (``plainyaml`` writes what PyYAML would, where it can)."""
    try:
        return plainyaml.emit(data)
    except plainyaml.Unsure:
        pass
    yaml, _, dumper = _pyyaml()
    text: str = yaml.dump(
        data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000
    )
    return text
