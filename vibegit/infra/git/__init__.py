"""The git layer, the only code that starts git: a small named function per
need, one module per concern.

- ``process``: starting git (``start``, the one place a git process starts,
  through ``gitlite.Child``); ``run``, ``fields``, ``running``, ``detach``;
  the repository they run in (``Repo``, ``find_repo``) and its
  configuration (``read_config``).
- ``objects``: the object database, read through one ``cat-file --batch``
  (one header parser, ``parse_header``), written straight into the object
  store, hashed; working-tree files to objects and back.
- ``refs``: refs and history, refs moved by compare-and-swap, HEAD.
- ``remotes``: the remotes, their URLs and the upstream, a push.

Callers write ``git.NAME``: every public name of those modules is
re-exported here (the remotes' loaded when first asked for; a test holds
the list complete), with the few of ``gitlite`` and ``core.text`` callers
need beside them (the environment git runs in; ``is_oid``, to check an id
before git sees it).
"""

from __future__ import annotations

from vibegit.core.text import HEX, is_oid
from vibegit.infra.git.objects import (
    AHEAD_BYTES,
    BATCH,
    BUILT_IN_BYTES,
    KINDS,
    Answer,
    CatFile,
    TooLarge,
    TreeEntry,
    blob_id,
    checkout_bytes,
    close_readers,
    digest,
    git_time,
    hash_paths,
    listing,
    merge_text,
    missing_objects,
    packed,
    parse_header,
    parse_tree,
    reader,
    ready_to_write,
    write_commit,
    write_object,
    write_tree,
)
from vibegit.infra.git.process import (
    FALLBACK_EMAIL,
    FALLBACK_NAME,
    Config,
    Done,
    Identity,
    Repo,
    background,
    background_fields,
    config_files,
    config_values,
    detach,
    fields,
    find_repo,
    found_early,
    identity,
    new_file,
    out,
    read_config,
    reason,
    rev_parse,
    run,
    running,
    scratch_file,
    stamp,
    text,
)
from vibegit.infra.git.refs import (
    Apart,
    apart,
    checked_out,
    commit_at,
    commit_message,
    commit_of,
    count,
    head_branch,
    head_commit,
    head_tree,
    is_ancestor,
    known_commits,
    matches,
    merge_base,
    near_ancestor,
    new_commit,
    parents,
    rebasing_branch,
    ref_lock,
    reflog_tip,
    resolve,
    tree_of,
    update_ref,
)
from vibegit.infra.gitlite import HOOK_GIT_VARS, IN_HOOK, clean_env, pin_repo_env, start_repo_reads

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start
if TYPE_CHECKING:
    from vibegit.infra.git.remotes import (
        REMOTE_NS,
        Pushed,
        Remotes,
        network_env,
        push_ref,
        remote_config,
        remote_names,
    )
else:
    _LATER = {"REMOTE_NS", "Pushed", "Remotes", "network_env", "push_ref", "remote_config", "remote_names"}

    def __getattr__(name: str) -> object:
        """The remotes' names, loaded at their first use: the lock check in a
        git hook never talks to a remote, nor does a command in a repository
        that has none (the module costs a quarter of a millisecond to load)."""
        if name not in _LATER:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from vibegit.infra.git import remotes

        value = getattr(remotes, name)
        globals()[name] = value
        return value


__all__ = [
    "AHEAD_BYTES",
    "BATCH",
    "BUILT_IN_BYTES",
    "FALLBACK_EMAIL",
    "FALLBACK_NAME",
    "HEX",
    "HOOK_GIT_VARS",
    "IN_HOOK",
    "KINDS",
    "REMOTE_NS",
    "Answer",
    "Apart",
    "CatFile",
    "Config",
    "Done",
    "Identity",
    "Pushed",
    "Remotes",
    "Repo",
    "TooLarge",
    "TreeEntry",
    "apart",
    "background",
    "background_fields",
    "blob_id",
    "checked_out",
    "checkout_bytes",
    "clean_env",
    "close_readers",
    "commit_at",
    "commit_message",
    "commit_of",
    "config_files",
    "config_values",
    "count",
    "detach",
    "digest",
    "fields",
    "find_repo",
    "found_early",
    "git_time",
    "hash_paths",
    "head_branch",
    "head_commit",
    "head_tree",
    "identity",
    "is_ancestor",
    "is_oid",
    "known_commits",
    "listing",
    "matches",
    "merge_base",
    "merge_text",
    "missing_objects",
    "near_ancestor",
    "network_env",
    "new_commit",
    "new_file",
    "out",
    "packed",
    "parents",
    "parse_header",
    "parse_tree",
    "pin_repo_env",
    "push_ref",
    "read_config",
    "reader",
    "ready_to_write",
    "reason",
    "rebasing_branch",
    "ref_lock",
    "reflog_tip",
    "remote_config",
    "remote_names",
    "resolve",
    "rev_parse",
    "run",
    "running",
    "scratch_file",
    "stamp",
    "start_repo_reads",
    "text",
    "tree_of",
    "update_ref",
    "write_commit",
    "write_object",
    "write_tree",
]
