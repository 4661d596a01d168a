"""Runtime truth for JAX401, whose mistake does not raise: it compiles too often.

Each test runs a program on CPU JAX before and after ``jaxlint check --fix
--unsafe-fixes --select JAX401``, and checks that both compute the same numbers
and how many XLA compilations each causes: counted from ``jax.monitoring``
(``/jax/core/compile/backend_compile_duration`` events of the wrapped function)
or by ``jaxlint probe recompile --loop``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from probe_support import COMPILE_COUNTER, probe_env

pytest.importorskip("jax")

from jaxlint.cli import main as jaxlint_main  # noqa: E402

COUNTER = COMPILE_COUNTER + textwrap.dedent(
    """
    ns = runpy.run_path(sys.argv[1], run_name="__main__")
    print("RESULT " + json.dumps({"out": [float(v) for v in ns["out"]],
                                  "compiles": dict(compiles)}))
    """
)


def _write(tmp_path: Path, name: str, code: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code).lstrip())
    return path


def _fix(path: Path) -> str:
    before = path.read_text()
    status = jaxlint_main(
        ["check", "--fix", "--unsafe-fixes", "--select", "JAX401", "--exit-zero", str(path)]
    )
    assert status == 0
    after = path.read_text()
    assert after != before, "JAX401 fixed nothing"
    return after


def _count(path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", COUNTER, str(path)],
        capture_output=True,
        text=True,
        env=probe_env(),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT ") :])


def _compare(tmp_path: Path, code: str, fun_name: str) -> tuple[int, int, str]:
    original = _write(tmp_path, "original.py", code)
    fixed = _write(tmp_path, "fixed.py", code)
    fixed_text = _fix(fixed)
    before, after = _count(original), _count(fixed)
    assert after["out"] == before["out"]
    return before["compiles"].get(fun_name, 0), after["compiles"].get(fun_name, 0), fixed_text


def test_fresh_partial_compiles_once_per_iteration_and_once_after_the_fix(tmp_path: Path) -> None:
    n_before, n_after, fixed = _compare(
        tmp_path,
        """
        import functools
        import jax
        import jax.numpy as jnp

        def scale(x, k):
            return x * k

        x = jnp.arange(3.0)
        out = []
        for i in range(4):
            f = jax.jit(functools.partial(scale, k=2.0))
            x = f(x) + i
            out.append(x.sum())
        """,
        "jit(scale)",
    )
    assert (n_before, n_after) == (4, 1)
    assert "f = jax.jit(functools.partial(scale, k=2.0))\nfor i in range(4):" in fixed


def test_same_function_reuses_its_compilation_before_and_after_the_fix(tmp_path: Path) -> None:
    n_before, n_after, fixed = _compare(
        tmp_path,
        """
        import jax
        import jax.numpy as jnp

        def train_step(w, x):
            return w - 0.1 * x

        def train(num_steps):
            w = jnp.ones(3)
            out = []
            for i in range(num_steps):
                step = jax.jit(train_step)
                w = step(w, jnp.full(3, float(i)))
                out.append(w.sum())
            return out

        out = train(4)
        """,
        "jit(train_step)",
    )
    # The wrapper is rebuilt, but jit's cache is keyed on train_step: one compile.
    assert (n_before, n_after) == (1, 1)
    assert "    step = jax.jit(train_step)\n    for i in range(num_steps):" in fixed


def test_probe_counts_compiles_per_call_of_a_function_with_the_loop(tmp_path: Path) -> None:
    code = """
        import jax
        import jax.numpy as jnp

        def run(x):
            for i in range(3):
                # a new lambda each iteration
                x = jax.jit(lambda v: v * 2.0)(x) + i
            return x

        def make_inputs():
            return (jnp.arange(3.0),), {}
        """
    original = _write(tmp_path, "loop_original.py", code)
    fixed = _write(tmp_path, "loop_fixed.py", code)
    text = _fix(fixed)
    assert "    fn_jit = jax.jit(lambda v: v * 2.0)\n    for i in range(3):" in text

    def probe(path: Path) -> dict:
        proc = subprocess.run(
            [sys.executable, "-m", "jaxlint", "probe", "recompile", "--loop"]
            + [f"{path}:run", "--steps", "2", "--format", "json"],
            capture_output=True,
            text=True,
            env=probe_env(),
            timeout=300,
            cwd=tmp_path,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return json.loads(proc.stdout)

    def lambda_compiles(report: dict) -> list[int]:
        return [s["by_function"].get("jit(<lambda>)", 0) for s in report["steps"]]

    # every call of run compiles the lambda once per iteration; after the fix, once
    assert lambda_compiles(probe(original)) == [3, 3]
    assert lambda_compiles(probe(fixed)) == [1, 1]


JAX402_PROGRAM = """
import functools
import jax
import jax.numpy as jnp

def by_lambda(x):
    return jax.jit(lambda v: v * 2.0)(x)

def scale(x, k):
    return x * k

def by_partial(x):
    f = jax.jit(functools.partial(scale, k=3.0))
    return f(x)

def by_nested(x):
    def nested(v):
        return v + 1.0
    return jax.jit(nested)(x)

def by_decorated(x):
    @jax.jit
    def decorated(v):
        return v - 1.0
    return decorated(x)

class Model:
    def method(self, v):
        return v * 5.0

    def by_method(self, x):
        return jax.jit(self.method)(x)

def double(v):
    return v * 2.0

def by_mapped(x):
    @jax.jit
    def mapped(v, k):
        return v * k
    vectorized = jax.vmap(mapped, in_axes=(0, None))
    return vectorized(x, 3.0)

def by_vmap(x):
    return jax.jit(jax.vmap(double))(x)

@jax.jit
def fixed(v):
    return v * 2.0

def by_module_level(x):
    return fixed(x)

m = Model()
out = []
for _ in range(3):
    x = jnp.arange(3.0)
    for fn in (by_lambda, by_partial, by_nested, by_decorated, m.by_method, by_vmap,
               by_mapped, by_module_level):
        out.append(fn(x).sum())
"""


def test_jax402_each_call_of_the_outer_function_compiles_again(tmp_path: Path) -> None:
    path = _write(tmp_path, "fresh.py", JAX402_PROGRAM)
    status = jaxlint_main(["check", "--select", "JAX402", "--exit-zero", str(path)])
    assert status == 0
    result = _count(path)
    compiles = result["compiles"]
    # three calls of each outer function: three compilations of each fresh callable
    # (a nested jitted function mapped by jax.vmap included: the map traces it again)
    for name in ("<lambda>", "scale", "nested", "decorated", "method", "double", "mapped"):
        assert compiles.get(f"jit({name})") == 3, (name, compiles)
    assert compiles.get("jit(fixed)") == 1  # the VALID form compiles once


def test_jax402_reports_each_fresh_form_and_not_the_module_level_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "fresh.py", JAX402_PROGRAM)
    jaxlint_main(
        ["check", "--select", "JAX402", "--output-format", "concise", "--exit-zero", str(path)]
    )
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "JAX402" in ln]
    outers = sorted(ln.split("every call of `")[1].split("`")[0] for ln in lines)
    assert outers == sorted(
        [
            "by_lambda",
            "by_partial",
            "by_nested",
            "by_decorated",
            "by_method",
            "by_vmap",
            "by_mapped",
        ]
    )


def _lint(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    jaxlint_main(
        ["check", "--select", "JAX401", "--output-format", "concise", "--exit-zero", str(path)]
    )
    return [ln for ln in capsys.readouterr().out.splitlines() if "JAX401" in ln]


def test_wrapper_built_per_sample_and_reused_compiles_once_per_sample_and_is_not_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The correct pattern: the function really changes with the sample (it closes over
    # a system of the sample's own size), and its wrapper serves every inner step.
    path = _write(
        tmp_path,
        "per_sample.py",
        """
        import jax
        import jax.numpy as jnp

        def build_system(n_bodies):
            return {"mass": jnp.ones(n_bodies), "dt": 0.01}

        out = []
        for n_bodies in range(2, 5):
            system = build_system(n_bodies)

            def step(pos):
                return pos + system["dt"] * system["mass"]

            step_jit = jax.jit(step)
            pos = jnp.zeros(n_bodies)
            for t in range(20):
                pos = step_jit(pos)
            out.append(pos.sum())
        """,
    )
    assert _lint(path, capsys) == []
    assert _count(path)["compiles"].get("jit(step)") == 3  # 3 samples, not 60 steps


def test_closure_over_a_value_the_loop_updates_compiles_every_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = """
        import jax
        import jax.numpy as jnp

        def model(params, x):
            return (params * x).sum()

        params = jnp.ones(3)
        batch = jnp.arange(3.0)
        out = []
        {above}
        for i in range(4):
            params = params * 0.9
            out.append({call})
        """
    reported = _write(
        tmp_path,
        "closure.py",
        code.format(above="", call="jax.jit(lambda x: model(params, x))(batch)"),
    )
    lines = _lint(reported, capsys)
    assert len(lines) == 1 and "pass `params` as an argument" in lines[0]
    before = _count(reported)
    assert before["compiles"].get("jit(<lambda>)") == 4  # one compilation per step
    # the advice followed: built once above the loop, `params` passed as an argument
    advised = _write(
        tmp_path,
        "advised.py",
        code.format(above="model_jit = jax.jit(model)", call="model_jit(params, batch)"),
    )
    assert _lint(advised, capsys) == []
    after = _count(advised)
    assert after["out"] == pytest.approx(before["out"])
    assert after["compiles"].get("jit(model)") == 1


# -- JAX401's message and severity follow what JAX does with each form -----------------

FORMS_PROGRAM = """
import functools
import jax
import jax.numpy as jnp
from jax.experimental import checkify

TRACES = []


def wrap(fn):
    return lambda v: fn(v)


def step(x):
    TRACES.append("step")
    return x * 2.0 + 1.0


def scale(x, k):
    TRACES.append("scale")
    return x * k


class Model:
    def method(self, x):
        TRACES.append("method")
        return x + 1.0


def run(num_steps):
    model = Model()
    x = jnp.arange(3.0)
    for i in range(num_steps):
        {body}
    return x


out = [run(4).sum()]
traces = TRACES
"""

FORMS = {
    # form: (loop body, the function whose traces are counted, JAX traces it on every iteration)
    "same function": ("x = jax.jit(step)(x)", "step", False),
    "same function, static options": (
        "x = jax.jit(step, donate_argnums=())(x)",
        "step",
        False,
    ),
    "lambda": ("x = jax.jit(lambda v: step(v))(x)", "step", True),
    "partial": ("x = jax.jit(functools.partial(scale, k=2.0))(x)", "scale", True),
    "bound method": ("x = jax.jit(model.method)(x)", "method", True),
    "vmap result": ("x = jax.jit(jax.vmap(step))(x)", "step", True),
    # a wrapper the linter does not know, built around a new lambda: a new function too
    "checkify of a lambda": (
        "x = jax.jit(checkify.checkify(lambda v: step(v)))(x)[1]",
        "step",
        True,
    ),
    "project wrapper of a lambda": ("x = jax.jit(wrap(lambda v: step(v)))(x)", "step", True),
    "def in the loop": (
        "@jax.jit\n        def inner(v):\n            return step(v)\n\n        x = inner(x)",
        "step",
        True,
    ),
}

TRACE_COUNTER = textwrap.dedent(
    """
    import json, runpy, sys
    ns = runpy.run_path(sys.argv[1], run_name="__main__")
    print("RESULT " + json.dumps({"traces": ns["traces"]}))
    """
)


@pytest.mark.parametrize("form", list(FORMS))
def test_jax401_message_and_severity_say_what_jax_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    body, traced, retraces = FORMS[form]
    path = _write(tmp_path, "forms.py", FORMS_PROGRAM.replace("{body}", body))
    proc = subprocess.run(
        [sys.executable, "-c", TRACE_COUNTER, str(path)],
        capture_output=True,
        text=True,
        env=probe_env(),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    traces = json.loads(line[len("RESULT ") :])["traces"].count(traced)
    # what JAX does: four iterations, one trace (cached on the function) or four
    assert traces == (4 if retraces else 1), (form, traces)

    capsys.readouterr()
    jaxlint_main(
        ["check", "--select", "JAX401", "--output-format", "json", "--exit-zero", str(path)]
    )
    found = json.loads(capsys.readouterr().out)
    assert len(found) == 1, found
    message, severity = found[0]["message"], found[0]["severity"]
    if retraces:
        assert "traces and compiles it again" in message, message
        assert severity == "error"
    else:
        assert "JAX reuses the trace and compiled code" in message, message
        assert "compiles it again" not in message
        assert severity == "warning"


def test_retry_loop_compiles_once_per_attempt_and_is_not_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An out-of-memory retry loop (ripplegw's cross-validation runner): the attempt that
    # succeeds returns, so a run that fits compiles once; each retry asks for another
    # batch size, a different program, so it compiles again whatever the loop does.
    path = _write(
        tmp_path,
        "retry.py",
        """
        import jax
        import jax.numpy as jnp

        ROWS_THAT_FIT = 4
        attempts = []

        def simulate(p):
            return jnp.sin(p) * 2.0

        def run_all(params):
            batch_size = None
            while True:
                try:
                    if batch_size is None:
                        fn = jax.jit(jax.vmap(simulate))
                    else:
                        fn = jax.jit(lambda p, bs=batch_size: jax.lax.map(simulate, p, batch_size=bs))
                    attempts.append(batch_size)
                    result = fn(params)
                    if (params.shape[0] if batch_size is None else batch_size) > ROWS_THAT_FIT:
                        raise MemoryError("RESOURCE_EXHAUSTED: out of memory")
                    return result
                except MemoryError:
                    batch_size = (params.shape[0] if batch_size is None else batch_size) // 2

        out = [run_all(jnp.arange(4.0)).sum()]
        fits = len(attempts)
        out += [run_all(jnp.arange(16.0)).sum(), fits, len(attempts) - fits]
        """,
    )
    assert _lint(path, capsys) == []
    counted = _count(path)
    fits, retried = counted["out"][2], counted["out"][3]
    assert (fits, retried) == (1, 3)  # 1 attempt when it fits; 16, 8, 4 rows otherwise
    # one compilation per attempt, each a new program: the vmap over 4 and over 16 rows,
    # then `lax.map` with batches of 8 and of 4
    compiles = counted["compiles"]
    assert compiles.get("jit(simulate)", 0) + compiles.get("jit(<lambda>)", 0) == fits + retried


@pytest.mark.parametrize("where", ["returned by the jitted function", "joined in the loop"])
def test_an_argument_that_grows_compiles_every_iteration_and_the_message_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """The same function rewrapped, but one argument gets longer each iteration: JAX
    traces and compiles it every time, before and after the (safe) hoisting fix, and
    JAX401 names the argument and the join instead of the wrapper's fast path."""
    if where == "returned by the jitted function":
        body = """
        def step(total, seq):
            seq = jnp.concatenate([seq, total[None]])
            return total + 1.0, seq

        def run(steps):
            total, seq = jnp.zeros(()), jnp.zeros(1)
            out = []
            for i in range(steps):
                total, seq = jax.jit(step)(total, seq)
                out.append(seq.sum())
            return out

        out = run(4)
        """
        name = "jit(step)"
    else:
        body = """
        def step(seq):
            return seq.sum()

        def run(steps):
            seq = jnp.zeros(1)
            out = []
            for i in range(steps):
                out.append(jax.jit(step)(seq))
                seq = jnp.append(seq, float(i))
            return out

        out = run(4)
        """
        name = "jit(step)"
    code = "import jax\nimport jax.numpy as jnp\n" + textwrap.dedent(body)
    path = _write(tmp_path, "grows.py", code)
    capsys.readouterr()
    jaxlint_main(
        ["check", "--select", "JAX401", "--output-format", "json", "--exit-zero", str(path)]
    )
    found = json.loads(capsys.readouterr().out)
    assert len(found) == 1, found
    assert "`seq` grows on every iteration" in found[0]["message"], found[0]["message"]
    assert "traces and compiles `step` again every time" in found[0]["message"]
    assert found[0]["severity"] == "error"
    n_before, n_after, fixed = _compare(tmp_path, code, name)
    assert (n_before, n_after) == (4, 4)  # the fix keeps behaviour; the shapes still change
    assert "jax.jit(step)\n    for i in range(steps):" in fixed


EQUINOX_WRAPPERS = """
import equinox as eqx
import jax
import jax.numpy as jnp

traces = {"run": 0, "run_lambda": 0, "run_jax": 0}


def solve(x, m, who):
    traces[who] += 1
    return (x * m).sum()


def solve_run(x, m):
    return solve(x, m, "run")


def solve_jax(x, m):
    return solve(x, m, "run_jax")


def run(xs, m):
    return eqx.filter_jit(eqx.filter_vmap(solve_run, in_axes=(0, None)))(xs, m)


def run_lambda(xs, m):
    return eqx.filter_jit(
        eqx.filter_vmap(lambda a, b: solve(a, b, "run_lambda"), in_axes=(0, None))
    )(xs, m)


def run_jax(xs, m):
    return eqx.filter_jit(jax.vmap(solve_jax, in_axes=(0, None)))(xs, m)


for _ in range(3):
    for fn in (run, run_lambda, run_jax):
        fn(jnp.ones((4, 3)), jnp.ones(3))
print("TRACES", traces)
"""


def test_equinox_wrapper_of_a_module_function_is_cached_by_filter_jit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``eqx.filter_jit(eqx.filter_vmap(f))`` built on every call of ``run`` traces ``f``
    once: the wrapper is a Module compared by value (jaxmat's ``loader.py``,
    fresh-2026-12p). Around a new lambda, or with ``jax.vmap``, it traces on every call,
    and JAX402 reports exactly those two."""
    pytest.importorskip("equinox")
    path = _write(tmp_path, "wrappers.py", EQUINOX_WRAPPERS)
    proc = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=probe_env(), timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    traces = [ln for ln in proc.stdout.splitlines() if ln.startswith("TRACES")][-1]
    assert traces == "TRACES {'run': 1, 'run_lambda': 3, 'run_jax': 3}"
    jaxlint_main(
        ["check", "--select", "JAX402", "--output-format", "concise", "--exit-zero", str(path)]
    )
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "JAX402" in ln]
    outers = sorted(ln.split("every call of `")[1].split("`")[0] for ln in lines)
    assert outers == ["run_jax", "run_lambda"]


EQUINOX_LOOP = """
import equinox as eqx
import jax.numpy as jnp

traces = []


def f(x):
    traces.append(1)
    return x * 2


def run(batches):
    out = []
    for b in batches:
        g = eqx.filter_jit(eqx.filter_vmap(f))
        out.append(float(g(b).sum()))
    return out


print("RESULT", run([jnp.ones((2, 3))] * 4), len(traces))
"""


def test_an_equinox_wrapper_rebuilt_in_a_loop_around_the_same_function_traces_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JAX401's claim for ``eqx.filter_jit(eqx.filter_vmap(f))`` built in a loop around a
    module-level ``f`` (jaxqtl, fresh-2026-12t): ``f`` is traced once over four
    iterations (Equinox compares the wrapper by value), so the message says only the
    wrapper is rebuilt; the safe hoist keeps the output and the single trace."""
    pytest.importorskip("equinox")
    path = _write(tmp_path, "eqx_loop.py", EQUINOX_LOOP)

    def result() -> str:
        proc = subprocess.run(
            [sys.executable, str(path)],
            capture_output=True,
            text=True,
            env=probe_env(),
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        return [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT")][-1]

    before = result()
    assert before == "RESULT [12.0, 12.0, 12.0, 12.0] 1"
    jaxlint_main(
        ["check", "--select", "JAX401", "--output-format", "concise", "--exit-zero", str(path)]
    )
    out = capsys.readouterr().out
    assert "a new wrapper around the same function" in out and "compiles it again" not in out
    status = jaxlint_main(["check", "--fix", "--select", "JAX401", "--exit-zero", str(path)])
    assert status == 0
    assert "for b in batches:\n        out.append" in path.read_text()  # hoisted (a safe fix)
    assert result() == before
