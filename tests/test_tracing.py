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
        "@jax.custom_jvp",
        "@jax.custom_vjp",
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
        "custom": False,
        "body": True,
    }


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
