"""The key analysis: which values are PRNG keys, where each is consumed, which are reused.

The consumption table is checked against JAX itself: each case runs under
``jax_debug_key_reuse`` and must raise ``KeyReuseError`` exactly when the analysis
reports a reuse.
"""

from __future__ import annotations

import importlib.util
import json
import textwrap

import libcst as cst
import pytest
from jax_support import run_result
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.analysis.keys import CALL, LOCAL, RANDOM, KeyAnalysis, is_key_name
from jaxlint.analysis.names import SemanticModel


class Probe:
    def __init__(self, code: str) -> None:
        self.code = textwrap.dedent(code)
        self.module = cst.parse_module(self.code)
        self.model = SemanticModel(self.module)
        pos = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        self.pos = pos
        self.keys = KeyAnalysis(self.model, lambda n: pos[n].start.line)

    def line(self, node: cst.CSTNode) -> int:
        return self.pos[node].start.line

    def reuses(self, definite_only: bool = True) -> list[tuple[str, int, int]]:
        """``(how, line of the first use, line of the second use)``."""
        return [
            (r.how, self.line(r.first.arg), self.line(r.second.arg))
            for r in self.keys.reuses
            if r.definite or not definite_only
        ]

    def expr(self, source: str, occurrence: int = 0) -> cst.CSTNode:
        seen = 0
        for node, entering in self.model.events:
            if entering and isinstance(node, cst.BaseExpression):
                if self.module.code_for_node(node) == source:
                    if seen == occurrence:
                        return node
                    seen += 1
        raise AssertionError(source)


# -- JAX's consumption table, checked at run time ----------------------------------------------

# (name, what the function does to `k`, does JAX consume it)
TABLE = [
    ("normal", "jax.random.normal(k, (2,))", True),
    ("uniform", "jax.random.uniform(k)", True),
    ("bits", "jax.random.bits(k)", True),
    ("split", "jax.random.split(k)", True),
    ("permutation", "jax.random.permutation(k, 3)", True),
    ("gamma", "jax.random.gamma(k, 1.0)", True),
    ("fold_in", "jax.random.fold_in(k, 1)", False),
    ("clone", "jax.random.clone(k)", False),
    ("key_data", "jax.random.key_data(k)", False),
    ("key_impl", "jax.random.key_impl(k)", False),
    ("eq", "k == k", False),
    ("shape", "k.shape", False),
    ("helper_samples", "helper_samples(k)", True),
    ("helper_folds", "helper_folds(k)", False),
    ("helper_returns", "helper_returns(k)", False),
    ("jitted_samples", "jax.jit(helper_samples)(k)", True),
    # ahead-of-time tracing runs nothing (fdtdx's ``jax.jit(sim_fn).lower(..., key)``)
    ("jitted_lower", "jax.jit(helper_samples).lower(k).compile()", False),
    ("jitted_trace", "jax.jit(helper_samples).trace(k)", False),
    ("jitted_eval_shape", "jax.jit(helper_samples).eval_shape(k)", False),
]

HELPERS = """
def helper_samples(key):
    return jax.random.normal(key)

def helper_folds(key):
    return jax.random.normal(jax.random.fold_in(key, 3))

def helper_returns(key):
    return key
"""


def _program(use: str) -> str:
    return f"import jax\n{HELPERS}\n\ndef case():\n    k = jax.random.key(0)\n    {use}\n    return jax.random.normal(k)\n\n\ncase()\n"


RUNNER = textwrap.dedent(
    """
    import json, sys
    import jax
    jax.config.update("jax_debug_key_reuse", True)
    out = {}
    for name, src in json.loads(sys.stdin.read()).items():
        try:
            exec(compile(src, name, "exec"), {"__name__": "__main__"})
            out[name] = "ok"
        except Exception as exc:
            out[name] = type(exc).__name__
    print("RESULTS " + json.dumps(out))
    """
)


def _run_under_checker(programs: dict[str, str]) -> dict[str, str]:
    return run_result(RUNNER, "RESULTS ", stdin=json.dumps(programs))


@pytest.mark.parametrize(("name", "use", "consumes"), TABLE, ids=[t[0] for t in TABLE])
def test_consumption_table(name: str, use: str, consumes: bool) -> None:
    probe = Probe(_program(use))
    assert bool(probe.reuses()) is consumes, probe.reuses(False)


def test_consumption_table_matches_jax() -> None:
    pytest.importorskip("jax")
    results = _run_under_checker({name: _program(use) for name, use, _ in TABLE})
    for name, _, consumes in TABLE:
        assert results[name] == ("KeyReuseError" if consumes else "ok"), name


# Flow cases: code, expected reuses as (how, first line, second line). Every case is a
# complete program, also run under JAX's checker (raw PRNGKey is not checked by JAX).
FLOW = {
    "straight": (
        """
        import jax
        def f(key):
            a = jax.random.normal(key)
            b = jax.random.uniform(key)
        f(jax.random.key(0))
        """,
        [("again", 4, 5)],
    ),
    "if_else_arms": (
        """
        import jax
        def f(key, c):
            if c:
                a = jax.random.normal(key)
            else:
                a = jax.random.uniform(key)
            return a
        f(jax.random.key(0), True)
        f(jax.random.key(0), False)
        """,
        [],
    ),
    "if_then_after": (
        """
        import jax
        def f(key, c):
            if c:
                a = jax.random.normal(key)
            return jax.random.uniform(key)
        f(jax.random.key(0), True)
        """,
        [("again", 5, 6)],
    ),
    "elif_chain": (
        """
        import jax
        def f(key, mode):
            if mode == 0:
                a = jax.random.normal(key)
            elif mode == 1:
                a = jax.random.uniform(key)
            else:
                a = jax.random.bernoulli(key)
            return a
        f(jax.random.key(0), 1)
        """,
        [],
    ),
    "exclusive_ifs": (
        """
        import jax
        def f(key, mode):
            a = None
            if mode == 0:
                a = jax.random.normal(key)
            if mode == 1:
                a = jax.random.uniform(key)
            return a
        f(jax.random.key(0), 1)
        """,
        [],
    ),
    "early_return": (
        """
        import jax
        def f(key, c):
            if c:
                return jax.random.normal(key)
            return jax.random.uniform(key)
        f(jax.random.key(0), True)
        """,
        [],
    ),
    "loop_no_rebind": (
        """
        import jax
        def f(key):
            out = []
            for i in range(3):
                out.append(jax.random.normal(key))
            return out
        f(jax.random.key(0))
        """,
        [("loop", 6, 6)],
    ),
    "loop_rebind": (
        """
        import jax
        def f(key):
            out = []
            for i in range(3):
                key, sub = jax.random.split(key)
                out.append(jax.random.normal(sub))
            return jax.random.normal(key), out
        f(jax.random.key(0))
        """,
        [],
    ),
    "loop_break": (
        """
        import jax
        def f(key, xs):
            for x in xs:
                y = jax.random.normal(key) * x
                break
            return xs
        f(jax.random.key(0), [1.0, 2.0])
        """,
        [],
    ),
    "loop_once": (
        """
        import jax
        def f(key):
            for i in range(1):
                y = jax.random.normal(key)
            return y
        f(jax.random.key(0))
        """,
        [],
    ),
    "loop_then_after": (
        """
        import jax
        def f(key, xs):
            for x in xs:
                if x > 5:
                    y = jax.random.normal(key)
            return jax.random.uniform(key)
        f(jax.random.key(0), [1.0, 10.0])
        """,
        [("again", 6, 7)],
    ),
    "while_loop": (
        """
        import jax
        def f(key):
            n = 0
            while n < 3:
                y = jax.random.normal(key)
                n += 1
        f(jax.random.key(0))
        """,
        [("loop", 6, 6)],
    ),
    "comprehension": (
        """
        import jax
        def f(key, shapes):
            return [jax.random.normal(key, s) for s in shapes]
        f(jax.random.key(0), [(1,), (2,)])
        """,
        [("comprehension", 4, 4)],
    ),
    "comprehension_over_keys": (
        """
        import jax
        def f(key):
            return [jax.random.normal(k) for k in jax.random.split(key, 3)]
        f(jax.random.key(0))
        """,
        [],
    ),
    "split_elements": (
        """
        import jax
        def f(key):
            keys = jax.random.split(key, 3)
            k1, k2, k3 = jax.random.split(keys[2], 3)
            return jax.random.normal(keys[0]), jax.random.normal(keys[1]), jax.random.normal(k1)
        f(jax.random.key(0))
        """,
        [],
    ),
    "split_element_twice": (
        """
        import jax
        def f(key):
            keys = jax.random.split(key, 3)
            return jax.random.normal(keys[0]), jax.random.normal(keys[0])
        f(jax.random.key(0))
        """,
        [("again", 5, 5)],
    ),
    "split_then_reuse": (
        """
        import jax
        def f(key):
            k1, k2 = jax.random.split(key)
            return jax.random.normal(key)
        f(jax.random.key(0))
        """,
        [("again", 4, 5)],
    ),
    "scan_closure": (
        """
        import jax
        def f(key):
            def body(c, x):
                return c + jax.random.normal(key), None
            return jax.lax.scan(body, 0.0, None, length=3)
        f(jax.random.key(0))
        """,
        [("body", 5, 5)],
    ),
    "scan_carry": (
        """
        import jax
        def f(key):
            def body(k, x):
                k, sub = jax.random.split(k)
                return k, jax.random.normal(sub)
            key, ys = jax.lax.scan(body, key, None, length=3)
            return jax.random.normal(key), ys
        f(jax.random.key(0))
        """,
        [],
    ),
    "fori_fold_in": (
        """
        import jax
        def f(key):
            return jax.lax.fori_loop(
                0, 3, lambda i, c: c + jax.random.normal(jax.random.fold_in(key, i)), 0.0
            )
        f(jax.random.key(0))
        """,
        [],
    ),
    "while_closure": (
        """
        import jax
        def f(key):
            def body(c):
                return c[0] + 1, c[1] + jax.random.normal(key)
            return jax.lax.while_loop(lambda c: c[0] < 3, body, (0, 0.0))
        f(jax.random.key(0))
        """,
        [("body", 5, 5)],
    ),
    "lax_map_closure": (
        """
        import jax
        import jax.numpy as jnp
        def f(key):
            return jax.lax.map(lambda x: x + jax.random.normal(key), jnp.arange(3.0))
        f(jax.random.key(0))
        """,
        [("body", 5, 5)],
    ),
    "cond_then_reuse": (
        """
        import jax
        def f(key):
            x = jax.lax.cond(True, lambda: jax.random.normal(key), lambda: jax.random.uniform(key))
            return jax.random.normal(key)
        f(jax.random.key(0))
        """,
        [("again", 4, 5)],
    ),
    "closure_called_twice": (
        """
        import jax
        def f(key):
            def draw(shape):
                return jax.random.normal(key, shape)
            return draw((2,)), draw((3,))
        f(jax.random.key(0))
        """,
        [("again", 6, 6)],
    ),
    "method_summary": (
        """
        import jax
        class Sampler:
            def draw(self, key):
                return jax.random.normal(key)
            def two(self, key):
                return self.draw(key), self.draw(key)
        Sampler().two(jax.random.key(0))
        """,
        [("again", 7, 7)],
    ),
    "static_method_through_self": (
        # a ``@staticmethod`` gets no ``self``: ``key`` is its first parameter
        """
        import jax
        class Sampler:
            @staticmethod
            def noise(key, shape):
                return jax.random.normal(key, shape)
            def two(self, key):
                return self.noise(key, (2,)), self.noise(key, (2,))
        Sampler().two(jax.random.key(0))
        """,
        [("again", 8, 8)],
    ),
    "static_method_through_class": (
        # ``Cls.noise(key, ...)``: a ``@staticmethod`` called through its class (dopamine's
        # ``NoisyNetwork.sample_noise(rng_key, ...)`` twice)
        """
        import jax
        class Sampler:
            @staticmethod
            def noise(key, shape):
                return jax.random.normal(key, shape)
            def two(self, key):
                return Sampler.noise(key, (2,)), Sampler.noise(key, (2,))
        Sampler().two(jax.random.key(0))
        """,
        [("again", 8, 8)],
    ),
    "tree_map_closure": (
        """
        import jax
        import jax.numpy as jnp
        def f(key, params):
            return jax.tree.map(lambda p: p + jax.random.normal(key, p.shape), params)
        f(jax.random.key(0), {"a": jnp.ones(2), "b": jnp.ones(3)})
        """,
        [("mapped", 5, 5)],
    ),
    "tree_map_alias_named_lambda": (
        """
        import jax
        import jax.numpy as jnp
        from jax import tree_util
        def f(key, params):
            noise = lambda p: p + jax.random.normal(key, p.shape)
            tree_map = tree_util.tree_map
            return tree_map(noise, params)
        f(jax.random.key(0), {"a": jnp.ones(2), "b": jnp.ones(3)})
        """,
        [("mapped", 8, 8)],
    ),
    "loop_through_forwarding_function": (
        # flax 64a7cb54: `train_step` hands the key, unchanged, to `model` (which draws)
        # through a nested loss function under `value_and_grad`, every iteration
        """
        import jax
        def train_step(model, state, rng):
            def loss_fn(p):
                return model(rng, p).sum()
            grad_fn = jax.value_and_grad(loss_fn)
            loss, g = grad_fn(state)
            return state - g
        def train(model, state):
            init_rng, rng = jax.random.split(jax.random.key(0))
            for step in range(3):
                state = train_step(model, state, rng)
            return state
        train(lambda k, p: p * jax.random.normal(k, p.shape), jax.numpy.ones(2))
        """,
        [("loop", 12, 12)],
    ),
    "loop_through_forwarding_function_split_each": (
        """
        import jax
        def train_step(model, state, rng):
            return model(rng, state)
        def train(model, state):
            rng = jax.random.key(0)
            for step in range(3):
                rng, sub = jax.random.split(rng)
                state = train_step(model, state, sub)
            return state
        train(lambda k, p: p * jax.random.normal(k, p.shape), jax.numpy.ones(2))
        """,
        [],
    ),
    "loop_through_function_folding_in_the_step": (
        """
        import jax
        def train_step(model, state, rng, step):
            return model(jax.random.fold_in(rng, step), state)
        def train(model, state):
            init_rng, rng = jax.random.split(jax.random.key(0))
            for step in range(3):
                state = train_step(model, state, rng, step)
            return state
        train(lambda k, p: p * jax.random.normal(k, p.shape), jax.numpy.ones(2))
        """,
        [],
    ),
    "try_except": (
        """
        import jax
        def f(key):
            try:
                x = jax.random.normal(key)
            except ValueError:
                x = jax.random.uniform(key)
            return x
        f(jax.random.key(0))
        """,
        [],
    ),
    "module_level": (
        """
        import jax
        key = jax.random.key(0)
        a = jax.random.normal(key)
        b = jax.random.normal(key)
        """,
        [("again", 4, 5)],
    ),
    "boolean_short_circuit": (
        """
        import jax
        def f(key, c):
            x = c and jax.random.normal(key)
            return x
        f(jax.random.key(0), True)
        """,
        [],
    ),
    "closures_draw_other_elements_of_a_split": (
        # kinetix: each ``cond`` branch closes over another element of one split array
        """
        import jax
        def f(key):
            rngs = jax.random.split(key, 8)
            a = jax.lax.cond(True, lambda: jax.random.normal(rngs[3]), lambda: 0.0)
            b = jax.lax.cond(True, lambda: jax.random.normal(rngs[4]), lambda: 0.0)
            return a, b
        f(jax.random.key(0))
        """,
        [],
    ),
    "closures_draw_the_same_element_of_a_split": (
        """
        import jax
        def f(key):
            rngs = jax.random.split(key, 8)
            a = jax.lax.cond(True, lambda: jax.random.normal(rngs[3]), lambda: 0.0)
            b = jax.lax.cond(True, lambda: jax.random.normal(rngs[3]), lambda: 0.0)
            return a, b
        f(jax.random.key(0))
        """,
        [("again", 5, 6)],
    ),
    "ifexp_arms": (
        """
        import jax
        def f(key, c):
            return jax.random.normal(key) if c else jax.random.uniform(key)
        f(jax.random.key(0), True)
        """,
        [],
    ),
    "split_keys_unread_on_a_branch": (
        """
        import jax
        def f(key, c):
            k1, k2 = jax.random.split(key)
            if c:
                return jax.random.normal(key)
            return jax.random.normal(k1)
        f(jax.random.key(0), True)
        """,
        [("again", 4, 6)],
    ),
}


# A reuse after a split whose keys no path through it reads: ``Reuse.split_unused``
# (still a reuse by JAX's rules, above; JAX301 reports it only with the checker on).
SPLIT_READ = {
    "never_read": (
        """
        import jax
        def f(key):
            k1, k2 = jax.random.split(key)
            return jax.random.normal(key)
        """,
        True,
    ),
    "read_before": (
        """
        import jax
        def f(key):
            k1, k2 = jax.random.split(key)
            a = jax.random.normal(k1)
            return a + jax.random.normal(key)
        """,
        False,
    ),
    "read_after": (
        """
        import jax
        def f(key):
            k1, k2 = jax.random.split(key)
            a = jax.random.normal(key)
            return a, k2
        """,
        False,
    ),
    "read_on_another_branch_only": (
        """
        import jax
        def f(key, c):
            keys = jax.random.split(key)
            if c:
                return jax.random.normal(key)
            return jax.random.normal(keys[0])
        """,
        True,
    ),
    "read_on_one_branch_before_the_join": (
        """
        import jax
        def f(key, c):
            k1, k2 = jax.random.split(key)
            a = 0.0
            if c:
                a = jax.random.normal(k2)
            return a + jax.random.normal(key)
        """,
        False,
    ),
    "read_on_one_branch_after": (
        """
        import jax
        def f(key, c):
            k1, k2 = jax.random.split(key)
            a = jax.random.normal(key)
            if c:
                a = a + jax.random.normal(k1)
            return a
        """,
        False,
    ),
    "merged_at_a_join": (
        """
        import jax
        def f(key, c):
            if c:
                k = jax.random.split(key, 4)
            else:
                k = None
            return jax.random.normal(key), k
        """,
        False,
    ),
    "stored_on_an_attribute": (
        """
        import jax
        def f(self, key):
            self.k1, self.k2 = jax.random.split(key)
            return jax.random.normal(key)
        """,
        False,
    ),
}


@pytest.mark.parametrize("name", list(SPLIT_READ))
def test_split_keys_read(name: str) -> None:
    code, unused = SPLIT_READ[name]
    found = Probe(code).keys.reuses
    assert [r.split_unused for r in found] == [unused], name


@pytest.mark.parametrize("name", list(FLOW))
def test_flow(name: str) -> None:
    code, expected = FLOW[name]
    assert Probe(code).reuses() == expected


def test_flow_cases_match_jax() -> None:
    pytest.importorskip("jax")
    results = _run_under_checker({n: textwrap.dedent(c) for n, (c, _) in FLOW.items()})
    for name, (_, expected) in FLOW.items():
        assert results[name] == ("KeyReuseError" if expected else "ok"), name


# -- what is a key -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["key", "rng", "prng_key", "rng_key", "dropout_rng", "subkey", "key2", "init_key"]
)
def test_key_like_names(name: str) -> None:
    assert is_key_name(name)


@pytest.mark.parametrize("name", ["keys", "rngs", "monkey", "keyword", "x", "dict_keys"])
def test_not_key_like_names(name: str) -> None:
    assert not is_key_name(name)


def test_parameter_evidence() -> None:
    p = Probe(
        """
        import jax
        from jaxtyping import PRNGKeyArray

        def used(key, x):
            return jax.random.normal(key), model(key)

        def annotated(key: PRNGKeyArray, x):
            return model(key)

        def array_named(rng: jax.Array, x):
            return model(rng)

        def unknown(rng, x):
            return model(rng)
        """
    )
    assert p.keys.is_key(p.expr("key", 1))  # `jax.random.normal(key)`
    assert p.keys.is_key(p.expr("key", 4))  # `model(key)` in `annotated`
    assert p.keys.is_key(p.expr("rng", 1))  # `model(rng)` in `array_named`
    assert not p.keys.is_key(p.expr("rng", 3))  # a parameter named `rng`: maybe NumPy


def test_fresh_key_sources() -> None:
    p = Probe(
        """
        import jax
        import haiku as hk
        from flax import nnx

        class M:
            def __call__(self, x):
                a = jax.random.normal(self.make_rng("dropout"))
                b = jax.random.normal(self.make_rng("dropout"))

        def f(rngs: nnx.Rngs):
            return jax.random.normal(rngs.params()), jax.random.normal(rngs.params())

        def g():
            rngs = nnx.Rngs(0)
            return jax.random.normal(rngs()), jax.random.normal(rngs())

        def h():
            k = hk.next_rng_key()
            return jax.random.normal(k), jax.random.normal(k)
        """
    )
    assert p.reuses() == [("again", 20, 20)]
    assert p.keys.is_key(p.expr('self.make_rng("dropout")'))
    assert p.keys.is_key(p.expr("rngs.params()"))


def test_rngs_sampling_methods_return_arrays() -> None:
    # flax nnx: `rngs.normal(shape)` draws an array from a fresh key (flax
    # docs_nnx/guides/flax_gspmd.ipynb hands such an input to `train_step` every step)
    p = Probe(
        """
        import jax
        from flax import nnx

        def train_step(model, x):
            return model(x)

        def train(model):
            rngs = nnx.Rngs(0)
            x = rngs.normal((8, 4))
            init = rngs.lecun_normal()
            for i in range(5):
                train_step(model, x)
            return init, rngs.params()
        """
    )
    assert p.reuses(definite_only=False) == []
    assert not p.keys.is_key(p.expr("rngs.normal((8, 4))"))
    assert not p.keys.is_key(p.expr("rngs.lecun_normal()"))
    assert p.keys.is_key(p.expr("rngs.params()"))


def test_unknown_calls_are_possible_consumptions() -> None:
    p = Probe(
        """
        import jax

        def two_unknown(key, x):
            k = jax.random.key(0)
            a = model.sample(k, x)
            return model.apply(a, x, rngs={"dropout": k})

        def unknown_then_sampler(x):
            k = jax.random.key(0)
            a = sample_noise(k, x)
            return jax.random.normal(k)

        def predicate(key):
            assert is_prng_key(key)
            return jax.random.normal(key)
        """
    )
    found = [(r.how, r.first.kind, r.second.kind, r.definite) for r in p.keys.reuses]
    assert found == [("again", CALL, CALL, False), ("again", CALL, RANDOM, True)]


def test_init_of_another_package_is_weak_when_a_draw_flows_in() -> None:
    # `y = normal(key, ...); model.init(key, y)` of a module this file imports: it may
    # split the key (Haiku, blackjax) or only fold it in (Flax), and the draw is its
    # example input: recorded, never the first use of a reuse, and a reuse it is part
    # of is not definite. Given only the key (`foreign`), it is a use like any call.
    p = Probe(
        """
        import jax
        from somewhere import Model

        class Local:
            def init(self, key):
                return jax.random.normal(key)

        def foreign(key, x):
            params = Model().init(key, x)
            a = jax.random.normal(key, x.shape)
            b = jax.random.uniform(key, x.shape)
            return params, a, b

        def data_then_init(key, x):
            y = jax.random.normal(key, x.shape)
            return Model().init(key, y)

        def local(key):
            m = Local()
            return m.init(key), jax.random.normal(key)
        """
    )
    found = [(r.first.kind, r.second.kind, r.definite) for r in p.keys.reuses]
    assert found == [
        (CALL, RANDOM, True),
        (RANDOM, RANDOM, True),
        (RANDOM, CALL, False),
        (CALL, RANDOM, True),
    ]


def test_local_summary_kind() -> None:
    p = Probe(
        """
        import jax

        def draw(k):
            return jax.random.normal(k)

        def f(key):
            return draw(key), jax.random.uniform(key)
        """
    )
    (reuse,) = p.keys.reuses
    assert (reuse.first.kind, reuse.second.kind) == (LOCAL, RANDOM)
    assert reuse.first.by == "draw"


def test_global_key_consumed_in_function() -> None:
    p = Probe(
        """
        import jax
        KEY = jax.random.key(0)

        def init(shape):
            return jax.random.normal(KEY, shape)

        def advance():
            global KEY
            KEY, sub = jax.random.split(KEY)
            return sub

        def folded(i):
            return jax.random.normal(jax.random.fold_in(KEY, i))
        """
    )
    found = [(p.line(use.arg), val.name) for use, val, _ in p.keys.global_uses]
    assert found == [(6, "KEY")]


def test_raw_uses_of_legacy_keys() -> None:
    p = Probe(
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        def f(seed):
            key = jax.random.PRNGKey(seed)
            keys = jax.random.split(key, 4)
            a = keys[:, 0]
            b = keys[1]
            c = jax.random.fold_in(key, 3) ^ 1
            d = np.asarray(key)
            e = key.astype(jnp.float32)
            if key.dtype == jnp.uint32:
                pass
            ok = jnp.stack([key, key]), keys.shape[0], jax.random.normal(key)
            return key[0]

        def g():
            return jax.random.normal(jax.random.PRNGKey(0))
        """
    )
    makers = [
        n
        for n, entering in p.model.events
        if entering and isinstance(n, cst.Call) and p.model.call_name(n) == "jax.random.PRNGKey"
    ]
    lines = [p.line(u.node) for u in p.keys.raw_uses(makers[0])]
    assert lines == [9, 11, 12, 13, 14, 17]
    assert p.keys.raw_uses(makers[1]) == []


def test_loop_bodies() -> None:
    p = Probe(
        """
        import jax
        from jax import lax

        def body(i, c):
            return c

        def f(x):
            lax.fori_loop(0, 3, body, x)
            lax.scan(lambda c, x: (c, x), x, None, length=2)
        """
    )
    fns = [n for n, entering in p.model.events if entering and isinstance(n, cst.FunctionDef)]
    got = p.keys.loop_body_of(fns[0])
    assert got is not None and got[0] == "jax.lax.fori_loop"
    assert p.keys.loop_body_of(fns[1]) is None


def test_deliberate_departures_from_the_checker() -> None:
    p = Probe(
        """
        import collections
        import jax
        import flax.linen as nn

        Pair = collections.namedtuple("Pair", ["x", "key"])

        def shuffle(key, batch):
            return jax.tree.map(lambda x: jax.random.permutation(key, x), batch)

        def init(key, x):
            y = jax.random.normal(key, x.shape)
            params = nn.Dense(3).init(key, y)
            return nn.Dense(3).apply(params, y, rngs={"dropout": key})

        def step(key):
            assert is_prng_key(key)
            self.assertTrue(valid(key))
            copied = test_utils.clone(key)
            k1, k2 = jax.random.split(key)
            return Pair(jax.random.normal(k1), k2)
        """
    )
    assert p.reuses(definite_only=False) == []


SPLIT_THEN_INDEX = """
import jax

def other_indices(key):
    return jax.random.normal(jax.random.split(key, 4)[0]), jax.random.normal(jax.random.split(key, 4)[1])

def same_index(key):
    return jax.random.normal(jax.random.split(key)[0]), jax.random.normal(jax.random.split(key, 3)[0])

def by_run(key, n):
    return [jax.random.normal(jax.random.split(key, n)[run]) for run in range(n)]

def by_run_loop(key, n):
    out = []
    for run in range(n):
        out.append(jax.random.normal(jax.random.split(key, n)[run]))
    return out

def same_each_run(key, n):
    out = []
    for run in range(n):
        out.append(jax.random.normal(jax.random.split(key, n)[0]))
    return out

def permuted_then_split(key, x):
    x = jax.random.permutation(key, x)
    return x, jax.random.split(key)[0]
"""


def test_split_then_index_takes_one_key_of_the_split() -> None:
    """``split(key, n)[i]`` uses key ``i`` of the split only: another index is another key
    (genjax's ``split(mcmc_key, n_runs)[run]`` per run), the same index the same key
    whatever ``n``; against a draw or a whole split of ``key`` it still counts (cola-ml's
    ``permutation(key)`` then ``split(key)[0]``). JAX's checker rejects any second split of ``key``; these keys are
    distinct all the same (``test_split_then_index_keys_on_jax``)."""
    p = Probe(SPLIT_THEN_INDEX)
    lines = {(how, second) for how, _, second in p.reuses(definite_only=False)}
    # ``permutation`` splits its key itself: ``split(key)[0]`` is a key it drew with
    assert lines == {("again", 8), ("loop", 22), ("again", 27)}


def test_split_then_index_keys_on_jax() -> None:
    pytest.importorskip("jax")
    program = textwrap.dedent(
        """
        import json
        import jax
        data = lambda k: jax.random.key_data(k).tolist()
        k = jax.random.key(0)
        print("RESULT " + json.dumps({
            "same_index_any_n": data(jax.random.split(k, 1)[0]) == data(jax.random.split(k, 5)[0])
                and data(jax.random.split(k, 3)[2]) == data(jax.random.split(k, 7)[2]),
            "other_index_other_key": len({str(data(jax.random.split(k, 4)[i])) for i in range(4)}) == 4,
        }))
        """
    )
    assert run_result(program, timeout=300) == {
        "same_index_any_n": True,
        "other_index_other_key": True,
    }


def test_haiku_init_is_not_flax() -> None:
    # Haiku's `init` splits its key (a PRNGSequence): it draws from it. A draw from the
    # same key given to it as example input is the usual way to initialise (weak).
    p = Probe(
        """
        import jax
        import haiku as hk

        def f(key, x):
            y = jax.random.normal(key, x.shape)
            return hk.transform(lambda z: z).init(key, y)
        """
    )
    assert [(r.first.kind, r.second.kind, r.definite) for r in p.keys.reuses] == [
        (RANDOM, LOCAL, False)
    ]


HAIKU_SAME_KEY = """
    import haiku as hk
    import jax

    def forward(x):
        return hk.dropout(hk.next_rng_key(), 0.5, hk.Linear(4)(x))

    model = hk.transform(forward)
    stateful = hk.transform_with_state(forward)
    bare = hk.without_apply_rng(hk.transform(lambda x: hk.Linear(4)(x)))

    def same_key(x):
        rng = jax.random.key(42)
        params = model.init(rng, x)
        return model.apply(params, rng, x)

    def same_key_with_state(x):
        rng = jax.random.key(42)
        params, state = stateful.init(rng, x)
        return stateful.apply(params, state, rng, x)

    def unpacked(x):
        init, apply = hk.transform(forward)
        rng = jax.random.key(42)
        return apply(init(rng, x), rng, x)

    def split_keys(x):
        init_rng, apply_rng = jax.random.split(jax.random.key(42))
        params = model.init(init_rng, x)
        return model.apply(params, apply_rng, x)

    def no_apply_rng(x, rng):
        params = bare.init(rng, x)
        return bare.apply(params, x), jax.random.normal(rng, x.shape)

    def not_haiku(opt, x):
        rng = jax.random.key(42)
        return opt.apply(opt.init(rng), rng, x)
"""


def test_haiku_init_then_apply_with_the_same_key() -> None:
    # dm-haiku 96ecde6a: init draws the parameters from the key, apply draws its keys from
    # the same one (only a transformed function of this file; `opt` is unknown)
    p = Probe(HAIKU_SAME_KEY)
    assert p.reuses() == [
        ("again", 14, 15),
        ("again", 19, 20),
        ("again", 25, 25),
        ("again", 33, 34),  # `without_apply_rng`: its init still draws
    ]
    assert [(r.first.kind, r.second.kind) for r in p.keys.reuses if r.definite] == [
        (LOCAL, CALL),
        (LOCAL, CALL),
        (LOCAL, CALL),
        (LOCAL, RANDOM),
    ]


def test_haiku_same_key_matches_jax(tmp_path) -> None:
    """Haiku 0.0.17 on CPU JAX: the same key to init and apply raises KeyReuseError under
    `jax_debug_key_reuse`; split keys run (skipped where Haiku is not installed)."""
    pytest.importorskip("jax")
    if importlib.util.find_spec("haiku") is None:
        pytest.skip("haiku is not installed")
    module = textwrap.dedent(HAIKU_SAME_KEY)
    driver = (
        "import jax.numpy as jnp\nout = {}\n"
        "for name in ('same_key', 'same_key_with_state', 'unpacked', 'split_keys'):\n"
        "    try:\n        globals()[name](jnp.ones((2, 3)))\n        out[name] = 'ok'\n"
        "    except Exception as exc:\n        out[name] = type(exc).__name__\n"
        "print('RESULTS ' + json.dumps(out))\n"
    )
    program = 'import json\nimport jax\njax.config.update("jax_debug_key_reuse", True)\n'
    path = tmp_path / "haiku_keys.py"
    path.write_text(program + module + driver)
    assert run_result(path, "RESULTS ") == {
        "same_key": "KeyReuseError",
        "same_key_with_state": "KeyReuseError",
        "unpacked": "KeyReuseError",
        "split_keys": "ok",
    }


def _judged(code: str) -> list[tuple[int, bool, bool, str | None]]:
    p = Probe(code)
    return [
        (p.line(r.second.arg), p.keys.compared(r), p.keys.aligned(r), p.keys.draws_compared(r))
        for r in p.keys.reuses
    ]


def test_what_two_uses_are_for() -> None:
    # compared against each other, paired index draws, and how two draws relate
    found = _judged(
        """
        import jax
        import numpy as np

        def compared(key):
            a = jax.random.normal(key, (3,))
            b = np.asarray(jax.random.normal(key, (3,)))
            np.testing.assert_allclose(a, b)

        def inline(key):
            assert (jax.random.uniform(key) == jax.random.uniform(key)).all()

        def shapes_only(key):
            a = jax.random.normal(key, (3,))
            b = jax.random.normal(key, (3,))
            assert a.shape == b.shape

        def mixed(key):
            x = jax.random.uniform(key, (16, 32))
            dy = jax.random.uniform(key, (16, 64))
            np.testing.assert_allclose(f(x, dy), g(x, dy))

        def paired(key, xs, ys):
            return jax.random.choice(key, xs, (4,)), jax.random.choice(key, ys, (4,))

        def same_population(key, xs):
            return jax.random.choice(key, xs, (4,)), jax.random.choice(key, xs, (4,))

        def relations(key):
            a = jax.random.normal(key, (2, 3))
            b = jax.random.normal(key, (4, 3))
            c = jax.random.uniform(key, (4, 3))
            ks = jax.random.split(key, 4)
            k1, k2 = jax.random.split(key)
        """
    )
    assert found == [
        (7, True, False, "same"),  # compared: assert_allclose(a, b)
        (11, True, False, "same"),  # compared inline with ==
        (15, False, False, "same"),  # equal shapes say nothing about values
        (20, False, False, "prefix"),  # both sides hold both draws: not a comparison
        (24, False, True, "other"),  # paired choice of two arrays: aligned
        (27, False, False, "same"),  # the same population twice: identical draws
        (31, False, False, "prefix"),
        (32, False, False, "normal-uniform"),  # one decides the other (test_prng_runtime)
        (33, False, False, "other"),
        (34, False, False, "split"),
    ]


def test_key_stored_back_in_carry() -> None:
    p = Probe(
        """
        import jax

        def body(carry, _):
            key, x = carry
            x = x + jax.random.normal(key, x.shape)
            return (key, x), x

        def good(carry, _):
            key, x = carry
            key, sub = jax.random.split(key)
            return (key, x + jax.random.normal(sub)), x

        def walk(key, x0):
            jax.lax.scan(body, (key, x0), None, length=3)
            jax.lax.scan(good, (key, x0), None, length=3)
        """
    )
    assert [(r.how, p.line(r.second.arg)) for r in p.keys.reuses] == [("stored", 7)]


def test_draws_kept_across_iterations() -> None:
    p = Probe(
        """
        import jax

        def kept(x, n):
            out = []
            for _ in range(n):
                out.append(jax.random.normal(jax.random.key(0)))
                x = x + jax.random.normal(jax.random.key(1))
                noise = jax.random.normal(jax.random.key(2))
                total += noise
                case = jax.random.normal(jax.random.key(3))
                print(case.sum())
        """
    )
    fn = p.module.body[1]
    draws = [
        n
        for n, entering in p.model.events
        if entering and isinstance(n, cst.Call) and p.model.call_name(n) == "jax.random.normal"
    ]
    assert [p.keys.collected(d, fn) for d in draws] == [True, True, True, False]


def test_a_stateful_rng_helper_advances_instead_of_being_consumed() -> None:
    p = Probe(
        """
        import jax

        KEY = jax.random.key(0)

        def next_key():
            global KEY
            KEY, sub = jax.random.split(KEY)
            return sub

        def init(n):
            return jax.random.normal(next_key(), (n,))

        a = init(3)
        b = init(3)
        """
    )
    next_key = p.module.body[2]
    summary = p.keys.summary(next_key)
    assert summary is not None and summary.advances == {"KEY"} and "KEY" not in summary.free
    assert p.reuses(definite_only=False) == []  # each call of ``init`` draws new numbers
    assert p.keys.global_uses == []
    calls = [(p.line(call), name, fn.name.value) for call, name, fn, _ in p.keys.stateful_calls]
    assert calls == [(12, "KEY", "next_key")]


def test_a_key_factory_call_makes_a_new_key_each_time() -> None:
    p = Probe(
        """
        import jax

        def make_key():
            \"\"\"The run's key.\"\"\"
            return jax.random.key(42)

        def not_a_factory(seed):
            k = jax.random.key(seed)
            return k

        a = jax.random.normal(make_key())
        b = jax.random.normal(not_a_factory(1))
        """
    )
    assert p.keys.value(p.expr("make_key()")) is not None
    assert p.keys.value(p.expr("not_a_factory(1)")) is None


@pytest.mark.parametrize(
    ("post_init", "reused"),
    [
        ('object.__setattr__(self, "total", self.x.sum())', False),
        ('object.__setattr__(self, "noise", jax.random.normal(self.key))', True),
        ("validate(self)", True),
    ],
    ids=["reads-other-fields", "reads-the-key", "gives-self-away"],
)
def test_a_post_init_that_never_reads_the_key_only_stores_it(post_init: str, reused: bool) -> None:
    """A dataclass stores its arguments in its fields before ``__post_init__`` runs, so
    a key given for a field that ``__post_init__`` never reads is only stored (navix's
    ``State(key=key, ...)``); one that reads it, or hands ``self`` to a function, may
    draw from it."""
    p = Probe(
        f"""
        import dataclasses
        import jax

        def validate(state):
            return state

        @dataclasses.dataclass(frozen=True)
        class State:
            key: jax.Array
            x: jax.Array
            total: float = 0.0

            def __post_init__(self):
                {post_init}

        def reset(key):
            k1, k2 = jax.random.split(key)
            x = jax.random.normal(k1, (3,))
            return State(key=key, x=x)
        """
    )
    assert bool(p.reuses(definite_only=False)) is reused


# -- keys held on attributes (analysis/key_attrs.py) ------------------------------------------

ATTR_FLOW = {
    "self_two_draws": (
        """
        import jax
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
            def act(self):
                a = jax.random.normal(self.rng)
                b = jax.random.uniform(self.rng)
                return a, b
        Agent().act()
        """,
        [("again", 7, 8)],
    ),
    "self_split_and_stored": (
        """
        import jax
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
            def act(self):
                self.rng, sub = jax.random.split(self.rng)
                return jax.random.normal(sub)
        agent = Agent()
        agent.act()
        agent.act()
        """,
        [],
    ),
    "method_between_assigns": (
        """
        import jax
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
            def reseed(self):
                self.rng = jax.random.key(1)
            def act(self):
                a = jax.random.normal(self.rng)
                self.reseed()
                b = jax.random.normal(self.rng)
                self.reseed()
                return a, b
        Agent().act()
        """,
        [],
    ),
    "method_between_keeps": (
        """
        import jax
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
                self.n = 0
            def count(self):
                self.n += 1
            def act(self):
                a = jax.random.normal(self.rng)
                self.count()
                b = jax.random.normal(self.rng)
                return a, b
        Agent().act()
        """,
        [("again", 10, 12)],
    ),
    "helper_draws_from_self": (
        """
        import jax
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
            def noise(self):
                return jax.random.normal(self.rng)
            def act(self):
                a = jax.random.uniform(self.rng)
                return a + self.noise()
        Agent().act()
        """,
        [("attr", 7, 7), ("again", 9, 10)],
    ),
    "object_passed_between": (
        """
        import jax
        def reseed(agent):
            agent.rng = jax.random.key(1)
        class Agent:
            def __init__(self):
                self.rng = jax.random.key(0)
            def act(self):
                a = jax.random.normal(self.rng)
                reseed(self)
                b = jax.random.normal(self.rng)
                reseed(self)
                return a, b
        Agent().act()
        """,
        [],
    ),
    "super_method_between": (
        """
        import jax
        class Base:
            def reseed(self):
                self.rng = jax.random.key(1)
        class Agent(Base):
            def __init__(self):
                self.rng = jax.random.key(0)
            def act(self):
                a = jax.random.normal(self.rng)
                super().reseed()
                b = jax.random.normal(self.rng)
                super().reseed()
                return a, b
        Agent().act()
        """,
        [],
    ),
    "state_rebound_between": (
        """
        import jax
        from typing import NamedTuple
        class State(NamedTuple):
            rng: jax.Array
        def f(state):
            a = jax.random.normal(state.rng)
            state = State(jax.random.key(1))
            b = jax.random.normal(state.rng)
            return a, b
        f(State(jax.random.key(0)))
        """,
        [],
    ),
    "state_two_draws": (
        """
        import jax
        from typing import NamedTuple
        class State(NamedTuple):
            rng: jax.Array
        def f(state):
            a = jax.random.normal(state.rng)
            b = jax.random.normal(state.rng, (2,))
            return a, b
        f(State(jax.random.key(0)))
        """,
        [("again", 7, 8)],
    ),
    "yield_between": (
        """
        import jax
        class Stream:
            def __init__(self):
                self.rng = jax.random.key(0)
            def two(self):
                yield jax.random.normal(self.rng)
                yield jax.random.normal(self.rng)
        s = Stream()
        g = s.two()
        next(g)
        s.rng = jax.random.key(1)
        next(g)
        """,
        [],
    ),
    "same_key_every_call": (
        """
        import jax
        class Explorer:
            def __init__(self):
                self.rng = jax.random.key(0)
            def explore(self):
                return jax.random.normal(self.rng)
        e = Explorer()
        e.explore()
        e.explore()
        """,
        [("attr", 7, 7)],
    ),
    "assigned_outside_the_constructor": (
        """
        import jax
        class Explorer:
            def __init__(self):
                self.rng = jax.random.key(0)
            def reseed(self, seed):
                self.rng = jax.random.key(seed)
            def explore(self):
                return jax.random.normal(self.rng)
        e = Explorer()
        e.explore()
        e.reseed(1)
        e.explore()
        """,
        [],
    ),
}


@pytest.mark.parametrize("name", list(ATTR_FLOW))
def test_attribute_flow(name: str) -> None:
    code, expected = ATTR_FLOW[name]
    assert Probe(code).reuses() == expected


def test_attribute_flow_cases_match_jax() -> None:
    pytest.importorskip("jax")
    results = _run_under_checker({n: textwrap.dedent(c) for n, (c, _) in ATTR_FLOW.items()})
    for name, (_, expected) in ATTR_FLOW.items():
        assert results[name] == ("KeyReuseError" if expected else "ok"), name


def test_attribute_not_a_key_is_not_tracked() -> None:
    """``self.rng`` never given to ``jax.random`` (a NumPy generator), and an unknown
    base class (its methods may reassign the key): nothing reported."""
    probe = Probe(
        """
        import jax
        import numpy as np
        from elsewhere import Base
        class Buffer:
            def __init__(self):
                self.rng = np.random.default_rng(0)
            def sample(self, data):
                return self.rng.choice(data), self.rng.choice(data)
        class Agent(Base):
            def explore(self):
                return jax.random.normal(self.key)
        """
    )
    assert probe.reuses() == []


_WHERE_CASES = {
    # each position keeps one draw: not reported
    "kept only in the other alternative": (
        "z = random.normal(key, rate.shape)\n"
        "return jnp.where(rate > 1.0, random.poisson(key, rate), rate + jnp.sqrt(rate) * z)",
        [],
    ),
    "through another name": (
        "z = random.normal(key, rate.shape)\ny = rate + z\n"
        "return jnp.where(rate > 1.0, y, random.exponential(key, rate.shape))",
        [],
    ),
    "both made in the call, one in an expression": (
        "return jnp.where(rate > 1.0, random.poisson(key, rate),"
        " rate + random.normal(key, rate.shape))",
        [],
    ),
    # the first draw is read elsewhere, or the alternatives are equal: reported
    "also returned": (
        "z = random.normal(key, rate.shape)\n"
        "return jnp.where(rate > 1.0, random.exponential(key, rate.shape), rate + z), z",
        ["JAX301"],
    ),
    "read by the condition": (
        "z = random.normal(key, rate.shape)\n"
        "return jnp.where(z > 0, random.exponential(key, rate.shape), rate)",
        ["JAX301"],
    ),
    "the same draw again": (
        "z = random.normal(key, rate.shape)\n"
        "return jnp.where(rate > 1.0, z, random.normal(key, rate.shape))",
        ["JAX301"],
    ),
}


@pytest.mark.parametrize("case", sorted(_WHERE_CASES))
def test_draws_kept_in_the_two_alternatives_of_one_where_are_not_a_reuse(case: str) -> None:
    body, expected = _WHERE_CASES[case]
    program = (
        "import jax.numpy as jnp\nfrom jax import random\n\n\ndef f(key, rate):\n"
        + textwrap.indent(body, "    ")
        + "\n"
    )
    assert _jax301_codes(program, "mix.py") == expected


def _jax301_codes(program: str, name: str) -> list[str]:
    """The codes JAX301 alone reports on ``program``."""
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import find_rule

    rule = find_rule("JAX301")
    assert rule is not None
    return [d.code for d in lint_text(program, name, Settings(), [rule]).diagnostics]


_TEMPLATE_CASES = {
    # the network built from the key is only a restore's template: its draws are replaced
    "split again for a template": (
        "rngs = jax.random.split(rng, 4)\nout = train(rngs)\n"
        "rng, _rng = jax.random.split(rng)\nnetwork = QNetwork(rng, obs_size=3)\n"
        'return out, eqx.tree_deserialise_leaves("m.eqx", network)',
        [],
    ),
    "a template by keyword": (
        "a = jax.random.normal(rng, (3,))\n"
        'return a, eqx.tree_deserialise_leaves("m.eqx", like=QNetwork(rng))',
        [],
    ),
    "flax from_bytes target": (
        "a = jax.random.normal(rng, (3,))\nparams = jax.random.normal(rng, (3,))\n"
        "return a, serialization.from_bytes(params, data)",
        [],
    ),
    "through a helper that builds the template": (
        "model = load(data, rng)\nreturn model, jax.random.normal(rng, (3,))",
        [],
    ),
    # the drawn value is kept somewhere else too, or the restore may return the template
    "the template also returned": (
        "a = jax.random.normal(rng, (3,))\nnetwork = QNetwork(rng)\n"
        'return a, eqx.tree_deserialise_leaves("m.eqx", network), network',
        ["JAX301"],
    ),
    "the file path slot": (
        "a = jax.random.normal(rng, (3,))\n"
        "return a, eqx.tree_deserialise_leaves(jax.random.normal(rng, (3,)), data)",
        ["JAX301"],
    ),
    "restore_checkpoint falls back to its target": (
        "a = jax.random.normal(rng, (3,))\nparams = jax.random.normal(rng, (3,))\n"
        "return a, checkpoints.restore_checkpoint(data, params)",
        ["JAX301"],
    ),
    "a draw nobody reads, in a function that restores": (
        "a = jax.random.normal(rng, (3,))\nb = jax.random.normal(rng, (3,))\n"
        'return b, eqx.tree_deserialise_leaves("m.eqx", data)',
        ["JAX301"],
    ),
    "bound in a loop": (
        "a = jax.random.normal(rng, (3,))\nfor _ in range(2):\n"
        '    network = QNetwork(rng)\n    m = eqx.tree_deserialise_leaves("m.eqx", network)\n'
        "return a, m",
        ["JAX301"],
    ),
}


@pytest.mark.parametrize("case", sorted(_TEMPLATE_CASES))
def test_a_key_that_only_builds_a_restore_template_is_not_consumed(case: str) -> None:
    body, expected = _TEMPLATE_CASES[case]
    program = (
        "import jax\nimport equinox as eqx\nfrom flax import serialization\n"
        "from flax.training import checkpoints\nfrom nets import QNetwork, train\n\n\n"
        "def load(data, rng):\n    network = QNetwork(rng)\n"
        "    return eqx.tree_deserialise_leaves(data, network)\n\n\n"
        "def f(rng, data):\n" + textwrap.indent(body, "    ") + "\n"
    )
    assert _jax301_codes(program, "tpl.py") == expected


def test_a_restore_keeps_none_of_its_templates_values(tmp_path) -> None:
    """What the template cases rest on, on the installed JAX, Equinox and Flax: the
    restored tree is the saved one whatever key built the template, and a missing file
    raises instead of handing the template back."""
    pytest.importorskip("equinox")
    pytest.importorskip("flax")
    program = textwrap.dedent(
        f"""
        import json
        import equinox as eqx
        import jax
        import numpy as np
        from flax import serialization

        class Net(eqx.Module):
            w: jax.Array
            b: jax.Array

            def __init__(self, key):
                k1, k2 = jax.random.split(key)
                self.w = jax.random.normal(k1, (3, 2))
                self.b = jax.random.normal(k2, (2,))

        def same(a, b):
            return all(np.array_equal(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))

        path = {str(tmp_path / "m.eqx")!r}
        saved = Net(jax.random.key(0))
        eqx.tree_serialise_leaves(path, saved)
        eqx_kept = all(same(eqx.tree_deserialise_leaves(path, Net(jax.random.key(s))), saved)
                       for s in (0, 1, 2))
        params = {{"w": jax.random.normal(jax.random.key(0), (3,))}}
        template = {{"w": jax.random.normal(jax.random.key(5), (3,))}}
        flax_kept = same(serialization.from_bytes(template, serialization.to_bytes(params)),
                         params) and same(serialization.from_state_dict(
                             template, serialization.to_state_dict(params)), params)
        try:
            eqx.tree_deserialise_leaves(path + ".missing", Net(jax.random.key(1)))
            missing = "returned"
        except FileNotFoundError:
            missing = "raised"
        print("RESULT " + json.dumps([eqx_kept, flax_kept, missing]))
        """
    )
    assert run_result(program) == [True, True, "raised"]


@pytest.mark.parametrize(
    "keep",
    [
        "blob = np.asarray(key)",  # ceridwen: a checkpoint keeps the key's bits
        "np.save(path, key)",
        "queue.appendleft(key)",  # pobax: a deque of sweep arguments
        "keys.append(key)",
    ],
)
def test_numpy_and_a_local_container_keep_a_key_without_drawing(keep: str) -> None:
    """NumPy cannot draw from a JAX key (it converts or stores its bits), and a local
    list, deque or set only keeps it: neither is a first use (fresh-2026-12k: ceridwen's
    resumable nested sampler, pobax's sweep)."""
    probe = Probe(
        f"""
        import collections
        import jax
        import numpy as np

        def run(path):
            key = jax.random.PRNGKey(0)
            queue = collections.deque()
            keys = []
            {keep}
            k1, k2 = jax.random.split(key)
            return k1, k2, queue, keys
        """
    )
    assert probe.reuses(False) == []


def test_a_key_given_to_an_unknown_method_is_still_a_use() -> None:
    probe = Probe(
        """
        import jax

        def run(env):
            key = jax.random.PRNGKey(0)
            env.reset(key)
            return jax.random.split(key)
        """
    )
    assert probe.reuses(False) != []


@pytest.mark.parametrize(
    ("loop", "reused"), [("range(2)", False), ("[1, 2]", False), ("range(n)", True)]
)
def test_a_loop_that_certainly_runs_rebinds_its_keys(loop: str, reused: bool) -> None:
    """``for _ in range(2): key, subkey = split(key)`` runs at least once, so the
    ``subkey`` drawn after it is not the one drawn before it (hamon's tests, 2 false
    alarms of the fresh-2026-12k read that named a pair no run makes); over ``range(n)``
    the loop may not run, and the pair may be real."""
    probe = Probe(
        f"""
        import jax

        def run(n):
            key = jax.random.key(0)
            key, subkey = jax.random.split(key)
            w = jax.random.normal(subkey)
            for _ in {loop}:
                key, subkey = jax.random.split(key)
            return w, jax.random.bernoulli(subkey)
        """
    )
    assert bool(probe.reuses(False)) is reused, probe.reuses(False)


def test_a_loop_that_certainly_runs_matches_jax() -> None:
    pytest.importorskip("jax")
    program = (
        "import jax\n\n\ndef run(n):\n    key = jax.random.key(0)\n"
        "    key, subkey = jax.random.split(key)\n    w = jax.random.normal(subkey)\n"
        "    for _ in {loop}:\n        key, subkey = jax.random.split(key)\n"
        "    return w, jax.random.bernoulli(subkey)\n\n\nrun(0)\n"
    )
    results = _run_under_checker(
        {"literal": program.format(loop="range(2)"), "empty": program.format(loop="range(n)")}
    )
    assert results == {"literal": "ok", "empty": "KeyReuseError"}


@pytest.mark.parametrize(
    ("loop", "compared"),
    [
        ("for policy in policy_space(rules):", True),  # pylimid, fresh-2026-12s
        ("for candidate in candidates:", True),
        ("for name, cfg in configs.items():", True),
        ("for lr in [1e-3, 1e-2]:", True),
        ("for batch in batches:", False),  # data, one batch per step
        ("for shape in layer_shapes:", False),  # one model's layers
    ],
)
def test_loops_over_configurations_to_compare(loop: str, compared: bool) -> None:
    """What JAX301 and JAX304 read as a loop over configurations compared on the same
    random state (``analysis/cases.py``)."""
    import libcst as cst

    from jaxlint.analysis.cases import configurations
    from jaxlint.analysis.names import SemanticModel

    module = cst.parse_module(f"{loop}\n    run(key)\n")
    node = module.body[0]
    assert configurations(node, SemanticModel(module)) is compared
