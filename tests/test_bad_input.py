"""Bad input never ends in a traceback: each case gets one clear result and the run goes on.

A syntax error is one JAX000 finding at the parser's row and column; undecodable
bytes are a JAX000 finding; a path that cannot be read is an ``error:`` line on
stderr (exit 2) while the other files are still checked; a crashing rule is
reported by code and name (exit 2) while the other rules' findings still come out.

Most tests call ``jaxlint.cli.main`` in-process; the ones that could crash the
interpreter itself (deep nesting once overflowed libcst's native parser) or that
check for tracebacks run ``python -m jaxlint`` in a subprocess.
"""

from __future__ import annotations

import ast
import errno
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from cli_support import runner

import jaxlint.source
from jaxlint.cli import main
from jaxlint.engine import NESTED_TOO_DEEPLY, lint_text
from jaxlint.rules.api_drift import RemovedApi
from jaxlint.rules.array_semantics import InPlaceUpdate

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"
"""One JAX702 finding (removed-api, safe fix), at 2:5."""
SAMPLE_FIXED = "import jax.numpy as jnp\nx = jnp.round(3)\n"
ALL_THREE = (
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "key = jax.random.PRNGKey(0)\n"
    "buf = jnp.zeros((3,))\n"
    "buf[0] = 1.0\n"
    "out = jax.tree_map(lambda x: x, buf)\n"
)
"""JAX302 at 4:7, JAX601 at 6:1, JAX702 at 7:7 (JAX302 is off by default)."""
CONCISE = ("--output-format", "concise", "--no-cache")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Run ``main`` in ``tmp_path`` (so file names print relative) and capture its output."""
    monkeypatch.chdir(tmp_path)

    return runner(capsys, *CONCISE)


def run_process(
    *args: str, cwd: Path, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 1, 2), (proc.returncode, err)  # not a signal (segfault)
    return proc


def python_error_position(source: str) -> tuple[int, int]:
    """Where CPython's parser puts the syntax error in ``source``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.offset or 1
    raise AssertionError("the source parses")


# -- syntax errors ---------------------------------------------------------------------------


def test_syntax_error_is_one_jax000_and_the_run_goes_on(cli, tmp_path: Path) -> None:
    bad = "import jax\n\ndef f(:\n    pass\n"
    (tmp_path / "bad.py").write_text(bad)
    (tmp_path / "good.py").write_text(SAMPLE)
    r = cli("bad.py", "good.py")
    row, col = python_error_position(bad)
    assert (row, col) == (3, 7)
    assert r.lines_for("bad.py") == [f"bad.py:{row}:{col}: JAX000 SyntaxError: invalid syntax"]
    [good] = r.lines_for("good.py")
    assert good.startswith("good.py:2:5: JAX702 [*] `jnp.round_`")
    assert r.code == 1
    assert r.errors == []


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import jax\nx = (\n", id="unclosed-paren"),
        pytest.param("import jax\nx = $\n", id="invalid-character"),
        pytest.param("import jax\n  x = 1\n", id="unexpected-indent"),
        pytest.param("import jax\nif x:\n        a = 1\n\tb = 2\n", id="tab-error"),
        pytest.param("import jax\nif x:\npass\n", id="expected-indent"),
        pytest.param('import jax\ns = "é"; x = "abc\n', id="unterminated-string-after-non-ascii"),
        pytest.param("import jax\nx = 1 +\n", id="dangling-operator"),
        pytest.param("import jax\nprint 'hi'\n", id="python2-print"),
    ],
)
def test_syntax_error_position_is_pythons(cli, tmp_path: Path, source: str) -> None:
    (tmp_path / "bad.py").write_text(source, encoding="utf-8")
    r = cli("bad.py")
    row, col = python_error_position(source)
    lines = r.lines_for("bad.py")
    assert len(lines) == 1, r.out
    assert lines[0].startswith(f"bad.py:{row}:{col}: JAX000 ")
    assert "Error: " in lines[0]  # SyntaxError / IndentationError / TabError: message
    assert r.code == 1


def test_null_byte_is_jax000_at_the_null_byte(cli, tmp_path: Path) -> None:
    (tmp_path / "nul.py").write_bytes(b"import jax\nx = 1\x00\n")
    r = cli("nul.py")
    [line] = r.lines_for("nul.py")
    assert line.startswith("nul.py:2:6: JAX000 ")
    assert "null" in line
    assert r.code == 1


def test_syntax_error_with_fix_writes_nothing(cli, tmp_path: Path) -> None:
    data = b"import jax.numpy as jnp\nx = jnp.round_(3)\ny = (\n"
    (tmp_path / "bad.py").write_bytes(data)
    r = cli("--fix", "bad.py")
    assert [line.split(": ")[1] for line in r.lines_for("bad.py")] == ["JAX000 SyntaxError"]
    assert (tmp_path / "bad.py").read_bytes() == data
    assert r.code == 1


# -- decoding --------------------------------------------------------------------------------


def test_undecodable_bytes_are_jax000_with_a_clear_message(cli, tmp_path: Path) -> None:
    data = b"import jax\nx = '\xff'\n"
    (tmp_path / "undecodable.py").write_bytes(data)
    (tmp_path / "good.py").write_text(SAMPLE)
    r = cli("--fix", "undecodable.py", "good.py")
    [line] = r.lines_for("undecodable.py")
    assert line.startswith("undecodable.py:2:6: JAX000 cannot decode byte b'\\xff' as utf-8")
    assert "coding line" in line  # says how to fix it
    assert (tmp_path / "undecodable.py").read_bytes() == data
    assert (tmp_path / "good.py").read_text() == SAMPLE_FIXED  # the other file was fixed
    assert r.code == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"# -*- coding: bogus -*-\nimport jax\n", "unknown encoding: bogus"),
        (b"\xef\xbb\xbf# coding: latin-1\nimport jax\n", "bad encoding declaration"),
        (b"# coding: ascii\nimport jax\ns = '\xc3\xa9'\n", "cannot decode byte"),
    ],
    ids=["unknown-codec", "bom-contradicts-coding-line", "not-ascii"],
)
def test_bad_encoding_declarations(cli, tmp_path: Path, data: bytes, message: str) -> None:
    (tmp_path / "enc.py").write_bytes(data)
    r = cli("enc.py")
    [line] = r.lines_for("enc.py")
    assert " JAX000 " in line and message in line
    assert r.code == 1


def test_pep263_latin1_is_read_in_its_encoding(cli, tmp_path: Path) -> None:
    data = b'# -*- coding: latin-1 -*-\nimport jax.numpy as jnp\ns = "caf\xe9"; x = jnp.round_(3)\n'
    (tmp_path / "latin.py").write_bytes(data)
    r = cli("latin.py")
    # columns count characters: the \xe9 byte is one character
    assert [line[:24] for line in r.lines_for("latin.py")] == ["latin.py:3:17: JAX702 [*"]
    assert r.code == 1


def test_bom_crlf_and_tabs_keep_positions(cli, tmp_path: Path) -> None:
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + SAMPLE.encode())
    (tmp_path / "crlf.py").write_bytes(SAMPLE.replace("\n", "\r\n").encode())
    (tmp_path / "cr.py").write_bytes(SAMPLE.replace("\n", "\r").encode())
    (tmp_path / "tabs.py").write_text("import jax.numpy as jnp\nif True:\n\tx = jnp.round_(3)\n")
    r = cli("bom.py", "crlf.py", "cr.py", "tabs.py")
    assert [line.split(" [*]")[0] for line in r.out.splitlines() if "JAX" in line] == [
        "bom.py:2:5: JAX702",
        "cr.py:2:5: JAX702",
        "crlf.py:2:5: JAX702",
        "tabs.py:3:6: JAX702",  # a tab is one character
    ]
    assert r.code == 1


@pytest.mark.parametrize(
    "data",
    [b"", b"\xef\xbb\xbf", b"\n\n\n", b"# jax\n", b"\xef\xbb\xbf# jax", b"import jax"],
    ids=["empty", "only-bom", "blank-lines", "comment", "bom-comment-no-newline", "no-newline"],
)
def test_empty_and_trivial_files_pass(cli, tmp_path: Path, data: bytes) -> None:
    (tmp_path / "e.py").write_bytes(data)
    r = cli("--fix", "e.py")
    assert r.code == 0
    assert r.out.strip() == "All checks passed!"
    assert r.err == ""
    assert (tmp_path / "e.py").read_bytes() == data


# -- paths -------------------------------------------------------------------------------------


def test_directory_named_like_a_python_file_is_walked(cli, tmp_path: Path) -> None:
    (tmp_path / "x.py").mkdir()
    (tmp_path / "x.py" / "inner.py").write_text(SAMPLE)
    for args in (("x.py",), (".",)):
        r = cli(*args)
        [line] = [line for line in r.out.splitlines() if "JAX702" in line]
        assert line.startswith("x.py/inner.py:2:5: JAX702 ")
        assert r.errors == []
        assert r.code == 1


def test_nonexistent_path_is_an_error_and_the_run_goes_on(cli, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(SAMPLE)
    r = cli("missing.py", "good.py")
    assert r.errors == ["error: missing.py: no such file or directory"]
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2


def test_broken_symlink_is_an_error(cli, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(SAMPLE)
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    r = cli("dangling.py", "good.py")
    assert r.errors == ["error: dangling.py: broken symbolic link"]
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2
    r = cli(".")
    assert r.errors == ["error: dangling.py: broken symbolic link"]
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2


def _symlink_loop(directory: Path) -> None:
    (directory / "loop.py").symlink_to("loop.py")  # loop.py -> loop.py


def test_symlink_loop_named_explicitly(cli, tmp_path: Path) -> None:
    _symlink_loop(tmp_path)
    (tmp_path / "good.py").write_text(SAMPLE)
    r = cli("loop.py", "good.py")
    assert len(r.errors) == 1
    assert r.errors[0].startswith("error: loop.py: ")
    assert "symbolic links" in r.errors[0]  # "Too many levels of symbolic links" (ELOOP)
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2


def test_symlink_loop_inside_a_walked_folder(cli, tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    _symlink_loop(pkg)
    (pkg / "a.py").symlink_to("b.py")  # a two-link loop as well
    (pkg / "b.py").symlink_to("a.py")
    (pkg / "good.py").write_text(SAMPLE)
    r = cli("pkg")
    assert sorted(e.split(": ")[1] for e in r.errors) == ["pkg/a.py", "pkg/b.py", "pkg/loop.py"]
    assert all("symbolic links" in e for e in r.errors)
    assert len(r.lines_for("pkg/good.py")) == 1
    assert r.code == 2


def test_symlink_loop_in_a_subprocess(tmp_path: Path) -> None:
    _symlink_loop(tmp_path)
    (tmp_path / "good.py").write_text(SAMPLE)
    for args in (["loop.py", "good.py"], ["."]):
        proc = run_process("check", *CONCISE, *args, cwd=tmp_path)
        assert proc.returncode == 2
        assert b"error: loop.py: " in proc.stderr
        assert b"good.py:2:5: JAX702" in proc.stdout


def _cannot_read(monkeypatch: pytest.MonkeyPatch, victim: Path) -> None:
    """Make ``victim`` unreadable: chmod 000, or (as root, which reads anyway) a fake ``open``."""
    victim.chmod(0)
    try:
        with open(victim, "rb"):
            readable = True
    except PermissionError:
        readable = False
    if not readable:
        return
    real_open = open

    def fake_open(file, *args, **kwargs):
        if os.path.abspath(file) == os.path.abspath(victim):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(jaxlint.source, "open", fake_open, raising=False)


def test_unreadable_file_is_an_error_and_the_run_goes_on(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "secret.py").write_text(SAMPLE)
    (tmp_path / "good.py").write_text(SAMPLE)
    _cannot_read(monkeypatch, tmp_path / "secret.py")
    try:
        for args in (("secret.py", "good.py"), (".",)):
            r = cli(*args)
            assert r.errors == ["error: secret.py: cannot read: Permission denied"]
            assert r.lines_for("secret.py") == []
            assert len(r.lines_for("good.py")) == 1
            assert r.code == 2
    finally:
        (tmp_path / "secret.py").chmod(0o644)


def test_unreadable_folder_is_an_error_and_the_run_goes_on(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.py").write_text(SAMPLE)
    (tmp_path / "good.py").write_text(SAMPLE)
    real_scandir = os.scandir

    def fake_scandir(path=None):
        if path is not None and os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real_scandir(path) if path is not None else real_scandir()

    monkeypatch.setattr(os, "scandir", fake_scandir)  # chmod 000 does not stop root
    r = cli(".")
    assert len(r.errors) == 1
    assert "locked" in r.errors[0] and "Permission denied" in r.errors[0]
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2


def test_special_file_is_an_error(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    (tmp_path / "good.py").write_text(SAMPLE)
    r = cli("pipe.py", "good.py")
    assert r.errors == ["error: pipe.py: not a regular file"]
    assert len(r.lines_for("good.py")) == 1
    assert r.code == 2


# -- crashes -----------------------------------------------------------------------------------


def _boom(self, node) -> None:
    raise RuntimeError("boom\nsecond line of the message")


def test_crashing_rule_is_reported_and_other_rules_still_report(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(InPlaceUpdate, "visit_Assign", _boom)
    (tmp_path / "a.py").write_text(ALL_THREE)
    (tmp_path / "b.py").write_text(SAMPLE)
    r = cli("--extend-select", "JAX302", "a.py", "b.py")
    assert [line.split(": ")[1].split()[0] for line in r.lines_for("a.py")] == [
        "JAX302",
        "JAX702",
    ]
    assert [line.split(": ")[1].split()[0] for line in r.lines_for("b.py")] == ["JAX702"]
    assert sorted(r.errors) == [
        "error: a.py: internal error in rule JAX601 (in-place-update): RuntimeError: boom"
        " second line of the message",
        "error: b.py: internal error in rule JAX601 (in-place-update): RuntimeError: boom"
        " second line of the message",
    ]
    assert r.code == 2


def test_crashing_rule_with_fix_still_applies_the_other_fixes(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(RemovedApi, "visit_Attribute", _boom)
    (tmp_path / "a.py").write_text(ALL_THREE)
    r = cli("--fix", "a.py")
    assert r.code == 2
    assert len(r.errors) == 1
    assert "JAX702 (removed-api)" in r.errors[0]
    fixed = (tmp_path / "a.py").read_text()
    assert "buf = buf.at[0].set(1.0)" in fixed  # JAX601's fix was applied
    assert "jax.tree_map" in fixed  # the crashed rule's finding is left alone


def test_crash_outside_the_rules_is_one_error_line_per_file(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jaxlint.cli

    real = jaxlint.cli.checking.process_text

    def flaky(text: str, name: str, *args, **kwargs):
        if name == "a.py":
            raise ValueError("unexpected\nstate")
        return real(text, name, *args, **kwargs)

    monkeypatch.setattr(jaxlint.cli.checking, "process_text", flaky)
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(SAMPLE)
    r = cli("a.py", "b.py")
    assert r.errors == ["error: a.py: internal error: ValueError: unexpected state"]
    assert len(r.lines_for("b.py")) == 1
    assert r.code == 2


def test_internal_tracebacks_only_on_request(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jaxlint.cli

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("unexpected")

    monkeypatch.setattr(jaxlint.cli.checking, "process_text", broken)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(SAMPLE)
    assert main(["check", "--show-internal-tracebacks", "a.py"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "error: a.py: internal error: ValueError: unexpected" in err


def test_bad_path_argument_in_process(cli) -> None:
    r = cli("a\0b.py")  # only possible in-process: argv cannot hold NUL
    assert r.code == 2
    assert len(r.errors) == 1 and "null" in r.errors[0]


# -- huge and deeply nested code ----------------------------------------------------------------


def test_huge_file_reports_the_right_line(cli, tmp_path: Path) -> None:
    n = 20_000
    body = "".join(f"a{i} = {i}\n" for i in range(n))
    (tmp_path / "huge.py").write_text("import jax.numpy as jnp\n" + body + "x = jnp.round_(3)\n")
    r = cli("huge.py")
    [line] = r.lines_for("huge.py")
    assert line.startswith(f"huge.py:{n + 2}:5: JAX702")
    assert r.code == 1


def _nested(kind: str, depth: int) -> str:
    call = "jax.numpy.round_(3)"
    body = {
        "parens": "(" * depth + call + ")" * depth,
        "lists": "[" * depth + call + "]" * depth,
        "unary": "-" * depth + call,
        "attributes": call + ".a" * depth,
        "lambdas": "lambda: " * depth + call,
    }[kind]
    return f"import jax\nx = {body}\n"


@pytest.mark.parametrize(
    ("kind", "depth", "message"),
    [
        ("parens", 5000, NESTED_TOO_DEEPLY),  # once a segfault in libcst's native parser
        ("lists", 3000, NESTED_TOO_DEEPLY),  # also once a segfault
        ("unary", 100_000, NESTED_TOO_DEEPLY),
        ("attributes", 10_000, NESTED_TOO_DEEPLY),
        ("lambdas", 5000, NESTED_TOO_DEEPLY),
    ],
)
def test_deep_nesting_is_a_clear_jax000(
    tmp_path: Path, kind: str, depth: int, message: str
) -> None:
    (tmp_path / "deep.py").write_text(_nested(kind, depth))
    (tmp_path / "good.py").write_text(SAMPLE)
    proc = run_process("check", *CONCISE, "--fix", "deep.py", "good.py", cwd=tmp_path)
    out = proc.stdout.decode()
    deep = [line for line in out.splitlines() if line.startswith("deep.py:")]
    assert len(deep) == 1, out
    assert " JAX000 " + message in deep[0]
    assert proc.returncode == 1
    assert (tmp_path / "deep.py").read_text() == _nested(kind, depth)
    assert (tmp_path / "good.py").read_text() == SAMPLE_FIXED


def test_deep_nesting_that_python_compiles_is_linted_and_fixed(tmp_path: Path) -> None:
    """1,000 unary minuses: past Python's recursion limit for jaxlint's walks, within what
    CPython compiles, so linted with a deep stack (docs/reliability.md), and fixed."""
    (tmp_path / "deep.py").write_text(_nested("unary", 1000))
    proc = run_process("check", *CONCISE, "--fix", "deep.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "deep.py").read_text() == _nested("unary", 1000).replace("round_", "round")


@pytest.mark.parametrize("kind", ["parens", "unary", "attributes", "lambdas"])
def test_nesting_within_limits_is_linted_and_fixed(cli, tmp_path: Path, kind: str) -> None:
    (tmp_path / "nested.py").write_text(_nested(kind, 100))
    r = cli("--fix", "nested.py")
    assert r.code == 0, r.out
    assert (tmp_path / "nested.py").read_text() == _nested(kind, 100).replace("round_", "round")


def test_lists_nested_up_to_the_parser_limit_are_linted_and_fixed(cli, tmp_path: Path) -> None:
    # Python's parser stops at 200 nested brackets; below that, positions are computed
    # by libcst's code generation alone (its MetadataWrapper walk used to overflow at 150)
    (tmp_path / "nested.py").write_text(_nested("lists", 199))
    r = cli("--fix", "nested.py")
    assert r.code == 0, r.out
    assert (tmp_path / "nested.py").read_text() == _nested("lists", 199).replace("round_", "round")


def test_deep_nesting_in_lint_text_directly() -> None:
    from jaxlint.config import Settings
    from jaxlint.rules import all_rules

    settings = Settings()
    result = lint_text(
        _nested("parens", 5000), "deep.py", settings, settings.enabled_rules(all_rules())
    )
    assert [(d.code, d.start.row) for d in result.diagnostics] == [("JAX000", 2)]
    assert not result.parsed


# -- configuration -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "must_name"),
    [
        ("bogus-key = 1", "bogus-key"),
        ('select = "JAX6"', "select"),
        ("select = [1]", "select"),
        ('target-jax = "banana"', "target-jax"),
        ("target-jax = 4", "target-jax"),
        ('select = ["XYZ1"]', "XYZ1"),
        ('extend-select = ["JAX9"]', "JAX9"),
        ('ignore = ["JAX"]\nrespect-gitignore = "yes"', "respect-gitignore"),
        ("per-file-ignores = 3", "per-file-ignores"),
    ],
)
def test_config_errors_name_the_file_and_the_key(
    cli, tmp_path: Path, table: str, must_name: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.jaxlint]\n{table}\n")
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("a.py")
    assert r.code == 2
    assert len(r.errors) == 1, r.err
    assert "pyproject.toml" in r.errors[0] and must_name in r.errors[0]
    assert r.out == ""


def test_invalid_toml_is_a_config_error(cli, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint\nselect = 1\n")
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("a.py")
    assert r.code == 2
    [error] = r.errors
    assert "pyproject.toml" in error and "invalid TOML" in error and "line 1" in error


def test_config_file_that_is_not_utf8(cli, tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_bytes(b"select = ['\xff']\n")
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("a.py")
    assert r.code == 2
    [error] = r.errors
    assert "jaxlint.toml" in error


def test_jaxlint_toml_unknown_key(cli, tmp_path: Path) -> None:
    (tmp_path / "jaxlint.toml").write_text("selectt = ['JAX6']\n")
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("a.py")
    assert r.code == 2
    [error] = r.errors
    assert "jaxlint.toml" in error and "selectt" in error


def test_config_option_errors(cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("--config", "nowhere.toml", "a.py")
    assert r.code == 2 and "nowhere.toml" in r.errors[0]
    r = cli("--select", "NOPE", "a.py")
    assert r.code == 2 and "NOPE" in r.errors[0]
    r = cli("--target-jax", "x.y", "a.py")
    assert r.code == 2 and "--target-jax" in r.errors[0]


# -- everything at once, in a real process ---------------------------------------------------------


def test_a_folder_of_bad_input_never_gives_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "syntax.py").write_text("import jax\nx = (\n")
    (tmp_path / "undecodable.py").write_bytes(b"import jax\nx = '\xff'\n")
    (tmp_path / "bogus_coding.py").write_bytes(b"# coding: bogus\nimport jax\n")
    (tmp_path / "nul.py").write_bytes(b"import jax\n\x00\n")
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "deep.py").write_text(_nested("parens", 5000))
    (tmp_path / "x.py").mkdir()
    (tmp_path / "x.py" / "inner.py").write_text(SAMPLE)
    _symlink_loop(tmp_path)
    (tmp_path / "dangling.py").symlink_to("nowhere.py")
    (tmp_path / "good.py").write_text(ALL_THREE)
    for extra in ([], ["--fix"], ["--diff"], ["--output-format", "json"]):
        proc = run_process("check", *CONCISE, *extra, ".", "missing.py", cwd=tmp_path)
        assert proc.returncode == 2
        err = proc.stderr.decode()
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert sorted(e.split(": ")[1] for e in errors) == [
            "dangling.py",
            "loop.py",
            "missing.py",
        ], err
        if extra != ["--output-format", "json"]:
            out = proc.stdout.decode()
            for name in ("syntax.py", "undecodable.py", "bogus_coding.py", "nul.py", "deep.py"):
                assert f"{name}:" in out or f"a/{name}" in out or "--diff" in extra, name


def test_undecodable_stdin(tmp_path: Path) -> None:
    data = b"import jax\nx = '\xff'\n"
    proc = run_process("check", *CONCISE, "--fix", "-", cwd=tmp_path, stdin=data)
    assert proc.stdout == data  # the code comes back untouched
    assert b"-:2:6: JAX000 cannot decode" in proc.stderr
    assert proc.returncode == 1


def test_ascii_terminal_gets_escapes_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "café.py").write_text("import jax.numpy as jnp\nx = jnp.round_(3)  # é\n")
    for fmt in ("text", "concise", "json", "github"):
        proc = run_process(
            "check", "--output-format", fmt, ".", cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"}
        )
        assert proc.returncode == 1, proc.stderr
        assert b"caf" in proc.stdout


@pytest.mark.parametrize(
    "header",
    ["nonlocal y\n", "def dup(a, a):\n    return a\n", "x: int = 1\nglobal x\n"],
)
def test_symbol_table_errors_are_linted_as_before(header: str) -> None:
    """The pre-parse runs CPython's parser through ``symtable``, which also raises the
    symbol table's errors that ``ast`` did not (``nonlocal`` at module level, a duplicate
    parameter, ``global`` after an annotation). The grammar accepts them and so does
    libcst: the file is still parsed and linted, not reported as a JAX000."""
    from jaxlint.config import Settings
    from jaxlint.rules import all_rules

    text = header + (
        "import jax\n\n\n@jax.jit\ndef g(x):\n    if x > 0:\n        return x\n    return -x\n"
    )
    settings = Settings()
    result = lint_text(text, "sym.py", settings, settings.enabled_rules(all_rules()))
    assert result.parsed
    assert [d.code for d in result.diagnostics] == ["JAX201"]


@pytest.mark.parametrize("literal", ["0xA24BAED4", "0o17", "0b101", "1_000", "1e-3", "0x0"])
def test_integer_literals_in_every_spelling_as_arguments_crash_nothing(literal: str) -> None:
    """fresh-2026-12k's pmpp: ``_hash(seed, salt=0xA24BAED4)`` from a helper of a jitted
    function made the trace analysis read the literal with ``float()``, and every rule of
    the file (and, through the project's summaries, of the files importing it) failed."""
    from jaxlint.config import Settings
    from jaxlint.rules import all_rules

    text = (
        "import jax\n\n\ndef _hash(seed, salt):\n    if salt:\n        return seed + 1\n"
        f"    return seed\n\n\ndef _helper(seed):\n    return _hash(seed, salt={literal})\n\n\n"
        "@jax.jit\ndef noise(seed):\n    if jax.__version_info__ >= (0x0, 4, 0b1):\n"
        "        return _helper(seed)\n    return seed\n"
    )
    settings = Settings()
    result = lint_text(text, "lit.py", settings, settings.enabled_rules(all_rules()))
    assert result.parsed
    assert result.internal_errors == [], result.internal_errors[0].traceback
