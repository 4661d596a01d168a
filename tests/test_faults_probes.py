"""Issue 28, probe faults 12-14: the user's code cannot corrupt a probe's report.

12. What the user's code prints goes to standard error, never into the JSON report on
    standard output.
13. A ``KeyboardInterrupt`` raised by the user's code is exit 3 (like any
    ``BaseException``); a real interrupt stays exit 2.
14. Processes the user's code starts and leaves running (``os.fork()``, a
    ``setsid()`` double fork, ``subprocess.Popen``) are killed when the probe ends, and
    the run is ``ok: false`` (exit 3); a fork is reported even when its process ended.

Each run is a fresh ``python -m jaxlint.runtime_probes.PROBE`` process started outside
the repository (``cwd`` is the test's folder), so it runs the jaxlint on ``PYTHONPATH``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from probe_support import probe_env

pytest.importorskip("jax")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux processes")

TARGET = """\
import os
import subprocess
import sys
import time

import jax.numpy as jnp

PIDS = os.environ.get("FAULT_PIDS", "")


def _record(pid):
    with open(PIDS, "a") as fh:
        fh.write(f"{pid}\\n")


def prints(x):
    print("user says hello")
    sys.stdout.flush()
    os.write(1, b"user writes to fd 1\\n")
    return jnp.sin(x)


def raises_keyboard_interrupt(x):
    raise KeyboardInterrupt


def waits(x):
    print("started", file=sys.stderr, flush=True)
    time.sleep(120)
    return x


def forks_a_sleeper(x):
    pid = os.fork()
    if pid == 0:
        time.sleep(1000)
        os._exit(0)
    _record(pid)
    return jnp.sin(x)


def forks_a_daemon(x):
    # double fork with setsid(): the grandchild leaves the probe's process group
    pid = os.fork()
    if pid == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            time.sleep(1000)
            os._exit(0)
        _record(grandchild)
        os._exit(0)
    os.waitpid(pid, 0)
    return jnp.sin(x)


def forks_and_returns(x):
    os.fork()  # both copies go on with the probe
    return jnp.sin(x)


def forks_a_short_child(x):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return jnp.sin(x)


def starts_a_subprocess(x):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])
    _record(proc.pid)
    return jnp.sin(x)


def make_inputs():
    return (jnp.ones(3),), {}
"""


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "faults.py"
    path.write_text(TARGET)
    return path


def _run(probe: str, argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"jaxlint.runtime_probes.{probe}", *argv],
        capture_output=True,
        text=True,
        env=probe_env(**env),
        cwd=cwd,
        # the old code left forked processes holding the pipes open: it hung here
        timeout=120,
        check=False,
    )


def _alive(pid: int) -> bool:
    """Running (not a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _gone(pids: list[int]) -> bool:
    # the kill is sent before the probe exits; reaping an orphan by init can take a moment
    for _ in range(200):
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def _cleanup(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


# -- 12: the user's output never enters the report ---------------------------------------------


@pytest.mark.parametrize("probe", ["bench", "compile"])
def test_print_in_user_code_stays_out_of_the_json_report(
    target: Path, tmp_path: Path, probe: str
) -> None:
    argv = [f"{target}:prints", "--format", "json"]
    if probe == "bench":
        argv += ["--repeat", "2", "--warmup", "0"]
    proc = _run(probe, argv, tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # standard output is the report and nothing else
    assert report["ok"] is True
    assert "user says hello" not in proc.stdout
    assert "user says hello" in proc.stderr  # not lost: on standard error
    assert "user writes to fd 1" not in proc.stdout


def test_print_in_user_code_with_text_output_to_a_file(target: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.txt"
    argv = [f"{target}:prints", "--repeat", "2", "--format", "text", "--output", str(out)]
    proc = _run("bench", argv, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("jaxlint probe bench")
    assert "user says hello" not in out.read_text()


# -- 13: KeyboardInterrupt from the user's code is exit 3 ---------------------------------------


@pytest.mark.parametrize("probe", ["bench", "compile"])
def test_keyboard_interrupt_raised_by_user_code_exits_3(
    target: Path, tmp_path: Path, probe: str
) -> None:
    proc = _run(probe, [f"{target}:raises_keyboard_interrupt"], tmp_path)
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["error"]["class"] == "KeyboardInterrupt"
    assert report["error"]["function"] == "raises_keyboard_interrupt"


def test_a_real_interrupt_still_exits_2(target: Path, tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the command) is an interrupt, not the user's code raising."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint.runtime_probes.bench", f"{target}:waits"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=probe_env(),
        cwd=tmp_path,
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line == "started\n":
                break
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 2, err
    report = json.loads(out)
    assert report["ok"] is False
    assert report["error"]["class"] == "KeyboardInterrupt"
    assert report["error"]["message"] == "interrupted"


# -- 14: processes the user's code starts are owned ---------------------------------------------


@pytest.mark.parametrize("probe", ["bench", "compile"])
@pytest.mark.parametrize("func", ["forks_a_sleeper", "forks_a_daemon", "starts_a_subprocess"])
def test_processes_left_running_are_killed_and_reported(
    target: Path, tmp_path: Path, probe: str, func: str
) -> None:
    pids_file = tmp_path / "pids"
    pids_file.write_text("")
    argv = [f"{target}:{func}"]
    if probe == "bench":
        argv += ["--repeat", "2", "--warmup", "0"]
    proc = _run(probe, argv, tmp_path, FAULT_PIDS=str(pids_file))
    pids = [int(p) for p in pids_file.read_text().split()]
    try:
        assert pids, proc.stderr
        assert _gone(pids), "a process the user's code started is still running"
        assert proc.returncode == 3, proc.stderr
        report = json.loads(proc.stdout)
        assert report["ok"] is False
        assert report["error"]["class"] == "ProcessesLeftRunning"
        assert report["processes"]["left_running_and_killed"] >= 1
        assert "results" not in report  # no numbers from a run that shared the machine
        # compile's times too: its stages keep what they found, not how long they took
        assert "time_split" not in report
        for stage in (report.get("stages") or {}).values():
            assert "seconds" not in stage, stage
            assert not any(k.endswith("_seconds") for k in stage.get("jax_events", {})), stage
    finally:
        _cleanup(pids)


def test_a_fork_that_ended_is_still_reported(target: Path, tmp_path: Path) -> None:
    argv = [f"{target}:forks_a_short_child", "--repeat", "2", "--warmup", "0"]
    proc = _run("bench", argv, tmp_path)
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["error"]["class"] == "ForkInUserCode"
    assert report["processes"]["os_fork_calls"] == 3  # the first call and 2 timed calls
    assert "results" not in report


def test_a_forked_copy_of_the_probe_writes_no_second_report(target: Path, tmp_path: Path) -> None:
    proc = _run(
        "bench", [f"{target}:forks_and_returns", "--repeat", "2", "--warmup", "0"], tmp_path
    )
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)  # exactly one JSON document
    assert report["ok"] is False
    assert report["error"]["class"] in ("ForkInUserCode", "ProcessesLeftRunning")


def test_a_process_group_that_cannot_be_counted_is_reported_as_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without /proc the supervisor's backstop still kills the group, but how many it
    held is not known: the count is null, never a guessed 1."""
    from jaxlint.runtime_probes import _common, _isolation

    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True
    )
    real = os.listdir

    def no_proc(path: str = ".") -> list[str]:
        if str(path) == "/proc":
            raise PermissionError("no /proc here")
        return real(path)

    try:
        monkeypatch.setattr(_isolation.os, "listdir", no_proc)
        assert _isolation.kill_group(sleeper.pid) is None
        monkeypatch.undo()
        assert sleeper.wait(timeout=30) == -signal.SIGKILL
    finally:
        with contextlib.suppress(OSError):
            sleeper.kill()
    report: dict = {"results": {"t": 1.0}}
    assert _common.processes_verdict(report, 0, forks=0, left=None) == 3
    assert report["processes"]["left_running_and_killed"] is None
    assert report["error"]["class"] == "ProcessesLeftRunning"
    assert "could not be read" in report["error"]["message"]
    assert "results" not in report
    # a later count does not turn the unknown into a number
    assert _common.processes_verdict(report, 3, forks=0, left=2) == 3
    assert report["processes"]["left_running_and_killed"] is None


def test_recompile_times_are_left_out_when_processes_were_left() -> None:
    """recompile times each case and step (synchronised): taken while the user's
    processes shared the machine, those seconds go too; the compile counts stay."""
    from jaxlint.runtime_probes import _common, recompile

    report = _common.new_report("recompile")
    report.update(
        mode="loop",
        step_function="f.py:step",
        steps=[
            {"step": 0, "arguments": {}, "compiles": 1, "by_function": {}, "seconds": 0.5},
            {"step": 1, "arguments": {}, "compiles": 0, "by_function": {}, "seconds": 0.1},
        ],
    )
    assert _common.processes_verdict(report, 0, forks=0, left=1) == 3
    assert [s["compiles"] for s in report["steps"]] == [1, 0]
    assert not any("seconds" in s for s in report["steps"])
    assert "n/a" in recompile.render_text(report)  # renders without the times
