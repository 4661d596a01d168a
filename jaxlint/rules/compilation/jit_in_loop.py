"""JAX401 jit-in-loop: a compiling transform (`jax.jit`, `jax.pmap`, ...) applied to a
function inside a Python loop, which rebuilds the wrapper (and often recompiles) each time."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.names import Binding, Scope
from jaxlint.analysis.transforms import PARTIAL
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Event, Examples, Rule
from jaxlint.rules.compilation.helpers import Queries, positional, short
from jaxlint.rules.compilation.jit_in_loop_fix import clear_path, hoist_fix, pure

EXAMPLES = Examples(__file__)


def _dotted(expr: cst.BaseExpression) -> str | None:
    """``self.fn`` -> "self.fn"; ``None`` for anything but names and attributes."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr.value}"
    return None


class _Callable:
    """How the wrapped callable behaves from one evaluation to the next."""

    FRESH = "fresh"
    STABLE = "stable"
    UNKNOWN = "unknown"


class JitInLoop(Queries, Rule):
    code = "JAX401"
    name = "jit-in-loop"
    message = "`{wrapper}` is built inside the loop at line {loop_line}: {consequence}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile --loop FILE.py:FUNC --steps 3"
    confirmed_by = (Event("/jax/core/compile/backend_compile_duration"),)  # one per iteration
    docs = """\
## What it does
Flags a compiling transform (`jax.jit`, `jax.pmap`, `pjit`, `flax.nnx.jit`,
`equinox.filter_jit`, `equinox.filter_pmap`, in any import spelling) applied to a
function inside the body of a Python `for` or `while` loop, whether the wrapper
is assigned (`step = jax.jit(train_step)`) or called inline
(`jax.jit(train_step)(state, batch)`).

It stays silent when the loop runs while an outer `jit` traces (the inner wrapper
is traced inline, once per outer compilation), on `jax.vmap`/`jax.grad` wrappers
(they cache nothing, so rebuilding them costs little), on ahead-of-time use
(`jax.jit(f).lower(x)` in a benchmark loop), and on loops over a literal list
of cases (`for dtype in (jnp.float32, jnp.bfloat16):`) when the wrapped function
changes with the case (one compilation per case is the point) or is the same
function (a few wrapper rebuilds cost nothing that matters).

## Why is this bad
`jax.jit` caches the compiled program on the identity of the function it wraps.
Measured on JAX 0.12 (CPU):

- When the wrapped function is a new object on every iteration (a `lambda`, a
  `functools.partial`, a function defined in the loop, a bound method
  `self.step`, the result of `jax.vmap(f)`), every iteration traces and compiles
  it again: four iterations gave four XLA compilations instead of one.
- When it is the same function every time (`jax.jit(train_step)`), the
  compilation is reused, but every call goes through a new wrapper, off JAX's
  fast C++ dispatch path: about 160 µs per call instead of 24 µs for a small
  function.

## Example
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
for i in range(100):
    step = jax.jit(train_step)
    w = step(w, jnp.full(3, i))
```

## Use instead
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
step = jax.jit(train_step)
for i in range(100):
    w = step(w, jnp.full(3, i))
```
When the wrapped function depends on the loop (`jax.jit(lambda w: w - lr * g)`
with `g` computed in the loop), jit it once outside the loop and pass the
changing values as arguments.

## Fix safety
Offered when the wrapper and everything it refers to (the wrapped function, the
transform's options) do not depend on the loop: no name it uses is assigned in
the loop body or by the loop target, no attribute or item of one is assigned
there, it calls nothing but the transform and `functools.partial` (so building it
once has no other effect), and no `try` or `with` lies between it and the loop.
The wrapper moves above the outermost loop it does not depend on: an assignment
`step = jax.jit(f)` moves as it is (with the comments just above it) when `step`
is bound nowhere else in the function; otherwise the wrapper is bound to a new
name above the loop (`train_step_jit = jax.jit(train_step)`) and used in its
place. A function defined inside the loop is never hoisted (the fix would wrap a
different object).

Safe when the wrapped function is the same object on every iteration (a
module-level function, an import, a name the loop does not rebind): the original
already reused its first trace, so only the dispatch changes. Unsafe when it is a
new object per iteration (a lambda, a `partial`, a bound method `self.step`): the
original traced it again on every iteration, re-reading every Python value the
function reads while tracing (an attribute of `self`, a closed-over dict, a
global); after the fix such values are read once, at the first call, so a loop
that changes them (`self.lr = schedule(epoch)`) computes with the first value.

## Verify at runtime
`jaxlint probe recompile --loop FILE.py:FUNC --steps 3` calls the function that
contains the loop three times and counts XLA compilations per call (from
`jax.monitoring` events): a wrapper around a new function compiles once per
iteration, in every call.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_fix_jit_hoisted_above_loop.py",
            note="the fix: jit hoisted above the loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jit_module_level_called_loop.py",
            note="jit at module level, called in the loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_inside_jit_inner_wrapper_traced.py",
            note="inside jit the inner wrapper is traced inline, once per outer compile",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_one_compilation_per_case_literal.py",
            note="one compilation per case of a literal sweep is the point",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_vmap_caches_nothing_rebuilding_costs.py",
            note="vmap caches nothing: rebuilding it costs little",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_wrapper_built_when_g_called.py",
            note="the wrapper is built when g is called, not by the loop",
        ),
        EXAMPLES.valid(
            "valid_wrappers_built_comprehension_called_loop.py",
            note="wrappers built in a comprehension, called in the loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_cache_wrappers_built_once.py", note="a cache of wrappers built once", runs=True
        ),
        EXAMPLES.valid(
            "valid_local_function_named_jit_jax.py",
            note="a local function named jit is not jax.jit",
        ),
        EXAMPLES.valid(
            "valid_loop_s_iterable_evaluated_once.py",
            note="the loop's iterable is evaluated once",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_ahead_time_lowering_purpose_same.py",
            note="ahead-of-time lowering on purpose; the same function over two literal cases",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_step_jax_jit_train_step.py",
            line=9,
            column=12,
            message_contains="build it once above the loop at line 8",
        ),
        EXAMPLES.invalid(
            "invalid_out_append_jax_jit_scale_static.py",
            line=11,
            message_contains="fast dispatch path",
        ),
        EXAMPLES.invalid(
            "invalid_hoisted_above_outermost_loop_does.py",
            line=8,
            message_contains="traces and compiles it again",
            unsafe_fix=True,
            note="hoisted above the outermost loop it does not depend on, with its comment",
        ),
        EXAMPLES.invalid(
            "invalid_statement_over_several_lines_moves.py",
            line=10,
            note="a statement over several lines moves whole (found on jax's own pallas code)",
        ),
        EXAMPLES.invalid(
            "invalid_depends_outer_sweep_s_i.py",
            line=7,
            message_contains="build it once above the loop at line 6",
            unsafe_fix=True,
            note="depends on the outer sweep's i: hoisted above the inner loop only",
        ),
        EXAMPLES.invalid(
            "invalid_depends_batch_fix_message_says.py",
            line=9,
            message_contains="pass `x` as an argument",
            note="depends on the batch: no fix, the message says what to pass",
        ),
        EXAMPLES.invalid(
            "invalid_function_redefined_loop_hoisting_would.py",
            line=8,
            message_contains="define `double`",
            note="a function redefined in the loop: hoisting would wrap another object",
        ),
        EXAMPLES.invalid(
            "invalid_w_jax_jit_self_step_w.py",
            line=10,
            message_contains="bound method `self.step`",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid("invalid_b_nnx_jit_f_i.py", count=2),
        EXAMPLES.invalid(
            "invalid_call_wrapper_fix_building_once.py",
            line=7,
            message_contains="if `make()` is a new object each time",
            note="a call in the wrapper: no fix (building it once would skip the call)",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None:
            return
        transform, fexpr = found
        loops = self.loops_around(node)
        if not loops or self.staged(node) or self.ahead_of_time(node):
            return
        scope_node, _ = self.function_scope(node)
        model = self.ctx.model
        scope = (
            model.scope_of_node.get(id(scope_node)) if scope_node is not None else None
        ) or model.module_scope
        hoist_to: cst.For | cst.While | None = None
        deps: list[str] = []
        for loop in loops:
            deps = self._dependencies(node, loop, scope)
            if deps:
                break
            hoist_to = loop
        kind, what = self._kind(fexpr, loops[0], scope, scope_node)
        if hoist_to is None:
            # depends on the innermost loop: a new function per iteration is expected only
            # when the loop sweeps a literal list of cases
            if kind == _Callable.STABLE or self._sweep(loops[0]):
                return
        elif kind == _Callable.STABLE and all(self._sweep(loop) for loop in loops):
            return  # a few cases: a few cheap wrapper rebuilds, no recompilation
        wrapper_text = short(self.ctx.code(node))
        consequence = {
            _Callable.FRESH: (
                f"the wrapped {what} is a new function on every iteration, "
                "so JAX traces and compiles it again each time"
            ),
            _Callable.STABLE: (
                "each iteration makes a new wrapper whose calls miss JAX's fast dispatch "
                "path (the compiled code itself is reused)"
            ),
            _Callable.UNKNOWN: (
                f"each iteration makes a new wrapper, and if `{what}` is a new object each "
                "time, JAX also traces and compiles it again"
            ),
        }[kind]
        fix = None
        if hoist_to is not None:
            loop_line = self.ctx.positions[hoist_to].start.line
            advice = f"build it once above the loop at line {loop_line}"
            if pure(self, node) and clear_path(self, node, hoist_to):
                fix = hoist_fix(self, node, transform, fexpr, hoist_to, scope)
        else:
            loop_line = self.ctx.positions[loops[0]].start.line
            defs = [d for d in deps if self._is_def_in(d, loops[0], scope)]
            if defs and len(defs) == len(deps):
                names = ", ".join(f"`{d}`" for d in defs)
                advice = f"define {names} and build the wrapper once above the loop"
            else:
                rest = [f"`{d}`" for d in deps if d not in defs]
                plural = "as arguments" if len(rest) > 1 else "as an argument"
                advice = f"build it once above the loop and pass {', '.join(rest)} {plural}"
        # Around the same function, the original reuses the first trace too: hoisting keeps
        # behaviour. Around a new function per iteration, the original traced again each
        # time, re-reading any Python state the function reads at trace time.
        safe = kind == _Callable.STABLE
        self.report(
            node,
            fix=fix,
            applicability=(Applicability.SAFE if safe else Applicability.UNSAFE)
            if fix is not None
            else None,
            fix_message="Build the wrapper once, above the loop",
            wrapper=wrapper_text,
            loop_line=self.ctx.positions[loops[0]].start.line,
            consequence=consequence,
            advice=advice,
        )

    # -- analysis ----------------------------------------------------------------------

    def _bound_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> list[Binding]:
        return [b for b in scope.bindings.get(name, ()) if self.index.inside(b.node, loop)]

    def _dependencies(self, wrapper: cst.Call, loop: cst.CSTNode, scope: Scope) -> list[str]:
        """What the wrapper uses that the loop changes: names it (re)binds, and attributes
        or items it assigns (``self.fn = ...``), in order of appearance."""
        model = self.ctx.model
        out: list[str] = []
        mutated = _mutated_paths(self, loop)
        for node in self.index.nodes_in(wrapper):
            if isinstance(node, cst.Name):
                parent = self.index.parent.get(id(node))
                if isinstance(parent, cst.Arg) and parent.keyword is node:
                    continue
                found = model.lookup(node.value, model.scope_for(node))
                if found is None or found[0] is not scope:
                    continue
                if self._bound_in(node.value, loop, scope) and node.value not in out:
                    out.append(node.value)
            elif isinstance(node, (cst.Attribute, cst.Subscript)) and mutated:
                path = _dotted(node.value if isinstance(node, cst.Subscript) else node)
                if path is None:
                    continue
                for m in mutated:
                    if (path == m or path.startswith(m + ".")) and m not in out:
                        out.append(m)
        return out

    def _is_def_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> bool:
        bound = self._bound_in(name, loop, scope)
        return bool(bound) and all(b.kind == "def" for b in bound)

    def _kind(
        self,
        fexpr: cst.BaseExpression,
        loop: cst.CSTNode,
        scope: Scope,
        scope_node: cst.CSTNode | None,
    ) -> tuple[str, str]:
        model = self.ctx.model
        if isinstance(fexpr, cst.Lambda):
            return _Callable.FRESH, "lambda"
        if isinstance(fexpr, cst.Call):
            text = short(self.ctx.code(fexpr), 32)
            if model.call_name(fexpr) in PARTIAL:
                return _Callable.FRESH, f"`{text}`"
            if self.ctx.trace.transform_of(fexpr.func) is not None:
                return _Callable.FRESH, f"`{text}` result"
            return _Callable.UNKNOWN, text
        if isinstance(fexpr, cst.Name):
            found = model.lookup(fexpr.value, model.scope_for(fexpr))
            if found is None:
                return _Callable.UNKNOWN, fexpr.value
            in_loop = [b for b in found[1] if self.index.inside(b.node, loop)]
            if found[0] is not scope or not in_loop:
                return _Callable.STABLE, fexpr.value
            if all(b.kind == "def" for b in in_loop):
                return _Callable.FRESH, f"function `{fexpr.value}`"
            values = [self.index.assigned.get(id(b.node)) for b in in_loop]
            if all(
                isinstance(v, cst.Lambda)
                or (isinstance(v, cst.Call) and model.call_name(v) in PARTIAL)
                for v in values
            ):
                return _Callable.FRESH, f"`{fexpr.value}`"
            return _Callable.UNKNOWN, fexpr.value
        if isinstance(fexpr, cst.Attribute):
            method = self.bound_method(fexpr, scope_node)
            if method is not None:
                return _Callable.FRESH, f"bound method `{method}`"
            qn = model.qualified_name(fexpr)
            if qn is not None:
                return _Callable.STABLE, qn
        return _Callable.UNKNOWN, short(self.ctx.code(fexpr), 32)

    def _sweep(self, loop: cst.For | cst.While) -> bool:
        """A ``for`` over a literal list of cases (or ``zip``/``enumerate``/``product`` of
        literal lists): a few different functions, each compiled once."""
        return isinstance(loop, cst.For) and self._literal_cases(loop.iter)

    def _literal_cases(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            return True
        if not isinstance(expr, cst.Call):
            return False
        args = positional(expr)
        qn = self.ctx.model.call_name(expr)
        if qn in ("builtins.zip", "itertools.product"):
            return bool(args) and all(self._literal_cases(a.value) for a in args)
        if qn in ("builtins.enumerate", "builtins.reversed", "builtins.sorted"):
            return bool(args) and self._literal_cases(args[0].value)
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
            "items",
            "keys",
            "values",
        ):
            return self._literal_cases(expr.func.value)
        return False


def _mutated_paths(rule: JitInLoop, loop: cst.CSTNode) -> set[str]:
    """Dotted paths whose attributes or items the loop assigns or deletes:
    ``self.fn = ...`` gives ``self.fn``, ``cfg["lr"] = ...`` gives ``cfg``."""
    out: set[str] = set()
    for node in rule.index.nodes_in(loop):
        targets: list[cst.BaseExpression] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.Del, cst.For)):
            targets = [node.target]
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        stack = list(targets)
        while stack:
            t = stack.pop()
            if isinstance(t, (cst.Tuple, cst.List)):
                stack.extend(el.value for el in t.elements)
            elif isinstance(t, cst.StarredElement):
                stack.append(t.value)
            elif isinstance(t, (cst.Attribute, cst.Subscript)):
                path = _dotted(t.value if isinstance(t, cst.Subscript) else t)
                if path is not None:
                    out.add(path)
    return out
