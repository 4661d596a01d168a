"""The trace analysis: which functions are traced, which values are tracers."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.tracing import Level, TraceAnalysis


class Probe:
    def __init__(self, code: str, **kw: object) -> None:
        self.code = textwrap.dedent(code)
        self.module = cst.parse_module(self.code)
        self.model = SemanticModel(self.module)
        pos = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        self.pos = pos
        self.trace = TraceAnalysis(self.model, lambda n: pos[n].start.line, **kw)  # type: ignore[arg-type]

    def fn(self, name: str):
        for info in self.trace.functions.values():
            if info.name == name:
                return info
        return None

    def level_of(self, source: str, occurrence: int = 0) -> Level | None:
        """The level of the ``occurrence``-th expression whose code is ``source``."""
        seen = 0
        for node, entering in self.model.events:
            if entering and isinstance(node, cst.BaseExpression):
                val = self.trace.value(node)
                if val is not None and self.module.code_for_node(node) == source:
                    if seen == occurrence:
                        return val.level
                    seen += 1
        raise AssertionError(f"no expression {source!r}")

    def why(self, source: str, occurrence: int = 0) -> str:
        seen = 0
        for node, entering in self.model.events:
            if entering and isinstance(node, cst.BaseExpression):
                val = self.trace.value(node)
                if val is not None and self.module.code_for_node(node) == source:
                    if seen == occurrence:
                        return self.trace.describe(val)
                    seen += 1
        raise AssertionError(source)


T, M, S = Level.TRACED, Level.MAYBE, Level.STATIC


@pytest.mark.parametrize(
    "decorator",
    [
        "@jax.jit",
        "@jit",
        "@j.jit",
        "@partial(jax.jit, donate_argnums=0)",
        "@functools.partial(jax.jit)",
        "@jax.jit()",
        "@jax.pmap",
        "@jax.checkpoint",
        "@jax.remat",
        "@nnx.jit",
        "@eqx.filter_jit",
    ],
)
def test_decorators_make_functions_traced(decorator: str) -> None:
    p = Probe(
        f"""
        import functools
        from functools import partial
        import jax
        import jax as j
        from jax import jit
        from flax import nnx
        import equinox as eqx

        {decorator}
        def f(x: jax.Array):
            return x
        """
    )
    assert p.fn("f") is not None


@pytest.mark.parametrize(
    "decorator",
    ["@jax.custom_jvp", "@jax.custom_vjp", "@partial(jax.custom_vjp, nondiff_argnums=(1,))"],
)
def test_custom_derivative_decorators_trace_nothing_themselves(decorator: str) -> None:
    """A ``custom_jvp``/``custom_vjp`` function called eagerly or under ``grad`` runs on
    concrete arrays (tests/test_tracing_runtime.py checks it on JAX): it is traced only
    where a traced caller calls it."""
    p = Probe(
        f"""
        from functools import partial
        import jax
        import numpy as np

        {decorator}
        def f(x, n=1):
            return np.asarray(x) * n

        @jax.jit
        def g(x):
            return x + 1

        def h(x):
            return f(x)

        @jax.jit
        def k(x):
            return f(x)
        """
    )
    assert p.fn("f") is not None  # through ``k``'s call
    q = Probe(
        f"""
        from functools import partial
        import jax
        import numpy as np

        {decorator}
        def f(x, n=1):
            return np.asarray(x) * n
        """
    )
    assert q.fn("f") is None


def test_stacked_decorators_merge_static_args() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnames=("n",))
        @jax.vmap
        def f(x, n):
            return x
        """
    )
    info = p.fn("f")
    assert info.param_levels["n"] is S
    assert info.param_levels["x"] is T


def test_static_argnums_and_names() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnums=(1, -1), static_argnames="mode")
        def f(x, n, y, k, mode="a"):
            return x

        g = jax.jit(lambda a, b: a, static_argnums=1)
        """
    )
    f = p.fn("f")
    assert f.static_params == {"n", "mode"} | {"mode"} or f.static_params >= {"n", "mode"}
    assert f.param_levels["x"] is T and f.param_levels["y"] is T
    assert f.param_levels["n"] is S and f.param_levels["mode"] is S
    # -1 is the last positional parameter
    assert f.param_levels["mode"] is S
    g = p.fn("<lambda>")
    assert g.param_levels == {"a": T, "b": S}


def test_non_literal_static_argnums_make_nothing_definite() -> None:
    p = Probe(
        """
        import jax
        STATIC = (1,)

        def f(x, n):
            return x

        g = jax.jit(f, static_argnums=STATIC)
        """
    )
    assert p.fn("f").param_levels == {"x": M, "n": M}


def test_wrapping_calls_and_partial_bindings() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        def train_step(state, batch, lr):
            return state

        step = jax.jit(partial(train_step, lr=0.1))
        def loss(p, x):
            return p

        g = jax.grad(loss)(1.0, 2.0)
        """
    )
    ts = p.fn("train_step")
    assert ts.param_levels == {"state": T, "batch": T, "lr": S}
    loss = p.fn("loss")
    # grad traces only argnums (default 0); the rest is passed through unchanged
    assert loss.param_levels == {"p": T, "x": M}
    assert not loss.staging


def test_vmap_in_axes_none_is_passed_through() -> None:
    p = Probe(
        """
        import jax

        def f(x, n):
            return x

        y = jax.vmap(f, in_axes=(0, None))(xs, 3)
        """
    )
    assert p.fn("f").param_levels == {"x": T, "n": M}


@pytest.mark.parametrize(
    ("call", "names"),
    [
        ("lax.scan(body, init, xs)", {"body"}),
        ("lax.fori_loop(0, 10, body, init)", {"body"}),
        ("lax.while_loop(cond, body, init)", {"cond", "body"}),
        ("lax.cond(p, body, cond, x)", {"body", "cond"}),
        ("lax.switch(i, [body, cond], x)", {"body", "cond"}),
        ("lax.map(body, xs)", {"body"}),
        ("lax.associative_scan(body, xs)", {"body"}),
        ("jax.lax.scan(f=body, init=init, xs=xs)", {"body"}),
    ],
)
def test_control_flow_bodies(call: str, names: set[str]) -> None:
    p = Probe(
        f"""
        import jax
        from jax import lax

        def body(c, x):
            return c, x

        def cond(c, x=None):
            return c

        out = {call}
        """
    )
    traced = {i.name for i in p.trace.functions.values()}
    assert traced == names
    eager = call.startswith("lax.associative_scan")  # runs its fn eagerly outside jit
    for name in names:
        levels = p.fn(name).param_levels
        assert levels["c"] is T
        # ``cond(c, x=None)``: a parameter left at its default keeps its Python value
        assert levels.get("x") is (M if name == "cond" else T)
        assert p.fn(name).staging is not eager
        assert p.fn(name).abstract is not eager


def test_lambda_body_and_fori_index() -> None:
    p = Probe(
        """
        from jax import lax
        out = lax.fori_loop(0, 3, lambda i, c: c + i, 0.0)
        """
    )
    info = p.fn("<lambda>")
    assert info.param_levels == {"i": T, "c": T}


def test_helpers_and_methods_called_from_traced_code() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp
        from functools import partial

        def helper(a, k):
            return a * k

        def unused(z):
            return z

        class Model:
            @partial(jax.jit, static_argnums=0)
            def __call__(self, x):
                return self.inner(x, 3)

            def inner(self, x, n):
                return helper(x, n)
        """
    )
    inner = p.fn("inner")
    assert inner.param_levels["x"] is T and inner.param_levels["n"] is S
    helper = p.fn("helper")
    assert helper.param_levels == {"a": T, "k": S}
    assert p.fn("unused") is None
    assert "called from traced `inner`" in helper.how(p.trace.line_of)


def test_configured_decorators_and_wrappers() -> None:
    code = """
        import mylib

        @mylib.my_jit
        def f(x):
            return x

        def g(y):
            return y

        h = mylib.compile_fn(g)
        """
    p = Probe(code)
    assert p.trace.functions == {}
    p = Probe(code, traced_decorators=["mylib.my_jit"], traced_wrappers=["mylib.compile_fn"])
    assert p.fn("f") is not None and p.fn("g") is not None


def test_equinox_filter_jit_parameters() -> None:
    p = Probe(
        """
        import equinox as eqx
        import jax

        @eqx.filter_jit
        def f(x: jax.Array, n: int, flag=True, model=None, other=object()):
            return x
        """
    )
    levels = p.fn("f").param_levels
    assert levels["x"] is T
    assert levels["n"] is S and levels["flag"] is S and levels["model"] is S
    assert levels["other"] is M


def test_values_static_and_traced() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp
        from functools import partial

        @partial(jax.jit, static_argnames="n")
        def f(x, n, mask=None):
            a = x.shape[0] > 2
            b = x.ndim
            c = len(x)
            d = mask is None
            e = isinstance(x, jax.Array)
            g = jnp.issubdtype(x.dtype, jnp.floating)
            h = n + 1
            y = jnp.sin(x) * 2
            z = y[0]
            w = jnp.zeros(3)
            k = 3
            k += x
            kk = k + 0
            t = (x, n)
            u = [v for v in range(n)]
            q = unknown(x)
            return y
        """
    )
    for expr in [
        "x.shape[0] > 2",
        "x.ndim",
        "len(x)",
        "mask is None",
        "isinstance(x, jax.Array)",
        "jnp.issubdtype(x.dtype, jnp.floating)",
        "n + 1",
    ]:
        assert p.level_of(expr) is S, expr
    for expr in ["jnp.sin(x) * 2", "y[0]", "jnp.zeros(3)"]:
        assert p.level_of(expr) is T, expr
    assert p.level_of("unknown(x)") is M
    assert p.level_of("k + 0") is T  # after k += x


def test_flow_sensitivity_rebinding_to_static() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def f(x):
            n = x
            if n > 0:
                pass
            n = 3
            if n > 0:
                pass
            return x
        """
    )
    assert p.level_of("n > 0", 0) is T
    assert p.level_of("n > 0", 1) is S


def test_branch_join() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def f(x, flag):
            if flag is None:
                y = 1
            else:
                y = x
            return y + 0
        """
    )
    assert p.level_of("y + 0") is T


def test_closure_captures_enclosing_traced_values() -> None:
    p = Probe(
        """
        import jax
        from jax import lax

        @jax.jit
        def f(x):
            scale = x * 2
            def body(c, _):
                return c * scale, None
            return lax.scan(body, x, None, length=3)
        """
    )
    assert p.level_of("c * scale") is T
    assert "captured by `body`" in p.why("scale", occurrence=1)


def test_grad_alone_does_not_stage_constants() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.grad
        def f(p):
            z = jnp.zeros(3)
            return (p * z).sum()
        """
    )
    assert p.level_of("jnp.zeros(3)") is S  # concrete under grad alone
    assert p.level_of("(p * z).sum()") is T


def test_messages_name_the_origin() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def make(n):
            return n
        """
    )
    assert p.why("n") == "`n` is traced: parameter of `make`, jitted by `jax.jit` at line 4"


def test_a_jitted_callee_under_a_trace_is_named_as_the_origin_not_its_body() -> None:
    """difftb's ``fermi_dirac`` (fresh-2026-12p): its result is a tracer because the caller
    is traced (the inner jit is inlined), not because of what its body computes."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def occupation(E, mu):
            x = E - mu
            return 1.0 / (1.0 + jnp.exp(x))

        @jax.jit
        def level(E):
            n = jnp.sum(occupation(E, 0.5))
            return n
        """
    )
    assert p.why("n") == (
        "`n` is traced: computed from `occupation(E, 0.5)` (returned by `occupation` (jitted)"
        " inside `level`), jitted by `jax.jit` at line 10"
    )


@pytest.mark.parametrize(
    ("flag", "traced"),
    [
        ("DEBUG: bool = False", False),  # the debug branch never runs
        ("DEBUG = 0", False),
        ("DEBUG = True", True),
        # rebound, or set by a function: not a constant
        ("DEBUG = False\nDEBUG = True", True),
        ("DEBUG = False\n\ndef enable():\n    global DEBUG\n    DEBUG = True", True),
    ],
)
def test_a_module_flag_bound_once_decides_its_branch(flag: str, traced: bool) -> None:
    """clm-ml-jax's ``if DEBUG_FPS_CHECKS:`` (``DEBUG_FPS_CHECKS: bool = False``,
    fresh-2026-12q): the helper called only there is never traced."""
    p = Probe(
        "import jax\nimport numpy as np\n\n"
        + flag
        + "\n\n\ndef check(x):\n    return float(np.sum(x))\n\n\n"
        "@jax.jit\ndef step(x):\n    if DEBUG:\n        check(x)\n    return x\n"
    )
    assert (p.fn("check") is not None) is traced


def test_isinstance_of_python_scalars_makes_a_name_static_in_the_branch() -> None:
    """shine-wl's ``_apply_ellipticity`` (fresh-2026-12q): under ``isinstance(e1, (int,
    float))`` the test ``e1 == 0.0`` compares Python numbers; outside it, a tracer."""
    p = Probe(
        """
        import jax

        @jax.jit
        def shear(g, e1, e2):
            if isinstance(e1, (int, float)) and isinstance(e2, float):
                if e1 == 0.0 and e2 == 0.0:
                    return g
            if isinstance(e1, jax.Array):
                pass
            z = e2 == 1.0
            return g * e1 + z
        """
    )
    assert p.level_of("e1 == 0.0") is S
    assert p.level_of("e2 == 0.0") is S
    assert p.level_of("e2 == 1.0") is T


def test_host_results_of_jitted_calls_are_arrays() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def step(x):
            return x + 1

        def train():
            y = step(jnp.ones(3))
            z = jnp.ones(3)
            return y, z
        """
    )
    for node, entering in p.model.events:
        if entering and isinstance(node, cst.Call):
            src = p.module.code_for_node(node)
            if src in ("step(jnp.ones(3))", "jnp.ones(3)"):
                val = p.trace.value(node)
                assert val is not None and val.array and val.level is S, src


def test_abstract_tracers_by_transform() -> None:
    """``if``/``int()`` on a tracer raise under jit-like staging and vmap, not under grad."""
    p = Probe(
        """
        import jax
        from jax import lax

        def helper_v(a):
            return a

        def helper_g(a):
            return a

        @jax.jit
        def jitted(x):
            return x

        @jax.vmap
        def mapped(x):
            return helper_v(x)

        @jax.grad
        def differentiated(x):
            return helper_g(x)

        @jax.checkpoint
        def remat(x):
            return x

        @jax.custom_jvp
        def custom(x):
            return x

        def body(i, c):
            return c

        out = lax.fori_loop(0, 3, body, 0.0)
        """
    )
    abstract = {i.name: i.abstract for i in p.trace.functions.values()}
    assert abstract == {
        "jitted": True,
        "mapped": True,
        "helper_v": True,
        "differentiated": False,
        "helper_g": False,
        "remat": True,
        "body": True,
    }  # ``custom`` is not traced at all: custom_jvp alone runs on concrete arrays


def test_is_abstract_follows_the_origin_of_the_value() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def f(x):
            def loss(p):
                return p * x
            return jax.grad(loss)(x)
        """
    )
    for node, entering in p.model.events:
        if entering and isinstance(node, cst.BinaryOperation):
            val = p.trace.value(node)
            assert val is not None and val.traced
            # ``x`` comes from the jitted ``f``: abstract even inside grad's ``loss``
            assert p.trace.is_abstract(val, node)


def test_parameters_left_at_their_default_are_maybe_traced() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def f(x, n=3, *, training=False, mask=None):
            return x
        """
    )
    assert p.fn("f").param_levels == {"x": T, "n": M, "training": M, "mask": M}


def test_pytree_attributes_may_be_static_metadata() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def f(state, x: jax.Array):
            a = state.num_layers > 2
            b = x.sum() > 0
            c = x.T > 0
            d = (x * 2).real
            e = x.at[0].set(1.0)
            g = "w" in state
            h = x in (1, 2)
            return a
        """
    )
    assert p.level_of("state.num_layers > 2") is M
    assert p.level_of("x.sum() > 0") is T  # an array method
    assert p.level_of("x.T > 0") is T
    assert p.level_of("(x * 2).real") is T
    assert p.level_of("x.at[0].set(1.0)") is T
    assert p.level_of('"w" in state') is M  # a key lookup in a pytree
    assert p.level_of("x in (1, 2)") is T


def test_an_attribute_no_jax_value_has_is_pytree_navigation() -> None:
    """``x.reshape(...)`` looks like an array method, but reading ``.irreps`` from its
    result shows the value is an object of another class (e3nn-jax's ``IrrepsArray``,
    whose ``irreps`` is static metadata): no JAX array has that attribute. The
    attributes of JAX's own values, arrays and the named tuples its functions return,
    stay traced."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, y: jax.Array):
            x = x.reshape((2, -1))
            a = x.irreps
            b = (y + 1).irreps.count
            c = jnp.linalg.eigh(y).eigenvalues
            d = y.at[0].get()
            e = y.ptp()
            g = jnp.linalg.svd(y).S
            h = y.reshape(-1).T
            return a, b, c, d, e, g, h
        """
    )
    assert p.level_of("x.irreps") is M
    assert p.level_of("(y + 1).irreps") is M
    assert p.level_of("(y + 1).irreps.count") is M
    assert p.level_of("jnp.linalg.eigh(y).eigenvalues") is T
    assert p.level_of("y.at[0].get()") is T
    assert p.level_of("y.ptp()") is T
    assert p.level_of("jnp.linalg.svd(y).S") is T
    assert p.level_of("y.reshape(-1).T") is T


def test_computed_values_are_single_arrays() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(params, x: jax.Array, y):
            a = params
            b = params["w"]
            c = y > 0
            d = jnp.sin(y)
            e = x
            return a, b, c, d, e
        """
    )
    computed = {}
    for node, entering in p.model.events:
        if entering and isinstance(node, cst.Name) and node.value in "abcde":
            val = p.trace.value(node)
            if val is not None:
                computed[node.value] = val.computed
    assert computed == {"a": False, "b": False, "c": True, "d": True, "e": True}


def _array_of(p: Probe, source: str) -> tuple[bool, Level | None]:
    for node, entering in p.model.events:
        if entering and isinstance(node, cst.Call) and p.module.code_for_node(node) == source:
            val = p.trace.value(node)
            assert val is not None
            return val.array, val.level
    raise AssertionError(source)


def test_host_calls_of_jitted_functions_return_concrete_arrays() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        def train_step(s, b):
            return s

        train_step = jax.jit(train_step)
        update = partial(jax.jit, donate_argnums=0)(train_step)

        @jax.vmap
        def per_example(x):
            return x

        def helper(x):
            return x

        helper = wrap(helper)

        class Trainer:
            def __init__(self):
                self.step = jax.jit(self._step)

            def _step(self, s):
                return s

            def run(self, s):
                return self.step(s), self.other(s)

        def main(s, b):
            fast = jax.jit(helper)
            a = train_step(s, b)
            c = update(s, b)
            d = per_example(b)
            e = jax.jit(lambda v: v)(b)
            f = helper(b)
            g = fast(b)
            return a, c, d, e, f, g
        """
    )
    for call in (
        "train_step(s, b)",
        "update(s, b)",
        "per_example(b)",
        "jax.jit(lambda v: v)(b)",
        "self.step(s)",
        "fast(b)",
    ):
        assert _array_of(p, call) == (True, S), call
    assert _array_of(p, "helper(b)") == (False, S)  # rebound by an unknown wrapper
    assert _array_of(p, "self.other(s)") == (False, S)


def test_transforms_recorded_per_function() -> None:
    p = Probe(
        """
        import jax
        from jax import lax
        from flax import nnx

        @nnx.jit
        def a(m, x):
            return x

        @jax.jit
        @jax.vmap
        def b(x):
            return lax.scan(body, x, x)

        def body(c, x):
            return c, x
        """
    )
    assert p.fn("a").transforms == {"flax.nnx.jit"}
    assert p.fn("b").transforms == {"jax.jit", "jax.vmap"}
    assert p.fn("body").transforms == set()


def test_helper_methods_of_a_jitted_method_with_traced_self() -> None:
    p = Probe(
        """
        import jax

        class Resize:
            def flat(self, x, rows):
                return x.reshape(rows, -1)

            @jax.jit
            def __call__(self, x, rows):
                return self.flat(x, rows)
        """
    )
    flat = p.fn("flat")
    assert flat is not None and flat.abstract
    assert flat.param_levels["rows"] is T and flat.param_levels["self"] is M


def test_positional_in_axes_and_argnums() -> None:
    p = Probe(
        """
        import jax

        def pool(x, size, op):
            return x

        def loss(a, b):
            return a

        f = jax.vmap(pool, (0, None, None), 0)
        g = jax.grad(loss, 1)
        """
    )
    assert p.fn("pool").param_levels == {"x": T, "size": M, "op": M}
    assert p.fn("loss").param_levels == {"a": M, "b": T}


def test_host_call_results_need_the_outermost_transform_and_a_return_value() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        @partial(unknown_wrapper, static_argnums=())
        @jax.jit
        def padded(a):
            return a

        @jax.jit
        def nothing(model):
            pass

        @jax.jit
        def inner(x):
            return x

        def main(x):
            return padded(x), nothing(x), inner(x)
        """
    )
    assert _array_of(p, "padded(x)") == (False, S)  # the outer wrapper decides
    assert _array_of(p, "nothing(x)") == (False, S)  # returns None
    assert _array_of(p, "inner(x)") == (True, S)


def test_collectives_of_python_constants_are_static() -> None:
    p = Probe(
        """
        import jax
        from jax import lax

        @jax.jit
        def f(x):
            n = lax.psum(1, "i")
            y = lax.psum(x, "i")
            return n, y
        """
    )
    assert p.level_of('lax.psum(1, "i")') is S  # the axis size, a Python int
    assert p.level_of('lax.psum(x, "i")') is T


# -- why a function is traced: the shortest true explanation --------------------------------


@pytest.mark.parametrize(
    ("jit", "line"),
    [
        ("@jax.jit\ndef inner(y):", 9),
        ("def inner(y):", 12),  # wrapped below: ``fast = jax.jit(inner)``
    ],
)
def test_own_jit_is_named_before_a_traced_caller(jit: str, line: int) -> None:
    code = "\nimport jax\n\n@jax.jit\ndef outer(x):\n    return inner(x)\n\n\n"
    code += jit + "\n    return y + 1\n"
    if not jit.startswith("@"):
        code += "\nfast = jax.jit(inner)\n"
    p = Probe(code)
    assert (
        p.why("y + 1") == f"`y` is traced: parameter of `inner`, jitted by `jax.jit` at line {line}"
    )


def test_own_jit_of_a_method_wrapped_in_init_is_named_before_its_caller() -> None:
    p = Probe(
        """
        import jax

        class Model:
            def __init__(self):
                self.step = jax.jit(self._step)

            @jax.jit
            def outer(self, x):
                return self._step(x)

            def _step(self, y):
                return y + 1
        """
    )
    assert p.why("y + 1") == "`y` is traced: parameter of `_step`, jitted by `jax.jit` at line 6"


def test_own_jit_with_static_options_does_not_explain_a_parameter() -> None:
    p = Probe(
        """
        import jax

        class Model:
            def __init__(self):
                self.step = jax.jit(self._step, static_argnames=("y",))

            @jax.jit
            def outer(self, x):
                return self._step(x)

            def _step(self, y):
                return y + 1
        """
    )
    assert p.why("y + 1") == (
        "`y` is traced: parameter of `_step`, called from traced `outer` at line 10,"
        " which is jitted by `jax.jit` at line 8"
    )


def test_own_jit_is_named_before_a_lax_body() -> None:
    p = Probe(
        """
        import jax
        from jax import lax

        @jax.jit
        def run(c, xs):
            return lax.scan(body, c, xs)

        def body(c, x):
            return c + x, x

        fast_body = jax.jit(body)
        """
    )
    assert p.fn("body").how(p.trace.line_of) == "jitted by `jax.jit` at line 12"


def test_a_helper_names_its_caller_and_the_callers_transform() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def step(x):
            return helper(x)

        def helper(y):
            return y + 1
        """
    )
    assert p.why("y + 1") == (
        "`y` is traced: parameter of `helper`, called from traced `step` at line 6,"
        " which is jitted by `jax.jit` at line 4"
    )


def test_the_fewest_calls_to_a_transform_are_named() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def a(x):
            return b(x)

        def b(x):
            return c(x)

        def c(y):
            return y + 1

        @jax.jit
        def d(x):
            return c(x)
        """
    )
    assert p.fn("c").how(p.trace.line_of) == (
        "called from traced `d` at line 16, which is jitted by `jax.jit` at line 14"
    )
    assert p.fn("b").how(p.trace.line_of) == (
        "called from traced `a` at line 6, which is jitted by `jax.jit` at line 4"
    )


def test_a_chain_of_helpers_names_every_call() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def a(x):
            return b(x)

        def b(x):
            return c(x)

        def c(y):
            return y + 1
        """
    )
    assert p.why("y + 1") == (
        "`y` is traced: parameter of `c`, called from traced `b` at line 9,"
        " which is called from `a` at line 6, which is jitted by `jax.jit` at line 4"
    )


def test_a_parameter_is_explained_by_a_call_that_passes_it_traced() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnums=1)
        def a(x, k):
            return h(x, k)

        def h(x, n):
            return x * n

        @jax.jit
        def b(x, m):
            return h(x, m)
        """
    )
    # ``a`` passes a static ``n`` and comes first; ``b`` passes it traced
    assert p.why("n") == (
        "`n` is traced: parameter of `h`, called from traced `b` at line 14,"
        " which is jitted by `jax.jit` at line 12"
    )
    assert p.why("x", occurrence=1).endswith(
        "called from traced `a` at line 7, which is jitted by `jax.jit` at line 5"
    )


def test_a_transform_applied_inside_traced_code_names_the_outer_transform() -> None:
    p = Probe(
        """
        import jax

        def loss(p):
            return p * 2

        @jax.jit
        def step(p):
            return jax.grad(loss)(p)
        """
    )
    # under ``grad`` alone ``p`` is concrete: it is abstract because ``step`` is jitted
    assert p.fn("loss").how(p.trace.line_of) == (
        "differentiated by `jax.grad` at line 9 inside `step`, which is jitted by `jax.jit` at line 7"
    )


def test_recursive_helpers_end() -> None:
    p = Probe(
        """
        import jax

        @jax.jit
        def a(x):
            return h(x)

        def h(y):
            return g(y)

        def g(z):
            return h(z) + z
        """
    )
    assert p.fn("g").how(p.trace.line_of) == (
        "called from traced `h` at line 9, which is called from `a` at line 6,"
        " which is jitted by `jax.jit` at line 4"
    )


def test_the_chain_explains_what_the_tracers_are() -> None:
    p = Probe(
        """
        import jax

        def helper(y):
            return y + 1

        def mapped(x):
            return helper(x)

        batched = jax.vmap(mapped)

        @jax.jit
        def step(x):
            return outer(x)

        def outer(x):
            return helper(x)
        """
    )
    # ``y`` is an abstract tracer under ``vmap`` already: the one call is enough
    assert p.why("y + 1") == (
        "`y` is traced: parameter of `helper`, called from traced `mapped` at line 8,"
        " which is vmapped by `jax.vmap` at line 10"
    )
    # what ``helper`` runs staged (every JAX operation a tracer) needs the ``jit``
    assert p.fn("helper").how(p.trace.line_of) == (
        "called from traced `outer` at line 17, which is called from `step` at line 14,"
        " which is jitted by `jax.jit` at line 12"
    )


def test_transforms_named_once() -> None:
    p = Probe(
        """
        import jax

        def f(x):
            return x + 1

        shape = jax.eval_shape(f, 1.0)
        """
    )
    assert p.fn("f").how(p.trace.line_of) == "traced by `jax.eval_shape` at line 7"


def test_a_lax_body_explains_staging_that_its_own_vmap_does_not() -> None:
    p = Probe(
        """
        import jax
        from jax import lax

        def body(c, x):
            return c + x, x

        batched = jax.vmap(body)
        out = lax.scan(body, 0.0, xs)
        """
    )
    assert p.fn("body").how(p.trace.line_of) == "traced as a body of `lax.scan` at line 9"
    assert p.why("c + x") == "`c` is traced: parameter of `body`, vmapped by `jax.vmap` at line 8"


def test_a_transform_applied_inside_traced_code_counts_as_one_more_call() -> None:
    p = Probe(
        """
        import jax

        def xent(y):
            return y + 1

        @jax.jit
        def step(p):
            def metrics(z):
                return xent(z)

            def loss(q):
                return xent(q)

            g = jax.grad(loss)(p)
            return metrics(p), g
        """
    )
    # via ``metrics``: two calls; via ``loss``: a ``grad`` applied inside ``step``, as long
    # and less direct, so the plain calls win
    assert p.fn("xent").how(p.trace.line_of) == (
        "called from traced `metrics` at line 10, which is called from `step` at line 16,"
        " which is jitted by `jax.jit` at line 7"
    )


def test_metadata_call_only_for_metadata_builders() -> None:
    from jaxlint.analysis.transforms import metadata_call

    assert metadata_call("jax.lax.ConvDimensionNumbers")
    assert metadata_call("jax.lax.conv_dimension_numbers")
    assert not metadata_call("jax.random.PRNGKey")
    assert not metadata_call("jax.lax.iota")
    assert not metadata_call("jax.numpy.zeros")


def test_array_constructors_inside_jit_stay_traced_beside_metadata() -> None:
    """``jax.random.PRNGKey`` (capitalised) and lowercase ``lax`` functions make arrays
    under ``jit`` even from constants; a ``lax`` class builds static metadata."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp
        from jax import lax

        @jax.jit
        def f(x, spec):
            key = jax.random.PRNGKey(0)
            idx = lax.iota(jnp.int32, 3)
            dn = lax.ConvDimensionNumbers((0, 1), (1, 0), (0, 1))
            return key, idx, dn
        """
    )
    assert p.level_of("jax.random.PRNGKey(0)") is T
    assert p.level_of("lax.iota(jnp.int32, 3)") is T
    assert p.level_of("lax.ConvDimensionNumbers((0, 1), (1, 0), (0, 1))") is S


@pytest.mark.parametrize(
    "wrapped",
    [
        "jax.jit(jax.grad(loss))",
        "jax.jit(jax.value_and_grad(loss, argnums=1))",
        "jax.jit(jax.vmap(loss))",
        "jax.jit(jax.vmap(jax.grad(loss)))",
        "jax.pmap(jax.grad(loss))",
    ],
)
def test_the_outer_transform_of_a_composition_traces_the_function(wrapped: str) -> None:
    p = Probe(
        f"""
        import jax
        import jax.numpy as jnp

        def loss(w, x):
            return jnp.sum(x @ w)

        step = {wrapped}
        """
    )
    info = p.fn("loss")
    assert info is not None and info.staging and info.abstract
    assert info.param_levels == {"w": T, "x": T}  # the outer jit traces every argument
    assert "jitted by" in info.how(lambda n: p.pos[n].start.line) or "pmapped" in info.how(
        lambda n: p.pos[n].start.line
    )


def test_grad_alone_is_not_staged_and_a_composition_with_static_args_keeps_them() -> None:
    p = Probe(
        """
        import jax
        from functools import partial

        def alone(w, x):
            return w * x

        def both(w, n):
            return w * n

        g = jax.grad(alone)
        h = partial(jax.jit, static_argnums=1)(jax.grad(both))
        """
    )
    alone = p.fn("alone")
    assert alone is not None and not alone.staging and not alone.abstract
    both = p.fn("both")
    assert both is not None and both.staging
    assert both.param_levels == {"w": T, "n": S}


def test_enumerate_index_and_zip_with_a_static_list_stay_static() -> None:
    p = Probe(
        """
        import jax

        SIZES = [4, 8]

        @jax.jit
        def f(params, key, n):
            keys = jax.random.split(key, 2)
            for i, (w, b) in enumerate(params):
                a = i + 1
                c = w + b
            for size, k in zip(SIZES, keys, strict=True):
                d = size * 2
                e = k
            for j, v in enumerate(params, n):
                g = j
            return [i2 for i2, _ in enumerate(params)]
        """
    )
    assert p.level_of("i + 1") is S
    assert p.level_of("w + b") is T
    assert p.level_of("size * 2") is S
    assert p.level_of("k", 1) is T
    assert p.level_of("j", 1) is T  # ``enumerate(params, n)``: the index starts at a tracer
    assert p.level_of("i2", 1) is S


def test_numpy_function_that_calls_the_array_method_returns_a_tracer() -> None:
    # ``np.mean(x)`` is ``x.mean()``: a tracer of a tracer (so ``np.sqrt`` around it
    # converts one); of a list or of a static value it stays what it was
    p = Probe(
        """
        import jax
        import numpy as np

        @jax.jit
        def f(x, n):
            a = np.mean(x)
            b = np.sqrt(a)
            c = np.mean([1.0, 2.0])
            d = np.sum(x.shape)
            return a, b, c, d
        """
    )
    assert p.level_of("np.mean(x)") is T
    assert p.level_of("a", occurrence=1) is T
    assert p.level_of("np.mean([1.0, 2.0])") is S
    assert p.level_of("np.sum(x.shape)") is S


def test_calling_a_traced_parameter_of_a_jit_like_function_gives_a_tracer() -> None:
    p = Probe(
        """
        import jax
        from flax import nnx

        @nnx.jit
        def forward(model, x):
            y = model(x)
            z = model.helper(3)
            return y, z

        def host(fn, x):
            return fn(x)
        """
    )
    assert p.level_of("model(x)") is T
    assert p.level_of("model.helper(3)") is not T
    assert p.level_of("fn(x)") is S


def test_an_outer_transform_of_a_name_bound_to_a_transform_traces_the_function() -> None:
    p = Probe(
        """
        import jax

        def jitter(x):
            return x * 2

        per_point = jax.vmap(jitter)
        fast = jax.jit(per_point)
        """
    )
    info = p.fn("jitter")
    assert info is not None and info.staging and "jax.jit" in info.transforms


def test_shard_map_none_specs_pass_values_as_they_are() -> None:
    """A ``None`` entry of ``shard_map``'s in_specs hands the argument over unchanged
    (a Python int stays one; checked on jax 0.12); ``P()`` makes it a tracer, and an
    outer ``jit`` traces what it passes unless it is static."""
    p = Probe(
        """
        import jax
        from functools import partial
        from jax.sharding import PartitionSpec as P
        from jax.experimental.shard_map import shard_map

        @partial(jax.shard_map, in_specs=(P(), None, P()), out_specs=P())
        def a(x, n, m):
            return x, n, m

        def b(k, x, n):
            return x, n

        jax.shard_map(partial(b, 1), in_specs=(P(), None), out_specs=P())
        shard_map(lambda x, n: n, None, (P(), None), P())

        def c(x, n):
            return n

        jax.jit(jax.shard_map(c, in_specs=(P(), None), out_specs=P()))
        """
    )
    assert p.fn("a").param_levels == {"x": T, "n": M, "m": T}
    assert p.fn("b").param_levels == {"k": S, "x": T, "n": M}
    assert p.fn("<lambda>").param_levels == {"x": T, "n": M}
    assert p.fn("c").param_levels == {"x": T, "n": T}


def test_ensure_compile_time_eval_computes_concretely() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x):
            with jax.ensure_compile_time_eval():
                table = jnp.arange(4)
                moved = jnp.sum(x)
            made = jnp.arange(4)
            return int(table.max()), moved, made, table
        """
    )
    assert p.level_of("jnp.arange(4)") is S
    assert p.level_of("table", 2) is S  # still concrete after the block
    assert p.level_of("moved", 1) is T
    assert p.level_of("jnp.arange(4)", 1) is T


def test_tuple_returns_are_known_by_position() -> None:
    p = Probe(
        """
        import jax

        def split(x):
            if x.ndim:
                return x.shape[0], x * 2
            return len(x), x

        def other(x):
            if x.ndim:
                return x.shape[0], x
            return x

        @jax.jit
        def f(x):
            n, y = split(x)
            a, b = other(x)
            return n, y, a, b
        """
    )
    assert p.level_of("n", 1) is S
    assert p.level_of("y", 1) is T
    assert p.level_of("a", 1) is T  # not every return is a tuple: joined


def test_tuple_positions_settle_through_helpers_defined_later() -> None:
    """The caller is walked before its helper, and the helper before the helper it
    calls: the walk repeats until the positions stop changing (``jax/experimental/
    rnn.py``'s ``(h_t, c_t), y = _extract_output(...)``)."""
    p = Probe(
        """
        import jax

        @jax.jit
        def f(x):
            a, n = outer(x)
            return a, n

        def outer(x):
            return inner(x), x.shape[0]

        def inner(x):
            return x * 2
        """
    )
    assert p.level_of("a", 1) is T
    assert p.level_of("n", 1) is S


def test_transforms_in_code_that_never_runs_trace_nothing() -> None:
    """cr-sparse: ``return inner(x)`` left above an old ``lax.cond(p, inner, ...)``; and
    code after a ``raise``. Only the ``cond`` that can run makes ``inner`` traced."""
    p = Probe(
        """
        import jax

        def dead_after_return(x, p):
            def inner(a):
                return a
            return inner(x)
            return jax.lax.cond(p, inner, lambda a: a, x)

        def dead_after_raise(x):
            raise NotImplementedError
            def body(a):
                return a
            return jax.jit(body)(x)

        def live(x, p):
            def branch(a):
                return a
            return jax.lax.cond(p, branch, lambda a: a, x)
        """
    )
    assert p.fn("inner") is None
    assert p.fn("body") is None
    assert p.fn("branch") is not None


@pytest.mark.parametrize(
    ("imports", "test", "traced"),
    [
        ("import numpy as np", '"jax" in np.__name__', False),
        ("import numpy as np", 'not "jax" in np.__name__', True),
        ("import numpy as np", 'np.__name__ == "numpy"', True),
        ("import jax.numpy as np", '"jax" in np.__name__', True),
        ("import jax.numpy as np", '"jax" not in np.__name__', False),
        # ``from m import x``: ``x`` may be a function, whose ``__name__`` is its own
        ("from jax import numpy as np", '"jax" in np.__name__', True),
        ("import numpy as np", "use_jax", True),
    ],
)
def test_a_branch_on_an_imported_modules_name_is_decided(
    imports: str, test: str, traced: bool
) -> None:
    """Code written for NumPy or JAX switches on the module it imported: a transform
    applied in the branch that never runs traces nothing (gwkokab, fresh-2026-12g)."""
    p = Probe(
        f"""
        import jax
        {imports}

        def spence(z):
            return np.asarray(z)

        def li2(z, use_jax=True):
            if {test}:
                f = jax.vmap(spence)
            else:
                f = spence
            return f(z)
        """
    )
    assert (p.fn("spence") is not None) is traced


def test_tuple_returns_with_a_starred_element_are_known_from_both_ends() -> None:
    """``return (*rows, n, rep)``: the names before the star take the parts before it,
    the names after it the last parts (counted from the end), the names between the
    starred value (dftax's ``ra, rb, rc, sa, sb, sc, nprims, rep = _class_rows(cls)``,
    whose ``nprims`` and ``rep`` come from a static plan next to ``jnp`` rows)."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        PLAN = ((2, (0, 1)), (3, (1, 2)))

        def rows_of(x, cls):
            rows = (x * 2, x + 1, jnp.cos(x))
            return (*rows, cls[0], cls[1])

        @jax.jit
        def f(x):
            for cls in PLAN:
                a, b, c, n, rep = rows_of(x, cls)
                first, *rest = rows_of(x, cls)
            return a, b, c, n, rep, first, rest
        """
    )
    assert p.level_of("a", 1) is T
    assert p.level_of("c", 1) is T
    assert p.level_of("n", 1) is S
    assert p.level_of("rep", 1) is S
    assert p.level_of("first", 1) is T  # a starred target: the whole value, as before


def test_a_loop_over_rows_of_a_literal_tuple_binds_each_name_to_its_column() -> None:
    """``for name, value, dtype in (("a", a, jnp.int32), ("p", progress, jnp.bool_)):``
    under ``jit``: ``value`` is traced, ``dtype`` and ``name`` stay static (a
    marl-battlegrounds check of its inputs' dtypes)."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(progress, done):
            for name, value, dtype in (("progress", progress, jnp.int32), ("done", done, jnp.bool_)):
                if getattr(value, "dtype", None) != dtype:
                    raise TypeError(name)
            return progress
        """
    )
    assert p.level_of("value", 1) is T
    assert p.level_of("dtype", 1) is S
    assert p.level_of("name", 1) is S


_ROUNDS_CASES = [
    # helpers defined before their traced callers: they become traced in the first round;
    # and one defined after its caller, which reads its return in the second
    """
    import jax
    import jax.numpy as jnp

    @jax.jit
    def first(x):
        n = size_of(x)
        return x * n

    def size_of(x):
        return x.shape[0]

    def inner(x, n):
        if n > 2:
            return x * 2, n
        return jnp.sin(x), x.shape[0]

    def outer(x, flag=True):
        y, m = inner(x, 3)
        def closure(z):
            return z + y
        return closure(x), m

    def host(x):
        return step(x)

    @jax.jit
    def step(x):
        a, n = outer(x)
        return a * n

    def unrelated(k):
        return [k for _ in range(3)]
    """,
    # recursion, a starred tuple, a lambda and a scan body
    """
    from jax import lax, jit

    def rec(x, depth):
        if depth == 0:
            return (x,)
        return (*rec(x, depth - 1), x)

    def body(carry, x):
        return carry + helper(x), x

    def helper(v):
        return v.sum()

    @jit
    def f(xs):
        g = lambda t: helper(t) * 2
        c, ys = lax.scan(body, 0.0, xs)
        return rec(c, 2), g(ys)
    """,
]


def _canonical_state(trace: TraceAnalysis) -> dict[str, object]:
    """Everything the walk leaves, with analysis objects named by their function's node
    (two analyses of one tree build different ``TracedFunction`` objects)."""

    def fn(info: object) -> int | None:
        return None if info is None else id(info.node)  # type: ignore[attr-defined]

    def val(v: object) -> object:
        if v is None:
            return None
        o = v.origin  # type: ignore[attr-defined]
        origin = None if o is None else (o.name, o.role, fn(o.func), o.param)
        return (v.level, origin, v.container, v.array, v.computed)  # type: ignore[attr-defined]

    return {
        "values": {k: val(v) for k, v in trace.values.items()},
        "owner": {k: fn(v) for k, v in trace.owner.items()},
        "returns": {k: val(v) for k, v in trace.returns.items()},
        "parts": {
            k: None if v is None else [val(x) for x in v] for k, v in trace.return_parts.items()
        },
        "call_parts": {k: [val(x) for x in v] for k, v in trace.call_parts.items()},
        "call_star": dict(trace.call_star),
        "merged": {k: {n: val(x) for n, x in v.items()} for k, v in trace.merged_env.items()},
        "functions": {
            k: (
                dict(v.param_levels),
                v.staging,
                v.abstract,
                fn(v.inside),
                sorted((fn(e.caller), key[1]) for key, e in v.calls.items()),
            )
            for k, v in trace.functions.items()
        },
    }


@pytest.mark.parametrize("code", _ROUNDS_CASES)
def test_later_rounds_walk_only_what_changed_and_give_every_value_of_a_full_round(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round after the first walks a function again only when its start or what it
    read of a helper changed (``TraceAnalysis._unchanged``); every value, return, tuple
    position and level must be those of walking every function in every round."""
    from jaxlint.analysis import trace_walk

    walked: list[object] = []
    real_run = trace_walk._FunctionWalker.run

    def counting_run(self: trace_walk._FunctionWalker) -> None:
        walked.append(self.fn)
        real_run(self)

    monkeypatch.setattr(trace_walk._FunctionWalker, "run", counting_run)
    p = Probe(code)
    incremental, incremental_walks = _canonical_state(p.trace), len(walked)
    walked.clear()
    monkeypatch.setattr(TraceAnalysis, "_unchanged", lambda self, fn, walk: False)
    full = _canonical_state(TraceAnalysis(p.model, lambda n: p.pos[n].start.line))
    assert incremental == full
    defs = len(p.trace._defs)
    assert len(walked) > defs  # the case needs more than one round
    assert defs <= incremental_walks < len(walked)


def test_a_function_a_factory_returns_is_traced_where_jitted_code_calls_it() -> None:
    """``loss_fn = make_loss(scale)`` then ``loss_fn(w, x)`` in a jitted step calls the
    ``loss`` that ``make_loss`` defines and returns: it is traced, its parameters too."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        def make_loss(scale):
            def loss(w, x):
                return scale * jnp.sum(w * x)
            def unused(w):
                return w
            return loss

        @jax.jit
        def step(w, x):
            loss_fn = make_loss(2.0)
            return loss_fn(w, x)
        """
    )
    loss = p.fn("loss")
    assert loss is not None and loss.staging
    assert p.level_of("w * x") is T
    assert p.fn("unused") is None
    assert p.fn("make_loss") is not None  # called from traced code, as before


def test_a_factory_call_in_host_code_traces_nothing() -> None:
    p = Probe(
        """
        import jax.numpy as jnp

        def make_loss(scale):
            def loss(w, x):
                return scale * jnp.sum(w * x)
            return loss

        loss_fn = make_loss(2.0)
        print(loss_fn(jnp.ones(2), jnp.ones(2)))
        """
    )
    assert p.fn("loss") is None


@pytest.mark.parametrize(
    ("assignment", "dim_level"),
    [
        ("padded, dim = jnp.pad(up, 1), up.shape[1]", S),
        ("dim, padded = up[0, 0], up.shape[1]", T),
        ("[padded, dim] = [jnp.pad(up, 1), up.shape[1]]", S),
    ],
)
def test_a_tuple_assignment_pairs_names_and_elements_by_position(
    assignment: str, dim_level: Level
) -> None:
    """``Ma, dim = _pad(up), up.shape[1]`` binds ``dim`` to the static shape alone, not to
    the whole display (jaxfmm's ``block_m2l``, fresh-2026-12r: two JAX203 false alarms on
    ``.reshape(-1, dim)``)."""
    p = Probe(
        f"""
        import jax
        import jax.numpy as jnp

        @jax.jit
        def sweep(up):
            {assignment}
            return padded.reshape(-1, dim)
        """
    )
    assert p.level_of("dim", 1) is dim_level  # in ``reshape``


@pytest.mark.parametrize(
    ("read", "level"),
    [
        ('hierarchy["mem_limit"]', S),
        ('hierarchy.get("mem_limit")', S),
        ('hierarchy.pop("mem_limit", None)', S),
        ('hierarchy["pts"]', T),
        ('other["mem_limit"]', T),
    ],
)
def test_a_static_argname_given_through_kwargs_is_static(read: str, level: Level) -> None:
    """``static_argnames=["mem_limit"]`` on a function that takes ``mem_limit`` through
    ``**hierarchy``: JAX treats the keyword as static (checked on JAX 0.12), so
    ``hierarchy["mem_limit"]`` is the caller's Python value (jaxfmm's ``eval_strayfield``,
    fresh-2026-12r: three false alarms); other keys, and other dicts, stay traced."""
    p = Probe(
        f"""
        from functools import partial
        import jax
        import numpy as np

        @partial(jax.jit, static_argnames=["mem_limit"])
        def evaluate(m, other, **hierarchy):
            value = {read}
            return m * value
        """
    )
    assert p.level_of(read) is level


@pytest.mark.parametrize(
    ("between", "second_test", "level"),
    [
        ("", "MODE == 0", S),
        ("", "not MODE == 1 and MODE == 0", T),  # another test: nothing known
        ("se = se + t", "MODE == 0", T),  # bound again since the first ``if``
        ("MODE = t", "MODE == 0", T),  # the test's own name bound again
        ("", "mode_of(MODE) == 0", T),  # a call may answer differently
    ],
)
def test_a_second_if_on_the_same_test_takes_the_branch_the_first_took(
    between: str, second_test: str, level: Level
) -> None:
    """``if acclim_type == 0: vcmaxse = <constant> else: vcmaxse = <traced>``, then later
    ``if acclim_type == 0: math.exp(... vcmaxse ...)``: the second ``if`` runs its body
    only where the first ran its own, so there ``vcmaxse`` is the constant (clm-ml-jax,
    fresh-2026-12q)."""
    p = Probe(
        f"""
        import math
        import jax
        import jax.numpy as jnp

        @jax.jit
        def rate(t, MODE=0):
            if MODE == 0:
                se = 1.5
            elif MODE == 1:
                se = t * 2.0
            else:
                se = 0.0
            {between or "pass"}
            if {second_test}:
                c = math.exp(se)
            else:
                c = jnp.exp(se)
            return c
        """
    )
    before = 3 + (2 if between.startswith("se") else 0)  # the ``se`` before ``math.exp(se)``
    assert p.level_of("se", before) is level


@pytest.mark.parametrize(
    ("guard", "level"),
    [
        ("if is_traced and blocks:\n                return traced_normalized(blocks)", M),
        (
            "if isinstance(blocks[0], jax.core.Tracer):\n                return traced_normalized(blocks)",
            M,
        ),
        ("if not is_traced:\n                return sorted(blocks)", T),  # host path returns first
        (
            "if len(blocks) > 3:\n                return traced_normalized(blocks)",
            T,
        ),  # no tracer test
    ],
)
def test_code_after_a_tracer_test_that_returns_does_not_run_traced(
    guard: str, level: Level
) -> None:
    """``is_traced = any(isinstance(b, jax.core.Tracer) for b in blocks)``, then ``if
    is_traced and blocks: return traced_variant(...)``: under a trace the rest of the
    function never runs, only on concrete arrays (tenax-tn's ``_truncated_svd_symmetric``,
    fresh-2026-12s: a JAX201 false alarm on ``if jnp.sum(s_final) > 0``)."""
    p = Probe(
        f"""
        import jax
        import jax.numpy as jnp

        def normalized(blocks):
            is_traced = any(isinstance(b, jax.core.Tracer) for b in blocks)
            {guard}
            s = jnp.array([b.sum() for b in blocks])
            if jnp.sum(s) > 0:
                s = s / jnp.sum(s)
            return s

        def traced_normalized(blocks):
            return jnp.stack([b.sum() for b in blocks])

        @jax.jit
        def step(blocks):
            return normalized(blocks)
        """
    )
    assert p.level_of("jnp.sum(s) > 0") is level


def test_dict_entries_keep_their_own_values() -> None:
    """A dict display with string keys keeps each entry's value: reading an entry by its
    key gives that entry (static settings stay static beside traced weights); setting an
    entry replaces it; a computed key or ``update`` forgets the keys; at a join with a
    parameter, an entry is at most maybe traced; passed whole to a helper, a dict that
    mixes traced and static entries makes the parameter maybe traced."""
    p = Probe(
        """
        import jax

        def _helper(q):
            return q

        def _whole(q):
            return q

        @jax.jit
        def f(x, params, key):
            p = {"w": x * 2.0, "steps": 3}
            a = p["steps"]
            b = p.get("steps", 1)
            c = p["w"]
            p["steps"] = x
            d = p["steps"]
            e = p.get("other", 0)
            r = {"n": 2, "v": x}
            r[key] = 1
            g = r["n"]
            s = {"n": 2, "v": x}
            s.update(params)
            h = s["n"]
            t = {"n": 2} if key else params
            i = t["n"]
            j = _whole(s)
            k = _helper({"n": 2, "v": x})
            return a
        """
    )
    assert p.level_of('p["steps"]') is S
    assert p.level_of('p.get("steps", 1)') is S
    assert p.level_of('p["w"]') is T
    assert p.level_of('p["steps"]', 2) is T  # after ``p["steps"] = x``
    # no such entry: a method of a dict not known to be one array, maybe (as before)
    assert p.level_of('p.get("other", 0)') is M
    assert p.level_of('r["n"]') is T  # a computed key was set: keys forgotten
    assert p.level_of('s["n"]') is T  # ``update``: keys forgotten
    assert p.level_of('t["n"]') is M  # a parameter's entry: maybe
    assert p.fn("_helper").param_levels["q"] is M  # a mixed dict passed whole
    assert p.fn("_whole").param_levels["q"] is T  # a dict whose keys are forgotten


def test_a_string_every_traced_call_passes_on_decides_the_branch() -> None:
    """A string parameter every traced call gives the same value (a literal, a literal
    default, or the caller's own parameter of known value: ``backend=backend``) decides
    ``backend == "cpu"``, ``!=``, ``in (...)`` and ``and``/``or`` of them: a helper called
    only in the branch that never runs is not traced (normix's ``_cpu_solve``)."""
    p = Probe(
        """
        import jax
        import numpy as np

        @jax.jit
        def fit(x):
            return solve(x, method="bfgs")

        def solve(x, backend: str = "jax", method: str = "newton"):
            if backend != "jax" or method == "bfgs":
                return _each(x, backend)
            return x

        def _each(x, backend):
            return _solve(x, backend=backend)

        def _solve(x, *, backend):
            if backend == "jax":
                return x * 2
            elif backend in ("cpu", "numpy"):
                return _cpu(x)
            return x

        def _cpu(host):
            return np.asarray(host)
        """
    )
    assert p.level_of("host") is not T
    assert p.level_of("x * 2") is T


def test_a_name_that_may_hold_none_says_nothing_of_an_optional_parameter() -> None:
    """``grid_h = None`` then ``if shape is not None: grid_h = ...`` and the call
    ``dims(x, grid_h)``: the parameter may be ``None``, so ``if grid_h is not None and ...:
    return`` does not decide what follows (ptyrodactyl's ``_compute_grid_dimensions``,
    whose ``int(width)`` of a traced width is a real error there)."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        def _dims(x, grid_h=None, grid_w=None):
            if grid_h is not None and grid_w is not None:
                return grid_h, grid_w
            w = jnp.ceil(jnp.max(x)).astype(jnp.int32)
            return int(w), int(w)

        @jax.jit
        def run(x, shape=None):
            grid_h = None
            grid_w = None
            if shape is not None:
                grid_h, grid_w = shape
            return _dims(x, grid_h, grid_w)
        """
    )
    assert p.level_of("w", 1) is T  # ``int(w)`` runs traced


def test_a_chain_of_helpers_defined_before_their_callers_is_walked_to_its_end() -> None:
    """Each round walks the functions in the file's order, so a chain of helpers defined
    above their callers gains one level a round: the fifth function of
    ``fit -> solve -> _retry -> _solve -> _cpu`` had no traced values with four rounds."""
    p = Probe(
        """
        import jax
        import numpy as np

        def _cpu(deep):
            return np.asarray(deep)

        def _solve(x):
            return _cpu(x)

        def _retry(x):
            return _solve(x)

        def _again(x):
            return _retry(x)

        def solve(x):
            return _again(x)

        @jax.jit
        def fit(x):
            return solve(x)
        """
    )
    assert p.level_of("deep") is T


def test_a_tuple_of_traced_and_static_elements_passed_whole() -> None:
    """A tuple display that mixes traced and static elements keeps them by position:
    unpacked by name it gives each its own level, and passed whole to a helper it makes
    the parameter only maybe traced (ptyrodactyl's ``grid_params``); a traced array
    unpacked where a path gives a non-display stays traced."""
    p = Probe(
        """
        import jax
        import jax.numpy as jnp

        def _slices(x, grid):
            lo, n = grid
            return jnp.zeros((n,)) + lo

        @jax.jit
        def run(x):
            t = (x.min(), 3)
            low, count = t
            return _slices(x, (x.min(), 4)), low, count
        """
    )
    assert p.level_of("count", 1) is S
    assert p.level_of("low", 1) is T
    assert p.fn("_slices").param_levels["grid"] is M


def test_may_be_none_reads_assignments_and_parameter_defaults() -> None:
    """A name may hold ``None`` where an assignment in its scope gives ``None`` or where it
    is a parameter defaulting to ``None``; not a required parameter, another default or a
    name assigned something else."""
    from jaxlint.analysis.decided import may_be_none

    module = cst.parse_module(
        textwrap.dedent(
            """
            def f(a, g=None, h=3, *, kw=None, r: int | None = None):
                k = None
                q = 2
                return use(a, g, h, k, q, kw, r)
            """
        )
    )
    model = SemanticModel(module)
    call = next(n for n, entering in model.events if entering and isinstance(n, cst.Call))
    found = {a.value.value: may_be_none(model, a.value) for a in call.args}  # type: ignore[attr-defined]
    assert found == {
        "a": False,
        "g": True,
        "h": False,
        "k": True,
        "q": False,
        "kw": True,
        "r": True,
    }
