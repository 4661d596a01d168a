"""JAX303 host-rng-in-traced: host randomness, time or entropy read in traced code, where
tracing freezes the value into the compiled program."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.keys import compiled_function_of
from jaxlint.analysis.transforms import BATCHING
from jaxlint.rules.base import Examples, Rule, short
from jaxlint.rules.prng.helpers import line
from jaxlint.rules.prng.key_hygiene import KEY_HYGIENE

if TYPE_CHECKING:
    from jaxlint.analysis.tracing import TracedFunction
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


_NUMPY_RANDOM_SETUP = frozenset(
    f"numpy.random.{n}"
    for n in (
        "seed get_state set_state get_bit_generator set_bit_generator Generator SeedSequence "
        "BitGenerator PCG64 PCG64DXSM MT19937 Philox SFC64 default_rng RandomState"
    ).split()
)
_GENERATORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
    }
)
_STDLIB_RANDOM = frozenset(
    f"random.{n}"
    for n in (
        "random randint randrange uniform choice choices shuffle sample gauss normalvariate "
        "getrandbits betavariate expovariate triangular lognormvariate vonmisesvariate "
        "gammavariate paretovariate weibullvariate randbytes binomialvariate SystemRandom"
    ).split()
)
_CLOCKS = frozenset(
    f"time.{n}"
    for n in (
        "time time_ns perf_counter perf_counter_ns monotonic monotonic_ns process_time "
        "process_time_ns thread_time thread_time_ns"
    ).split()
) | frozenset(
    {
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    }
)
_ENTROPY = frozenset(
    {"os.urandom", "os.getrandom", "uuid.uuid1", "uuid.uuid4"}
    | {
        f"secrets.{n}"
        for n in "token_bytes token_hex token_urlsafe randbelow randbits choice".split()
    }
)
_GENERATOR_METHODS_KEEP = frozenset(
    {"spawn", "bit_generator", "jumped", "seed", "get_state", "getstate"}
)


def _host_value(qn: str, call: cst.Call) -> tuple[str, str] | None:
    """What a host call returns that tracing freezes, and what to do instead."""
    use_jax = "draw them with `jax.random` from a key passed in as an argument"
    if qn.startswith("numpy.random."):
        if qn in _NUMPY_RANDOM_SETUP:
            if qn in ("numpy.random.default_rng", "numpy.random.RandomState") and not call.args:
                return "the unseeded generator it makes is", use_jax
            return None
        return "the random numbers it draws are", use_jax
    if qn in _STDLIB_RANDOM or (qn == "random.Random" and not call.args):
        return "the random numbers it draws are", use_jax
    if qn in _CLOCKS:
        return (
            "the time it reads is",
            "pass the time in as an argument, or read it in a `jax.debug.callback`",
        )
    if qn in _ENTROPY:
        return "the value it returns is", "pass it in as an argument"
    return None


class HostRngInTraced(Rule):
    code = "JAX303"
    name = "host-rng-in-traced"
    message = "`{call}` runs once, when `{fn}` is traced ({how}): {what} {effect}; {advice}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags host sources of randomness, time and entropy called inside code that JAX
compiles once and runs many times: `numpy.random.*` samplers (and an unseeded
`np.random.default_rng()`), sampling methods of a NumPy or `random.Random`
generator created outside the traced function, the `random` module,
`time.time()`/`perf_counter()`/`monotonic()`, `datetime.now()`, `os.urandom`,
`uuid.uuid1/uuid4` and `secrets`. Traced code here is a function under `jax.jit`
(or `pmap`, `shard_map`, `nnx.jit`, `eqx.filter_jit`, `checkpoint`), the body of
`lax.scan`/`fori_loop`/`while_loop`/`map`, and the helpers and `cond` branches
they call, and (random draws only) a function under `jax.vmap` alone.

## Why is this bad
Tracing runs the Python function once with abstract values. A call such as
`np.random.rand()` is ordinary Python: it runs during tracing, and its result
becomes a constant of the compiled program. Every later call of the jitted
function, and every iteration of a `scan` body, reuses that same number. Nothing
warns: the code "works", but the noise, dropout mask or timestamp never changes.
Under `jax.grad` alone the function is traced on every call, so these are not
flagged there, nor inside `jax.eval_shape`. Under `jax.vmap` alone (also
`nnx.vmap`, `eqx.filter_vmap`, and the helpers such a function calls) it is traced
once per call for the whole batch: a random draw there is flagged, since every
element of the batch gets the same numbers where the per-element code meant one
draw each (checked on JAX 0.12: `jax.vmap(lambda x: x + np.random.normal())` gives
equal outputs); a clock read there is not.

## Example
```python
import jax
import numpy as np

@jax.jit
def add_noise(x):
    return x + np.random.normal(size=x.shape)  # the same noise on every call
```

## Use instead
```python
import jax

@jax.jit
def add_noise(x, key):
    return x + jax.random.normal(key, x.shape)
```

## Fix safety
No fix: the replacement needs a key argument threaded through the callers.

## Verify at runtime
Call the jitted function twice: the values are identical. `jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt`
writes the jaxpr, where the host value appears as a literal constant and no
`random_bits` equation exists.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_numpy_randomness_host_code_passed.py",
            note="NumPy randomness in host code, passed in",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_random_jax_random_here.py", note="`random` is `jax.random` here", runs=True
        ),
        EXAMPLES.valid(
            "valid_runs_host_every_call_through.py",
            note="runs on the host at every call, through a callback",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jax_grad_alone_traces_every.py",
            note="`jax.grad` alone traces on every call",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_eval_shape_only_reads_shapes.py",
            note="`eval_shape` only reads shapes",
            runs=True,
        ),
        EXAMPLES.valid("valid_timing_host_code.py", note="timing in host code", runs=True),
        EXAMPLES.valid(
            "valid_generator_seeded_inside_function_deterministic.py",
            note="a generator seeded inside the function: a deterministic constant by design",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_seeding_side_effect_frozen_value.py",
            note="seeding: a side effect, not a frozen value",
        ),
        EXAMPLES.valid(
            "valid_vmap_or_grad_alone_clock_and_draw.py",
            runs=True,
            note="`grad` alone traces on every call (a new draw each time); under `vmap` alone"
            " a clock read once per batch is what the code means",
        ),
        *KEY_HYGIENE,
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_vmap_alone_one_draw_per_batch.py",
            line=7,
            message_contains="shared by the whole batch",
            note="`vmap` alone: one draw per call, shared by every element (the program's"
            " assert holds)",
        ),
        EXAMPLES.invalid(
            "invalid_numpy_alias_under_jit_of_vmap.py",
            line=6,
            message_contains="jitted by `jax.jit` at line 9",
            note="`jax.jit(jax.vmap(f))`: NumPy under another name, traced by the outer jit",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_np_random_normal_size.py",
            line=8,
            column=16,
            message_contains=(
                "`np.random.normal(size=x.shape)` runs once, when `add_noise` is traced"
                " (jitted by `jax.jit` at line 6)"
            ),
        ),
        EXAMPLES.invalid("invalid_fast_step_jax_jit_step.py", message_contains="`random.random()`"),
        EXAMPLES.invalid("invalid_return_x_time_time.py", message_contains="the time it reads"),
        EXAMPLES.invalid(
            "invalid_x_x_np_random_normal.py",
            line=8,
            message_contains="the same on every iteration and call",
        ),
        EXAMPLES.invalid(
            "invalid_generator_created_outside_state_never.py",
            message_contains="`RNG.normal(size=x.shape)`",
            note="a generator created outside: its state never advances",
        ),
        EXAMPLES.invalid("invalid_return_x_os_urandom_4_uuid.py", count=2),
        EXAMPLES.invalid(
            "invalid_return_helper_x.py",
            message_contains="when `helper` is traced (called from traced `f`",
        ),
        EXAMPLES.invalid("invalid_return_model_x_np_random_rand.py"),
        EXAMPLES.invalid(
            "invalid_complete_program_assert_holds_both.py",
            note="a complete program: the assert holds, both calls give the same 'noise'",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._assigned: dict[int, cst.BaseExpression] | None = None

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        found = _host_value(qn, node) if qn is not None else None
        if found is None:
            found = self._generator_method(node)
        if found is None:
            return
        what, advice = found
        info = compiled_function_of(self.ctx.trace, self.ctx.keys, node)
        if info is not None:
            loop_body = self.ctx.keys.loop_body_of(info.node) is not None
            repeat = "iteration and call" if loop_body else "call"
            effect = f"frozen into the compiled program, the same on every {repeat}"
        elif qn not in _CLOCKS:
            info = self._batched_function_of(node)
            if info is None:
                return
            effect = (
                "shared by the whole batch: `vmap` traces the function once per call, not"
                " once per element, so every element gets the same values"
            )
        else:
            return
        self.report(
            node,
            call=short(self.ctx.code(node), 48),
            fn=info.name,
            how=info.how(lambda n: line(self, n)),
            what=what,
            effect=effect,
            advice=advice,
        )

    def _batched_function_of(self, node: cst.CSTNode) -> TracedFunction | None:
        """The traced function containing ``node`` when a batching transform
        (``jax.vmap``) traces it, or a helper it calls, and no compiling one does: the
        Python code runs once per call for the whole batch."""
        info = self.ctx.trace.traced_function_of(node)
        found = info
        seen: set[int] = set()
        while info is not None and id(info) not in seen:
            seen.add(id(info))
            if info.transforms:
                return found if info.transforms & BATCHING else None
            if info.caller is None:
                return None
            info = info.caller
        return None

    def _generator_method(self, call: cst.Call) -> tuple[str, str] | None:
        """``rng.normal()`` on a NumPy/``random.Random`` generator made outside the
        traced function (its state never advances under tracing)."""
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
            return None
        if func.attr.value in _GENERATOR_METHODS_KEEP:
            return None
        name = func.value
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None:
            return None
        scope, bindings = found
        if len(bindings) != 1 or bindings[0].kind != "assign":
            return None
        value = self._value_of(bindings[0].node)
        if not isinstance(value, cst.Call) or self.model.call_name(value) not in _GENERATORS:
            return None
        inside = self.ctx.trace.traced_function_of(call)
        if inside is not None and scope.node is inside.node:
            return None  # made in the traced function itself: seeded there or flagged there
        return (
            "the random numbers it draws (the generator's state never advances) are",
            "draw them with `jax.random` from a key passed in as an argument",
        )

    def _value_of(self, target: cst.CSTNode) -> cst.BaseExpression | None:
        if self._assigned is None:
            self._assigned = {}
            for node, entering in self.model.events:
                # ``type() is``: an ``isinstance`` on a libcst class goes through ABCMeta
                if entering and type(node) is cst.Assign:
                    for t in node.targets:
                        self._assigned[id(t.target)] = node.value
        return self._assigned.get(id(target))
