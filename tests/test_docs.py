"""What ships says what is true: the README's snippets name things that
exist, and nothing points at a document that does not ship."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

from tests.helpers import VG, git, start_workflow, workflow_path
from vibegit import __version__

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "vibegit").rglob("*.py"))]
SHIPPED += sorted(p for p in (ROOT / "vibegit" / "infra" / "shims").glob("*") if p.is_file())  # not a __pycache__


def test_the_pre_commit_snippet_pins_no_rev_that_does_not_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```yaml\n(default_install_hook_types:.*?)```", readme, re.S)
    assert block is not None
    config = yaml.safe_load(block.group(1))
    [entry] = config["repos"]
    rev = str(entry["rev"])
    assert rev == f"v{__version__}", "rev is this version's release tag"
    assert f"version {__version__}, tagged `{rev}`" in readme, "the text names the real version and its tag"
    assert f"## {__version__}" in (ROOT / "CHANGELOG.md").read_text(), "the CHANGELOG has the release"
    # Where the tag is here (a clone with tags), it names this version's commit or one before it.
    tagged = subprocess.run(["git", "rev-parse", "-q", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True)
    if tagged.returncode == 0:
        ancestor = subprocess.run(["git", "merge-base", "--is-ancestor", tagged.stdout.strip(), "HEAD"], cwd=ROOT)
        assert ancestor.returncode == 0, f"{rev} is not in this history"
    hooks = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {h["id"] for h in entry["hooks"]} <= hooks


def test_nothing_that_ships_points_at_the_spec() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in SHIPPED
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if re.search(r"\bSPEC\b", line)
    ]
    assert found == []


def test_no_help_page_or_state_file_points_at_the_spec(repo: Path, vg: VG) -> None:
    from vibegit.cli import parser

    pages = [vg("--help").out]
    pages += [vg(name, "--help").out for name in sorted(c.name or "" for c in parser.registered_commands)]
    assert all("§" not in page and "SPEC" not in page for page in pages)
    start_workflow(vg)
    for name in ("session.yaml", "active_context.md", "kanban.md", "checkpoint.md"):
        text = git(repo, "show", workflow_path(repo, name))
        assert "§" not in text and "SPEC" not in text, name
