"""Issue 28, round two: data loss, code execution and writes outside the tree.

Each test here failed on the code before the fix (commit 01ef978) and passes after;
docs/reliability.md ("Round two") lists the promise each one checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

from jaxlint.cli import main
from jaxlint.positions import compute_positions

CONCISE = ("--output-format", "concise", "--no-cache")


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Run:
        code = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return Run(code, out, err)

    return run


# -- 1. positions in the text's units, whatever the whitespace before a node ---------------------

CALL = "x = jax.tree_map(f, y)"
FIXED_CALL = "x = jax.tree.map(f, y)"

ODD_WHITESPACE = [
    pytest.param("import jax\n\f{call}\n", id="form-feed"),
    pytest.param("import jax\n \f{call}\n", id="space-form-feed"),
    pytest.param("import jax\n\t\f{call}\n", id="tab-form-feed"),
    pytest.param("import jax\n\f\f  \f{call}\n", id="form-feeds-and-blanks"),
    pytest.param("\fimport jax\n\f{call}\n", id="form-feed-on-first-line"),
    pytest.param("import jax\r\n\f{call}\r\n", id="crlf-form-feed"),
    pytest.param("import jax\r\f{call}\r", id="cr-form-feed"),
    pytest.param(
        "import jax\n\f@d\ndef g():\n  \f  return 1\n\f{call}\n", id="form-feed-in-a-block"
    ),
    pytest.param("import jax\ndef g():\n    a = 1\n\f    {call}\n", id="form-feed-before-indent"),
    pytest.param("import jax\nif True:\n\t{call}\n", id="tab-indent"),
    pytest.param("import jax\n\u00e9 = '\u4e2d\U0001f600'; {call}\n", id="non-ascii-before"),
    pytest.param("import jax\nx = 1\f\n{call}\n", id="form-feed-line-end"),
    pytest.param("import jax\n\f# page two\n{call}\n", id="form-feed-comment-line"),
    pytest.param("import jax\ny = (1,\n\f2); {call}\n", id="form-feed-in-brackets"),
]


@pytest.mark.parametrize("template", ODD_WHITESPACE)
@pytest.mark.parametrize("bom", [False, True], ids=["", "bom"])
def test_fix_after_odd_whitespace_lands_on_the_node(cli, tmp_path: Path, template, bom) -> None:
    source = template.format(call=CALL)
    prefix = b"\xef\xbb\xbf" if bom else b""
    path = tmp_path / "m.py"
    path.write_bytes(prefix + source.encode())
    reported = cli(*CONCISE, "m.py")
    row = next(i for i, line in enumerate(_lines(source), 1) if CALL in line)
    column = _lines(source)[row - 1].index("jax.tree_map") + 1
    assert f"m.py:{row}:{column}: JAX702" in reported.out
    cli(*CONCISE, "--fix", "m.py")
    assert path.read_bytes() == prefix + template.format(call=FIXED_CALL).encode()


def _lines(text: str) -> list[str]:
    import re

    return re.split(r"\r\n|\r|\n", text)


def test_vertical_tab_is_a_parse_error_and_the_file_is_untouched(cli, tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    source = f"import jax\n\v{CALL}\n".encode()
    path.write_bytes(source)
    run = cli(*CONCISE, "--fix", "m.py")
    assert run.code != 0 and "JAX000" in run.out
    assert path.read_bytes() == source


@pytest.mark.parametrize("template", ODD_WHITESPACE)
def test_every_name_position_points_at_the_name_in_the_text(template) -> None:
    text = template.format(call=CALL)
    module = cst.parse_module(text)
    positions = compute_positions(module, text)
    lines = _lines(text)
    names = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.append(node)

    module.visit(Names())
    assert names
    for node in names:
        rng = positions[node]
        assert rng.start.line == rng.end.line
        assert lines[rng.start.line - 1][rng.start.column : rng.end.column] == node.value


def test_a_fix_whose_text_holds_a_dropped_form_feed_is_not_offered() -> None:
    text = "def g():\n    a = 1\n\f    b = 2\n"
    module = cst.parse_module(text)
    assert module.code != text  # libcst leaves the form feed out
    positions = compute_positions(module, text)
    func = module.body[0]
    assert positions.drops_within(func)  # a fix replacing it would lose the form feed
    first = func.body.body[0]
    assert not positions.drops_within(first)


# -- 4. checking never runs a program the checked tree configures --------------------------------

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"


def _git(*args: str, cwd: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd)}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def _planted_program(tmp_path: Path) -> tuple[Path, Path]:
    """A script that leaves a marker file when anything runs it."""
    marker = tmp_path / "RAN"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> '{marker}'\nexit 0\n")
    script.chmod(0o755)
    return script, marker


TREE_CONFIGS = {
    "fsmonitor": lambda script: f"[core]\n\tfsmonitor = {script}\n",
    "fsmonitor-bool-hook": lambda script: (
        f"[core]\n\tfsmonitor = {script}\n\tfsmonitorHookVersion = 2\n"
    ),
    "pager-and-editor": lambda script: f"[core]\n\tpager = {script}\n\teditor = {script}\n",
    "ssh-and-askpass": lambda script: f"[core]\n\tsshCommand = {script}\n\taskPass = {script}\n",
    "hooks-path": lambda script: f"[core]\n\thooksPath = {script.parent / 'hooks'}\n",
}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("kind", sorted(TREE_CONFIGS))
@pytest.mark.parametrize("included", [False, True], ids=["config", "include-path"])
def test_check_never_runs_what_the_trees_git_config_names(
    cli, tmp_path: Path, kind: str, included: bool
) -> None:
    script, marker = _planted_program(tmp_path)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "fsmonitor-watchman", "reference-transaction"):
        (hooks / hook).symlink_to(script)
    tree = tmp_path / "tree"
    tree.mkdir()
    _git("init", "-q", cwd=tree)
    (tree / ".gitignore").write_text("ignored_*.py\n")
    (tree / "a.py").write_text(SAMPLE)
    (tree / "ignored_b.py").write_text(SAMPLE)
    _git("add", "a.py", ".gitignore", cwd=tree)  # an index for fsmonitor to refresh
    config = TREE_CONFIGS[kind](script)
    if included:
        (tree / ".git" / "extra.conf").write_text(config)
        config = "[include]\n\tpath = extra.conf\n"
    with open(tree / ".git" / "config", "a") as fh:
        fh.write(config)
    assert not marker.exists()
    run = cli(*CONCISE, str(tree))
    assert not marker.exists(), f"jaxlint ran the tree's program ({kind})"
    assert "a.py" in run.out and "ignored_b.py" not in run.out  # .gitignore still honoured
