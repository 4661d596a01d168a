"""Functions traced by contract (jaxlint/analysis/trace_contract.py): a framework's API
says they run inside the user's transforms although no ``jit`` is in sight."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trace_contract import contract_level
from jaxlint.analysis.tracing import Level, TraceAnalysis

T, M, S = Level.TRACED, Level.MAYBE, Level.STATIC


def analyse(code: str, **kw: object) -> tuple[TraceAnalysis, cst.Module, SemanticModel]:
    module = cst.parse_module(textwrap.dedent(code))
    model = SemanticModel(module)
    pos = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    trace = TraceAnalysis(model, lambda n: pos[n].start.line, **kw)  # type: ignore[arg-type]
    return trace, module, model


def traced(code: str, **kw: object) -> dict[str, dict[str, Level]]:
    """Name of each traced function -> its parameters' levels."""
    trace, _, _ = analyse(code, **kw)
    return {info.name: dict(info.param_levels) for info in trace.functions.values()}


def why(code: str, source: str) -> str:
    trace, module, model = analyse(code)
    for node, entering in model.events:
        if entering and isinstance(node, cst.BaseExpression):
            val = trace.value(node)
            if val is not None and module.code_for_node(node) == source:
                return trace.describe(val)
    raise AssertionError(source)


LINEN = """
import flax.linen as nn
import jax.numpy as jnp

class MLP(nn.Module):
    features: int = 3

    def setup(self):
        self.scale = 2.0

    @nn.compact
    def __call__(self, x, mask=None, deterministic: bool = False, train=True, *rest, **kw):
        return x

    @nn.compact
    def encode(self, tokens, dtype: jnp.dtype, fn: Callable, n: int, width=-1):
        return tokens

    @nn.nowrap
    def _shapes(self, x):
        return x

    def helper(self, x):
        return x

    @staticmethod
    def util(x):
        return x
"""


def test_linen_methods_and_their_parameters() -> None:
    found = traced(LINEN)
    assert set(found) == {"MLP.__call__", "MLP.encode", "MLP.setup"}
    assert found["MLP.__call__"] == {
        "self": M, "x": T, "mask": M, "deterministic": S, "train": S, "rest": M, "kw": M,
    }  # fmt: skip
    assert found["MLP.encode"] == {
        "self": M, "tokens": T, "dtype": S, "fn": S, "n": S, "width": S,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("imports", "base", "method", "name"),
    [
        ("from flax import nnx", "nnx.Module", "__call__", "M.__call__"),
        ("import equinox as eqx", "eqx.Module", "__call__", "M.__call__"),
        ("import haiku as hk", "hk.Module", "__call__", "M.__call__"),
        ("from flax.linen.module import Module", "Module", "__call__", "M.__call__"),
    ],
)
def test_framework_modules(imports: str, base: str, method: str, name: str) -> None:
    code = f"""
    {imports}

    class M({base}):
        def __init__(self, size, key):
            self.size = size

        def {method}(self, x):
            return x

        def other(self, x):
            return x
    """
    assert traced(code) == {name: {"self": M, "x": T}}


def test_legacy_flax_apply_traces_its_input_not_its_hyperparameters() -> None:
    code = """
    from flax import nn

    class Block(nn.Module):
        def apply(self, x, filters, strides=(1, 1), train: bool = True):
            return x
    """
    assert traced(code) == {
        "Block.apply": {"self": M, "x": T, "filters": M, "strides": M, "train": S}
    }


def test_plain_classes_and_other_methods_are_not_traced() -> None:
    code = """
    import jax.numpy as jnp

    class Plain:
        def __call__(self, x):
            return jnp.sum(x)

    class Sub(Plain):
        def __call__(self, x):
            return x
    """
    assert traced(code) == {}


def test_a_module_call_that_returns_a_report_or_a_table_is_not_traced() -> None:
    """A ``__call__`` whose every ``return`` gives (or holds in a tuple, or as a dict
    value: avitai-artifex's analysis extensions, ``"extension_type": "temporal_analysis"``)
    a string or a pandas object is no model's forward pass (apebench's ``BaseScenario.__call__`` runs a
    whole experiment and returns a DataFrame with the trained networks); one that may
    return an array alone keeps the contract."""
    code = """
    import equinox as eqx
    import jax.numpy as jnp
    import pandas as pd

    class Report(eqx.Module):
        def __call__(self, x):
            return f"mean {float(jnp.mean(x))}"

    class Table(eqx.Module):
        def __call__(self, x):
            df = pd.DataFrame({"x": x})
            return df, jnp.tanh(x)

    class Mixed(eqx.Module):
        def __call__(self, x, as_text=False):
            if as_text:
                return str(x)
            return jnp.tanh(x)

    class Nested(eqx.Module):
        def __call__(self, x):
            def show():
                return "x"
            return jnp.tanh(x)

    class Tagged(eqx.Module):
        def __call__(self, x):
            if x is None:
                return {"kind": "features"}
            return {"features": jnp.tanh(x), "kind": "features"}

    class Outputs(eqx.Module):
        def __call__(self, x):
            return {"logits": jnp.tanh(x), "hidden": x}
    """
    assert set(traced(code)) == {"Mixed.__call__", "Nested.__call__", "Outputs.__call__"}


def test_a_module_call_annotated_to_return_a_string_is_not_traced() -> None:
    """A return annotation that gives a string, alone or as an element of the returned
    tuple (cryojax-eo's ``SteeredMDSimulator.__call__``, ``-> tuple[Float[Array, "n 3"],
    str]``: an OpenMM run that returns the next state file), declares host work; an
    annotation of arrays, or of a string nested deeper, keeps the contract."""
    code = """
    from typing import List, Tuple

    import equinox as eqx
    import jax
    import jax.numpy as jnp

    class Path(eqx.Module):
        def __call__(self, x) -> str:
            return self.name

    class Pair(eqx.Module):
        def __call__(self, x, state: str) -> tuple[jax.Array, str]:
            return jnp.tanh(x), state

    class Paths(eqx.Module):
        def __call__(self, x, states) -> Tuple[jax.Array, List[str]]:
            return jnp.tanh(x), states

    class Arrays(eqx.Module):
        def __call__(self, x) -> tuple[jax.Array, jax.Array]:
            return x, jnp.tanh(x)

    class Deeper(eqx.Module):
        def __call__(self, x) -> dict[str, jax.Array]:
            return {"y": jnp.tanh(x)}
    """
    assert set(traced(code)) == {"Arrays.__call__", "Deeper.__call__"}


def test_a_module_call_that_loops_over_a_jitted_step_is_a_host_loop() -> None:
    """An Equinox module's ``__call__`` whose loop calls a jitted method of its class
    (directly, or through a name bound to it or to a wrapper of it) or a jitted function
    of the module is a training loop that drives compiled steps (feedbax's
    ``TaskTrainer.__call__``, fresh-2026-12s); one that calls a jitted step once, or a
    plain method in a loop, keeps the contract."""
    code = """
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    @jax.jit
    def sgd(p, g):
        return p - 0.1 * g

    class Trainer(eqx.Module):
        def __call__(self, model, batches):
            for batch in batches:
                model = self._step(model, batch)
            return model

        @eqx.filter_jit
        def _step(self, model, batch):
            return model - batch

    class Aliased(eqx.Module):
        def __call__(self, model, batches, ensembled=False):
            step = eqx.filter_vmap(self._step) if ensembled else self._step
            for batch in batches:
                model = step(model, batch)
            return model

        @eqx.filter_jit
        def _step(self, model, batch):
            return model - batch

    class Plain(eqx.Module):
        def __call__(self, p, grads):
            for g in grads:
                p = sgd(p, g)
            return p

    class Once(eqx.Module):
        def __call__(self, model, batch):
            return self._step(model, batch)

        @eqx.filter_jit
        def _step(self, model, batch):
            return model - batch

    class Layers(eqx.Module):
        def __call__(self, x):
            for _ in range(3):
                x = self.layer(x)
            return x

        def layer(self, x):
            return jnp.tanh(x)
    """
    calls = {n for n in traced(code) if n.endswith("__call__")}
    assert calls == {"Once.__call__", "Layers.__call__"}


def test_base_classes_of_this_module_and_a_namespace_class() -> None:
    code = """
    from haiku._src import module
    import flax.linen as nn

    class hk:
        Module = module.Module

    class Linear(hk.Module):
        def __call__(self, x):
            return x

    class Base(nn.Module):
        pass

    class Block(Base):
        def __call__(self, x):
            return x
    """
    assert set(traced(code)) == {"Linear.__call__", "Block.__call__"}


def test_haiku_transform_and_optax_update() -> None:
    code = """
    import haiku as hk
    import optax

    def forward(x, is_training: bool):
        return x

    def stateful(x, step=0):
        return x

    f = hk.transform(forward)
    g = hk.without_apply_rng(hk.transform_with_state(stateful))
    h = hk.transform(lambda batch: batch)

    def sgd():
        def init_fn(params):
            return ()

        def update_fn(updates, state, params=None):
            return updates, state

        return optax.GradientTransformation(init_fn, update_fn)

    def extra():
        def update(updates, state, params=None, *, loss, **extra_args):
            return updates, state

        return optax.GradientTransformationExtraArgs(init=lambda p: (), update=update)
    """
    found = traced(code)
    assert found == {
        "forward": {"x": T, "is_training": S},
        "stateful": {"x": T, "step": S},
        "<lambda>": {"batch": T},
        "update_fn": {"updates": T, "state": T, "params": M},
        "update": {"updates": T, "state": T, "params": M, "loss": T, "extra_args": M},
    }


def test_a_transform_explains_first_and_tests_take_no_contract() -> None:
    code = """
    import jax
    import flax.linen as nn

    class MLP(nn.Module):
        @jax.jit
        def __call__(self, x):
            return x

        def setup(self):
            pass
    """
    trace, _, _ = analyse(code)
    infos = {i.name: i for i in trace.functions.values()}
    assert not infos["__call__"].contract and infos["MLP.setup"].contract
    assert traced(code, contracts=False) == {"__call__": {"self": M, "x": T}}


def test_messages_say_when_the_function_is_traced() -> None:
    code = """
    import flax.linen as nn
    import haiku as hk

    class MLP(nn.Module):
        def __call__(self, x):
            y = x * 2
            return y

    def forward(x):
        z = x + 1
        return z

    f = hk.transform(forward)
    """
    assert why(code, "y") == (
        "`y` is traced: computed from `x` (parameter of `MLP.__call__`), a Flax Linen module"
        " method, traced whenever the model runs under `jax.jit` (as in a jitted training step)"
    )
    assert why(code, "z") == (
        "`z` is traced: computed from `x` (parameter of `forward`), given to `hk.transform`"
        " at line 14, traced whenever its `apply` runs under `jax.jit` (as in a jitted training"
        " step)"
    )


def test_constants_are_staged_but_not_under_compile_time_eval() -> None:
    code = """
    import jax
    import jax.numpy as jnp
    import equinox as eqx

    class Rope(eqx.Module):
        def __call__(self, x):
            c = jnp.arange(3)
            with jax.ensure_compile_time_eval():
                table = self.table(4)
            return x + c + table

        def table(self, n):
            return jnp.ones(n)
    """
    trace, module, model = analyse(code)
    levels = {}
    for node, entering in model.events:
        if entering and isinstance(node, cst.Name) and node.value in ("c", "table"):
            val = trace.value(node)
            if val is not None:
                levels.setdefault(node.value, val.level)
    assert levels == {"c": T, "table": S}
    assert {i.name for i in trace.functions.values()} == {"Rope.__call__"}


@pytest.mark.parametrize(
    ("param", "level"),
    [
        ("x", T),
        ("x: jax.Array", T),
        ("carry: Tuple[Array, Array]", T),
        ("x: Optional[Array] = None", M),
        ("x: Array | None", M),
        ("x=None", M),
        ("x=some_default()", M),
        ("flag: bool", S),
        ("n: int = 3", S),
        ("dtype: Dtype", S),
        ("fn: Callable[[int], int]", S),
        ("mode: Literal['a', 'b']", S),
        ("train=True", S),
        ("rate=0.1", S),
        ("offset=-1", S),
        ("name='x'", S),
    ],
)
def test_contract_level(param: str, level: Level) -> None:
    fn = cst.parse_statement(f"def f({param}): pass")
    assert isinstance(fn, cst.FunctionDef)
    p = [*fn.params.params, *fn.params.kwonly_params]
    assert contract_level(p[0]) is level


def test_static_and_class_methods_called_through_self_bind_every_argument() -> None:
    """``self._block(x, self.block_size)`` for a ``@staticmethod``: the call passes ``x``
    to the first parameter, not to the second (gemma 4's audio attention had its
    ``block_size`` taken for traced); a ``@classmethod`` binds ``cls`` like ``self``."""
    code = """
    import flax.linen as nn

    class Attention(nn.Module):
        block_size: int = 4

        @staticmethod
        def _block(x, block_size, pad=0.0):
            return x

        @classmethod
        def _context(cls, x, width):
            return x

        def _plain(self, x, n):
            return x

        def __call__(self, x):
            q = self._block(x, self.block_size)
            k = self._block(x, block_size=self.block_size)
            c = self._context(x, 2)
            return self._plain(q, self.block_size)
    """
    found = traced(code)
    assert found["_block"] == {"x": T, "block_size": S, "pad": S}
    assert found["_context"] == {"cls": M, "x": T, "width": S}
    assert found["_plain"] == {"self": M, "x": T, "n": S}


def test_static_and_class_methods_called_through_their_class_bind_every_argument() -> None:
    """``Attention._block(x, self.block_size)``: a ``@staticmethod`` read through its
    class takes the call's arguments in order (the key analysis already followed
    dopamine's ``NoisyNetwork.sample_noise(rng_key, ...)`` this way); a ``@classmethod``
    through its class gets ``cls``."""
    code = """
    import flax.linen as nn

    class Attention(nn.Module):
        block_size: int = 4

        @staticmethod
        def _block(x, block_size, pad=0.0):
            return x

        @classmethod
        def _context(cls, x, width):
            return x

        def __call__(self, x):
            q = Attention._block(x, self.block_size)
            return Attention._context(q, 2)
    """
    found = traced(code)
    assert found["_block"] == {"x": T, "block_size": S, "pad": S}
    assert found["_context"] == {"cls": M, "x": T, "width": S}


def test_a_module_called_here_only_with_static_values_takes_them_as_static() -> None:
    """Every ``Noisy(...)(x, ...)`` call of this module passes ``features`` a static
    value (a literal, a field of a module, a shape): it is static in ``Noisy.__call__``;
    ``y`` is passed a traced value once, so it stays traced; ``x`` is passed a maybe-traced
    value (a submodule's output) by ``Head``'s only call, which says nothing: it stays
    traced."""
    code = """
    import flax.linen as nn

    class Noisy(nn.Module):
        def __call__(self, x, features, y, scale=None):
            return x

    class Head(nn.Module):
        def __call__(self, h, n):
            return h

    class Net(nn.Module):
        width: int = 3

        @nn.compact
        def __call__(self, x):
            x = Head()(nn.Dense(4)(x), self.width)
            x = Noisy()(x, 512, x)
            x = Noisy()(nn.Dense(4)(x), features=self.width, y=1)
            return Noisy()(x, x.shape[-1], 0, scale=2.0)

    def host(x):
        return Noisy()(x, 4, 5)
    """
    found = traced(code)
    assert found["Noisy.__call__"] == {"self": M, "x": T, "features": S, "y": T, "scale": S}
    assert found["Head.__call__"] == {"self": M, "h": T, "n": S}


@pytest.mark.parametrize(
    "use",
    [
        "layer = Noisy()",  # kept in a variable: called where the file does not say
        "layers = [Noisy()]",
        "class Sub(Noisy):\n    pass",
        "def host(x, n):\n    return Noisy()(x, n)",  # a host function's parameter
        "def spread(x, args):\n    return Noisy()(x, *args)",
    ],
)
def test_a_module_used_otherwise_keeps_its_contract_levels(use: str) -> None:
    code = f"""
    import flax.linen as nn

    class Noisy(nn.Module):
        def __call__(self, x, features):
            return x

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x):
            return Noisy()(x, 512)

{textwrap.indent(use, "    ")}
    """
    assert traced(code)["Noisy.__call__"] == {"self": M, "x": T, "features": T}


def test_linen_fields_annotated_with_python_types_are_static() -> None:
    """``self.block_size`` of a Linen module (a dataclass field annotated ``int``, here or
    in a base class of this module) is the Python value the module was built with, also
    under ``jax.jit(model.apply)``; a field annotated as an array, an attribute that
    ``setup`` assigns, and another framework's module attributes stay maybe-traced."""
    code = """
    import flax.linen as nn
    import equinox as eqx
    import jax

    class Base(nn.Module):
        depth: int = 2

    class Block(Base):
        block_size: int = 4
        dtype: Optional[jnp.dtype] = None
        key: jax.Array = None
        scale: float = 1.0

        def setup(self):
            self.scale = 2.0

        def _use(self, a, b, c, d, e):
            return a

        def __call__(self, x):
            return self._use(self.block_size, self.depth, self.dtype, self.key, self.scale)

    class Eqx(eqx.Module):
        width: int = 3

        def _read(self, a):
            return a

        def __call__(self, x):
            return self._read(self.width)
    """
    found = traced(code)
    assert found["_use"] == {"self": M, "a": S, "b": S, "c": S, "d": M, "e": M}
    assert found["_read"] == {"self": M, "a": M}


def test_a_parameter_given_as_a_shape_is_static() -> None:
    """dopamine's ``ImplicitQuantileNetwork.__call__(self, x, num_quantiles, rng)`` makes
    ``[num_quantiles, 1]`` a shape: a tracer there raises, so every call that runs gives a
    Python int and the parameter is static (its ``if`` and ``range`` were false alarms).
    A shape display bound to a name, ``reshape`` and ``range`` count; other uses do not."""
    code = """
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
    import numpy as onp

    class Quantiles(nn.Module):
        eval_mode: bool = False

        @nn.compact
        def __call__(self, x, num_quantiles, rng, width, depth, scale, features):
            shape = [num_quantiles, 1]
            q = jax.random.uniform(rng, shape=shape)
            y = x.reshape(width, -1)
            for _ in range(depth):
                y = y * scale
            if self.eval_mode:
                y = y + onp.zeros(shape=(x.shape[0], features))
            return q, y
    """
    found = traced(code)
    assert found["Quantiles.__call__"] == {
        "self": M, "x": T, "num_quantiles": S, "rng": T, "width": S, "depth": S, "scale": T,
        "features": S,
    }  # fmt: skip
