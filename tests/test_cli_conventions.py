"""The command-line conventions ruff users expect (issue 17): strict subcommands,
missing paths and empty folders, --exclude/--extend-ignore/--per-file-ignores,
--add-noqa, --config KEY=VALUE, -q/-s, ruff key hints, colours, the progress
line, --watch, and custom traced decorators in the prefilter."""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

import jaxlint.cli
import jaxlint.cli.noqa_add
import jaxlint.rules
import jaxlint.versions
from jaxlint.cli import main
from jaxlint.cli.common import per_file_ignores
from jaxlint.cli.progress import Progress
from jaxlint.cli.watch import poll_changes, snapshot, watch
from jaxlint.output.style import Style, use_color
from jaxlint.rules.base import Rule

# JAX602 (`jnp.empty`) is off by default: one default finding is JAX702 on `jnp.round_`
# (safe fix to `jnp.round`), and TWO has one finding in each of the JAX6 and JAX7 families.
EMPTY = "import jax.numpy as jnp\nx = jnp.round_(3)\n"
CLEAN = "import jax.numpy as jnp\nx = jnp.round(3)\n"
TWO = "import jax\nimport jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1.0\ny = jax.tree_map(f, x)\n"


@dataclass
class Result:
    code: int
    out: str
    err: str


Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def _pinned_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*args: str) -> Result:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return go


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(textwrap.dedent(text).encode())


def codes(out: str) -> list[str]:
    """(file, code) of each finding in concise output."""
    found = []
    for line in out.splitlines():
        parts = line.split(": ", 1)
        if len(parts) == 2 and parts[1].startswith("JAX"):
            found.append(f"{parts[0].split(':')[0]} {parts[1].split()[0]}")
    return found


# -- 1. subcommands -------------------------------------------------------------------------


@pytest.mark.parametrize(("typo", "meant"), [("chek", "check"), ("rul", "rule"), ("clen", "clean")])
def test_mistyped_subcommand_is_an_error(project: Path, run: Run, typo: str, meant: str) -> None:
    write(project, {"a.py": EMPTY})
    r = run(typo, ".")
    assert r.code == 2
    assert r.out == ""  # nothing was linted
    assert r.err.startswith(f"error: unrecognized subcommand '{typo}'; did you mean '{meant}'?")


def test_unknown_word_without_close_subcommand(project: Path, run: Run) -> None:
    r = run("lintify")
    assert r.code == 2 and "did you mean" not in r.err
    assert "jaxlint check lintify" in r.err


def test_paths_still_default_to_check(project: Path, run: Run) -> None:
    write(project, {"src/a.py": EMPTY, "b.py": EMPTY})
    for first in ("src", "b.py", "./src"):
        r = run(first, "--output-format", "concise")
        assert r.code == 1 and "JAX702" in r.out, first
    # a word that is not a subcommand is fine after `check`, as a path
    r = run("check", "chek")
    assert r.code == 2 and "chek: no such file or directory" in r.err


# -- 2. missing paths, empty folders, files that could not be checked -----------------------


def test_missing_path_prints_no_success_line(project: Path, run: Run) -> None:
    write(project, {"ok.py": CLEAN})
    r = run("check", "ok.py", "missing.py")
    assert r.code == 2
    assert "error: missing.py: no such file or directory" in r.err
    assert "All checks passed!" not in r.out
    assert r.out == "Could not check 1 file(s) or path(s); see the error(s) above.\n"


def test_missing_path_with_findings_says_both(project: Path, run: Run) -> None:
    write(project, {"a.py": EMPTY})
    r = run("check", "a.py", "gone.py", "gone2")
    assert r.code == 2
    assert "Found 1 error(s)." in r.out
    assert r.out.endswith("Could not check 2 file(s) or path(s); see the error(s) above.\n")


@pytest.mark.parametrize("files", [{}, {"notes.txt": "hello\n", "sub/data.json": "{}\n"}])
def test_no_python_files_found(project: Path, run: Run, files: dict[str, str]) -> None:
    (project / "folder").mkdir()
    write(project / "folder", files)
    r = run("check", "folder")
    assert r.code == 0
    assert r.err == "warning: No Python files found under the given path(s)\n"
    r = run("check", "-q", "folder")
    assert r.err == "" and r.out == ""


class CrashRule(Rule):
    code = "JAX991"
    name = "test-crash"
    message = "never reported"
    docs = "## What it does\nCrashes.\n"

    def visit_Call(self, node: cst.Call) -> None:
        raise RuntimeError("boom")


@pytest.fixture
def crash_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    rules = (*jaxlint.rules.all_rules(), CrashRule)
    for module in (jaxlint.rules, jaxlint.cli.common):
        monkeypatch.setattr(module, "all_rules", lambda: rules)
    yield


def test_internal_error_never_says_all_checks_passed(
    project: Path, run: Run, crash_rule: None
) -> None:
    write(project, {"ok.py": CLEAN, "ok2.py": CLEAN})
    r = run("check", "--no-cache", "-j", "1", "ok.py", "ok2.py")
    assert r.code == 2
    assert "JAX991" in r.err and "boom" in r.err
    assert "All checks passed!" not in r.out
    assert "Could not check 2 file(s) or path(s)" in r.out


# -- 4. options ----------------------------------------------------------------------------


def test_exclude_replaces_config_and_defaults(project: Path, run: Run) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.jaxlint]\nexclude = ["gen"]\n',
            "gen/a.py": EMPTY,
            "build/b.py": EMPTY,
            "keep/c.py": EMPTY,
        },
    )
    r = run("check", "--output-format", "concise", ".")
    assert codes(r.out) == ["build/b.py JAX702", "keep/c.py JAX702"]
    r = run("check", "--output-format", "concise", "--exclude", "keep,build", ".")
    assert codes(r.out) == ["gen/a.py JAX702"]
    r = run("check", "--output-format", "concise", "--extend-exclude", "keep", ".")
    assert codes(r.out) == ["build/b.py JAX702"]


def test_extend_ignore(project: Path, run: Run) -> None:
    write(project, {"a.py": TWO})
    r = run("check", "--output-format", "concise", "--extend-ignore", "JAX601", "a.py")
    assert codes(r.out) == ["a.py JAX702"]
    r = run("check", "--output-format", "concise", "--ignore", "JAX7", "--extend-ignore", "JAX6")
    assert r.code == 0


def test_per_file_ignores_option_parsing() -> None:
    assert per_file_ignores("tests/*:JAX302,JAX6") == [("tests/*", ("JAX302", "JAX6"))]
    assert per_file_ignores("a.py:JAX6,b/*.py:JAX7") == [("a.py", ("JAX6",)), ("b/*.py", ("JAX7",))]
    assert per_file_ignores("a.py:JAX6 b.py:JAX7, JAX3") == [
        ("a.py", ("JAX6",)),
        ("b.py", ("JAX7", "JAX3")),
    ]
    for bad in ("JAX6", "a.py:", ":JAX6"):
        with pytest.raises(argparse.ArgumentTypeError):
            per_file_ignores(bad)


def test_per_file_ignores_option(project: Path, run: Run) -> None:
    write(
        project,
        {
            "pyproject.toml": '[tool.jaxlint.per-file-ignores]\n"src/*" = ["JAX702"]\n',
            "src/a.py": TWO,
            "tests/t.py": TWO,
        },
    )
    r = run("check", "--output-format", "concise", ".")
    assert codes(r.out) == ["src/a.py JAX601", "tests/t.py JAX601", "tests/t.py JAX702"]
    r = run("check", "--output-format", "concise", "--per-file-ignores", "tests/*:JAX6", ".")
    assert codes(r.out) == ["src/a.py JAX601", "tests/t.py JAX702"]
    # the cache knows: the same files without the option report everything again
    r = run("check", "--output-format", "concise", ".")
    assert len(codes(r.out)) == 3
    r = run("check", "--per-file-ignores", "tests/*:JAX9", ".")
    assert r.code == 2 and "matches no jaxlint rule" in r.err
    r = run("check", "--per-file-ignores", "JAX6", ".")
    assert r.code == 2 and "GLOB:CODES" in r.err


def test_config_key_value(project: Path, run: Run) -> None:
    write(project, {"pyproject.toml": '[tool.jaxlint]\nignore = ["JAX7"]\n', "a.py": TWO})
    r = run("check", "--output-format", "concise", "a.py")
    assert codes(r.out) == ["a.py JAX601"]
    # the inline pair overrides the file's settings
    r = run("check", "--output-format", "concise", "--config", 'ignore = ["JAX6"]', "a.py")
    assert codes(r.out) == ["a.py JAX702"]
    r = run("check", "--output-format", "concise", "--config", "ignore = []", "a.py")
    assert codes(r.out) == ["a.py JAX601", "a.py JAX702"]
    r = run(
        "check",
        "--output-format",
        "concise",
        "--config",
        "pyproject.toml",
        "--config",
        'select=["JAX7"]',
        "--config",
        "ignore=[]",
        "a.py",
    )
    assert codes(r.out) == ["a.py JAX702"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("target-version = 'py310'", "did you mean 'target-jax'?"),
        ("select = [1]", "expected a list of strings"),
        ("select = ", "neither an existing file nor a TOML 'KEY = VALUE' pair"),
        ("nosuchfile.toml", "config file not found"),
    ],
)
def test_config_key_value_errors(project: Path, run: Run, value: str, message: str) -> None:
    write(project, {"a.py": EMPTY})
    r = run("check", "--config", value, "a.py")
    assert r.code == 2 and message in r.err and r.out == ""


def test_two_config_files_is_an_error(project: Path, run: Run) -> None:
    write(project, {"a.toml": "", "b.toml": "", "a.py": EMPTY})
    r = run("check", "--config", "a.toml", "--config", "b.toml", "a.py")
    assert r.code == 2 and "one config file at most" in r.err


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        ('target-version = "py310"', "did you mean 'target-jax'?"),
        ('extend-ignore = ["JAX6"]', "did you mean 'ignore'?"),
        ('lint.select = ["JAX6"]', "write select = [...], not lint.select"),
        ("line-length = 88", "no line length"),
        ('extend-per-file-ignores = {"a.py" = ["JAX6"]}', "did you mean 'per-file-ignores'?"),
        ('selct = ["JAX6"]', "did you mean 'select'?"),
    ],
)
def test_ruff_key_names_get_hints(project: Path, run: Run, key: str, hint: str) -> None:
    write(project, {"pyproject.toml": f"[tool.jaxlint]\n{key}\n", "a.py": EMPTY})
    r = run("check", "a.py")
    assert r.code == 2 and hint in r.err


def test_quiet_and_silent(project: Path, run: Run) -> None:
    write(project, {"a.py": EMPTY, "ok.py": CLEAN})
    loud = run("check", "--output-format", "concise", "a.py")
    r = run("check", "--output-format", "concise", "-q", "a.py")
    assert r.code == 1
    assert r.out == loud.out.split("Found")[0]  # the findings, no summary
    assert run("check", "-q", "ok.py").out == ""
    r = run("check", "-s", "a.py")
    assert (r.code, r.out, r.err) == (1, "", "")
    r = run("check", "--silent", "missing.py")
    assert (r.code, r.out, r.err) == (2, "", "")
    r = run("check", "--quiet", "missing.py")
    assert r.code == 2 and "missing.py" in r.err and r.out == ""


def test_quiet_stdin_fix_still_writes_the_code(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    for flag in ("-q", "-s"):
        out = io.BytesIO()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EMPTY.encode())))
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
        assert main(["check", "--fix", flag, "-"]) == 0
        assert out.getvalue() == CLEAN.encode()


# -- --add-noqa ----------------------------------------------------------------------------

NOQA_BEFORE = """\
import jax
import jax.numpy as jnp
a = jnp.empty(3)
b = jnp.empty(3) + jax.tree_map(f, t)  # noqa: E501
c = jnp.empty(3)  # a comment
d = jnp.empty(3)  # noqa: JAX7
s = jnp.empty(3) if x else '''
text'''
ok = jnp.zeros(3)
"""
NOQA_AFTER = """\
import jax
import jax.numpy as jnp
a = jnp.empty(3)  # noqa: JAX602
b = jnp.empty(3) + jax.tree_map(f, t)  # noqa: E501, JAX602, JAX702
c = jnp.empty(3)  # a comment  # noqa: JAX602
d = jnp.empty(3)  # noqa: JAX7, JAX602
s = jnp.empty(3) if x else '''
text'''
ok = jnp.zeros(3)
"""


def test_add_noqa(project: Path, run: Run) -> None:
    # the lines name JAX602 (off by default), so these runs select it
    write(project, {"a.py": NOQA_BEFORE, "ok.py": CLEAN})
    r = run("check", "--add-noqa", "--extend-select", "JAX602", ".")
    assert r.code == 0
    assert (project / "a.py").read_text() == NOQA_AFTER
    assert r.out == "Added 4 noqa directive(s).\n"
    assert "a.py:7: no noqa added: the line ends inside a string" in r.err
    # idempotent: a second run adds nothing and changes nothing
    r = run("check", "--add-noqa", "--extend-select", "JAX602", ".")
    assert r.out == "Added 0 noqa directive(s).\n"
    assert (project / "a.py").read_text() == NOQA_AFTER
    # and only the line that cannot carry a comment still reports
    r = run("check", "--output-format", "concise", "--extend-select", "JAX602", ".")
    assert codes(r.out) == ["a.py JAX602"] and "a.py:7:5" in r.out


def test_add_noqa_keeps_crlf_and_encoding(project: Path, run: Run) -> None:
    data = "# -*- coding: latin-1 -*-\r\nimport jax.numpy as jnp\r\nx = jnp.empty(3)  # é\r\n"
    (project / "a.py").write_bytes(data.encode("latin-1"))
    assert run("check", "--add-noqa", "--extend-select", "JAX602", "a.py").code == 0
    expected = data.replace("# é", "# é  # noqa: JAX602")
    assert (project / "a.py").read_bytes() == expected.encode("latin-1")


def test_add_noqa_never_half_writes(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(project, {"a.py": EMPTY})

    def fail(path: Path, data: bytes, mode: int | None = None, expect: object = None) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(jaxlint.cli.noqa_add, "write_atomic", fail)
    r = run("check", "--add-noqa", "a.py")
    assert r.code == 2 and "No space left on device" in r.err
    assert (project / "a.py").read_text() == EMPTY


def test_add_noqa_rejects_fix(project: Path, run: Run) -> None:
    write(project, {"a.py": EMPTY})
    assert run("check", "--add-noqa", "--fix", "a.py").code == 2
    assert (project / "a.py").read_text() == EMPTY


# -- 5. colours and the progress line ------------------------------------------------------


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_use_color() -> None:
    tty, pipe = FakeTTY(), io.StringIO()
    assert use_color("auto", tty, {"TERM": "xterm"})
    assert not use_color("auto", pipe, {})
    assert not use_color("auto", tty, {"TERM": "dumb"})
    assert not use_color("auto", tty, {"NO_COLOR": "1"})
    assert use_color("auto", tty, {"NO_COLOR": ""})  # empty means unset (no-color.org)
    assert use_color("auto", pipe, {"FORCE_COLOR": "1"})
    assert not use_color("auto", pipe, {"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert use_color("always", pipe, {"NO_COLOR": "1"})
    assert not use_color("never", tty, {"FORCE_COLOR": "1"})
    assert Style(True).paint("x", "bold", "red") == "\x1b[1;31mx\x1b[0m"
    assert Style(False).paint("x", "bold") == "x"


def test_color_option_and_environment(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(project, {"a.py": EMPTY})
    plain = run("check", "a.py")
    assert "\x1b[" not in plain.out  # piped: no colour, output as before
    coloured = run("check", "--color", "always", "a.py")
    assert "\x1b[1;31mJAX702\x1b[0m" in coloured.out
    # the text without the escapes is the plain text
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.out) == plain.out
    assert run("check", "--color", "never", "a.py").out == plain.out
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in run("check", "a.py").out
    assert run("check", "--color", "never", "a.py").out == plain.out
    assert "\x1b[" not in run("check", "--output-format", "json", "a.py").out
    monkeypatch.setenv("NO_COLOR", "1")
    assert run("check", "a.py").out == plain.out


def test_progress_line_only_on_a_terminal_after_a_delay() -> None:
    now = [0.0]
    tty = FakeTTY()
    p = Progress(3, tty, clock=lambda: now[0], delay=2.0, every=0.1)
    p.advance()
    assert tty.getvalue() == ""  # short runs print nothing
    now[0] = 2.5
    p.advance()
    assert tty.getvalue().endswith("[2/3 files]")
    p.advance()
    assert tty.getvalue().endswith("[3/3 files]")
    p.close()
    assert tty.getvalue().endswith("\r\x1b[K")
    pipe = io.StringIO()
    p = Progress(3, pipe, clock=lambda: now[0] + 10, delay=0.0)
    p.advance()
    p.close()
    assert pipe.getvalue() == ""
    p = Progress(3, None)  # -q / -s
    p.advance()
    assert not p.enabled


@pytest.mark.parametrize(
    ("stdout_tty", "flags", "shown"),
    [(True, [], True), (True, ["-q"], False), (True, ["-s"], False), (False, [], False)],
)
def test_progress_line_in_a_run(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    stdout_tty: bool,
    flags: list[str],
    shown: bool,
) -> None:
    monkeypatch.setattr(jaxlint.cli.progress, "DELAY_S", 0.0)
    write(project, {f"m{i}.py": EMPTY for i in range(3)})
    out = FakeTTY() if stdout_tty else io.StringIO()
    err = FakeTTY()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", "--no-cache", "-j", "1", "--color", "never", *flags, "."]) == 1
    assert ("[3/3 files]" in err.getvalue()) is shown
    if shown:
        assert err.getvalue().endswith("\r\x1b[K")  # erased before the report
        assert "\x1b[K" not in out.getvalue()


# -- 6. --watch ----------------------------------------------------------------------------


def test_poll_changes_sees_an_edit(project: Path) -> None:
    write(project, {"a.py": CLEAN, "notes.txt": "x"})
    edits = iter(
        [
            lambda: (project / "notes.txt").write_text("not watched"),
            lambda: (project / "a.py").write_text(EMPTY + "# edited\n"),
        ]
    )

    def sleep(_: float) -> None:
        next(edits, lambda: None)()

    changes = poll_changes(["."], 0.01, sleep=sleep, max_polls=50)
    changed = next(changes)
    assert changed[os.path.join(".", "a.py")][1] == len(EMPTY + "# edited\n")


def test_watch_checks_again_after_a_change(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, {"a.py": CLEAN})
    seen: list[str] = []

    def check_once(args: argparse.Namespace, paths: list[str]) -> int:
        seen.append((project / "a.py").read_text())
        return 0

    def sleep(_: float) -> None:
        if len(seen) == 1 and (project / "a.py").read_text() == CLEAN:
            (project / "a.py").write_text(EMPTY + "# a longer file\n")

    args = argparse.Namespace(quiet=False, silent=False, watch_interval=0.01)
    changes = poll_changes(["."], 0.01, sleep=sleep, max_polls=1000)
    assert watch(args, ["."], check_once, changes=changes, max_runs=2) == 0
    assert seen == [CLEAN, EMPTY + "# a longer file\n"]
    err = capsys.readouterr().err
    assert "Watching for file changes" in err and "File change detected" in err


def test_watchfiles_path_wakes_on_an_edit(project: Path) -> None:
    """With watchfiles installed (the `watch` extra, in the test extra), `--watch` waits
    on the OS's file events: an edit of a Python file wakes it, a text file does not."""
    pytest.importorskip("watchfiles")
    import threading

    write(project, {"a.py": CLEAN, "notes.txt": ""})
    changes = jaxlint.cli.watch._watchfiles_changes(["."])
    assert changes is not None
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(next(changes)), daemon=True)
    waiter.start()
    for _ in range(200):  # edit until the watcher has started and seen it (bounded)
        (project / "notes.txt").write_text("ignored\n")
        (project / "a.py").write_text(EMPTY)
        waiter.join(0.1)
        if got:
            break
    assert got, "watchfiles did not report the edit"
    names = {os.path.basename(path) for _, path in got[0]}  # type: ignore[attr-defined]
    assert names == {"a.py"}


def test_watch_end_to_end_with_polling(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real `--watch` path without watchfiles: a finding appears after an edit."""
    write(project, {"a.py": CLEAN})
    monkeypatch.setattr(jaxlint.cli.watch, "_watchfiles_changes", lambda paths: None)
    polls = [0]

    def sleep(_: float) -> None:
        polls[0] += 1
        if polls[0] == 1:
            (project / "a.py").write_text(EMPTY + "\n# now with a finding\n")
        if polls[0] > 1000:  # a generous bound, never a timing assertion
            raise KeyboardInterrupt

    real_poll = jaxlint.cli.watch.poll_changes
    monkeypatch.setattr(
        jaxlint.cli.watch,
        "poll_changes",
        lambda paths, interval: real_poll(paths, interval, sleep=sleep),
    )
    calls: list[int] = []
    real_check = jaxlint.cli.check.check_once

    def counting(args: argparse.Namespace, paths: list[str]) -> int:
        calls.append(1)
        code = real_check(args, paths)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return code

    monkeypatch.setattr(jaxlint.cli.check, "check_once", counting)
    r = run("check", "--watch", "--no-cache", "--output-format", "concise", ".")
    assert r.code == 0 and len(calls) == 2
    first, second = r.out.split("All checks passed!\n", 1)
    assert first == "" and "a.py:2:5: JAX702" in second


def test_snapshot_skips_excluded_folders(project: Path) -> None:
    write(project, {"a.py": CLEAN, ".venv/b.py": CLEAN, "pyproject.toml": ""})
    assert sorted(snapshot(["."])) == [os.path.join(".", n) for n in ("a.py", "pyproject.toml")]


# -- 7. custom traced decorators and the prefilter ----------------------------------------

CUSTOM_JIT = """\
import numpy as np
from mylib import my_jit


@my_jit
def f(x):
    return np.asarray(x)
"""


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_configured_decorator_file_is_checked(project: Path, run: Run, cache: list[str]) -> None:
    write(project, {"m.py": CUSTOM_JIT})
    assert run("check", *cache, "m.py").code == 0  # without config: no JAX, not parsed
    write(project, {"pyproject.toml": '[tool.jaxlint]\ntraced-decorators = ["mylib.my_jit"]\n'})
    r = run("check", *cache, "--output-format", "concise", "m.py")
    assert r.code == 1 and codes(r.out) == ["m.py JAX101"]
    write(project, {"pyproject.toml": '[tool.jaxlint]\ntraced-wrappers = ["mylib.my_jit"]\n'})
    wrapped = CUSTOM_JIT.replace("@my_jit\n", "") + "g = my_jit(f)\n"
    write(project, {"m.py": wrapped})
    r = run("check", *cache, "--output-format", "concise", "m.py")
    assert codes(r.out) == ["m.py JAX101"]


# -- 8. make demo ---------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_recipe() -> None:
    """`make demo` installs jaxlint alone, never ignores errors with `-`, stops on exit
    code 2 only, and ends with the next three commands for a newcomer."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        ["make", "--no-print-directory", "-n", "demo", "VENV=/nonexistent-venv"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    installs = [line for line in lines if "pip install" in line]
    assert installs and all(line.rstrip().endswith("install --quiet -e .") for line in installs)
    recipe = (root / "Makefile").read_text().split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert not any(line.startswith("\t-") for line in recipe.splitlines())  # no ignored errors
    checks = [line for line in lines if "jaxlint check" in line and "rc=" in line]
    assert len(checks) == 3
    assert all("if [ $rc -gt 1 ]; then exit $rc; fi" in line for line in checks)
    tail = "\n".join(lines[-3:])
    assert "jaxlint check path/to/your/code" in tail
    assert "jaxlint rule JAX101" in tail
    assert "jaxlint check --fix path/to/your/code" in tail


def test_add_noqa_text_is_reparsed(monkeypatch) -> None:
    """Text that parsed is never handed back unparseable (nothing would be written)."""
    text = "a = 1\n"
    assert jaxlint.cli.noqa_add.add_noqa_to_text(text, {1: {"JAX602"}})[1] == 1
    monkeypatch.setattr(jaxlint.cli.noqa_add, "_with_codes", lambda line, codes: line + " (")
    with pytest.raises(SyntaxError, match="would not parse"):
        jaxlint.cli.noqa_add.add_noqa_to_text(text, {1: {"JAX602"}})
