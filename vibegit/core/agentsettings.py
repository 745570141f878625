"""vibegit's entries in an agent's JSON settings: added, checked and taken
out as text (``core/jsonc.py``), so nothing else in the file moves.

The entries are the hook groups of ``core/agents.py`` under ``hooks.<Event>``
(Cursor: flat entries) and, with ``--mcp``, the ``vibegit`` server under
``mcpServers``. A container that only vibegit's entries filled goes with
them.
"""

from __future__ import annotations

import json
from typing import Any

from vibegit.core import jsonc
from vibegit.core.agents import SERVER, Agent, Hook, is_our_server, ours
from vibegit.errors import BadInput

Entries = list[tuple[Hook, dict[str, Any]]]  # the hook groups install writes, each with its hook
Chain = list[tuple[jsonc.Node, int]]  # (container, index of the child on the way), outermost first


def parse(text: str, agent: Agent, where: str) -> jsonc.Node:
    """The file's top object; anything else is bad input naming the place."""
    try:
        root = jsonc.parse(text, comments=agent.comments)
    except jsonc.JsoncError as err:
        raise BadInput(f"{where}:{err.line}:{err.column}: invalid JSON: {err.message}; nothing was changed") from None
    if not root.is_object:
        raise BadInput(f"{where}:1: expected a JSON object, found {type(root.value).__name__}; nothing was changed")
    return root


def _member(node: jsonc.Node, key: str) -> int | None:
    return next((i for i, (k, _, _) in enumerate(node.members) if k == key), None)


def _ours_in(root: jsonc.Node, events: set[str] | None = None) -> list[Chain]:
    """Every vibegit hook entry (in ``events`` only, when given), as the chain of containers to it."""
    found: list[Chain] = []
    h = _member(root, "hooks")
    if h is None or not root.members[h][2].is_object:
        return found
    hooks = root.members[h][2]
    for e, (event, _, groups) in enumerate(hooks.members):
        if (events is not None and event not in events) or not isinstance(groups.value, list):
            continue
        for g, group in enumerate(groups.items):
            if ours(group.value):  # Cursor's flat entries
                found.append([(root, h), (hooks, e), (groups, g)])
                continue
            inner = group.get("hooks") if group.is_object else None
            if inner is None or not isinstance(inner.value, list):
                continue
            for i, handler in enumerate(inner.items):
                if ours(handler.value):
                    found.append([(root, h), (hooks, e), (groups, g), (inner, i)])
    return found


def _server(root: jsonc.Node) -> tuple[Chain | None, bool]:
    """The chain to ``mcpServers.vibegit`` and whether it is vibegit's own entry."""
    m = _member(root, "mcpServers")
    servers = root.members[m][2] if m is not None else None
    if servers is None or not servers.is_object:
        return None, False
    s = _member(servers, SERVER)
    if s is None:
        return None, False
    assert m is not None
    return [(root, m), (servers, s)], is_our_server(servers.members[s][2].value)


def _cut(text: str, chain: Chain) -> str:
    """Take out the innermost child of ``chain``, and each container it alone filled.
    A hook group goes when its ``hooks`` list empties (its matcher with it);
    the top object always stays."""
    for level in range(len(chain) - 1, -1, -1):
        container, index = chain[level]
        if len(container.children) > 1 or level == 0:
            return jsonc.remove(text, container, index)
    return text


def strip(text: str, agent: Agent, where: str, events: set[str] | None = None, server: bool = True) -> tuple[str, int]:
    """``text`` without vibegit's hook entries (in ``events``) and its MCP
    server; and how many entries went."""
    removed = 0
    while True:
        root = parse(text, agent, where)
        chains = _ours_in(root, events)
        if chains:
            text = _cut(text, chains[0])
            removed += 1
            continue
        chain, mine = _server(root) if server else (None, False)
        if chain is not None and mine:
            text = _cut(text, chain)
            removed += 1
            continue
        return text, removed


def _new_file(agent: Agent, entries: Entries, server: dict[str, Any] | None) -> str:
    data: dict[str, Any] = {"version": 1} if agent.name == "cursor" and entries else {}
    hooks: dict[str, list[dict[str, Any]]] = {}
    for hook, group in entries:
        hooks.setdefault(hook.event, []).append(group)
    if hooks:
        data["hooks"] = hooks
    if server is not None:
        data["mcpServers"] = {SERVER: server}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def install(
    text: str | None,
    agent: Agent,
    where: str,
    entries: Entries,
    server: dict[str, Any] | None,
) -> str:
    """``text`` with exactly vibegit's ``entries`` (and ``server``): entries
    already there as they should be stay where they are; older ones of
    vibegit's are replaced."""
    if text is None or not text.strip():
        return _new_file(agent, entries, server)
    wanted = {hook.event for hook, _ in entries}
    root = parse(text, agent, where)
    stale = {_event(chain) for chain in _ours_in(root)} - wanted
    if stale:
        text, _ = strip(text, agent, where, stale, server=False)
    for hook, group in entries:
        root = parse(text, agent, where)
        present = _ours_in(root, {hook.event})
        if len(present) == 1 and _group_value(present[0]) == group:
            continue
        if present:
            text, _ = strip(text, agent, where, {hook.event}, server=False)
        text = _add_group(text, agent, where, hook.event, group)
    if agent.name == "cursor" and entries and parse(text, agent, where).get("version") is None:
        text = jsonc.add(text, parse(text, agent, where), 1, key="version")  # Cursor reads no file without it
    if server is not None:
        root = parse(text, agent, where)
        chain, mine = _server(root)
        if chain is not None and not mine:
            raise BadInput(f'{where}: "mcpServers" has a "{SERVER}" server that is not vibegit\'s; rename it first')
        if chain is None or chain[-1][0].children[chain[-1][1]].value != server:
            if chain is not None:
                text = _cut(text, chain)
            text = _add_at(text, agent, where, ("mcpServers",), SERVER, server)
    return text


def _event(chain: Chain) -> str:
    hooks, e = chain[1]
    return hooks.members[e][0]


def _group_value(chain: Chain) -> Any:
    groups, g = chain[2]
    return groups.items[g].value


def _add_group(text: str, agent: Agent, where: str, event: str, group: dict[str, Any]) -> str:
    root = parse(text, agent, where)
    hooks = root.get("hooks")
    if hooks is not None and not hooks.is_object:
        raise BadInput(f'{where}: "hooks" is not an object; fix it by hand first')
    groups = hooks.get(event) if hooks is not None else None
    if groups is not None:
        if not isinstance(groups.value, list):
            raise BadInput(f"{where}: hooks.{event} is not a list; fix it by hand first")
        return jsonc.add(text, groups, group)
    return _add_at(text, agent, where, ("hooks",), event, [group])


def _add_at(text: str, agent: Agent, where: str, path: tuple[str, ...], key: str, value: Any) -> str:
    """``value`` as member ``key`` of the object at ``path``, made when missing."""
    node = parse(text, agent, where)
    for i, name in enumerate(path):
        child = node.get(name)
        if child is None:
            nested: Any = {key: value}
            for outer in reversed(path[i + 1 :]):
                nested = {outer: nested}
            return jsonc.add(text, node, nested, key=name)
        if not child.is_object:
            raise BadInput(f'{where}: "{".".join(path[: i + 1])}" is not an object; fix it by hand first')
        node = child
    return jsonc.add(text, node, value, key=key)


def status(
    text: str | None,
    agent: Agent,
    where: str,
    entries: Entries,
    server: dict[str, Any] | None,
) -> dict[str, str]:
    """For each event (and ``mcp``): ``current``, ``outdated`` or ``missing``."""
    root = parse(text, agent, where) if text and text.strip() else None
    out: dict[str, str] = {}
    for hook, group in entries:
        present = _ours_in(root, {hook.event}) if root is not None else []
        if not present:
            out[hook.event] = "missing"
        else:
            out[hook.event] = "current" if len(present) == 1 and _group_value(present[0]) == group else "outdated"
    if server is not None:
        chain, mine = _server(root) if root is not None else (None, False)
        if chain is None or not mine:
            out["mcp"] = "missing"
        else:
            out["mcp"] = "current" if chain[-1][0].children[chain[-1][1]].value == server else "outdated"
    return out


def settled(value: Any) -> Any:
    """A settings value without what vibegit's install can leave behind empty:
    event lists and the ``hooks``/``mcpServers`` objects with nothing in them,
    and the ``"version": 1`` it adds to Cursor's file. Uninstall gives the
    original bytes back when the file, settled, is the original settled."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    hooks = out.get("hooks")
    if isinstance(hooks, dict):
        hooks = {event: groups for event, groups in hooks.items() if groups != []}
        out["hooks"] = hooks
    for key in ("hooks", "mcpServers"):
        if out.get(key) == {}:
            del out[key]
    if out.get("version") == 1:
        del out["version"]
    return out
