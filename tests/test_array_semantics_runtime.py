"""Runtime truth for the JAX6xx rules beyond exception classes.

``tests/test_example_runtime.py`` checks that JAX601's INVALID examples raise
``TypeError`` and that their fixes run. Here:

* JAX601: the ``TypeError`` is JAX's immutability error (its message), not some
  other ``TypeError``.
* JAX603 claims no exception: without x64, JAX warns and makes float32. Each
  INVALID example runs, emits JAX's "Explicitly requested dtype float64" warning
  from the line of every finding, and leaves no float64 array; each runnable VALID
  example emits no such warning, and those that enable x64 do get float64.
* JAX603 is silent in library modules because the application decides: a VALID
  library example, imported by an application that enables x64, returns float64
  without a warning, and imported by one that does not, float32 with the warning.
* JAX604 claims the flagged statement changes nothing: each INVALID example computes
  the same ``result`` with that statement replaced by ``pass``, and its unsafe fix
  (where it has one) computes a different one: the update the statement lost.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.analysis.testcode import is_test_path
from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.rules.array_semantics import DiscardedIndexUpdate, Float64WithoutX64, InPlaceUpdate
from jaxlint.versions import NEWEST_KNOWN_JAX, parse_version

pytest.importorskip("jax")

RUNNER = textwrap.dedent(
    """
    import json, sys, traceback, warnings
    import jax

    TRUNCATED = "Explicitly requested dtype float64"
    real_warn = warnings.warn
    results = {}
    for path in sys.argv[1:]:
        lines = []

        def warn(message, *args, _path=path, _lines=lines, **kwargs):
            if TRUNCATED in str(message):
                frames = [f for f in traceback.extract_stack() if f.filename == _path]
                _lines.append(frames[-1].lineno if frames else None)
            return real_warn(message, *args, **kwargs)

        warnings.warn = warn
        namespace = {"__name__": "__main__"}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                exec(compile(open(path).read(), path, "exec"), namespace)
        except BaseException as exc:
            out = {"ok": False, "error": type(exc).__name__,
                   "message": (str(exc).splitlines() or [""])[0]}
        else:
            out = {"ok": True}
        finally:
            warnings.warn = real_warn
        out["warned_lines"] = lines
        out["dtypes"] = sorted({str(v.dtype) for v in namespace.values()
                                if isinstance(v, jax.Array)})
        results[path] = out
        jax.config.update("jax_enable_x64", False)  # undo what an example switched on
        jax.clear_caches()
    print("RESULTS " + json.dumps(results))
    """
)


def _run(directory: Path, programs: dict[str, str]) -> dict[str, dict]:
    paths = {}
    for name, code in programs.items():
        path = directory / f"{name}.py"
        path.write_text(code)
        paths[str(path)] = name
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *paths],
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "0"},
        timeout=600,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, f"runner printed nothing\n{proc.stderr[-3000:]}"
    raw = json.loads(lines[-1][len("RESULTS ") :])
    return {paths[p]: r for p, r in raw.items()}


def _finding_lines(rule, example) -> list[int]:
    options = tuple(example.options.items())
    settings = Settings(
        target_jax=parse_version(example.target_jax or NEWEST_KNOWN_JAX),
        rule_options=((rule.code, options),) if options else (),
    )
    result = lint_text(example.code, example.filename, settings, [rule])
    return [d.start.row for d in result.diagnostics if d.code == rule.code]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    programs = {f"jax603_invalid_{i}": ex.code for i, ex in enumerate(Float64WithoutX64.INVALID)}
    programs.update(
        {f"jax603_valid_{i}": ex.code for i, ex in enumerate(Float64WithoutX64.VALID) if ex.runs}
    )
    programs.update(
        {f"jax601_invalid_{i}": ex.code for i, ex in enumerate(InPlaceUpdate.INVALID) if ex.raises}
    )
    return _run(tmp_path_factory.mktemp("jax6xx"), programs)


@pytest.mark.parametrize("index", range(len(Float64WithoutX64.INVALID)))
def test_jax603_invalid_warns_and_stays_float32(index: int, outcomes: dict[str, dict]) -> None:
    example = Float64WithoutX64.INVALID[index]
    out = outcomes[f"jax603_invalid_{index}"]
    assert out["ok"], f"JAX603 INVALID examples are complete programs that run: {out}"
    findings = _finding_lines(Float64WithoutX64, example)
    assert findings
    # JAX truncates at every finding, and says so from that line
    assert set(findings) <= set(out["warned_lines"]), (findings, out["warned_lines"])
    assert "float64" not in out["dtypes"], out["dtypes"]
    if not is_test_path(example.filename):  # a test keeps its arrays local
        assert "float32" in out["dtypes"], out["dtypes"]


def test_jax603_valid_examples_get_what_they_ask(outcomes: dict[str, dict]) -> None:
    runnable = [i for i, ex in enumerate(Float64WithoutX64.VALID) if ex.runs]
    assert len(runnable) >= 5
    with_float64 = 0
    for i in runnable:
        out = outcomes[f"jax603_valid_{i}"]
        assert out["ok"], out
        assert out["warned_lines"] == [], (Float64WithoutX64.VALID[i].code, out)
        with_float64 += "float64" in out["dtypes"]
    # the ways of enabling x64 that the rule trusts really give float64 arrays
    assert with_float64 >= 3


LIBRARIES = [
    ex for ex in Float64WithoutX64.VALID if Path(ex.file or "").name.startswith("valid_library_")
]

APPLICATION = textwrap.dedent(
    """
    import importlib, json, sys, warnings
    import jax

    if sys.argv[1] == "x64":
        jax.config.update("jax_enable_x64", True)
    import numpy as np

    sys.path.insert(0, sys.argv[2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib = importlib.import_module(sys.argv[3])
        dtypes = {name: str(getattr(lib, name)(np.ones((3, 2))).dtype) for name in sys.argv[4:]}
    truncated = any("Explicitly requested dtype float64" in str(w.message) for w in caught)
    print("RESULTS " + json.dumps({"dtypes": dtypes, "truncated": truncated}))
    """
)


@pytest.mark.parametrize("example", LIBRARIES, ids=lambda ex: Path(ex.file or "").stem)
@pytest.mark.parametrize("x64", [True, False], ids=["app-enables-x64", "app-leaves-x64-off"])
def test_jax603_library_module_gets_what_its_application_chose(
    example, x64: bool, tmp_path: Path
) -> None:
    assert _finding_lines(Float64WithoutX64, example) == []
    functions = [
        node.name
        for node in ast.parse(example.code).body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    ]
    assert functions
    (tmp_path / "numerics_lib.py").write_text(example.code)
    proc = subprocess.run(
        [sys.executable, "-c", APPLICATION, "x64" if x64 else "32", str(tmp_path)]
        + ["numerics_lib", *functions],
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "0"},
        timeout=600,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, f"application printed nothing\n{proc.stderr[-3000:]}"
    out = json.loads(lines[-1][len("RESULTS ") :])
    expected = "float64" if x64 else "float32"
    assert set(out["dtypes"].values()) == {expected}, out
    assert out["truncated"] is not x64, out


@pytest.mark.parametrize("index", [i for i, ex in enumerate(InPlaceUpdate.INVALID) if ex.raises])
def test_jax601_invalid_raises_the_immutability_error(
    index: int, outcomes: dict[str, dict]
) -> None:
    out = outcomes[f"jax601_invalid_{index}"]
    assert not out["ok"] and out["error"] == "TypeError", out
    assert out["message"].startswith(
        "JAX arrays are immutable and do not support in-place item assignment"
    ), out["message"]


@pytest.mark.parametrize(
    ("code", "dtype"),
    [
        # analysis/x64.py: JAX_ENABLE_X64 set before the program imports JAX switches x64 on
        ('import os\nos.environ["JAX_ENABLE_X64"] = "1"\nimport jax.numpy as jnp\n', "float64"),
        # ... and set after the import it does nothing (JAX read it once, at import)
        ('import os\nimport jax.numpy as jnp\nos.environ["JAX_ENABLE_X64"] = "1"\n', "float32"),
        # jax.config.update works whenever it runs before the arrays are made
        (
            'import jax\nimport jax.numpy as jnp\njax.config.update("jax_enable_x64", True)\n',
            "float64",
        ),
    ],
    ids=["env-before-import", "env-after-import", "config-update"],
)
def test_x64_switches_that_jax603_reads(code: str, dtype: str) -> None:
    """The facts JAX603's project reading (analysis/x64.py) relies on, on the installed JAX."""
    program = code + 'print(jnp.zeros(1, dtype="float64").dtype)\n'
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", program],
        capture_output=True,
        text=True,
        env={**env, "JAX_PLATFORMS": "cpu"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split()[-1] == dtype


RESULT_RUNNER = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    out = {}
    for name, src in json.loads(sys.stdin.read()).items():
        scope = {"__name__": "__main__"}
        exec(compile(src, name, "exec"), scope)
        out[name] = np.asarray(scope["result"]).tolist()
    print("RESULTS " + json.dumps(out))
    """
)


def test_jax604_the_flagged_statement_changes_nothing_and_the_fix_does() -> None:
    programs: dict[str, str] = {}
    fixed: set[int] = set()
    for i, example in enumerate(DiscardedIndexUpdate.INVALID):
        diags = lint_text(example.code, "example.py", Settings(), [DiscardedIndexUpdate])
        rows = {d.start.row for d in diags.diagnostics if d.code == "JAX604"}
        assert len(rows) == 1, (example.file, diags.diagnostics)
        lines = example.code.splitlines()
        row = rows.pop()
        flagged = lines[row - 1]
        lines[row - 1] = flagged[: len(flagged) - len(flagged.lstrip())] + "pass"
        programs[f"{i}-as-is"] = example.code
        programs[f"{i}-without"] = "\n".join(lines) + "\n"
        if example.expected_fix is not None:
            programs[f"{i}-fixed"] = example.expected_fix
            fixed.add(i)
    proc = subprocess.run(
        [sys.executable, "-c", RESULT_RUNNER], input=json.dumps(programs), capture_output=True,
        text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"}, timeout=600,
    )  # fmt: skip
    found = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert found, proc.stderr[-3000:]
    results = json.loads(found[-1][len("RESULTS ") :])
    for i in range(len(DiscardedIndexUpdate.INVALID)):
        assert results[f"{i}-as-is"] == results[f"{i}-without"], i
        if i in fixed:
            assert results[f"{i}-fixed"] != results[f"{i}-as-is"], i
    assert len(fixed) >= 3


DEAD_UPDATE = textwrap.dedent(
    """
    import json, sys
    import jax
    import jax.numpy as jnp
    scope = {"__name__": "__main__"}
    exec(compile(sys.stdin.read(), "example.py", "exec"), scope)
    bump = scope["bump"]
    args = (jnp.zeros(3), 1)
    lines = str(bump.trace(*args).jaxpr).splitlines()  # what the probe's --dump writes
    print("RESULT " + json.dumps({
        "dropped": [ln.strip() for ln in lines if "scatter" in ln and ln.strip().startswith("_:")],
        "lowered": "scatter" in bump.lower(*args).as_text(),
        "kept": "scatter" in jax.jit(lambda c, i: c.at[i].add(1)).lower(*args).as_text(),
    }))
    """
)


def test_jax604_the_lost_update_is_dead_code_in_the_jaxpr_and_the_lowered_program() -> None:
    """What JAX604's docs and its probe (``jaxlint probe compile --dump jaxpr.txt``) say:
    the discarded update is a ``scatter-add`` whose result is ``_`` in the jaxpr, and it
    is not in the lowered program (an update whose result is used is)."""
    example = next(e for e in DiscardedIndexUpdate.INVALID if "jitted_add" in (e.file or ""))
    proc = subprocess.run(
        [sys.executable, "-c", DEAD_UPDATE], input=example.code, capture_output=True,
        text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"}, timeout=600,
    )  # fmt: skip
    found = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert found, proc.stderr[-3000:]
    out = json.loads(found[-1][len("RESULT ") :])
    assert out["dropped"] and out["dropped"][0].split("=")[1].strip().startswith("scatter-add")
    assert out["lowered"] is False and out["kept"] is True


def test_a_context_manager_entering_enable_x64_through_a_name_switches_it_on(
    tmp_path: Path,
) -> None:
    """What JAX603 reads of a project context manager (rema-jax's ``_float64``,
    fresh-2026-12s): ``ctx = getattr(jax, "enable_x64", None)``, then ``with ctx(True):
    yield`` gives float64 inside the block, and float32 after it, on the installed JAX."""
    path = tmp_path / "x64_alias.py"
    path.write_text(
        "import contextlib\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "@contextlib.contextmanager\ndef _float64():\n"
        '    ctx = getattr(jax, "enable_x64", None)\n'
        "    with ctx(True):\n        yield\n\n\n"
        "with _float64():\n    inside = jnp.zeros(2, jnp.float64).dtype\n"
        "outside = jnp.zeros(2, jnp.float32).dtype\n"
        'print("RESULT", inside, outside)\n'
    )
    proc = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "0"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RESULT float64 float32" in proc.stdout
