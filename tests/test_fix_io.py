"""``--fix`` writes files faithfully and safely.

Fixed files keep their encoding, BOM, line endings and mode; writing goes
through a temporary file and a rename, so an interrupted run leaves the old file
or the new one, never a mix; a fix that would break the parse is dropped and
reported; the fix loop stops at a fixed point (bounded); ``import jax`` is added
once, and only when missing.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import runner

import jaxlint.cli
import jaxlint.source
from jaxlint.cli import main
from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position
from jaxlint.fixers.fixpoint import MAX_ITERATIONS, fix_text
from jaxlint.source import write_atomic

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"  # JAX702 at 2:5, a safe fix
FIXED = "import jax.numpy as jnp\nx = jnp.round(3)\n"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CONCISE = ("--output-format", "concise", "--no-cache")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)

    return runner(capsys, *CONCISE)


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if "jaxlint-tmp" in p.name)


# -- encoding, BOM, line endings, indentation -------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            b'# -*- coding: latin-1 -*-\nimport jax.numpy as jnp\ns = "caf\xe9"\nx = jnp.round_(3)\n',
            b'# -*- coding: latin-1 -*-\nimport jax.numpy as jnp\ns = "caf\xe9"\nx = jnp.round(3)\n',
            id="pep263-latin-1",
        ),
        pytest.param(
            b"\xef\xbb\xbf" + SAMPLE.encode() + b"s = '\xc3\xa9'\n",
            b"\xef\xbb\xbf" + FIXED.encode() + b"s = '\xc3\xa9'\n",
            id="utf-8-bom",
        ),
        pytest.param(
            SAMPLE.replace("\n", "\r\n").encode(),
            FIXED.replace("\n", "\r\n").encode(),
            id="crlf",
        ),
        pytest.param(
            SAMPLE.replace("\n", "\r").encode(), FIXED.replace("\n", "\r").encode(), id="cr"
        ),
        pytest.param(
            b"import jax.numpy as jnp\r\nx = jnp.round_(3)\ny = 1\r\n",
            b"import jax.numpy as jnp\r\nx = jnp.round(3)\ny = 1\r\n",
            id="mixed-line-endings",
        ),
        pytest.param(
            b"import jax.numpy as jnp\nif True:\n\tx = jnp.round_(3)\n\tif x:\n\t\ty = jnp.product(x)\n",
            b"import jax.numpy as jnp\nif True:\n\tx = jnp.round(3)\n\tif x:\n\t\ty = jnp.prod(x)\n",
            id="tabs",
        ),
        pytest.param(
            SAMPLE.rstrip("\n").encode(), FIXED.rstrip("\n").encode(), id="no-final-newline"
        ),
        pytest.param(
            b"# -*- coding: cp1252 -*-\r\nimport jax.numpy as jnp\r\ns = '\x80'\r\nx = jnp.round_(3)\r\n",
            b"# -*- coding: cp1252 -*-\r\nimport jax.numpy as jnp\r\ns = '\x80'\r\nx = jnp.round(3)\r\n",
            id="cp1252-crlf",
        ),
    ],
)
def test_fix_keeps_the_bytes_around_the_edit(
    cli, tmp_path: Path, before: bytes, after: bytes
) -> None:
    (tmp_path / "f.py").write_bytes(before)
    r = cli("--fix", "f.py")
    assert r.code == 0, r.out + r.err
    assert (tmp_path / "f.py").read_bytes() == after
    assert leftovers(tmp_path) == []


# The import tests use JAX602 (off by default, selected here): its fix spells
# `jax.numpy.zeros` in full and adds `import jax` next to the `from` import it keeps.
JAX602_ON = ("--extend-select", "JAX602")


def test_added_import_uses_the_files_line_endings(cli, tmp_path: Path) -> None:
    (tmp_path / "f.py").write_bytes(b"from jax.numpy import empty\r\nx = empty(3)\r\n")
    r = cli("--fix", *JAX602_ON, "f.py")
    assert r.code == 0
    assert (tmp_path / "f.py").read_bytes() == (
        b"from jax.numpy import empty\r\nimport jax\r\nx = jax.numpy.zeros(3)\r\n"
    )


# -- file mode, symlinks -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o755, 0o600, 0o640, 0o200])
def test_fix_keeps_the_file_mode(cli, tmp_path: Path, mode: int) -> None:
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    path.chmod(mode)
    if not os.access(path, os.R_OK):
        pytest.skip("a write-only file is not readable by this user")  # pragma: no cover
    r = cli("--fix", "f.py")
    assert r.code == 0, r.err
    assert path.read_text() == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_fix_through_a_symlink_changes_the_target_and_keeps_the_link(cli, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "target.py").write_text(SAMPLE)
    (tmp_path / "link.py").symlink_to(real / "target.py")
    r = cli("--fix", "link.py")
    assert r.code == 0
    assert (tmp_path / "link.py").is_symlink()
    assert os.readlink(tmp_path / "link.py") == str(real / "target.py")
    assert (real / "target.py").read_text() == FIXED
    assert leftovers(tmp_path) == [] and leftovers(real) == []


def test_fix_of_a_symlink_in_a_walked_folder(cli, tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "elsewhere.py").write_text(SAMPLE)
    (pkg / "link.py").symlink_to("../elsewhere.py")
    r = cli("--fix", "pkg")
    assert r.code == 0
    assert (pkg / "link.py").is_symlink()
    assert (tmp_path / "elsewhere.py").read_text() == FIXED


# -- atomic writing ------------------------------------------------------------------------------


def test_write_atomic_writes_and_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_atomic(path, b"new")  # no mode given: the file's own mode is kept
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    write_atomic(path, b"newer", 0o700)
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert leftovers(tmp_path) == []


def test_write_atomic_new_file_gets_the_umask_default(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.py", b"x = 1\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.py").stat().st_mode) == 0o644  # not mkstemp's 0o600


def test_write_atomic_through_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "target.py").write_bytes(b"old")
    (tmp_path / "link.py").symlink_to("target.py")
    write_atomic(tmp_path / "link.py", b"new")
    assert (tmp_path / "link.py").is_symlink()
    assert (tmp_path / "target.py").read_bytes() == b"new"


@pytest.mark.parametrize(
    ("where", "exc"),
    [
        ("replace", OSError(28, "No space left on device")),
        ("fsync", OSError(5, "Input/output error")),
        ("chmod", PermissionError(1, "Operation not permitted")),
        ("replace", KeyboardInterrupt()),
        ("fsync", KeyboardInterrupt()),
    ],
)
def test_write_atomic_failure_keeps_the_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, exc: BaseException
) -> None:
    path = tmp_path / "f.py"
    original = SAMPLE.encode() * 100
    path.write_bytes(original)

    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(os, where, fail)
    with pytest.raises(type(exc)):
        write_atomic(path, FIXED.encode())
    monkeypatch.undo()
    assert path.read_bytes() == original
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.py"]


def test_cli_write_failure_is_an_error_and_other_files_are_still_fixed(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(SAMPLE)
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(dst) == "a.py":
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    r = cli("--fix", "a.py", "b.py")
    assert r.code == 2
    assert [e for e in r.err.splitlines() if e.startswith("error:")] == [
        "error: a.py: cannot write fixes: No space left on device"
    ]
    assert (tmp_path / "a.py").read_text() == SAMPLE
    assert (tmp_path / "b.py").read_text() == FIXED
    assert leftovers(tmp_path) == []


def test_cli_unwritable_folder(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)

    def no_temp_files(*args: object, **kwargs: object):
        raise PermissionError(13, "Permission denied")  # chmod does not stop root

    monkeypatch.setattr(jaxlint.source.tempfile, "mkstemp", no_temp_files)
    r = cli("--fix", "a.py")
    assert r.code == 2
    assert "error: a.py: cannot write fixes: Permission denied" in r.err.splitlines()
    assert (tmp_path / "a.py").read_text() == SAMPLE


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_interrupted_fix_run_keeps_the_original(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    (tmp_path / "a.py").write_text(SAMPLE)

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, where, interrupt)
    r = cli("--fix", "a.py")
    monkeypatch.undo()
    assert r.code == 130
    assert "error: interrupted" in r.err
    assert (tmp_path / "a.py").read_text() == SAMPLE
    assert leftovers(tmp_path) == []


KILL_SCRIPT = """\
import os, signal, sys
import jaxlint.cli

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

setattr(os, sys.argv[1], die)
sys.exit(jaxlint.cli.main(["check", "--fix", "--no-cache", "a.py"]))
"""


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_killed_fix_run_never_leaves_a_half_written_file(tmp_path: Path, where: str) -> None:
    """SIGKILL between writing the temporary file and the rename: nothing can clean up."""
    big = SAMPLE + "".join(f"y{i} = jnp.ones({i})\n" for i in range(5000))
    (tmp_path / "a.py").write_text(big)
    proc = subprocess.run(
        [sys.executable, "-c", KILL_SCRIPT, where],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL
    assert (tmp_path / "a.py").read_text() == big
    # what may be left is a hidden temporary file that no later run will lint
    assert [p.name for p in tmp_path.iterdir() if p.suffix in (".py", ".pyi")] == ["a.py"]
    assert all(name.startswith(".a.py.") for name in leftovers(tmp_path))


# -- imports ---------------------------------------------------------------------------------------


def test_import_jax_is_added_once_for_two_fixes(cli, tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(
        "from jax.numpy import empty\n\nx = empty(1)\ny = empty(2)\n\n\ndef f():\n    return empty(3)\n"
    )
    r = cli("--fix", *JAX602_ON, "f.py")
    assert r.code == 0
    fixed = (tmp_path / "f.py").read_text()
    assert fixed == (
        "from jax.numpy import empty\nimport jax\n\nx = jax.numpy.zeros(1)\n"
        "y = jax.numpy.zeros(2)\n\n\ndef f():\n    return jax.numpy.zeros(3)\n"
    )
    assert fixed.count("import jax\n") == 1


def test_import_jax_once_for_fixes_of_two_rules(cli, tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(
        "from jax.numpy import empty\nfrom jax.random import PRNGKey\n\n"
        "x = empty(1)\nk = PRNGKey(0)\n"
    )
    r = cli("--fix", "--unsafe-fixes", "--extend-select", "JAX302,JAX602", "f.py")
    assert r.code == 0, r.out
    fixed = (tmp_path / "f.py").read_text()
    assert fixed.count("import jax\n") == 1
    assert "x = jax.numpy.zeros(1)\nk = jax.random.key(0)\n" in fixed
    compile(fixed, "f.py", "exec")


def test_import_jax_once_when_one_fix_rewrites_an_import_statement(cli, tmp_path: Path) -> None:
    # JAX702 replaces `from jax.numpy import NINF` by `import jax`; JAX302 needs
    # `import jax` too and would add it after the imports: written once
    (tmp_path / "f.py").write_text(
        "from jax.numpy import NINF\nfrom jax.random import PRNGKey\n\nx = NINF\nk = PRNGKey(0)\n"
    )
    r = cli("--fix", "--unsafe-fixes", "--extend-select", "JAX302", "f.py")
    assert r.code == 0, r.out
    fixed = (tmp_path / "f.py").read_text()
    assert fixed.count("import jax\n") == 1
    assert "x = -jax.numpy.inf\nk = jax.random.key(0)\n" in fixed
    compile(fixed, "f.py", "exec")


@pytest.mark.parametrize(
    "header",
    ["import jax\n", "import jax.numpy\n", "import os, jax\n", "import jax as jax\n"],
)
def test_no_import_added_when_jax_is_imported(cli, tmp_path: Path, header: str) -> None:
    source = header + "from jax.numpy import empty\n\nx = empty(1)\ny = empty(2)\n"
    (tmp_path / "f.py").write_text(source)
    r = cli("--fix", *JAX602_ON, "f.py")
    assert r.code == 0
    fixed = (tmp_path / "f.py").read_text()
    assert fixed == source.replace("empty(", "jax.numpy.zeros(")
    assert fixed.count("import") == source.count("import")


def test_import_goes_after_docstring_and_future_imports(cli, tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(
        '"""Doc."""\nfrom __future__ import annotations\n\nfrom jax.numpy import empty\n\nx = empty(1)\n'
    )
    assert cli("--fix", *JAX602_ON, "f.py").code == 0
    assert (tmp_path / "f.py").read_text() == (
        '"""Doc."""\nfrom __future__ import annotations\n\nfrom jax.numpy import empty\n'
        "import jax\n\nx = jax.numpy.zeros(1)\n"
    )


# -- the fix loop ------------------------------------------------------------------------------------


def _diag(code: str, row: int, col: int, end_col: int, content: str) -> Diagnostic:
    start, end = Position(row, col), Position(row, end_col)
    return Diagnostic(
        code=code,
        name=code.lower(),
        message="m",
        filename="t.py",
        start=start,
        end=end,
        fix_applicability=Applicability.SAFE,
        fix=Fix(Applicability.SAFE, f"fix {code}", (Edit(start, end, content),)),
    )


def test_fix_that_breaks_the_parse_is_dropped_and_reported() -> None:
    text = "import jax\nx = 1\ny = 2\n"

    def lint(t: str) -> list[Diagnostic]:
        out = []
        if "x = 1" in t:
            out.append(_diag("JAX991", 2, 5, 6, "("))  # would leave "x = ("
        if "y = 2" in t:
            out.append(_diag("JAX992", 3, 5, 6, "3"))
        return out

    outcome = fix_text(text, lint, unsafe=False)
    assert outcome.text == "import jax\nx = 1\ny = 3\n"
    assert outcome.applied == {"JAX992": 1}
    assert [(d.code, d.row, d.column, d.reason) for d in outcome.dropped] == [
        ("JAX991", 2, 5, "the fixed code would not parse")
    ]
    assert outcome.converged


def test_fixes_that_parse_alone_but_not_together() -> None:
    """``def f(*a, *b)`` is a SyntaxError: the second fix is dropped, the first kept."""
    text = "import jax\ndef f(a, b): pass\n"

    def lint(t: str) -> list[Diagnostic]:
        out = []
        if "(a," in t:
            out.append(_diag("JAX991", 2, 7, 8, "*a"))
        if " b)" in t:
            out.append(_diag("JAX992", 2, 10, 11, "*b"))
        return out

    outcome = fix_text(text, lint, unsafe=False)
    assert outcome.text == "import jax\ndef f(*a, b): pass\n"
    assert outcome.applied == {"JAX991": 1}
    assert [(d.code, d.row, d.column) for d in outcome.dropped] == [("JAX992", 2, 10)]
    assert outcome.converged


def test_every_fix_dropped_leaves_the_text_alone() -> None:
    text = "import jax\nx = 1\n"
    outcome = fix_text(text, lambda t: [_diag("JAX991", 2, 5, 6, "(")], unsafe=False)
    assert outcome.text == text
    assert outcome.applied == {}
    assert len(outcome.dropped) == 1
    assert outcome.converged


def _counter_lint(limit: int) -> Callable[[str], list[Diagnostic]]:
    """Offers ``a = k`` -> ``a = k+1`` while ``k < limit``: ``limit`` passes to converge."""

    def lint(t: str) -> list[Diagnostic]:
        k = int(t.split("=")[1])
        if k >= limit:
            return []
        return [_diag("JAX990", 1, 5, 5 + len(str(k)), str(k + 1))]

    return lint


def test_fix_loop_reaches_a_fixed_point_in_exactly_the_bound() -> None:
    outcome = fix_text("a = 0\n", _counter_lint(MAX_ITERATIONS), unsafe=False)
    assert outcome.text == f"a = {MAX_ITERATIONS}\n"
    assert outcome.iterations == MAX_ITERATIONS
    assert outcome.converged


def test_fix_loop_is_bounded() -> None:
    outcome = fix_text("a = 0\n", _counter_lint(10**6), unsafe=False)
    assert outcome.iterations == MAX_ITERATIONS
    assert outcome.text == f"a = {MAX_ITERATIONS}\n"
    assert not outcome.converged


def test_fix_loop_with_a_no_op_fix_stops() -> None:
    outcome = fix_text("a = 0\n", lambda t: [_diag("JAX990", 1, 5, 6, "0")], unsafe=False)
    assert outcome.text == "a = 0\n"
    assert outcome.iterations == 1
    assert outcome.converged


def test_cli_reports_a_dropped_fix(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jaxlint.rules.api_drift.helpers as drift

    monkeypatch.setattr(drift, "spell", lambda model, qualname, at: ("jnp.round((", []))
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("--fix", "a.py")
    assert r.code == 1  # the finding remains
    assert "warning: a.py:2:5: fix for JAX702 not applied: the fixed code would not parse" in (
        r.err.splitlines()
    )
    assert (tmp_path / "a.py").read_text() == SAMPLE


def _inexact(module, text):
    from jaxlint.positions import _Inexact, _libcst_positions

    return _Inexact(_libcst_positions(module))


@pytest.mark.parametrize("where", ["inexact", "drops"])
def test_a_fix_that_cannot_be_placed_is_not_fixable_and_fix_says_why(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Positions libcst cannot map onto the text, or a replaced text holding blanks libcst
    leaves out: the fix is withheld, so the finding is not marked fixable (it was, and
    ``--fix`` skipped it without a word: jax-fem 0.0.12's aesthetic/debug.py)."""
    import jaxlint.engine
    import jaxlint.positions

    if where == "inexact":
        monkeypatch.setattr(jaxlint.engine, "compute_positions", _inexact)
        why = "libcst does not give this file's text back"
    else:
        monkeypatch.setattr(jaxlint.positions.Positions, "has_drops", True)
        monkeypatch.setattr(jaxlint.positions.Positions, "drops_within", lambda self, node: True)
        why = "the text it replaces holds blanks that libcst leaves out"
    (tmp_path / "a.py").write_text(SAMPLE)
    r = cli("--no-cache", "a.py")
    assert "JAX702" in r.out and "[*]" not in r.out and "fixable" not in r.out
    r = cli("--no-cache", "--output-format", "json", "a.py")
    assert '"fix": null' in r.out
    r = cli("--no-cache", "--fix", "a.py")
    assert r.code == 1  # the finding remains
    assert f"warning: a.py:2:5: fix for JAX702 not applied: {why}" in r.err
    assert (tmp_path / "a.py").read_text() == SAMPLE


# -- idempotence, --diff, stdin ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options", [(), ("--select", "ALL", "--unsafe-fixes")], ids=["default", "all-unsafe"]
)
def test_fixing_twice_equals_fixing_once(cli, tmp_path: Path, options: tuple[str, ...]) -> None:
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work)
    first = cli("--fix", *options, "examples")
    assert first.code in (0, 1)
    once = {p.name: p.read_bytes() for p in sorted(work.glob("*.py"))}
    assert once != {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.py"))}
    second = cli("--fix", *options, "examples")
    assert second.code == first.code
    assert "fixed" not in second.out
    assert {p.name: p.read_bytes() for p in sorted(work.glob("*.py"))} == once
    for source in once.values():
        compile(source, "example.py", "exec")
    assert cli("--diff", *options, "examples").code == 0


def test_diff_writes_nothing_and_exits_1(cli, tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(SAMPLE)
    before = path.stat()
    r = cli("--diff", "a.py")
    assert r.code == 1
    assert "--- a/a.py" in r.out and "-x = jnp.round_(3)" in r.out and "+x = jnp.round(3)" in r.out
    assert path.read_text() == SAMPLE
    after = path.stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)
    assert leftovers(tmp_path) == []


def test_stdin_fix_prints_the_fixed_code(tmp_path: Path) -> None:
    data = b"# -*- coding: latin-1 -*-\r\nimport jax.numpy as jnp\r\ns = '\xe9'\r\nx = jnp.round_(3)\r\n"
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--fix", "-"],
        cwd=tmp_path,
        input=data,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert b"Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == data.replace(b"jnp.round_", b"jnp.round")  # same bytes otherwise
    assert list(tmp_path.iterdir()) == []


def test_stdin_fix_in_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    class Stdin:
        buffer = io.BytesIO(SAMPLE.encode())

    monkeypatch.setattr(sys, "stdin", Stdin)
    code = main(["check", "--fix", "--stdin-filename", "a.py", "-"])
    out, err = capsys.readouterr()
    assert code == 0
    assert out == FIXED
    assert "Traceback" not in err


def test_fix_of_many_files_with_one_bad_file(cli, tmp_path: Path) -> None:
    for i in range(5):
        (tmp_path / f"m{i}.py").write_text(SAMPLE)
    (tmp_path / "m2.py").write_bytes(b"import jax\nx = '\xff'\n")
    (tmp_path / "m3.py").write_text("import jax\nx = (\n")
    r = cli("--fix", ".")
    assert r.code == 1
    assert [(tmp_path / f"m{i}.py").read_bytes() == FIXED.encode() for i in range(5)] == [
        True,
        True,
        False,
        False,
        True,
    ]
    assert r.out.count("JAX000") == 2


# -- killed from outside, at any moment ---------------------------------------------------------

KILL_MID_WRITE_SCRIPT = """\
import os, signal, sys
import jaxlint.source

real_fdopen = os.fdopen

class HalfWriter:
    def __init__(self, fh):
        self.fh = fh
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
    def write(self, data):
        self.fh.write(data[: len(data) // 2])
        self.fh.flush()
        os.kill(os.getpid(), signal.SIGKILL)  # half of the new text is on disk

jaxlint.source.os.fdopen = lambda fd, mode: HalfWriter(real_fdopen(fd, mode))
import jaxlint.cli
sys.exit(jaxlint.cli.main(["check", "--fix", "--no-cache", "a.py"]))
"""


def test_killed_in_the_middle_of_writing_the_new_text(tmp_path: Path) -> None:
    """SIGKILL with half of the fixed text written: the half lives in the temporary file."""
    big = SAMPLE + "".join(f"y{i} = jnp.round_({i})\n" for i in range(2000))
    (tmp_path / "a.py").write_text(big)
    proc = subprocess.run(
        [sys.executable, "-c", KILL_MID_WRITE_SCRIPT],
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert (tmp_path / "a.py").read_text() == big
    [temporary] = leftovers(tmp_path)
    assert temporary.startswith(".a.py.")  # hidden, and not a .py file: never linted
    assert 0 < (tmp_path / temporary).stat().st_size < len(big)


def _many_files(root: Path, count: int) -> dict[str, str]:
    original = {}
    for i in range(count):
        text = (
            "import jax.numpy as jnp\r\n"
            + "".join(f"v{j} = jnp.round_({j})\r\n" for j in range(300))
            + f"last = {i}\r\n"
        )
        name = f"m{i:02d}.py"
        (root / name).write_bytes(text.encode())
        (root / name).chmod(0o640 if i % 2 else 0o755)
        original[name] = text
    return original


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fix_run_killed_from_outside_leaves_every_file_whole(tmp_path: Path, jobs: str) -> None:
    """The whole process group is SIGKILLed while the run writes fixes: every file is then
    either untouched or completely fixed (bytes, CRLF and mode), never partly written."""
    original = _many_files(tmp_path, 24)
    fixed = {name: text.replace("jnp.round_(", "jnp.round(") for name, text in original.items()}
    cmd = [sys.executable, "-m", "jaxlint", "check", "--fix", "--no-cache", "-j", jobs, "."]
    proc = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while proc.poll() is None and time.monotonic() < deadline:
            if any((tmp_path / n).read_bytes() != t.encode() for n, t in original.items()):
                break  # the first file has been replaced: writing is under way
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    states = []
    for name in original:
        data = (tmp_path / name).read_bytes()
        assert data in (original[name].encode(), fixed[name].encode()), name
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == (
            0o640 if name[2] in "13579" else 0o755
        )
        states.append(data == fixed[name].encode())
    assert any(states), "no file was fixed before the kill"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".py") == sorted(original)
    # a second run finishes the job and ignores what the killed run left behind
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert all((tmp_path / n).read_bytes() == fixed[n].encode() for n in original)


# -- a file that changed, or cannot be written, is not fixed (issue 18, items 2, 3, 12) ---------


def _on_rename(monkeypatch: pytest.MonkeyPatch, action: Callable[[Path], None]) -> None:
    """Run ``action`` (on the file about to be replaced) between the read and the rename."""
    monkeypatch.setattr(jaxlint.source, "_before_rename", action)


def _edit(path: Path) -> None:
    path.write_text(SAMPLE + "y = 1\n")


def _edit_same_size_and_mtime(path: Path) -> None:
    st = path.stat()
    path.write_text(SAMPLE.replace("x =", "z ="))  # same size; only the hash tells
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _move_a_new_file_over(path: Path) -> None:
    new = path.with_name("new.py")
    new.write_text(SAMPLE + "y = 1\n")
    os.replace(new, path)


@pytest.mark.parametrize(
    "change", [_edit, _edit_same_size_and_mtime, _move_a_new_file_over], ids=lambda f: f.__name__
)
def test_file_changed_while_fixing_is_not_fixed(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], None]
) -> None:
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    _on_rename(monkeypatch, change)
    r = cli("--fix", "f.py")
    assert r.code == 2
    assert "error: f.py: changed while jaxlint ran: not fixed" in r.err.splitlines()
    changed = path.read_text()
    assert changed != SAMPLE and changed != FIXED  # the edit survives
    assert leftovers(tmp_path) == []
    assert "fixed" not in r.out


def test_symlink_swapped_in_while_fixing_is_not_written_through(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    other = tmp_path / "other.py"
    other.write_text(SAMPLE)

    def swap(_: Path) -> None:
        path.unlink()
        path.symlink_to(other)

    _on_rename(monkeypatch, swap)
    r = cli("--fix", "f.py")
    assert r.code == 2
    assert "error: f.py: changed while jaxlint ran: not fixed" in r.err.splitlines()
    assert path.is_symlink() and os.readlink(path) == str(other)
    assert other.read_text() == SAMPLE  # the symlink's target is not overwritten
    assert leftovers(tmp_path) == []


def test_symlink_swapped_in_is_caught_even_with_the_same_target_inode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A symlink put in place of a file, pointing at a hard link of that very file: the
    inode and content match, but the path now goes through a link it did not have."""
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    source = jaxlint.source.read_source(path)
    hard = tmp_path / "hard.py"
    os.link(path, hard)
    path.unlink()
    path.symlink_to(hard)
    with pytest.raises(jaxlint.source.FileChangedError):
        write_atomic(path, FIXED.encode(), expect=source.identity)
    assert hard.read_text() == SAMPLE and path.is_symlink()


def test_a_symlink_given_from_the_start_is_still_fixed_through(
    tmp_path: Path,
) -> None:
    (tmp_path / "target.py").write_text(SAMPLE)
    link = tmp_path / "link.py"
    link.symlink_to("target.py")
    source = jaxlint.source.read_source(link)
    write_atomic(link, FIXED.encode(), expect=source.identity)
    assert link.is_symlink() and (tmp_path / "target.py").read_text() == FIXED


def test_unchanged_file_is_written_with_an_identity(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    source = jaxlint.source.read_source(path)
    write_atomic(path, FIXED.encode(), source.mode, expect=source.identity)
    assert path.read_text() == FIXED
    with pytest.raises(jaxlint.source.FileChangedError):  # the identity is of the old file
        write_atomic(path, SAMPLE.encode(), expect=source.identity)
    assert path.read_text() == FIXED


def test_read_only_file_is_not_fixed(cli, tmp_path: Path) -> None:
    """0444 is refused by its mode, as ruff and black refuse it; root passes os.access."""
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    (tmp_path / "ok.py").write_text(SAMPLE)
    path.chmod(0o444)
    r = cli("--fix", "f.py", "ok.py")
    assert r.code == 2
    assert "error: f.py: file is read-only: not fixed" in r.err.splitlines()
    assert path.read_text() == SAMPLE
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert (tmp_path / "ok.py").read_text() == FIXED
    assert "f.py:2:5: JAX702" in r.out  # its finding is still reported
    assert "Found 2 error(s) (1 fixed, 1 remaining)." in r.out.splitlines()
    assert leftovers(tmp_path) == []


def test_file_the_user_cannot_write_is_not_fixed(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.py"
    path.write_text(SAMPLE)
    path.chmod(0o644)
    real_access = os.access

    def access(p, mode, *args, **kwargs):  # e.g. another user's 0644 file
        if os.path.basename(p) == "f.py" and mode & os.W_OK:
            return False
        return real_access(p, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    r = cli("--fix", "f.py")
    assert r.code == 2
    assert "error: f.py: file is read-only: not fixed" in r.err.splitlines()
    assert path.read_text() == SAMPLE


def test_read_only_notebook_is_not_fixed(cli, tmp_path: Path) -> None:
    import json

    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    doc = {
        "cells": [{**cell, "source": SAMPLE}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    path.chmod(0o444)
    r = cli("--fix", "n.ipynb")
    assert r.code == 2
    assert "error: n.ipynb: file is read-only: not fixed" in r.err.splitlines()
    assert path.read_bytes() == before
    assert "JAX702" in r.out and "fixed" not in r.out


@pytest.mark.parametrize("how", ["show-fixes", "json"])
def test_fixes_that_were_not_written_are_not_counted(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    import json

    (tmp_path / "a.py").write_text(SAMPLE)
    (tmp_path / "b.py").write_text(SAMPLE)
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(dst) == "a.py":
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    if how == "json":
        r = cli("--fix", "--output-format", "json", "a.py", "b.py")
        assert r.code == 2
        found = json.loads(r.out)
        assert [(d["filename"], d["code"]) for d in found] == [(str(tmp_path / "a.py"), "JAX702")]
        assert found[0]["fix"] is not None  # still fixable: nothing was written
        return
    r = cli("--fix", "--show-fixes", "a.py", "b.py")
    assert r.code == 2
    lines = r.out.splitlines()
    assert "Fixed 1 error(s):" in lines
    assert "- b.py:" in lines and "- a.py:" not in lines
    assert "Found 2 error(s) (1 fixed, 1 remaining)." in lines
    assert any(line.startswith("a.py:2:5: JAX702") for line in lines)
