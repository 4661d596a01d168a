"""Reliability promises of issue 18 (items 4-9, 11, 13, 14); docs/reliability.md lists them.

Workers die with their parent, SIGTERM and SIGHUP clean up like Ctrl-C, odd file names
and unreadable folders do not stop a run, deep expressions do not hit a recursion
limit, oversized files are skipped, probes always give their JSON report.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (a dead child nobody reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_gone(pids: list[int], limit: float = 60.0) -> list[int]:
    """The processes among ``pids`` still alive after ``limit`` seconds (a hang guard)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        left = [pid for pid in pids if _alive(pid)]
        if not left:
            return []
        time.sleep(0.05)
    left = [pid for pid in pids if _alive(pid)]
    for pid in left:  # do not leak them into the rest of the test session
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left


# -- item 6: workers die with their parent ---------------------------------------------------------

POOL_SCRIPT = """\
import os, sys, time
import jaxlint.parallel as par

mode = sys.argv[1]
if mode == "pipes-only":
    par._die_with_parent = lambda parent: None  # only the closed pipe ends can end them

done = 0

def work(ctx, task):
    global done
    done += 1
    if mode == "hung-task" and done > 1:
        time.sleep(600)  # a task that never ends: only the death signal stops it
    time.sleep(0.05)
    return os.getpid()

seen = set()

def on_result(index, pid):
    if pid not in seen:
        seen.add(pid)
        print(pid, flush=True)

par.run_parallel(list(range(100000)), work, None, 2, on_result, print, print)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("mode", ["pipes-only", "hung-task", "normal"])
def test_workers_end_when_the_parent_is_killed(mode: str) -> None:
    """SIGKILL (as the OOM killer sends) of the main process: its workers do not live on."""
    proc = subprocess.Popen(
        [sys.executable, "-c", POOL_SCRIPT, mode],
        stdout=subprocess.PIPE,
        env=ENV,
        text=True,
    )
    try:
        assert proc.stdout is not None
        workers = [int(proc.stdout.readline()), int(proc.stdout.readline())]
        assert all(_alive(pid) for pid in workers)
        if mode == "hung-task":
            time.sleep(0.5)  # both workers are inside a task that never ends
    finally:
        proc.kill()
        proc.wait(timeout=60)
    assert _wait_gone(workers) == [], f"workers outlived their parent ({mode})"


# -- item 7: SIGTERM and SIGHUP are handled like SIGINT ----------------------------------------------

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_(3)\n"

SIGNAL_SCRIPT = """\
import os, signal, sys, time
import jaxlint.source

# as under a terminal: a run started with ``nohup`` (SIGHUP ignored) keeps ignoring it
signal.signal(signal.SIGHUP, signal.SIG_DFL)

main_pid = os.getpid()
signum = getattr(signal, sys.argv[1])

def before_rename(path):
    os.kill(main_pid, signum)  # from a worker too: the main process gets the signal
    time.sleep(60)  # a slow write: the signal must interrupt it

jaxlint.source._before_rename = before_rename
import jaxlint.cli
sys.exit(jaxlint.cli.main(["check", "--fix", "--no-cache", "-j", sys.argv[2], "."]))
"""


@pytest.mark.parametrize(("name", "code"), [("SIGTERM", 143), ("SIGHUP", 129)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_and_sighup_remove_temporary_files(
    tmp_path: Path, name: str, code: int, jobs: str
) -> None:
    body = "".join(f"v{j} = jnp.round_({j})\n" for j in range(300))
    # 24 files: enough source for a pool with -j 2; the signal comes before the first rename
    stderr = _signal_run(tmp_path, SIGNAL_SCRIPT, name, jobs, code, 24, body)
    assert f"error: terminated by {name}" in stderr


def _signal_run(
    folder: Path, script: str, name: str, jobs: str, code: int, files: int, body: str = ""
) -> str:
    """Write ``files`` modules, run ``script`` (``jaxlint check --fix`` that gets signal
    ``name``) in ``folder`` and check that it exits ``code`` without a traceback and
    leaves the folder as it was: the same files, unchanged, no temporary file."""
    originals = {}
    for i in range(files):
        text = SAMPLE + body + f"last = {i}\n"
        (folder / f"m{i:02d}.py").write_text(text)
        originals[f"m{i:02d}.py"] = text
    proc = subprocess.run(
        [sys.executable, "-c", script, name, jobs],
        cwd=folder,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        check=False,
    )
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in folder.iterdir()) == sorted(originals)  # no temp files
    for file, text in originals.items():
        assert (folder / file).read_text() == text
    return proc.stderr


WINDOW_SCRIPT = """\
import os, signal, sys, tempfile, time
import jaxlint.source

signal.signal(signal.SIGHUP, signal.SIG_DFL)
main_pid = os.getpid()
signum = getattr(signal, sys.argv[1])
real_mkstemp = tempfile.mkstemp

def mkstemp(*args, **kwargs):
    # the temporary file exists, but the caller has not got its name yet: the
    # signal lands here (widened from microseconds to a second)
    made = real_mkstemp(*args, **kwargs)
    os.kill(main_pid, signum)
    time.sleep(1)
    return made

jaxlint.source.tempfile.mkstemp = mkstemp
import jaxlint.cli
sys.exit(jaxlint.cli.main(["check", "--fix", "--no-cache", "-j", sys.argv[2], "."]))
"""


@pytest.mark.parametrize(("name", "code"), [("SIGTERM", 143), ("SIGHUP", 129)])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_signal_between_creating_and_naming_the_temporary_file(
    tmp_path: Path, name: str, code: int, jobs: str
) -> None:
    """The race behind a temporary file that once outlived SIGHUP with ``-j 2``: a
    signal that arrives after the temporary file is created but before its name is
    known is held until the write's cleanup is in place."""
    _signal_run(tmp_path, WINDOW_SCRIPT, name, jobs, code, 8)


def test_sigterm_while_linting_exits_143(tmp_path: Path) -> None:
    """Outside ``--fix`` too: a SIGTERM from outside ends the run with 143, no traceback."""
    (tmp_path / "a.py").write_text(SAMPLE)
    script = (
        "import os, signal, sys, jaxlint.engine as e, jaxlint.cli\n"
        "real = e.lint_text\n"
        "def slow(*a, **k):\n"
        "    print('linting', flush=True)\n"
        "    import time; time.sleep(60)\n"
        "e.lint_text = slow\n"
        "sys.exit(jaxlint.cli.main(['check', '--no-cache', 'a.py']))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "linting\n"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert "error: terminated by SIGTERM" in err
    assert "Traceback" not in err


def test_signals_module_exit_codes() -> None:
    from jaxlint.signals import Terminated, exit_code_for

    assert exit_code_for(KeyboardInterrupt()) == 130
    assert exit_code_for(Terminated(signal.SIGTERM)) == 143
    assert exit_code_for(Terminated(signal.SIGHUP)) == 129
    assert isinstance(Terminated(signal.SIGTERM), KeyboardInterrupt)


# -- item 4: file names that are not UTF-8 -------------------------------------------------------------

NAME = b"caf\xe9.py"  # Latin-1, not UTF-8: Python holds it as "caf\udce9.py"

needs_byte_names = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="needs a file system that takes any bytes"
)


def _jaxlint(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        capture_output=True,
        env={**ENV, "PYTHONIOENCODING": "utf-8", **(env or {})},  # strict UTF-8 output
        timeout=300,
        check=False,
    )


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@needs_byte_names
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_non_utf8_file_name_in_a_git_work_tree(tmp_path: Path) -> None:
    _git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_bytes(b"ignored_*\n")
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"d\xff"))
    for name in (NAME, b"ok.py", b"ignored_\xe9.py", b"d\xff/inner.py"):
        with open(os.path.join(os.fsencode(tmp_path), name), "wb") as fh:
            fh.write(SAMPLE.encode())
    proc = _jaxlint("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr
    lines = sorted(line.split(b":")[0] for line in proc.stdout.splitlines() if b"JAX702" in line)
    # the names as the OS has them (surrogate escapes written back as their bytes);
    # the one that .gitignore matches is left out, so git's answer was read right
    assert lines == [NAME, b"d\xff/inner.py", b"ok.py"]


@needs_byte_names
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_fix_of_a_non_utf8_file_name_in_a_git_work_tree(tmp_path: Path) -> None:
    _git("init", "-q", cwd=tmp_path)
    target = os.path.join(os.fsencode(tmp_path), NAME)
    with open(target, "wb") as fh:
        fh.write(SAMPLE.encode())
    proc = _jaxlint("check", "--fix", "--output-format", "concise", ".", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    with open(target, "rb") as fh:
        assert fh.read() == SAMPLE.replace("round_", "round").encode()


@needs_byte_names
@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_sarif_uri_of_a_non_utf8_file_name(tmp_path: Path, where: str) -> None:
    """Outside git: SARIF percent-encodes the name's bytes (RFC 3986), no crash."""
    import json

    work = tmp_path / "work"
    work.mkdir()
    with open(os.path.join(os.fsencode(work), NAME), "wb") as fh:
        fh.write(SAMPLE.encode())
    cwd = work if where == "relative" else tmp_path / "elsewhere"
    cwd.mkdir(exist_ok=True)
    target = "." if where == "relative" else str(work)
    proc = _jaxlint("check", "--no-cache", "--output-format", "sarif", target, cwd=cwd)
    assert proc.returncode == 1, proc.stderr
    [result] = json.loads(proc.stdout)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    expected = "caf%E9.py" if where == "relative" else Path(work).as_uri() + "/caf%E9.py"
    assert uri == expected


# -- item 5: a folder that can be listed but not entered ---------------------------------------------


def _as_unprivileged(cmd: list[str], probe_dir: Path) -> list[str]:
    """``cmd`` run so that file permissions apply (root ignores ``chmod 000``).

    Root runs it without the two capabilities that bypass them (``setpriv`` drops
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH); the test is skipped where that
    cannot be done, and the drop is checked on a file nobody may read.
    """
    if os.geteuid() != 0:
        return cmd
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv is not available to drop CAP_DAC_OVERRIDE")
    drop = "-dac_override,-dac_read_search"
    prefix = ["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}"]
    secret = probe_dir / "secret.txt"
    secret.write_text("x")
    secret.chmod(0)
    try:
        probe = subprocess.run([*prefix, "cat", str(secret)], capture_output=True, check=False)
    finally:
        secret.unlink()
    if probe.returncode == 0:
        pytest.skip("cannot drop the capabilities that let root read any file")
    return [*prefix, *cmd]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
@pytest.mark.parametrize("mode", [0o644, 0o000])
def test_folder_that_cannot_be_entered_is_reported_and_the_run_goes_on(
    tmp_path: Path, mode: int
) -> None:
    for name in ("a_ok", "b_locked", "c_ok"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(SAMPLE)
    (tmp_path / "b_locked" / "jaxlint.toml").write_text('select = ["JAX1"]\n')
    (tmp_path / "b_locked").chmod(mode)  # 0o644: listed, not entered; 0o000: neither
    cmd = [sys.executable, "-m", "jaxlint", "check", "--no-cache"]
    cmd += ["--output-format", "concise", "."]
    try:
        proc = subprocess.run(
            _as_unprivileged(cmd, tmp_path),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=ENV,
            timeout=300,
            check=False,
        )
    finally:
        (tmp_path / "b_locked").chmod(0o755)
    assert proc.returncode == 2, proc.stderr  # an IO error, and it is reported
    assert "Traceback" not in proc.stderr
    assert "b_locked" in proc.stderr and "Permission denied" in proc.stderr
    reported = sorted(line.split(":")[0] for line in proc.stdout.splitlines() if "JAX702" in line)
    assert reported == ["a_ok/m.py", "c_ok/m.py"]


# -- item 8: ~500-term expressions that CPython compiles -----------------------------------------------

TERMS = 500
DEEP_SHAPES = {
    "string concatenation": "s = " + " + ".join(f"'a{i}'" for i in range(TERMS)),
    "implicit concatenation": "s = (" + " ".join(f"'a{i}'" for i in range(TERMS)) + ")",
    "+ chain": "s = " + " + ".join(f"x{i}" for i in range(TERMS)),
    "* chain": "s = " + " * ".join(f"x{i}" for i in range(TERMS)),
    "unary minus": "s = " + "-" * TERMS + "x",
    "subscripts": "s = x" + "[0]" * TERMS,
    "calls": "s = f" + "()" * TERMS,
    "attribute chain": "s = x" + ".a" * TERMS,
    "and chain": "s = " + " and ".join(f"x{i}" for i in range(TERMS)),
}


def _deep_module(expression: str) -> str:
    return f"import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    {expression}\n    return s\n"


@pytest.mark.parametrize("shape", sorted(DEEP_SHAPES))
def test_deep_expressions_are_linted(shape: str) -> None:
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import all_rules

    text = _deep_module(DEEP_SHAPES[shape])
    compile(text, shape, "exec")  # CPython compiles it: so must jaxlint analyse it
    limit = sys.getrecursionlimit()
    result = lint_text(text, "deep.py", Settings(), list(all_rules()))
    assert result.internal_errors == []
    assert result.parsed
    assert [d.code for d in result.diagnostics] == ["JAX103"]  # the print, at its place
    assert (result.diagnostics[0].start.row, result.diagnostics[0].start.column) == (6, 5)
    assert sys.getrecursionlimit() == limit  # restored


def test_deep_expression_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "deep.py").write_text(_deep_module(DEEP_SHAPES["+ chain"]))
    proc = _jaxlint("check", "--no-cache", "--select", "ALL", "deep.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # a finding, not an internal error (2)
    assert b"internal error" not in proc.stderr
    assert b"deep.py:6:5: JAX103" in proc.stdout


def test_deep_stack_call_restores_what_it_changes() -> None:
    import libcst as cst

    from jaxlint import deep_stack

    original = cst.CSTNode._codegen
    limit = sys.getrecursionlimit()

    def inside() -> tuple[int, bool, bool]:
        return sys.getrecursionlimit(), cst.CSTNode._codegen is original, deep_stack.active()

    assert deep_stack.call(inside) == (deep_stack.RECURSION_LIMIT, False, True)
    assert (sys.getrecursionlimit(), cst.CSTNode._codegen, deep_stack.active()) == (
        limit,
        original,
        False,
    )
    with pytest.raises(ZeroDivisionError):
        deep_stack.call(lambda: 1 / 0)  # errors reach the caller
    assert sys.getrecursionlimit() == limit


def test_deep_codegen_generates_the_same_code() -> None:
    """The replacement for libcst's ``_codegen`` writes exactly what libcst writes."""
    import libcst as cst

    from jaxlint import deep_stack

    text = (ROOT / "jaxlint" / "engine.py").read_text()
    module = cst.parse_module(text)
    assert deep_stack.call(lambda: module.code) == text


# -- item 9: max-file-size -------------------------------------------------------------------------------


def test_file_above_max_file_size_is_skipped_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "small.py").write_text(SAMPLE)
    (tmp_path / "big.py").write_text(SAMPLE + "# padding\n" * 1000)  # 11 kB
    (tmp_path / "jaxlint.toml").write_text('max-file-size = "5kB"\n')
    proc = _jaxlint("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # small.py's finding; the skip is no error
    assert b"small.py:2:5: JAX702" in proc.stdout
    assert b"big.py" not in proc.stdout
    size = (tmp_path / "big.py").stat().st_size
    warning = f"warning: big.py: skipped: {size:,} bytes is above max-file-size (5,000 bytes)"
    assert warning.encode() in proc.stderr
    # 0: no limit
    proc = _jaxlint(
        "check",
        "--no-cache",
        "--output-format",
        "concise",
        "--config",
        "max-file-size = 0",
        ".",
        cwd=tmp_path,
    )
    assert b"big.py:2:5: JAX702" in proc.stdout and b"skipped" not in proc.stderr


def test_default_max_file_size() -> None:
    from jaxlint.config import DEFAULT_MAX_FILE_SIZE, Settings

    assert Settings().max_file_size == DEFAULT_MAX_FILE_SIZE == 2_000_000


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2000", 2000),
        ('"2MB"', 2_000_000),
        ('"1.5 MiB"', 1_572_864),
        ('"500kB"', 500_000),
        ("0", 0),
    ],
)
def test_max_file_size_values(value: str, expected: int) -> None:
    from jaxlint.config import inline_config

    assert inline_config(f"max-file-size = {value}") == {"max_file_size": expected}


@pytest.mark.parametrize("value", ["-1", '"lots"', "true", "1.5", '"-2MB"'])
def test_bad_max_file_size_is_a_config_error(value: str) -> None:
    from jaxlint.config import ConfigError, inline_config

    with pytest.raises(ConfigError, match="max-file-size"):
        inline_config(f"max-file-size = {value}")


# -- item 14: smaller validations ------------------------------------------------------------------------


def test_rule_options_under_both_code_and_name_are_an_error() -> None:
    from jaxlint.config import ConfigError, inline_config
    from jaxlint.rules import all_rules

    rule = next(r for r in all_rules() if r.options)
    option, spec = next(iter(rule.options.items()))
    value = {bool: "true", int: "1", str: '"x"'}.get(spec.type, "[]")
    text = f"rules.{rule.code}.{option} = {value}\nrules.{rule.name}.{option} = {value}\n"
    with pytest.raises(ConfigError, match=f"already has options in 'rules.{rule.code}'"):
        inline_config(text)


def test_binary_file_is_not_a_bad_encoding_declaration(tmp_path: Path) -> None:
    (tmp_path / "blob.py").write_bytes(b"import jax\n\x00\x01\x02\xff\xfe binary")
    proc = _jaxlint("check", "--no-cache", "--output-format", "concise", "blob.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert b"blob.py:2:1: JAX000" in proc.stdout
    assert b"binary file (a null byte)" in proc.stdout
    assert b"encoding declaration" not in proc.stdout


@pytest.mark.parametrize(
    ("probe", "flag", "value"),
    [
        ("recompile", "--expect-compiles", "-1"),
        ("recompile", "--steps", "0"),
        ("bench", "--repeat", "0"),
        ("bench", "--warmup", "-1"),
    ],
)
def test_negative_counts_are_usage_errors(probe: str, flag: str, value: str) -> None:
    import importlib
    import json

    module = importlib.import_module(f"jaxlint.runtime_probes.{probe}")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, {module.__name__} as m; sys.exit(m.main(sys.argv[1:]))",
            "x.py:f",
            flag,
            value,
        ],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2
    report = json.loads(out.stdout)
    assert report["ok"] is False and report["error"]["class"] == "UsageError"
    assert flag in report["error"]["message"]


def test_deeper_than_the_deep_stack_is_still_a_clear_jax000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Were the deep stack not enough, the file is "cannot analyse", not an internal error."""
    from jaxlint import deep_stack
    from jaxlint.config import Settings
    from jaxlint.engine import TOO_DEEP_TO_ANALYSE, lint_text
    from jaxlint.rules import all_rules

    monkeypatch.setattr(deep_stack, "RECURSION_LIMIT", sys.getrecursionlimit())  # no more room
    result = lint_text(
        _deep_module(DEEP_SHAPES["unary minus"]), "d.py", Settings(), list(all_rules())
    )
    assert result.internal_errors == []
    assert [d.message for d in result.diagnostics] == [TOO_DEEP_TO_ANALYSE]


def test_max_file_size_does_not_skip_a_notebook_with_big_outputs(tmp_path: Path) -> None:
    """A notebook's size is mostly its outputs (images); its code cells are what is linted."""
    import json

    cell = {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": SAMPLE}
    cell["outputs"] = [
        {"output_type": "display_data", "metadata": {}, "data": {"image/png": "A" * 20_000}}
    ]
    book = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "big.ipynb").write_text(json.dumps(book))
    (tmp_path / "jaxlint.toml").write_text('max-file-size = "5kB"\n')
    proc = _jaxlint("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"big.ipynb:cell 1:2:5: JAX702" in proc.stdout
    assert b"skipped" not in proc.stderr


# -- item 9: a memory budget for -j --------------------------------------------------------------


def test_jobs_within_budget_counts_the_largest_file() -> None:
    from jaxlint.parallel import BASE_WORKER_BYTES, BYTES_PER_SOURCE_BYTE, jobs_within_budget

    per_worker = BASE_WORKER_BYTES + BYTES_PER_SOURCE_BYTE * 1_000_000
    assert jobs_within_budget(8, [10, 1_000_000], 3 * per_worker) == 3
    assert jobs_within_budget(8, [10, 1_000_000], per_worker - 1) == 1  # never 0
    assert jobs_within_budget(2, [10, 1_000_000], 100 * per_worker) == 2  # never more
    assert jobs_within_budget(8, [10, 1_000_000], 0) == 8  # 0: no limit


def test_jobs_are_lowered_to_fit_the_memory_budget(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text(SAMPLE + "# padding\n" * 20_000)  # 200 kB
    proc = _jaxlint(
        "check", "--no-cache", "-j", "4", "--output-format", "concise",
        "--config", 'memory-budget = "700MB"', ".", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.count(b"JAX702") == 4
    assert b"using 1 process(es), not 4" in proc.stderr
    assert b"memory-budget" in proc.stderr
    bad = _jaxlint("check", "--config", "memory-budget = -1", ".", cwd=tmp_path)
    assert bad.returncode == 2 and b"memory-budget" in bad.stderr
