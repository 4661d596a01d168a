"""Project functions that jit the function they are given (issue 25): ``maybe_jit(fn)``
returns ``jax.jit(fn)``, ``collect(..., transform)`` jits a closure that calls
``transform``, and a jitted function takes a function as a static argument. JAX402 sees
through them, across modules, and what it claims is checked on CPU JAX here: a fresh
callable compiles on every call of the function that makes it, a module-level one once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from probe_support import COMPILE_COUNTER, probe_env

from jaxlint.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "projects"
EXAMPLES = (
    Path(__file__).parent.parent
    / "jaxlint"
    / "rules"
    / "compilation"
    / "jit_of_fresh_callable.examples"
)


def _findings(root: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> list[tuple]:
    monkeypatch.chdir(root)
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    code = main(
        ["check", "--select", "JAX401,JAX402", "--output-format", "json", "--no-cache", "."]
    )
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return sorted(
        (
            Path(d["filename"]).relative_to(root).as_posix(),
            d["location"]["row"],
            d["code"],
            d["message"],
        )
        for d in json.loads(out)
    )


def test_wrappers_of_another_module_are_seen_through(tmp_path: Path, capsys, monkeypatch) -> None:
    """``mylib/util.py`` defines ``maybe_jit`` (returns ``jax.jit(fn)``) and ``collect``
    (jits a lambda that calls its ``transform``); ``mylib/user.py`` passes each a lambda
    made on every call. Before issue 25 neither call was reported."""
    root = tmp_path / "jit_wrappers"
    shutil.copytree(FIXTURES / "jit_wrappers", root)
    found = _findings(root, capsys, monkeypatch)
    assert [(f, row, code) for f, row, code, _ in found] == [
        ("mylib/user.py", 7, "JAX402"),
        ("mylib/user.py", 11, "JAX402"),
        ("mylib/user.py", 15, "JAX402"),
    ]
    messages = [m for *_, m in found]
    assert (
        "jits a lambda (`maybe_jit` jits its argument `fn`), created anew on every call of `sample`"
        in messages[0]
    )
    assert (
        "`collect` jits its argument `transform` (through a function that calls it), here a "
        "lambda, created anew on every call of `run`" in messages[1]
    )
    assert "`fori_collect` jits its argument `body_fun`" in messages[2]


_STATS = """\
import jax
import jax.numpy as jnp


def stats(x):
    @jax.jit
    def moments(v):
        return jnp.stack([v.mean(), v.var()])

    return moments(x)
"""
_FIT = """\
import jax

from pkg.stats import stats


def core(x):
    return stats(x).sum()


lml = jax.jit(core)
"""


@pytest.mark.parametrize(
    ("extra", "reported"),
    [
        ({}, False),  # only `lml`, jitted, reaches `stats`: the inner jit is inlined
        ({"pkg/run.py": "import jax.numpy as jnp\nfrom pkg.stats import stats\n\n"
          "print(stats(jnp.ones(3)))\n"}, True),  # another module calls it on the host
        ({"pkg/run.py": "import jax.numpy as jnp\nfrom pkg.fit import core\n\n"
          "print(core(jnp.ones(3)))\n"}, True),  # its traced caller is also run eagerly
        ({"pkg/fit.py": _FIT + "\n\ndef evaluate(x):\n    return core(x)\n"}, True),
        ({"pkg/fit.py": _FIT + "\nscore = jax.vmap(stats)\n"}, True),  # not staged
    ],
)  # fmt: skip
def test_nested_jit_reached_only_from_other_modules_jitted_code(
    tmp_path: Path, capsys, monkeypatch, extra: dict[str, str], reported: bool
) -> None:
    """A nested jit in a function that only other modules' staged code calls is inlined
    there, never compiled per call (ace-jax's ``sufficient_statistics_sharded``,
    fresh-2026-12l); a use anywhere on the host (a call, a caller run eagerly, a
    non-staging transform) keeps the report (``ProjectFacts.host_reached``)."""
    files = {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/stats.py": _STATS}
    files |= {"pkg/fit.py": _FIT} | extra
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = [(f, row, code) for f, row, code, _ in _findings(tmp_path, capsys, monkeypatch)]
    assert found == ([("pkg/stats.py", 6, "JAX402")] if reported else [])


def test_nested_jit_compiles_only_when_its_function_runs_on_the_host(tmp_path: Path) -> None:
    """What the cases above rely on, on the installed JAX: `stats`'s nested `jit` is
    inlined when `stats` runs under the jitted `lml` (no compilation of `moments` on
    later calls), and compiled on every eager call of `core` (a new function each time)."""
    pytest.importorskip("jax")
    program = tmp_path / "program.py"
    program.write_text(_STATS + _FIT.replace("from pkg.stats import stats\n", ""))
    assert _compiles(program, "lambda: lml(jnp.ones(3))").get("jit(moments)", 0) == 0
    assert _compiles(program, "lambda: core(jnp.ones(3))").get("jit(moments)", 0) == 3


def test_the_summary_says_which_parameters_a_function_jits(tmp_path: Path) -> None:
    from jaxlint.analysis.project import module_id
    from jaxlint.engine import summarize_module
    from jaxlint.settings import Settings

    root = tmp_path / "jit_wrappers"
    shutil.copytree(FIXTURES / "jit_wrappers", root)
    path = root / "mylib" / "util.py"
    module = module_id(path)
    assert module is not None
    summary = summarize_module(path.read_text(), path, module, Settings(), None)
    assert summary is not None
    functions = summary["functions"]
    assert functions["maybe_jit"]["jits"] == [
        {"param": "fn", "index": 0, "how": "returns", "through": None, "transform": "jax.jit"}
    ]
    assert functions["collect"]["jits"] == [
        {
            "param": "transform",
            "index": 2,
            "how": "calls",
            "through": "closure",
            "transform": "jax.jit",
        }
    ]
    # ``fori_collect`` jits through ``maybe_jit``, the wrapper of its own module
    assert [(e["param"], e["how"]) for e in functions["fori_collect"]["jits"]] == [
        ("body_fun", "calls")
    ]
    assert "jits" not in functions["plain"]


COUNTER = COMPILE_COUNTER + textwrap.dedent(
    """
    import jax.numpy as jnp
    ns = runpy.run_path(sys.argv[1])
    compiles.clear()  # what the module itself ran
    call = eval(sys.argv[2], {**ns, "jnp": jnp})
    for _ in range(3):
        call()
    print("RESULT " + json.dumps(dict(compiles)))
    """
)


def _compiles(file: Path, call: str) -> dict[str, int]:
    proc = subprocess.run(
        [sys.executable, "-c", COUNTER, str(file), call],
        capture_output=True,
        text=True,
        env=probe_env(),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT ") :])


@pytest.mark.parametrize(
    ("example", "call", "fun_name", "expected"),
    [
        # a nested ``def`` given to a project jit wrapper: traced and compiled per call
        ("invalid_project_jit_wrapper.py", "lambda: collect(jnp.ones(3), 4)", "jit(loop_fn)", 3),
        # a lambda given to a function that jits a closure calling it: per call
        (
            "invalid_passed_to_function_that_jits.py",
            "lambda: run(jnp.ones((4, 3)), 1)",
            "jit(<lambda>)",
            3,
        ),
        # a lambda as a static argument: hashed by identity, a new cache entry per call
        (
            "invalid_fresh_static_argument.py",
            "lambda: warmup(jnp.ones(3), 3, 2.0)",
            "jit(fori_loop)",
            3,
        ),
        # the same calls with module-level functions: the first compilation is reused
        (
            "valid_module_level_function_to_project_wrapper.py",
            "lambda: step(jnp.ones(3))",
            "jit(_double)",
            0,
        ),
        (
            "valid_module_level_function_to_project_wrapper.py",
            "lambda: run(jnp.ones((2, 3)))",
            "jit(_first)",
            0,
        ),
        (
            "valid_static_argument_module_level_function.py",
            "lambda: warmup(1.0, 3)",
            "jit(fori_loop)",
            0,
        ),
    ],
)
def test_what_jax_does_with_each_form(
    example: str, call: str, fun_name: str, expected: int
) -> None:
    """Three calls after the module ran: the invalid forms compile three times more,
    the valid ones (already compiled by the module's own run) not at all."""
    pytest.importorskip("jax")
    assert _compiles(EXAMPLES / example, call).get(fun_name, 0) == expected
