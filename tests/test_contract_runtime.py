"""Runtime truth for functions traced by contract (docs/design.md, "Functions traced by
contract"): the frameworks run a module's ``__call__``, a transformed function or an
optimizer's ``update`` eagerly, and the rules' examples raise only under the user's
``jit``, as their messages say. Each example file runs with a driver in a fresh
interpreter on CPU JAX; a framework that is not installed skips its case (none is a
dependency of jaxlint's tests)."""

from __future__ import annotations

import importlib.util
import json
import textwrap
from pathlib import Path

import pytest
from jax_support import result_lines

RULES = Path(__file__).resolve().parent.parent / "jaxlint" / "rules"

DRIVER = textwrap.dedent(
    """
    import json
    import jax, jax.numpy as jnp

    def outcome(f):
        try:
            f()
        except Exception as exc:
            return type(exc).__name__
        return "ok"
    """
)


def _result_lines(path: Path) -> list[str]:
    """Run the program on CPU JAX; its ``RESULT ...`` lines (at least one)."""
    return result_lines(path)


CASES = {
    "flax-linen-if": (
        "flax",
        "control_flow/python_branch_on_tracer.examples/invalid_flax_module_call_traced_by_contract.py",
        """
        m = MLP()
        x = jnp.ones((2, 4))
        p = m.init(jax.random.key(0), x)
        eager = outcome(lambda: m.apply(p, x))
        jitted = outcome(lambda: jax.jit(m.apply)(p, x))
        """,
        "TracerBoolConversionError",
    ),
    "flax-linen-slice-sizes": (
        "flax",
        "control_flow/traced_shape.examples/invalid_flax_decode_slice_sizes_array.py",
        """
        m = AddPositionEmbs(max_len=8, decode=True)
        x = jnp.ones((1, 1, 4))
        v = m.init(jax.random.key(0), x)
        v = m.apply(v, x, mutable=["cache"])[1] | {"params": v["params"]}
        eager = outcome(lambda: m.apply(v, x, mutable=["cache"]))
        jitted = outcome(lambda: jax.jit(lambda v, x: m.apply(v, x, mutable=["cache"]))(v, x))
        """,
        "TypeError",
    ),
    "optax-update": (
        "optax",
        "control_flow/python_branch_on_tracer.examples/invalid_optax_update_fn_traced_by_contract.py",
        """
        opt = first_step_skip()
        g = {"w": jnp.ones(3)}
        s = opt.init(g)
        eager = outcome(lambda: opt.update(g, s))
        jitted = outcome(lambda: jax.jit(opt.update)(g, s))
        """,
        "TracerBoolConversionError",
    ),
    "haiku-transform": (
        "haiku",
        "host_device/host_conversion_of_tracer.examples/invalid_haiku_transformed_function_numpy.py",
        """
        ids = jnp.array([1, 2, 2])
        p = model.init(jax.random.key(0), ids)
        eager = outcome(lambda: model.apply(p, None, ids))
        jitted = outcome(lambda: jax.jit(model.apply)(p, None, ids))
        """,
        "TracerArrayConversionError",
    ),
    "equinox-call": (
        "equinox",
        "host_device/host_conversion_of_tracer.examples/invalid_equinox_module_call_item.py",
        """
        import equinox as eqx
        m = Scale(weight=jnp.ones(3))
        x = jnp.ones(3)
        eager = outcome(lambda: m(x))
        jitted = outcome(lambda: eqx.filter_jit(lambda m, x: m(x))(m, x))
        """,
        "ConcretizationTypeError",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_runs_eagerly_and_raises_under_jit(case: str, tmp_path: Path) -> None:
    package, example, driver, error = CASES[case]
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed")
    program = (
        (RULES / example).read_text()
        + DRIVER
        + textwrap.dedent(driver)
        + "\nprint('RESULT ' + json.dumps([eager, jitted]))\n"
    )
    path = tmp_path / "program.py"
    path.write_text(program)
    lines = _result_lines(path)
    eager, jitted = json.loads(lines[-1][len("RESULT ") :])
    assert eager == "ok"
    assert jitted == error


def test_equinox_init_and_optax_init_run_under_vmap_and_eagerly(tmp_path: Path) -> None:
    """The valid example: ``Conv.__init__``'s ``.item()`` works eagerly and under
    ``eqx.filter_vmap`` (the ensemble idiom), where operations on constants stay
    concrete; ``init_fn`` runs eagerly."""
    for package in ("equinox", "optax"):
        if importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} is not installed")
    example = (
        "host_device/host_conversion_of_tracer.examples/valid_equinox_init_optax_init_eager.py"
    )
    driver = """
    keys = jax.random.split(jax.random.key(0), 3)
    eager = outcome(lambda: Conv(2, (3, 3), keys[0]))
    vmapped = outcome(lambda: eqx.filter_vmap(lambda k: Conv(2, (3, 3), k))(keys))
    opt = counting()
    init = outcome(lambda: opt.init({"w": jnp.ones(3)}))
    print("RESULT " + json.dumps([eager, vmapped, init]))
    """
    path = tmp_path / "program.py"
    path.write_text((RULES / example).read_text() + DRIVER + textwrap.dedent(driver))
    lines = _result_lines(path)
    assert json.loads(lines[-1][len("RESULT ") :]) == ["ok", "ok", "ok"]


def test_a_module_call_that_returns_a_report_runs_eagerly_and_not_under_jit(
    tmp_path: Path,
) -> None:
    """The valid example whose ``__call__`` returns a string: it runs eagerly; under
    ``jax.jit`` JAX rejects such a result, alone, beside an array in a tuple or as a
    dict's value (``TypeError``: not a valid JAX type); ``eqx.filter_jit`` returns a string as a
    static output, fixed at trace time; and under
    ``eqx.filter_jit`` its ``float(...)`` of a traced value fails: no jitted step can call
    it, which is why it takes no contract (analysis/trace_contract.py)."""
    if importlib.util.find_spec("equinox") is None:
        pytest.skip("equinox is not installed")
    example = (
        "host_device/host_conversion_of_tracer.examples/valid_module_call_returning_a_report.py"
    )
    driver = """
    import equinox as eqx
    exp = Experiment(steps=5)
    eager = outcome(lambda: exp(0))
    under_jit = outcome(lambda: jax.jit(lambda: "a report")())
    with_array = outcome(lambda: jax.jit(lambda x: ("a report", x))(jnp.ones(2)))
    in_a_dict = outcome(lambda: jax.jit(lambda x: {"y": x, "kind": "report"})(jnp.ones(2)))
    under_filter_jit = outcome(lambda: eqx.filter_jit(exp)(0))
    static = eqx.filter_jit(lambda x: "a report")(jnp.ones(2))  # a static output
    print("RESULT " + json.dumps([eager, under_jit, with_array, in_a_dict, under_filter_jit,
                                  static]))
    """
    path = tmp_path / "program.py"
    path.write_text((RULES / example).read_text() + DRIVER + textwrap.dedent(driver))
    lines = _result_lines(path)
    assert json.loads(lines[-1][len("RESULT ") :]) == [
        "ok",
        "TypeError",
        "TypeError",
        "TypeError",
        "ConcretizationTypeError",
        "a report",
    ]


def test_a_module_call_annotated_to_return_a_path_is_host_work(tmp_path: Path) -> None:
    """The valid example whose ``__call__`` is annotated ``-> tuple[jax.Array, str]`` (a
    host simulator): it runs eagerly; under ``jax.jit`` its string result raises
    (``TypeError``) before anything else, and its ``np.asarray`` of a traced input raises
    too; under ``eqx.filter_jit`` the string is a static output made when the function
    traces, so host work in it runs once for two calls with the same arguments."""
    if importlib.util.find_spec("equinox") is None:
        pytest.skip("equinox is not installed")
    example = (
        "host_device/host_conversion_of_tracer.examples/"
        "valid_module_call_declared_to_return_a_path.py"
    )
    driver = """
    import equinox as eqx
    sim = HostSimulator(n_steps=2)
    eager = outcome(lambda: sim(jnp.ones((2, 3)), "run0.xml"))
    under_jit = outcome(lambda: jax.jit(lambda w: sim(w, "run0.xml"))(jnp.ones((2, 3))))
    runs = []

    @eqx.filter_jit
    def host_step(x, state: str) -> tuple[jax.Array, str]:
        runs.append(state)  # host work: runs when the function traces
        return x * 2.0, state + ".next"

    first = host_step(jnp.ones(2), "a")[1]
    second = host_step(jnp.ones(2), "a")[1]
    print("RESULT " + json.dumps([eager, under_jit, first, second, len(runs)]))
    """
    path = tmp_path / "program.py"
    path.write_text((RULES / example).read_text() + DRIVER + textwrap.dedent(driver))
    lines = _result_lines(path)
    assert json.loads(lines[-1][len("RESULT ") :]) == [
        "ok",
        "TracerArrayConversionError",
        "a.next",
        "a.next",
        1,
    ]


def test_static_helper_and_constant_hyperparameter_run_under_jit(tmp_path: Path) -> None:
    """The valid example: a ``@staticmethod`` given the module's ``block_size`` through
    ``self`` and ``Head.__call__``'s ``features``, given only ``3`` by this file, are
    Python values: shapes made of them work eagerly and under ``jax.jit(model.apply)``."""
    if importlib.util.find_spec("flax") is None:
        pytest.skip("flax is not installed")
    example = (
        "control_flow/traced_shape.examples/valid_flax_static_helper_and_constant_hyperparameter.py"
    )
    driver = """
    m = Net()
    x = jnp.ones((2, 10))
    p = m.init(jax.random.key(0), x)
    eager = outcome(lambda: m.apply(p, x))
    jitted = outcome(lambda: jax.jit(m.apply)(p, x))
    print("RESULT " + json.dumps([eager, jitted]))
    """
    path = tmp_path / "program.py"
    path.write_text((RULES / example).read_text() + DRIVER + textwrap.dedent(driver))
    lines = _result_lines(path)
    assert json.loads(lines[-1][len("RESULT ") :]) == ["ok", "ok"]


def test_parameter_given_as_shape_runs_under_jit_with_it_static(tmp_path: Path) -> None:
    """The valid example: ``num_quantiles`` is a shape in ``QuantileNetwork.__call__``, so
    the jitted ``act`` must mark it static, and with it static the ``if`` and the
    ``range`` on it work; traced (not static) the same call raises."""
    if importlib.util.find_spec("flax") is None:
        pytest.skip("flax is not installed")
    example = "control_flow/traced_shape.examples/valid_flax_parameter_given_as_shape.py"
    driver = """
    m = QuantileNetwork()
    x = jnp.ones((2, 3))
    rng = jax.random.key(1)
    p = m.init(jax.random.key(0), x, 8, rng)
    static = outcome(lambda: act(p, x, rng, num_quantiles=8))
    traced = outcome(lambda: jax.jit(m.apply)(p, x, 8, rng))
    print("RESULT " + json.dumps([static, traced]))
    """
    path = tmp_path / "program.py"
    path.write_text((RULES / example).read_text() + DRIVER + textwrap.dedent(driver))
    lines = _result_lines(path)
    static, traced = json.loads(lines[-1][len("RESULT ") :])
    assert static == "ok"
    assert traced != "ok"


def test_every_kind_of_shape_use_raises_on_a_tracer(tmp_path: Path) -> None:
    """What ``analysis/static_uses.py`` reads the other way: each kind of shape use it
    counts raises on a traced ``n`` under ``jax.jit`` and runs with ``n`` static."""
    program = DRIVER + textwrap.dedent(
        """
        import functools
        import numpy as onp

        uses = {
            "jnp.zeros": lambda x, n: jnp.zeros((n, 1)),
            "shape=": lambda x, n: jax.random.uniform(jax.random.key(0), shape=[n, 1]),
            "reshape": lambda x, n: x.reshape(n, -1),
            "range": lambda x, n: sum(x[i] for i in range(n)),
            "numpy.zeros": lambda x, n: x + onp.zeros(shape=(x.shape[0], n)).sum(),
            "slice bound": lambda x, n: x[:, :n],
            "int() as a slice bound": lambda x, n: x[:, : int(x.shape[1] * (1 - n))],
        }
        x = jnp.ones((2, 3))
        out = {}
        for name, f in uses.items():
            traced = outcome(lambda: jax.jit(f)(x, 2))
            static = outcome(lambda: jax.jit(f, static_argnums=1)(x, 2))
            out[name] = [traced, static]
        print("RESULT " + json.dumps(out))
        """
    )
    path = tmp_path / "program.py"
    path.write_text(program)
    found = json.loads(_result_lines(path)[-1][len("RESULT ") :])
    assert set(found) == {
        "jnp.zeros",
        "shape=",
        "reshape",
        "range",
        "numpy.zeros",
        "slice bound",
        "int() as a slice bound",
    }
    for name, (traced, static) in found.items():
        assert traced != "ok", name
        assert static == "ok", name


CUSTOM_DERIVATIVES = (
    DRIVER
    + """
import numpy as np

@jax.custom_vjp
def scaled(x):
    return jnp.asarray(np.asarray(x) * 2.0)

def scaled_fwd(x):
    return scaled(x), None

def scaled_bwd(_, g):
    return (g * 2.0,)

scaled.defvjp(scaled_fwd, scaled_bwd)

@jax.custom_jvp
def sine(x):
    return jnp.asarray(np.sin(np.asarray(x)))

@sine.defjvp
def sine_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return sine(x), jnp.cos(x) * t

x = jnp.ones(3)
out = {}
for name, fn in [("custom_vjp", scaled), ("custom_jvp", sine)]:
    out[name] = {
        "eager": outcome(lambda: fn(x)),
        "grad": outcome(lambda: jax.grad(lambda y: fn(y).sum())(x)),
        "jit": outcome(lambda: jax.jit(fn)(x)),
        "vmap": outcome(lambda: jax.vmap(fn)(x)),
    }
print("RESULT " + json.dumps(out))
"""
)


def test_custom_derivative_functions_run_on_concrete_arrays_until_jitted() -> None:
    """Why ``custom_vjp``/``custom_jvp`` are not trace seeds (analysis/transforms.py,
    ``NONDIFF_TRANSFORMS``): host NumPy in such a function runs eagerly and under
    ``grad``, and raises only under ``jit`` or ``vmap`` (pyscfad's wrappers around C
    code, fresh-2026-12g)."""
    out = json.loads(result_lines(CUSTOM_DERIVATIVES)[-1][len("RESULT ") :])
    for name in ("custom_vjp", "custom_jvp"):
        assert out[name]["eager"] == "ok", out
        assert out[name]["grad"] == "ok", out
        assert out[name]["jit"] == "TracerArrayConversionError", out
        assert out[name]["vmap"] == "TracerArrayConversionError", out
