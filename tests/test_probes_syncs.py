"""``jaxlint probe syncs``: the host's reads of device arrays, per line, in one call.

JAX102's verify line runs this probe on the finding's line. On an ordinary training loop
(tests/fixtures/probes/syncs/training_loop.py) the line printed by ``jaxlint check`` is
run as printed: every run of the conversion reads a device array (JAX102 confirmed),
including ``fit``, whose jitted steps are defined inside it (``bench`` of it measured 60
compilations in 20 timed calls: InvalidMeasurement). A loop that keeps its losses on the
device, a line that ran once and a loop line without a conversion are not confirmed,
each with its reason.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from probe_support import FIXTURES, ROOT, probe_env, run_main, spec

jax = pytest.importorskip("jax")

from jaxlint.runtime_probes import _host_reads  # noqa: E402
from jaxlint.runtime_probes import syncs as syncs_probe  # noqa: E402

LOOPS = FIXTURES / "syncs" / "training_loop.py"


def _env() -> dict[str, str]:
    env = probe_env()
    env["PYTHONPATH"] = str(ROOT)
    return env


def _verify_lines() -> dict[str, str]:
    """JAX102's verify lines of the fixture, as ``jaxlint check`` prints them, by function."""
    check = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--select", "JAX102"]
        + ["--output-format", "json", LOOPS.name],
        capture_output=True,
        text=True,
        cwd=LOOPS.parent,
        env=_env(),
        timeout=300,
    )
    assert check.returncode == 1, check.stderr
    lines = {}
    for item in json.loads(check.stdout):
        words = shlex.split(item["probe"])
        lines[words[3].split(":")[1]] = item["probe"]
        assert words[-4:] == ["--line", str(item["location"]["row"]), "--rule", "JAX102"]
    return lines


def _run_as_printed(command: str) -> tuple[int, dict]:
    words = shlex.split(command)
    assert words[:3] == ["jaxlint", "probe", "syncs"], command
    run = subprocess.run(
        [sys.executable, "-m", "jaxlint", *words[1:], "--format", "json"],
        capture_output=True,
        text=True,
        cwd=LOOPS.parent,
        env=_env(),
        timeout=300,
    )
    return run.returncode, json.loads(run.stdout)


def test_jax102_verify_lines_of_a_training_loop_run_as_printed_and_confirm():
    lines = _verify_lines()
    assert set(lines) == {"train", "fit", "kinds"}
    for function, command in sorted(lines.items()):
        code, report = _run_as_printed(command)
        assert code == 0 and report["ok"] is True, report
        line = report["line"]
        assert line["sync_every_run"] is True, line
        assert line["runs"] == line["runs_with_host_read"] == (5 if function == "kinds" else 60)
        assert report["rules"] == ["JAX102"]
        assert report["rule_check"]["confirmed"] is True, report["rule_check"]
        assert report["inputs_from"]["source"] == "call site"


def test_a_loop_that_compiles_on_every_call_is_counted_not_refused(tmp_path):
    """``fit`` defines its jitted functions inside it: each call compiles them (bench:
    InvalidMeasurement); one call is all syncs needs, and its compilations are context."""
    code, report = run_main(syncs_probe.main, [spec(LOOPS, "fit"), "--line", "54"], tmp_path)
    assert code == 0, report.get("error")
    assert report["call"]["compiles"] == 3
    by_line = {e["line"]: e for e in report["lines"]}
    assert by_line[54]["runs"] == 60 and by_line[54]["host_reads"] == 60
    assert by_line[55]["runs"] == by_line[55]["host_reads"] == 1  # after the loop: once
    assert by_line[54]["code"] == "history.append(float(loss))"


def test_every_kind_of_read_is_seen(tmp_path):
    code, report = run_main(syncs_probe.main, [spec(LOOPS, "kinds")], tmp_path)
    assert code == 0, report.get("error")
    by_code = {e["code"]: e for e in report["lines"]}
    for text in (
        "out.append(loss.item())",  # the buffer protocol
        'out.append(np.asarray(params["w"]))',  # the buffer protocol
        'out.append(f"{loss:.3f}")',  # __format__ -> _value
        'out.append(jax.device_get({"loss": loss}))',  # _value
        "out.append(log(loss))",  # through a helper: the calling line is credited
        "return float(value)",  # and the helper's own line
    ):
        entry = by_code[text]
        assert entry["runs"] == entry["runs_with_host_read"] == entry["host_reads"] == 5, entry
    assert "line" not in report  # no --line: no verdict


def test_lines_without_a_sync_per_run_are_not_confirmed(tmp_path):
    # the losses stay on device: the loop's append line never reads; the fetch runs once
    code, report = run_main(
        syncs_probe.main, [spec(LOOPS, "train_on_device"), "--line", "64", "--rule", "JAX102"],
        tmp_path,
    )  # fmt: skip
    assert code == 0
    line = report["line"]
    assert line["code"] == "losses.append(loss)"
    assert (line["runs"], line["runs_with_host_read"], line["sync_every_run"]) == (60, 0, False)
    assert line["verdict"] == "none of the 60 runs of line 64 read a device array to the host"
    assert report["rule_check"]["confirmed"] is False
    assert report["rule_check"]["why"].startswith(line["verdict"])
    assert "rules" not in report
    code, report = run_main(
        syncs_probe.main, [spec(LOOPS, "train_on_device"), "--line", "65"], tmp_path
    )
    line = report["line"]
    assert (line["runs"], line["host_reads"], line["sync_every_run"]) == (1, 1, False)
    assert "no loop on these inputs" in line["verdict"]


def test_the_doors_are_put_back(tmp_path):
    cls = type(jax.numpy.zeros(()))
    before = (cls.__dict__["_value"], cls.__dict__["__buffer__"])
    for _ in range(2):  # the monitoring tool id is freed: a second run gets one again
        code, report = run_main(syncs_probe.main, [spec(LOOPS, "kinds")], tmp_path)
        assert code == 0, report.get("error")
    assert (cls.__dict__["_value"], cls.__dict__["__buffer__"]) == before
    assert all(sys.monitoring.get_tool(tool) is None for tool in _host_reads.TOOL_IDS[:2])


def test_an_error_in_the_loop_is_exit_3_with_the_counts_so_far(tmp_path):
    source = tmp_path / "broken.py"
    source.write_text(
        "import jax.numpy as jnp\n"
        "\n"
        "def loop(n):\n"
        "    out = []\n"
        "    for i in range(n):\n"
        "        out.append(float(jnp.ones(()) * i))\n"
        "        if i == 3:\n"
        "            raise ValueError('stop')\n"
        "    return out\n"
    )
    code, report = run_main(syncs_probe.main, [f"{source}:loop", "--args", "10"], tmp_path)
    assert code == 3 and report["ok"] is False
    assert report["error"]["class"] == "ValueError"
    (entry,) = report["lines"]
    assert (entry["line"], entry["runs"], entry["host_reads"]) == (6, 4, 4)


def test_without_the_doors_it_says_why_and_counts_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(_host_reads, "PYTHON", (3, 11))
    code, report = run_main(syncs_probe.main, [spec(LOOPS, "train")], tmp_path)
    assert code == 2 and report["ok"] is False
    assert report["error"]["class"] == "SyncsUnavailable"
    assert "Python 3.12 or newer" in report["error"]["message"]
    assert "lines" not in report


def test_a_line_past_the_end_is_a_usage_error(tmp_path):
    code, report = run_main(syncs_probe.main, [spec(LOOPS, "train"), "--line", "9999"], tmp_path)
    assert code == 2 and report["error"]["class"] == "UsageError"


def test_a_while_test_on_a_device_value_syncs_every_iteration(tmp_path):
    """JAX102's VALID ``valid_while_test_reads_step_result`` (the loop's exit test, not
    reported: the loop needs the answer to go on): the ``while`` test
    reads the state's temperature on the host on every iteration (and once more to
    stop), so the loop waits for each step whatever the body does; the body's reads of
    that step's results copy what is already computed."""
    example = (
        ROOT / "jaxlint" / "rules" / "host_device" / "host_sync_in_loop.examples"
        / "valid_while_test_reads_step_result.py"
    )  # fmt: skip
    code, report = run_main(syncs_probe.main, [spec(example, "run"), "--line", "27"], tmp_path)
    assert code == 0, report.get("error")
    line = report["line"]
    assert line["code"] == "while state.tempering_param < 1.0:"
    assert line["sync_every_run"] is True, line
    assert line["runs"] == line["runs_with_host_read"] == 9  # 8 steps to 1.0, and the exit
    by_line = {e["line"]: e for e in report["lines"]}
    for body_line in (29, 30):  # the float, the copy of the particles
        assert by_line[body_line]["runs"] == by_line[body_line]["runs_with_host_read"] == 8
