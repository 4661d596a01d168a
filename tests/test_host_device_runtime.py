"""Runtime truth for JAX103-JAX105, whose mistakes do not raise.

Each test runs a small program on CPU JAX, before and (where the rule has one) after
``jaxlint check --fix --unsafe-fixes``, and checks the behaviour the rule describes:
``print`` runs once at trace time and shows a tracer, side effects run once per
trace, and a clock read without synchronisation measures dispatch, not the work.
No assertion uses a fixed time threshold: timings are only compared with each other.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

from jaxlint.cli import main as jaxlint_main  # noqa: E402

ENV = {**os.environ, "JAX_PLATFORMS": "cpu"}


def _write(tmp_path: Path, name: str, code: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=ENV, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def _fix(path: Path, code: str) -> str:
    status = jaxlint_main(
        ["check", "--fix", "--unsafe-fixes", "--select", code, "--exit-zero", str(path)]
    )
    assert status == 0
    return path.read_text()


def test_jax103_print_runs_once_with_a_tracer_and_the_fix_prints_every_call(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        "prints.py",
        """
        import jax
        import jax.numpy as jnp


        @jax.jit
        def step(x):
            y = x * 2
            print("value", y)
            return y


        for i in range(3):
            step(jnp.full((2,), float(i))).block_until_ready()
        """,
    )
    before = _run(path).stdout.splitlines()
    printed = [line for line in before if line.startswith("value")]
    assert len(printed) == 1, before  # once, while tracing
    assert "Tracer" in printed[0] and "float32[2]" in printed[0], printed

    fixed = _fix(path, "JAX103")
    assert 'jax.debug.print("value {}", y)' in fixed
    after = _run(path).stdout.splitlines()
    assert [line for line in after if line.startswith("value")] == [
        "value [0. 0.]",
        "value [2. 2.]",
        "value [4. 4.]",
    ]


def test_jax103_literal_braces_print_as_written(tmp_path: Path) -> None:
    """Text with braces before the first value is passed as an argument, not escaped:
    on the installed JAX, ``jax.debug.print`` treats a format whose text before the first
    field has braces as having no fields, so the escaped form misprints (checked here
    too, so that a JAX that fixes it shows up as a failing test to revisit the fix)."""
    path = _write(
        tmp_path,
        "braces.py",
        """
        import jax
        import jax.numpy as jnp


        @jax.jit
        def step(x):
            print("{metrics}", x)
            return x + 1


        @jax.jit
        def escaped(x):
            jax.debug.print("{{metrics}} {}", x)
            return x


        step(jnp.ones(2)).block_until_ready()
        escaped(jnp.ones(2)).block_until_ready()
        """,
    )
    before = _run(path).stdout.splitlines()
    assert before[0].startswith("{metrics} ") and "Tracer" in before[0], before
    assert before[1] == "{{metrics}} {} [1. 1.]", before  # JAX's own misprint
    fixed = _fix(path, "JAX103")
    assert 'jax.debug.print("{} {}", "{metrics}", x)' in fixed
    after = _run(path).stdout.splitlines()
    assert after[0] == "{metrics} [1. 1.]", after


def test_jax104_side_effects_run_once_per_trace(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "effects.py",
        """
        import json
        from functools import partial

        import jax
        import jax.numpy as jnp

        traces = 0
        step = 0
        leaked = []


        @jax.jit
        def f(x):
            global traces
            traces += 1
            leaked.append(x * 2)
            return x + 1


        @jax.jit
        def update(w):
            global step
            step += 1
            return w - 0.5 / step


        class Model:
            def __init__(self):
                self.calls = 0

            @partial(jax.jit, static_argnums=0)
            def apply(self, x):
                self.calls += 1
                return x * 2


        m = Model()
        w = jnp.zeros(())
        for _ in range(3):
            f(jnp.ones(2))
            m.apply(jnp.ones(2))
            w = update(w)
        try:
            jnp.sum(leaked[0])
            error = None
        except Exception as exc:
            error = type(exc).__name__
        print(json.dumps({"traces": traces, "leaked": len(leaked), "method_calls": m.calls,
                          "step": step, "w": float(w), "error": error}))
        """,
    )
    result = json.loads(_run(path).stdout.strip().splitlines()[-1])
    assert result == {
        "traces": 1,
        "leaked": 1,
        "method_calls": 1,
        "step": 1,
        "w": -1.5,  # three updates with 0.5 / step frozen at step == 1
        "error": "UnexpectedTracerError",
    }
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import find_rule

    rule = find_rule("JAX104")
    assert rule is not None
    found = lint_text(path.read_text(), "effects.py", Settings(), [rule]).diagnostics
    # the write-only trace counter (line 16) is deliberately not flagged
    assert sorted(d.start.row for d in found) == [17, 24, 34]


def test_jax105_unsynchronized_timing_measures_dispatch_and_the_fix_measures_work(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        "timing.py",
        """
        import json
        import time

        import jax
        import jax.numpy as jnp


        @jax.jit
        def work(x):
            for _ in range(4):
                x = jnp.tanh(x @ x)
            return x


        x = jnp.ones((1200, 1200)) / 1200
        work(x).block_until_ready()  # compile outside the timings
        times = []
        for _ in range(5):
            start = time.perf_counter()
            out = work(x)
            elapsed = time.perf_counter() - start
            out.block_until_ready()  # settle before the next measurement
            times.append(elapsed)
        print(json.dumps(times))
        """,
    )
    unsynced = json.loads(_run(path).stdout.strip().splitlines()[-1])
    fixed = _fix(path, "JAX105")
    assert "    out = work(x)\n    jax.block_until_ready(out)\n    elapsed = " in fixed
    synced = json.loads(_run(path).stdout.strip().splitlines()[-1])
    # the unsynchronised clock read returns before the matmuls finish
    assert statistics.median(unsynced) < statistics.median(synced)


def test_jax101_numpy_tables_match_the_installed_jax() -> None:
    """The static tables of the host_device rules (jaxlint/rules/host_device/), checked against JAX and
    NumPy: every fix target exists in ``jax.numpy``, every NumPy function taken as
    safe on tracers runs on one under ``jit``, and converting ones raise."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    from jaxlint.rules.host_device.helpers import NUMPY_ACCEPTS_TRACERS
    from jaxlint.rules.host_device.host_conversion_of_tracer_fix import JNP_TWINS

    def resolve(module, dotted: str):
        obj = module
        for part in dotted.split("."):
            obj = getattr(obj, part, None)
        return obj

    missing = [n for n in JNP_TWINS if not callable(resolve(jnp, n))]
    assert missing == [], f"no jax.numpy twin: {missing}"
    assert [n for n in JNP_TWINS if not callable(resolve(np, n))] == []

    extra_args = {
        "reshape": ((3, 2),),
        "repeat": (2,),
        "searchsorted": None,  # needs a sorted 1-D array: called below
        "can_cast": (np.float64,),
        "issubdtype": (np.floating,),
        "isdtype": ("real floating",),
        "promote_types": (np.float32,),
        "split": (2,),
        "array_split": (2,),
        "swapaxes": (0, 1),
        "moveaxis": (0, 1),
        "rollaxis": (1,),
    }
    failed = []
    for qualname in sorted(NUMPY_ACCEPTS_TRACERS):
        name = qualname.split(".", 1)[1]
        fn = getattr(np, name)

        def body(x, fn=fn, name=name):
            if name == "searchsorted":
                fn(x[0], 1.0)
            elif name in ("finfo", "iinfo", "isdtype", "issubdtype", "promote_types"):
                arg = x.dtype if name != "iinfo" else np.int32
                fn(arg, *extra_args.get(name, ()))
            else:
                fn(x, *(extra_args.get(name) or ()))
            return x

        try:
            jax.jit(body)(jnp.arange(6.0).reshape(2, 3))  # noqa: JAX401 (one per function)
        except Exception as exc:  # noqa: BLE001 - report every failure at once
            failed.append(f"{qualname}: {type(exc).__name__}: {exc}")
    assert failed == []

    from jax.errors import TracerArrayConversionError

    converting = [
        lambda x: np.asarray(x),
        lambda x: np.array(x),
        lambda x: np.sin(x),
        lambda x: np.float32(x),
        lambda x: np.stack([x, x]),
        lambda x: np.where(x > 0, x, 0),
        lambda x: np.linalg.norm(x),
        lambda x: np.fft.fft(x),
        lambda x: np.clip(x, 0, 1),
    ]
    for fn in converting:
        with pytest.raises(TracerArrayConversionError):
            jax.jit(fn)(jnp.arange(6.0).reshape(2, 3))  # noqa: JAX401 (one per function)


def test_jax102_an_explicit_wait_covers_only_the_call_it_waits_for() -> None:
    """The near miss of the explicit-wait case: waiting for one jitted call's result does
    not make a read of another jitted call's result free."""
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import find_rule

    program = textwrap.dedent(
        """
        import jax


        @jax.jit
        def run(x):
            return x * 2, x.sum()


        @jax.jit
        def loss(x):
            return (x**2).sum()


        def timed(x, n):
            for _ in range(n):
                out = run(x)
                x = out[0]
                total = out[1].block_until_ready()
                print("total", total)


        def other(x, n):
            for _ in range(n):
                out = run(x)
                x = out[0]
                out[1].block_until_ready()
                print("loss", float(loss(x)))
        """
    )
    rule = find_rule("JAX102")
    assert rule is not None
    found = lint_text(program, "waits.py", Settings(), [rule]).diagnostics
    assert [(d.code, d.start.row) for d in found] == [("JAX102", 28)]
    assert "waits for `loss`" in found[0].message


PYTEST_RAISES = """
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def test_old_host_pull_breaks_tracing():
    x = jnp.ones(3)

    def bad(a):
        return jnp.sum(jnp.asarray(np.array(a)))

    with pytest.raises(jax.errors.TracerArrayConversionError):
        jax.grad(bad)(x)


def test_host_pull_under_grad():
    x = jnp.ones(3)

    def bad(a):
        return jnp.sum(jnp.asarray(np.array(a)))

    return jax.grad(bad)(x)
"""


def test_a_transform_a_test_expects_to_raise_is_not_reported_and_does_raise(
    tmp_path: Path,
) -> None:
    """rfx-fdtd's negative test (fresh-2026-12k): ``jax.grad(bad)`` inside
    ``pytest.raises(TracerArrayConversionError)`` checks that tracing fails, so that
    ``np.array`` is the test's point; the same call outside it is reported, and raises."""
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import all_rules

    settings = Settings()
    result = lint_text(
        PYTEST_RAISES, "tests/test_gather.py", settings, settings.enabled_rules(all_rules())
    )
    assert [(d.code, d.start.row) for d in result.diagnostics] == [("JAX101", 22)]
    path = tmp_path / "test_gather.py"
    path.write_text(PYTEST_RAISES)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout[-2000:]
    assert "TracerArrayConversionError" in proc.stdout


def test_jax104_a_one_time_flag_set_at_trace_warns_once() -> None:
    """JAX104's VALID ``valid_warn_once_flag_set_at_trace``: two traces (two shapes) of the
    jitted function, one warning; and the rule is silent on it."""
    from jax_support import run_result

    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import find_rule

    example = (
        Path(__file__).resolve().parent.parent / "jaxlint" / "rules" / "host_device"
        / "side_effect_in_traced.examples" / "valid_warn_once_flag_set_at_trace.py"
    )  # fmt: skip
    code = example.read_text(encoding="utf-8")
    program = (
        "import json, warnings\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        + textwrap.indent(code.replace("from __future__ import annotations\n", ""), "    ")
        + "\nprint('RESULT ' + json.dumps({'warnings': len([w for w in seen"
        " if 'rows' in str(w.message)]), 'traces': total._cache_size()}))\n"
    )
    assert run_result(program) == {"warnings": 1, "traces": 2}
    rule = find_rule("JAX104")
    assert rule is not None
    assert lint_text(code, "once.py", Settings(), [rule]).diagnostics == []


SEED_FROM_TRACER = """
import json
import jax
import jax.numpy as jnp
import numpy as np

out = {}


@jax.jit
def f(key):
    seed = jnp.asarray(jax.random.randint(key, (2,), 0, 99), dtype=jnp.uint32)
    try:
        np.random.default_rng(seed)
        out["traced"] = "accepted"
    except TypeError as e:
        out["traced"] = type(e).__name__
    return key


f(jax.random.key(0))
print("RESULT " + json.dumps(out))
"""


def test_a_numpy_generator_rejects_a_traced_seed() -> None:
    """JAX101 offers no `jnp.asarray` fix for a conversion that seeds a NumPy generator,
    and its hint says why: the generator rejects a traced seed too (checked here)."""
    from jax_support import run_result

    assert run_result(SEED_FROM_TRACER) == {"traced": "TypeError"}


TRACER_GUARD = """
import jax
import jax.numpy as jnp


def normalized(blocks):
    is_traced = any(isinstance(b, jax.core.Tracer) for b in blocks)
    if is_traced and blocks:
        return traced_normalized(blocks)
    s = jnp.array([float(b.sum()) for b in blocks])  # concrete blocks only
    if jnp.sum(s) > 0:
        s = s / jnp.sum(s)
    return s


def traced_normalized(blocks):
    s = jnp.stack([b.sum() for b in blocks])
    return jnp.where(jnp.sum(s) > 0, s / jnp.sum(s), s)


blocks = [jnp.ones(2), jnp.zeros(2)]
eager = normalized(blocks)
jitted = jax.jit(normalized)(blocks)
mapped = jax.vmap(lambda a: normalized([a, a]))(jnp.ones((3, 2)))
grads = jax.grad(lambda a: normalized([a, a]).sum())(jnp.ones(2))
print("RESULT", eager.tolist(), jitted.tolist(), mapped.shape, grads.shape)
"""


def test_a_test_for_tracers_takes_the_traced_path_under_every_transform(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the trace model decides (``analysis/decided.py``, tenax-tn, fresh-2026-12s):
    under ``jit``, ``vmap`` and ``grad`` a value is a ``jax.core.Tracer``, so ``if
    is_traced: return ...`` leaves before the host path, whose ``float()`` and Python
    ``if`` on an array would raise under the trace. JAX101 and JAX201 stay silent there."""
    path = tmp_path / "guard.py"
    path.write_text(TRACER_GUARD.lstrip())
    proc = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RESULT [1.0, 0.0] [1.0, 0.0] (3, 2) (2,)" in proc.stdout
    jaxlint_main(["check", "--select", "JAX101,JAX201", "--output-format", "concise", str(path)])
    out = capsys.readouterr().out
    assert "JAX101" not in out and "JAX201" not in out, out
