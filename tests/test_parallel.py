"""``jaxlint check -j N``: a process pool with deterministic output that survives dying workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import Run, runner

import jaxlint.cli
import jaxlint.cli.pool
import jaxlint.parallel
import jaxlint.versions
from jaxlint.parallel import describe_exit, run_parallel, should_parallelize

pytestmark = [
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="the in-process tests fork (Linux)"
    ),
    # Other tests import jax in this process, which starts threads; the forked workers
    # only lint (they never touch jax), so the fork-with-threads warnings do not apply.
    pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning"),
]

SAMPLE = "import jax.numpy as jnp\nx = jnp.round_({n})\n"  # JAX702, a safe fix
FIXED = "import jax.numpy as jnp\nx = jnp.round({n})\n"
MIXED = """\
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey({n})
buf = jnp.zeros(({n},))
buf[0] = 1.0
out = jax.tree_map(lambda x: x, buf)


@jax.jit
def f(x):
    if x > {n}:
        return x
    return -x
"""


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.setattr(jaxlint.parallel, "MIN_PARALLEL_BYTES", 0)  # tiny test files: pool anyway
    # The tests patch this process and need forked workers to inherit the patches; a
    # multi-threaded caller gets a fork server instead (test_multithreaded_caller...).
    monkeypatch.setattr(jaxlint.parallel, "_thread_count", lambda: 1)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    return runner(capsys, "check", "--no-cache", "--output-format", "concise")


def write_files(root: Path, count: int, template: str = MIXED) -> list[str]:
    names = []
    for i in range(count):
        sub = root / f"pkg{i % 3}"
        sub.mkdir(exist_ok=True)
        (sub / f"m{i}.py").write_text(template.format(n=i + 1))
        names.append(f"pkg{i % 3}/m{i}.py")
    return names


@pytest.mark.parametrize("fmt", ["concise", "json", "text"])
def test_parallel_output_is_the_serial_output(cli, tmp_path: Path, fmt: str) -> None:
    write_files(tmp_path, 12)
    serial = cli("-j", "1", "--output-format", fmt, "--extend-select", "JAX302", ".")
    for jobs in ("2", "3"):
        parallel = cli("-j", jobs, "--output-format", fmt, "--extend-select", "JAX302", ".")
        assert (parallel.code, parallel.out, parallel.err) == (serial.code, serial.out, serial.err)
    if fmt == "json":
        assert len(json.loads(serial.out)) == 12 * 4


def test_multithreaded_caller_gets_fork_server_workers(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forking a process with threads (one that imported jax) can deadlock the child."""
    monkeypatch.setattr(jaxlint.parallel, "_thread_count", lambda: 4)
    assert jaxlint.parallel._context().get_start_method() == "forkserver"
    write_files(tmp_path, 6)
    serial = cli("-j", "1", ".")
    parallel = cli("-j", "2", ".")
    assert (parallel.code, parallel.out, parallel.err) == (serial.code, serial.out, serial.err)
    assert serial.out.count(": JAX") == 6 * 3


def test_thread_count_sees_this_process() -> None:
    assert jaxlint.parallel._thread_count() >= 1


def test_parallel_fix_equals_serial_fix(cli, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    write_files(a, 8)
    write_files(b, 8)
    serial = cli("-j", "1", "--fix", "--unsafe-fixes", "--show-fixes", "a")
    parallel = cli("-j", "2", "--fix", "--unsafe-fixes", "--show-fixes", "b")
    assert serial.out.replace("a/", "X/") == parallel.out.replace("b/", "X/")
    for path in a.rglob("*.py"):
        assert path.read_text() == (b / path.relative_to(a)).read_text()


def test_mode_and_line_endings_survive_a_parallel_fix(cli, tmp_path: Path) -> None:
    for i in range(6):
        path = tmp_path / f"f{i}.py"
        path.write_bytes(SAMPLE.format(n=i).replace("\n", "\r\n").encode())
        path.chmod(0o751 if i % 2 else 0o640)
    r = cli("-j", "2", "--fix", ".")
    assert r.code == 0, r.err
    for i in range(6):
        path = tmp_path / f"f{i}.py"
        assert path.read_bytes() == FIXED.format(n=i).replace("\n", "\r\n").encode()
        assert path.stat().st_mode & 0o777 == (0o751 if i % 2 else 0o640)


def test_a_symlink_and_its_target_are_fixed_by_one_worker(cli, tmp_path: Path) -> None:
    write_files(tmp_path, 6, SAMPLE)
    (tmp_path / "link.py").symlink_to("pkg0/m0.py")
    r = cli("-j", "2", "--fix", "--show-fixes", "pkg0/m0.py", "link.py", "pkg1", "pkg2")
    assert r.code == 0, r.err
    assert (tmp_path / "pkg0" / "m0.py").read_text() == FIXED.format(n=1)
    assert (tmp_path / "link.py").is_symlink()
    # five distinct files, each fixed once: the link (first in order) fixed the target,
    # and the target, checked after it in the same task, was already clean
    assert r.out.count("JAX702") == 5
    assert "- link.py:" in r.out and "- pkg0/m0.py:" not in r.out


def _crash_on(monkeypatch: pytest.MonkeyPatch, how: dict[str, Callable[[], None]]) -> None:
    real = jaxlint.cli.checking.process_text

    def crashing(text: str, name: str, *args, **kwargs):
        for suffix, crash in how.items():
            if name.endswith(suffix):
                crash()
        return real(text, name, *args, **kwargs)

    monkeypatch.setattr(jaxlint.cli.checking, "process_text", crashing)


def test_a_file_that_kills_its_worker_is_reported_and_the_run_goes_on(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = write_files(tmp_path, 10)
    _crash_on(
        monkeypatch,
        {
            "m3.py": lambda: os.kill(os.getpid(), signal.SIGKILL),
            "m7.py": lambda: os._exit(3),
        },
    )
    r = cli("-j", "2", ".")
    assert r.code == 2
    errors = [line for line in r.err.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: pkg0/m3.py: internal error: the worker process was killed by SIGKILL"
        " while checking this file",
        "error: pkg1/m7.py: internal error: the worker process exited with code 3"
        " while checking this file",
    ]
    reported = {line.split(":")[0] for line in r.out.splitlines() if ": JAX" in line}
    assert reported == set(names) - {"pkg0/m3.py", "pkg1/m7.py"}


def test_every_worker_dying_still_ends_the_run(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, 5)
    _crash_on(monkeypatch, {".py": lambda: os._exit(9)})
    r = cli("-j", "2", ".")
    assert r.code == 2
    assert r.err.count("exited with code 9 while checking this file") == 5


def test_killed_worker_during_a_fix_leaves_its_file_intact(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL between writing the temporary file and the rename, in a worker."""
    for i in range(6):
        (tmp_path / f"f{i}.py").write_text(SAMPLE.format(n=i))
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(dst) == "f2.py":
            os.kill(os.getpid(), signal.SIGKILL)
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    r = cli("-j", "2", "--fix", ".")
    monkeypatch.setattr(os, "replace", real_replace)
    assert r.code == 2
    assert "error: f2.py: internal error: the worker process was killed by SIGKILL" in r.err
    assert (tmp_path / "f2.py").read_text() == SAMPLE.format(n=2)
    for i in (0, 1, 3, 4, 5):
        assert (tmp_path / f"f{i}.py").read_text() == FIXED.format(n=i)
    # at most the dead worker's hidden temporary file is left, which no run lints
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".py") == [
        f"f{i}.py" for i in range(6)
    ]


def test_small_runs_stay_in_one_process(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(jaxlint.parallel, "MIN_PARALLEL_BYTES", 10**9)

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    monkeypatch.setattr(jaxlint.cli.pool, "run_parallel", no_pool)
    write_files(tmp_path, 4)
    assert cli("-j", "4", ".").code == 1
    monkeypatch.setattr(jaxlint.parallel, "MIN_PARALLEL_BYTES", 0)
    assert cli("-j", "1", ".").code == 1  # -j 1 never starts a pool


def test_should_parallelize() -> None:
    big = jaxlint.parallel.MIN_PARALLEL_BYTES
    assert should_parallelize(2, [big, 1])
    assert not should_parallelize(1, [big, big])
    assert not should_parallelize(2, [big * 4])  # one task
    assert not should_parallelize(2, [10, 10]) or big <= 20


@pytest.mark.parametrize("value", ["-1", "x", "1.5"])
def test_bad_jobs_value_is_a_usage_error(cli, value: str) -> None:
    r = cli("-j", value, ".")
    assert r.code == 2 and "error:" in r.err and "-j/--jobs" in r.err


# -- the pool itself ----------------------------------------------------------------------------


def _square_or_die(context: int, task: int) -> int:
    if task == 5:
        os._exit(7)
    if task == 8:
        raise ValueError("eight")
    return task * task + context


def test_run_parallel_results_crashes_and_errors() -> None:
    results: dict[int, int] = {}
    crashes: dict[int, str] = {}
    errors: dict[int, str] = {}
    tasks = list(range(12))
    run_parallel(
        tasks,
        _square_or_die,
        100,
        3,
        results.__setitem__,
        crashes.__setitem__,
        lambda i, message, detail: errors.__setitem__(i, message),
        order=list(reversed(range(12))),
    )
    assert results == {i: i * i + 100 for i in tasks if i not in (5, 8)}
    assert crashes == {5: "the worker process exited with code 7"}
    assert errors == {8: "ValueError: eight"}


def test_describe_exit() -> None:
    assert describe_exit(-9) == "the worker process was killed by SIGKILL"
    assert describe_exit(3) == "the worker process exited with code 3"
    assert describe_exit(None) == "the worker process vanished"


def test_real_command_line_with_jobs(tmp_path: Path) -> None:
    """The installed command, with enough code to start a pool, against -j 1."""
    filler = "".join(f"v{i} = {i}\n" for i in range(3000))
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text(MIXED.format(n=i + 1) + filler)
    cmd = [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format", "concise"]
    one = subprocess.run([*cmd, "-j", "1", "."], cwd=tmp_path, capture_output=True, check=False)
    two = subprocess.run(
        [*cmd, "-j", "2", "--timings", "."], cwd=tmp_path, capture_output=True, check=False
    )
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert b"seconds summed over 2 worker processes" in two.stderr


ROOT = Path(__file__).resolve().parent.parent

LOST_WAKEUP_SCRIPT = """\
import os, signal, sys, time
from pathlib import Path
from jaxlint import parallel

folder = Path(sys.argv[1])

def work(context, task):
    def swallow_the_first(signum, frame):
        # as when SIGTERM arrives after the worker's last check for signals but before it
        # blocks: the signal is marked, and the sleep goes on as if it never came
        if (folder / "first").exists():
            raise KeyboardInterrupt
        (folder / "first").touch()

    signal.signal(signal.SIGTERM, swallow_the_first)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # no second chance from SIGINT
    try:
        os.kill(os.getppid(), signal.SIGINT)  # the run is interrupted mid-task
        time.sleep(120)
    except KeyboardInterrupt:
        (folder / "cleaned").touch()  # what an atomic write's cleanup does
        raise

def nothing(*args):
    pass

try:
    parallel.run_parallel([0], work, None, 1, nothing, nothing, nothing)
except KeyboardInterrupt:
    sys.exit(130)
"""


def test_an_interrupted_worker_that_missed_sigterm_gets_it_again(tmp_path: Path) -> None:
    """A SIGTERM that does not wake the worker is sent again, so its cleanup still runs
    before the pool gives up on it (SIGKILL, which runs no cleanup)."""
    proc = subprocess.run(
        [sys.executable, "-c", LOST_WAKEUP_SCRIPT, str(tmp_path)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 130, proc.stderr
    assert (tmp_path / "first").exists()
    assert (tmp_path / "cleaned").exists(), "the worker was killed before its cleanup"


SIGINT_SCRIPT = """\
import signal, sys
from jaxlint import parallel

def work(context, task):
    return signal.getsignal(signal.SIGINT) is signal.default_int_handler

results = {}
parallel.run_parallel([0], work, None, 1, results.__setitem__, print, print)
sys.exit(0 if results == {0: True} else 1)
"""


def test_a_worker_raises_on_sigint_even_when_jaxlint_ignores_it() -> None:
    """Started with SIGINT ignored (a script's background job), jaxlint keeps ignoring
    it, but its workers raise on it: it is the pool's last request before SIGKILL."""
    proc = subprocess.run(
        [sys.executable, "-c", SIGINT_SCRIPT],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
