"""JAX404 unhashable-static-arg: a list, dict, set or array passed to a static parameter of
a jitted function, which jit cannot hash (ValueError)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.names import dotted
from jaxlint.analysis.static_params import (
    Forwards,
    hashed_arguments,
    module_static_forwards,
    static_signature,
)
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixOp, Raises, ReplaceNode, Rule
from jaxlint.rules.compilation.helpers import Queries, short

EXAMPLES = Examples(__file__)

_NUMPY_ARRAY_MAKERS = frozenset(
    {
        "numpy.array",
        "numpy.asarray",
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "numpy.arange",
        "numpy.linspace",
    }
)


class UnhashableStaticArg(Queries, Rule):
    code = "JAX404"
    name = "unhashable-static-arg"
    message = (
        "`{value}` is passed to {target}: {kind} is not "
        'hashable, and jit raises ValueError ("Non-hashable static arguments are not '
        'supported"); {advice}'
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile FILE.py:CALLEE"
    # jit raises before tracing; it never causes a recompilation
    confirmed_by = (Raises("ValueError", message_startswith="Non-hashable static arguments"),)
    docs = """\
## What it does
Flags a call of a jitted function (`@jax.jit`, `@partial(jax.jit, ...)`,
`@jax.jit(static_argnums=...)`, `f = jax.jit(g, ...)`, `jax.jit(g, ...)(...)`,
`jax.pmap`'s `static_broadcasted_argnums`, a jitted method called as
`self.m(...)`) that passes a list, dict or set (a literal or a comprehension), a
name bound to one in the same scope or an enclosing one, or an array made by
`jnp`/`np` to a parameter named by `static_argnums`/`static_argnames`. Arguments
map to parameters by position and by keyword, as JAX maps them (a parameter named
by number is static by keyword too, and the reverse).

The jitted function may be defined in another module of the project, and the call
may go through functions that hand their parameter on, unchanged, to a static one
(`def grid(scale, limits): return _grid(scale, limits)` with `limits` static in
`_grid`), in any module: a list given to `grid` fails in `_grid`. A function that
binds the parameter again first (`limits = tuple(limits)`) is not one of those.

It stays silent on tuples, frozensets, strings, numbers and `None`, on unknown
values, and on an unhashable *default* of a static parameter: JAX hashes only the
arguments a call passes (checked on JAX 0.12: a list default runs).

## Why is this bad
JAX looks static arguments up in its compilation cache by hash. A list, dict, set
or array has no hash, so every such call fails before tracing (checked on JAX
0.12): `ValueError: Non-hashable static arguments are not supported. An error
occurred while trying to hash an object of type <class 'list'>, [1, 2].`

## Example
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("axes",))
def total(x, axes):
    return x.sum(axis=axes)

total(jnp.ones((2, 3)), axes=[0, 1])
```

## Use instead
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("axes",))
def total(x, axes):
    return x.sum(axis=axes)

total(jnp.ones((2, 3)), axes=(0, 1))
```

## Fix safety
Unsafe, offered for literals: a list literal becomes a tuple (`[0, 1]` ->
`(0, 1)`, `[a]` -> `(a,)`), a list comprehension a `tuple(...)` of the same
generator, and a set literal a `frozenset({...})`. The function then receives a
tuple or frozenset: code that appends to it, concatenates it with a list, or
checks `isinstance(axes, list)` behaves differently. Dicts and arrays have no
fix (make them hashable, e.g. a tuple of pairs, or pass them as traced
arguments).

## Verify at runtime
`jaxlint probe recompile FILE.py:CALLEE` (the `verify:` line names the jitted
function the call calls, with the static arguments its `jax.jit` uses) calls it on
each case of the cases factory (`make_cases`), or, without one, on the arguments of
each call site in the file whose arguments evaluate: a case with an unhashable
value stops the probe with the `ValueError` above (exit code 3, rule JAX404), and
hashable values that differ between cases are named as the reason for each
recompilation ("static value").
"""
    VALID = [
        EXAMPLES.valid("valid_fix_tuple.py", note="the fix: a tuple", runs=True),
        EXAMPLES.valid(
            "valid_static_argnums_tuples_position_keyword.py",
            note="static_argnums with tuples, by position and by keyword",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_unhashable_default_never_hashed_jax.py",
            note="an unhashable default is never hashed: JAX hashes passed arguments only",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_array_traced_parameter.py", note="an array to a traced parameter", runs=True
        ),
        EXAMPLES.valid(
            "valid_strings_none_frozensets_list_traced.py",
            note="strings, None, frozensets; a list in a traced position",
            runs=True,
        ),
        EXAMPLES.valid("valid_unknown_value.py", note="an unknown value"),
        EXAMPLES.valid(
            "valid_jitted_or_static_arguments_list.py",
            note="not jitted, or no static arguments (a list is a pytree of traced leaves)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_star_arguments_positions_unknown.py",
            note="star arguments: positions unknown",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_name_bound_twice_value_call.py",
            note="a name bound twice: its value at the call is unknown",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_list_forwarded_to_traced_parameter.py",
            note="a list handed on to a traced parameter (a pytree), a tuple to the static one",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_public_function_makes_a_tuple.py",
            note="a function that makes a tuple of its parameter before it passes it on",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_total_jnp_ones_2_3_axes.py",
            line=10,
            column=30,
            raises="ValueError",
            unsafe_fix=True,
            message_contains="`[0, 1]` is passed to static parameter `axes` of `total`: a list",
        ),
        EXAMPLES.invalid(
            "invalid_static_number_passed_position_one.py",
            line=8,
            raises="ValueError",
            unsafe_fix=True,
            note="static by number, passed by position; a one-element tuple",
        ),
        EXAMPLES.invalid(
            "invalid_static_name_passed_position_comprehension.py",
            raises="ValueError",
            unsafe_fix=True,
            note="static by name, passed by position; a comprehension",
        ),
        EXAMPLES.invalid(
            "invalid_f_jnp_ones_3_1_2.py",
            raises="ValueError",
            unsafe_fix=True,
            message_contains="a set",
        ),
        EXAMPLES.invalid(
            "invalid_fix_dict.py",
            raises="ValueError",
            message_contains="a dict",
            note="no fix for a dict",
        ),
        EXAMPLES.invalid(
            "invalid_f_jnp_ones_3_jnp_array.py", raises="ValueError", message_contains="a JAX array"
        ),
        EXAMPLES.invalid(
            "invalid_jitted_method_name_bound_list.py",
            line=13,
            message_contains="`shape` is passed to static parameter `shape` of `apply`: a list",
            note="a jitted method; a name bound to a list",
        ),
        EXAMPLES.invalid(
            "invalid_jax_pmap_f_static_broadcasted_argnums.py", raises="ValueError", unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_public_function_forwards_to_static.py",
            line=16,
            raises="ValueError",
            unsafe_fix=True,
            message_contains=(
                "`[-1, 1]` is passed to `grid`, which hands its `limits` on to static "
                "parameter `limits` of `_grid`: a list"
            ),
            note="a function that hands its parameter on to a static one (any module)",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        jitted = self.jitted_call(node)
        if jitted is None:
            self._project_call(node)
            return
        fn_name = jitted.fn.name.value if isinstance(jitted.fn, cst.FunctionDef) else "the function"
        for arg, param in jitted.static_arguments(node):
            shown = f"parameter {param}" if isinstance(param, int) else param
            self._check(arg, f"static parameter `{shown}` of `{fn_name}`")

    def _project_call(self, node: cst.Call) -> None:
        """A jitted function this module does not show (imported from the project), or a
        function of the project that hands its parameter on to a static one."""
        if type(node.func) not in (cst.Name, cst.Attribute):
            return
        signature = static_signature(self.ctx.model, self.ctx.trace, node.func, self._forwards)
        if signature is None:
            return
        callee = dotted(node.func) or "the function"
        for arg, param, via in hashed_arguments(node, signature):
            if via is None:
                self._check(arg, f"static parameter `{param}` of `{callee}`")
            else:
                self._check(
                    arg,
                    f"`{callee}`, which hands its `{param}` on to static parameter "
                    f"`{via[1]}` of `{via[0]}`",
                )

    def _forwards(self) -> dict[str, Forwards]:
        return module_static_forwards(self.ctx.model, self.ctx.trace)

    def _check(self, arg: cst.Arg, target: str) -> None:
        found = self._unhashable(arg.value)
        if found is None:
            return
        kind, literal = found
        replacement = self._replacement(arg.value) if literal else None
        if replacement is not None:
            advice = f"pass `{short(replacement, 40)}`"
        elif kind == "a dict":
            advice = "pass a hashable value (a tuple of pairs) or make it a traced argument"
        else:
            advice = "pass a tuple or make it a traced argument"
        value_node = arg.value

        def fix(
            value_node: cst.BaseExpression = value_node, text: str | None = replacement
        ) -> list[FixOp]:
            assert text is not None
            return [ReplaceNode(value_node, text)]

        self.report(
            value_node,
            fix=fix if replacement is not None else None,
            applicability=Applicability.UNSAFE if replacement is not None else None,
            fix_message="Pass a hashable tuple/frozenset",
            value=short(self.ctx.code(value_node), 40),
            target=target,
            kind=kind,
            advice=advice,
        )

    def _unhashable(self, expr: cst.BaseExpression) -> tuple[str, bool] | None:
        """What unhashable thing ``expr`` is, and whether it is written here as a literal."""
        if isinstance(expr, (cst.List, cst.ListComp)):
            return "a list", True
        if isinstance(expr, (cst.Set, cst.SetComp)):
            return "a set", True
        if isinstance(expr, (cst.Dict, cst.DictComp)):
            return "a dict", True
        if isinstance(expr, cst.Call):
            qn = self.ctx.model.call_name(expr)
            if qn is None:
                return None
            if qn in _NUMPY_ARRAY_MAKERS:
                return "a NumPy array", False
            if qn.startswith("jax.numpy.") and self._jax_array(expr):
                return "a JAX array", False
            if qn in ("builtins.list", "builtins.dict", "builtins.set"):
                return f"a {qn.split('.')[1]}", False
            return None
        if isinstance(expr, cst.Name):
            found = self.bindings(expr)
            if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
                return None
            value = self.index.assigned.get(id(found[1][0].node))
            if value is None or isinstance(value, cst.Name):
                return None
            got = self._unhashable(value)
            return None if got is None else (got[0], False)
        return None

    def _jax_array(self, call: cst.Call) -> bool:
        val = self.ctx.trace.value(call)
        return val is not None and val.array

    def _replacement(self, expr: cst.BaseExpression) -> str | None:
        model = self.ctx.model
        module = self.ctx.module
        scope = model.module_scope
        first = next((n for n in self.index.nodes_in(expr) if isinstance(n, cst.Name)), None)
        if first is not None:
            scope = model.scope_for(first)
        if isinstance(expr, cst.List):
            elements = list(expr.elements)
            if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
                elements[0] = elements[0].with_changes(comma=cst.Comma())
            node = cst.Tuple(
                elements=elements,
                lpar=[cst.LeftParen(whitespace_after=expr.lbracket.whitespace_after)],
                rpar=[cst.RightParen(whitespace_before=expr.rbracket.whitespace_before)],
            )
            return module.code_for_node(node)
        if isinstance(expr, cst.ListComp):
            if model.resolve_name("tuple", scope) != "builtins.tuple":
                return None
            gen = cst.GeneratorExp(elt=expr.elt, for_in=expr.for_in, lpar=[], rpar=[])
            return f"tuple({module.code_for_node(gen)})"
        if isinstance(expr, cst.Set):
            if model.resolve_name("frozenset", scope) != "builtins.frozenset":
                return None
            return f"frozenset({module.code_for_node(expr)})"
        return None
