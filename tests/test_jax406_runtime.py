"""Runtime truth for JAX406 jit-bound-method-state, whose mistake does not raise: the
jitted bound method keeps what it read of ``self`` at its first trace.

Each test runs the rule's own example files on CPU JAX and checks what the message
claims: an attribute assigned after the first call is not seen (an array, a Python
number, a Flax NNX module updated in place), the fix sees it, rebuilding the jit where
the attribute is assigned traces again, and a module's arrays appear in the lowered
program as constants.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

EXAMPLES = (
    Path(__file__).resolve().parent.parent
    / "jaxlint"
    / "rules"
    / "compilation"
    / "jit_bound_method_state.examples"
)


def _run(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _example(name: str) -> str:
    return _run((EXAMPLES / name).read_text())


def test_an_array_assigned_after_the_first_call_is_not_seen_and_the_fix_sees_it() -> None:
    assert _example("invalid_attribute_assigned_later.py").split() == ["[1.", "1.", "1.]"]
    assert _example("valid_fix_params_as_argument.py").split() == ["[0.", "0.", "0.]"]
    assert _example("valid_staticmethod_closes_over_nothing.py").split() == ["[0.", "0.", "0.]"]


def test_a_python_number_read_through_a_helper_method_is_frozen_too() -> None:
    # temperature 1.0 at the first trace, 2.0 later: the jitted call still divides by 1
    assert _example("invalid_read_through_helper_method.py").split() == ["[1.", "1.", "1.]"]


def test_a_jit_built_on_first_use_freezes_what_its_first_call_read() -> None:
    assert _example("invalid_built_on_first_use.py").split() == ["[1.", "1.", "1.]"]
    # without the guard, each call builds a new jit of a new bound method: traced again
    assert _example("valid_jit_built_per_call.py").split() == ["[3.", "3.", "3.]"]


def test_rebuilding_the_jit_where_the_attribute_is_assigned_traces_again() -> None:
    assert _example("valid_rebuilt_where_assigned.py").split() == ["[3.", "3.", "3.]"]


def test_an_nnx_module_updated_in_place_is_not_seen_and_its_state_as_argument_is() -> None:
    pytest.importorskip("flax")
    jitted, eager = _example("invalid_nnx_module_compiled_in.py").split("] [")
    assert jitted.strip("[] \n") != "0." and eager.strip("[] \n") == "0."
    assert _example("valid_nnx_state_passed_as_argument.py").split() == ["[[0.]]"]


def test_a_jitted_bound_method_of_an_object_with_a_module_compiles_its_arrays_in() -> None:
    pytest.importorskip("flax")
    pytest.importorskip("equinox")
    out = _run(
        (EXAMPLES / "invalid_equinox_module_filter_jit.py").read_text()
        + textwrap.dedent(
            """
            import jax.numpy as jnp
            p = Predictor(jax.random.key(0))
            text = jax.jit(p._predict).lower(jnp.ones((4, 2))).as_text()
            print("equinox", "stablehlo.constant dense<[[" in text, "tensor<8x2xf32>" in text)
            """
        )
    )
    assert "equinox True True" in out
    out = _run(
        (EXAMPLES / "invalid_nnx_module_compiled_in.py").read_text()
        + textwrap.dedent(
            """
            text = policy.act.lower(obs).as_text()
            print("nnx", "stablehlo.constant" in text and "tensor<2x1xf32>" in text)
            print("args", text.split("func.func public @main(")[1].split(")")[0].count("%arg"))
            """
        )
    )
    assert "nnx True" in out
    assert "args 1" in out  # only `obs` is an input: the kernel and bias are constants
