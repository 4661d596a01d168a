"""JAX406 jit-bound-method-state: `jax.jit(self.method)` closes over `self`, so what the
method reads of `self` is frozen at the first trace: an attribute the class assigns
again later is not seen, and a Flax NNX or Equinox module read there is compiled in as
constants."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.bound_state import (
    assignments,
    methods_of,
    module_framework,
    reads,
    setup_only,
)
from jaxlint.analysis.key_attrs import CONSTRUCTORS
from jaxlint.analysis.methods import own_method, self_name
from jaxlint.analysis.walk import descendants
from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.compilation.helpers import Queries, short

EXAMPLES = Examples(__file__)

_JITS = frozenset(
    {"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap", "equinox.filter_jit", "flax.nnx.jit"}
)
_INITIALISERS = ("build", "init", "setup", "set_up", "prepare")
"""Methods that finish building the object (``build``, ``initialize``, ``init_params``,
``_setup_model``): called once, before it is used, like the constructors."""
_KIND = {"flax.nnx": "a Flax NNX module", "equinox": "an Equinox module"}
_ADVICE = {
    "flax.nnx": "pass its state as an argument (`graphdef, state = nnx.split(module)` outside,"
    " `nnx.merge(graphdef, state)` inside)",
    "equinox": "pass the module as an argument of the jitted function",
}


class JitBoundMethodState(Queries, Rule):
    _facts: dict[int, tuple[dict, frozenset[str]]] | None = None
    code = "JAX406"
    name = "jit-bound-method-state"
    message = "`{jit}` {what}; {advice}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    required_names = frozenset({"jit", "pjit", "pmap", "filter_jit"})
    docs = """\
## What it does
Flags `jax.jit(self.method)` (also `pjit`, `pmap`, `equinox.filter_jit` and
`nnx.jit`, with any options) on a method of the object's own class, when the
method, or a method or property of the class it reaches through `self`, reads
an attribute of `self` that:

- the class assigns again outside its constructors (`__init__`,
  `__post_init__`, `setup`, private helpers only they call, and methods named as
  initialisers: `build*`, `init*`, `setup*`, `prepare*`), in a method that
  does not rebuild the stored jitted function, when the jit is built once: in a
  constructor, or on first use (`if self._fn is None: self._fn = jax.jit(...)`).
  The jitted function keeps the value of its first trace; or
- holds a Flax NNX or Equinox module (a constructor assigns it a parameter
  annotated with such a class, or builds one) that the method computes with
  (calls it, calls one of its methods, or passes it on): its parameters are
  compiled into the program as constants. Reading a field of it
  (`self.model.in_features`) compiles in no array.

It stays silent when the method takes what it needs as arguments, when the
attributes it reads are only assigned while the object is built, and when the
method that assigns them also rebuilds the jit (`self.step_fn =
jax.jit(self._step)`).

## Why is this bad
`self` is not an argument of the jitted function: the bound method closes over it.
Tracing reads `self.params` once, as a constant of the compiled program, and the
jit cache (keyed on the function and the shapes and dtypes of its arguments) hits
on every later call whatever `self.params` holds by then. Checked on JAX 0.12: an
array or a Python number assigned after the first call is not seen; a Flax NNX
module updated in place is not seen either, and its weights appear in the lowered
program as `stablehlo.constant`s, so compilation time and program size grow with
the model (Flax's Gemma sampler cut its compile time from about 120 s to 6 s by
passing the parameters as an argument).

## Example
```python
import jax
import jax.numpy as jnp

class Agent:
    def __init__(self, params):
        self.params = params
        self.act = jax.jit(self._act)

    def _act(self, obs):
        return self.params * obs

    def update(self, params):
        self.params = params

agent = Agent(jnp.ones(3))
agent.act(jnp.ones(3))
agent.update(jnp.zeros(3))
print(agent.act(jnp.ones(3)))  # [1. 1. 1.]: the first trace's params
```

## Use instead
```python
import jax
import jax.numpy as jnp

class Agent:
    def __init__(self, params):
        self.params = params
        self._act_fn = jax.jit(self._act)

    def _act(self, params, obs):
        return params * obs

    def act(self, obs):
        return self._act_fn(self.params, obs)

    def update(self, params):
        self.params = params

agent = Agent(jnp.ones(3))
agent.act(jnp.ones(3))
agent.update(jnp.zeros(3))
print(agent.act(jnp.ones(3)))  # [0. 0. 0.]
```
A jitted function of the arrays it needs traces them as inputs: a new value is
used on the next call, and nothing is compiled in. For a Flax NNX module, split it
(`graphdef, state = nnx.split(model)`) and pass `state`; for an Equinox module,
pass the module itself (`eqx.filter_jit` of a function of it).

## Fix safety
No automatic fix: which attributes become arguments, and who passes them, is the
author's design.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` on a function that builds the object and
calls the jitted method (`def check(obs): return Policy().act(obs)`): its StableHLO
shows the attribute's arrays as `stablehlo.constant`s. For a stale attribute, call
the jitted method, assign the attribute, and call it again: it returns what the
first trace saw.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_fix_params_as_argument.py",
            note="the fix: the jitted method takes the params as an argument",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_rebuilt_where_assigned.py",
            note="the method that assigns the attribute also rebuilds the jit",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_assigned_only_while_built.py",
            note="assigned only by the constructor and a private helper it calls",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_assigned_by_an_initialiser.py",
            note="assigned by a method named as an initialiser, called once before use",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_other_attribute_assigned.py",
            note="the attribute assigned later is not read by the jitted method",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_staticmethod_closes_over_nothing.py",
            note="a static method closes over no `self`",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_nnx_state_passed_as_argument.py",
            note="the module's state is an argument; only its graph definition is read",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jit_built_per_call.py",
            note="a jit built on every call traces again (and compiles again: JAX402's finding)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_module_field_read_only.py",
            note="only a field of the module is read (a Python int): no array is compiled in",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_linen_module_holds_no_arrays.py",
            note="a Flax Linen module object holds no parameters",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_attribute_assigned_later.py",
            line=7,
            column=20,
            message_contains="`self.params` (read at line 10) is assigned again in `update`"
            " (line 13)",
        ),
        EXAMPLES.invalid(
            "invalid_read_through_helper_method.py",
            line=7,
            message_contains="`self.temperature` (read in `_scale` at line 13)",
            note="read in a method the jitted one calls; a Python number is frozen too",
        ),
        EXAMPLES.invalid(
            "invalid_nnx_module_compiled_in.py",
            line=9,
            message_contains="`self.model` (`Linear`, a Flax NNX module)",
        ),
        EXAMPLES.invalid(
            "invalid_nnx_module_annotated_parameter.py",
            line=17,
            message_contains="`self.model` (`MLP`, a Flax NNX module), read at line 21",
            note="the module comes in as an annotated parameter; read in a loop body",
        ),
        EXAMPLES.invalid(
            "invalid_built_on_first_use.py",
            line=11,
            message_contains="`self.scale` (read at line 15) is assigned again in `set_scale`",
            note="the jit built once, on first use (`if self._apply_fn is None:`)",
        ),
        EXAMPLES.invalid(
            "invalid_equinox_module_filter_jit.py",
            line=8,
            message_contains="`self.model` (`MLP`, an Equinox module), read at line 11",
            note="an Equinox layer, jitted with `eqx.filter_jit`",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None or found[0] not in _JITS:
            return
        fexpr = found[1]
        within = self.enclosing_def(node)
        if within is None or self.bound_method(fexpr, within) is None:
            return
        assert isinstance(fexpr, cst.Attribute)
        cls = self.enclosing_class(within)
        assert cls is not None
        method = own_method(cls, fexpr.attr.value)
        if method is None:
            return
        model = self.ctx.model
        read = reads(model, cls, method)
        if not read:
            return
        assigned = self._class_facts(cls)[0]
        jit = short(self.ctx.code(node), 40)
        stored = self._stored_as(node)
        if stored is not None:
            stale = self._stale(cls, within, stored, read, assigned, node)
            if stale is not None:
                attr, fn, targets = stale
                self.report(
                    node,
                    jit=jit,
                    what=(
                        f"traces `{method.name.value}` once and keeps what it read of"
                        f" `self` then: `self.{attr}` ({self._where(read[attr], method)})"
                        f" is assigned again in `{fn.name.value}` (line {self._first(targets)}),"
                        " and later calls still use its old value"
                    ),
                    advice=f"pass `{attr}` to the jitted function as an argument",
                )
                return
        project = self.ctx.project
        class_of = project.class_ if project is not None else None

        def qualify(expr: cst.BaseExpression) -> str | None:
            if project is not None:
                return project.qualified_name(model, expr)
            return model.qualified_name(expr)

        found = []
        for attr, all_nodes in read.items():
            nodes = [(n, fn) for n, fn in all_nodes if self._computes_with(n)]
            if not nodes:
                continue  # only a field read (``self.model.config.dtype``): no arrays
            held = module_framework(model, cls, attr, assigned, class_of, qualify)
            if held is not None:
                found.append((self._first([n for n, _ in nodes]), attr, held, nodes))
        if not found:
            return
        _, attr, (name, framework), nodes = min(found, key=lambda f: (f[0], f[1]))
        tail = ", and in-place updates of it are not seen" if framework == "flax.nnx" else ""
        self.report(
            node,
            jit=jit,
            what=(
                f"closes over `self.{attr}` (`{name}`, {_KIND[framework]}),"
                f" {self._where(nodes, method)}: its arrays are compiled into the program"
                f" as constants (compile time and program size grow with them{tail})"
            ),
            advice=_ADVICE[framework],
        )

    def _class_facts(self, cls: cst.ClassDef) -> tuple[dict, frozenset[str]]:
        """A class's assignments and set-up helpers, once per class (a class may build
        several jits of its methods)."""
        if self._facts is None:
            self._facts = {}  # a rule is made per file
        found = self._facts.get(id(cls))
        if found is None:
            found = self._facts[id(cls)] = (assignments(cls), setup_only(cls))
        return found

    def _computes_with(self, read: cst.Attribute) -> bool:
        """``self.model(x)``, ``self.model.apply(x)`` or ``f(self.model)``: the module's
        arrays take part in the computation (a field read alone compiles in none)."""
        parent = self.index.parent.get(id(read))
        if type(parent) is cst.Call:
            return parent.func is read
        if type(parent) is cst.Arg:
            return True
        if type(parent) is cst.Attribute and parent.value is read:
            grand = self.index.parent.get(id(parent))
            return type(grand) is cst.Call and grand.func is parent
        return False

    def _guarded(self, call: cst.Call, builder: cst.FunctionDef, stored: str) -> bool:
        """Built once, on first use: under ``if self.<stored> is None:`` (or ``if not
        hasattr(self, "<stored>"):``) in the method that builds it."""
        for _, parent in self.index.ancestors(call):
            if parent is builder:
                return False
            if type(parent) is not cst.If:
                continue
            for sub in descendants(parent.test):
                if type(sub) is cst.Attribute and sub.attr.value == stored:
                    if type(sub.value) is cst.Name and sub.value.value == self_name(builder):
                        return True
                if type(sub) is cst.SimpleString and sub.evaluated_value == stored:
                    return True
        return False

    def _where(
        self, reads: list[tuple[cst.Attribute, cst.FunctionDef]], method: cst.FunctionDef
    ) -> str:
        """``read at line 12``, or ``read in `transformer` at line 263`` when the first read
        is in another method or property that the jitted one reaches."""
        line, fn = min(
            ((self.ctx.positions[n].start.line, f) for n, f in reads), key=lambda r: r[0]
        )
        if fn is method:
            return f"read at line {line}"
        return f"read in `{fn.name.value}` at line {line}"

    def _first(self, nodes: list[cst.CSTNode]) -> int:
        """The first line among ``nodes`` (only asked when reporting: positions cost)."""
        return min(self.ctx.positions[n].start.line for n in nodes)

    def _stored_as(self, call: cst.Call) -> str | None:
        """``X`` for ``self.X = jax.jit(self.m)``."""
        parent = self.index.parent.get(id(call))
        if type(parent) is not cst.Assign or parent.value is not call:
            return None
        if len(parent.targets) != 1:
            return None
        target = parent.targets[0].target
        within = self.enclosing_def(call)
        if (
            type(target) is cst.Attribute
            and type(target.value) is cst.Name
            and within is not None
            and target.value.value == self_name(within)
        ):
            return target.attr.value
        return None

    def _stale(
        self,
        cls: cst.ClassDef,
        builder: cst.FunctionDef,
        stored: str,
        read: dict[str, list[tuple[cst.Attribute, cst.FunctionDef]]],
        assigned: dict[str, list[tuple[cst.FunctionDef, cst.CSTNode]]],
        call: cst.Call,
    ) -> tuple[str, cst.FunctionDef, list[cst.CSTNode]] | None:
        """The attribute the jitted method reads first that a method other than the
        constructors (and the builder) assigns without rebuilding the stored jit, that
        method (the first in the class) and its assignments of it."""
        if builder.name.value not in CONSTRUCTORS and not self._guarded(call, builder, stored):
            return None  # built on each call of a method: a later call builds it anew
        setup = self._class_facts(cls)[1]
        rebuilders = {fn.name.value for fn, _ in assigned.get(stored, ())}
        methods = methods_of(cls)
        order = {id(fn): i for i, fn in enumerate(methods.values())}
        found = []
        for attr in read:
            by_method: dict[int, list[cst.CSTNode]] = {}
            for fn, target in assigned.get(attr, ()):
                name = fn.name.value
                if (
                    name in CONSTRUCTORS
                    or name.lstrip("_").startswith(_INITIALISERS)
                    or name in setup
                    or name in rebuilders
                    or fn is builder
                    or methods.get(name) is not fn
                ):
                    continue
                by_method.setdefault(id(fn), []).append(target)
            if by_method:
                first = min(by_method, key=order.__getitem__)
                fn = next(f for f in methods.values() if id(f) == first)
                line = self._first([n for n, _ in read[attr]])
                found.append((line, attr, fn, by_method[first]))
        if not found:
            return None
        _, attr, fn, targets = min(found, key=lambda f: (f[0], f[1]))
        return attr, fn, targets
