"""JAX2xx: Python control flow on traced values.

Python decides ``if``, ``while``, ``range(n)`` and array shapes while JAX traces the
function, so it needs concrete values there. Inside ``jit`` (and ``vmap``, lax loop
bodies, ``checkpoint``...) the arguments are abstract tracers: asking for their
truth value, their integer value or a shape made of them raises. The rules here
fire only on values the trace analysis says are *definitely* traced by such a
transform (``TraceAnalysis.is_abstract``); under ``grad`` alone values stay
concrete and Python control flow works.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.tracing import Level, Val
from jaxlint.analysis.transforms import TRANSFORMS
from jaxlint.analysis.walk import children
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, Option, ReplaceNode, Rule

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

_PROBE = "jaxlint probe compile FILE.py:FUNC"


# -- shared helpers ---------------------------------------------------------------------


def _truth_leaves(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The expressions whose truth value Python computes when ``expr`` is tested."""
    if isinstance(expr, cst.BooleanOperation):
        yield from _truth_leaves(expr.left)
        yield from _truth_leaves(expr.right)
    elif isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        yield from _truth_leaves(expr.expression)
    else:
        yield expr


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _static_hint(val: Val) -> str:
    """How to make the value static, in the user's names."""
    origin = val.origin
    if origin is not None and origin.func is not None:
        fn = origin.func
        if (
            origin.role == f"parameter of `{fn.name}`"
            and fn.caller is None
            and any(t in TRANSFORMS and TRANSFORMS[t].has_static_args for t in fn.transforms)
            and origin.name in fn.param_levels
        ):
            return f"mark it static with static_argnames=('{origin.name}',)"
    return "make it a Python value known at trace time (a static argument, a shape)"


class _TracerQueries:
    """Common queries of the JAX2xx rules (a mixin: the registry takes every Rule
    subclass of this module for a rule)."""

    ctx: FileContext

    def abstract(self, expr: cst.CSTNode) -> Val | None:
        """The value of ``expr`` when Python cannot know it while tracing."""
        trace = self.ctx.trace
        val = trace.value(expr)
        if val is None or not trace.is_abstract(val, expr):
            return None
        return val

    def truth_tested(self, leaf: cst.BaseExpression) -> Val | None:
        """``bool(leaf)`` raises: ``leaf`` is definitely one traced array.

        A Python container (``if params:``) or a pytree parameter that may be a dict
        or ``None`` has a static truth value: only array results (comparisons,
        arithmetic, ``jnp`` calls, array methods, array-annotated parameters) count.
        """
        if isinstance(leaf, cst.Comparison) and (
            _is_none(leaf.left) or any(_is_none(c.comparator) for c in leaf.comparisons)
        ):
            return None
        val = self.abstract(leaf)
        if val is None or val.container or not val.computed:
            return None
        return val

    def once(self, node: cst.CSTNode) -> bool:
        """True the first time it is asked about ``node``."""
        reported: set[int] = self.__dict__.setdefault("_reported", set())
        if id(node) in reported:
            return False
        reported.add(id(node))
        return True

    def why(self, val: Val) -> object:
        return self.ctx.trace.why(val)


_EXAMPLES_JAX201 = Examples(Path(__file__).parent / "control_flow" / "python_branch_on_tracer.py")


# -- JAX201 -------------------------------------------------------------------------------


class PythonBranchOnTracer(_TracerQueries, Rule):
    code = "JAX201"
    name = "python-branch-on-tracer"
    message = "{construct} needs the truth value of traced `{cond}`: {why}; {advice}"
    fix_availability = "sometimes"
    probe = _PROBE
    docs = """\
## What it does
Flags Python branching on a value that is definitely a tracer inside `jit`-like
code (and `vmap`, lax loop and `cond` bodies, `checkpoint`, helpers called from
them): the condition of `if`/`elif`, of a conditional expression
(`a if c else b`), of `assert` and of a comprehension's `if`, the operands of
`and`/`or`/`not`, and chained comparisons (`0 < x < 1`). `while` conditions are
reported by JAX202.

It stays silent on conditions known at trace time: shapes, `ndim`, `len()`,
`dtype` tests, `x is None`, `isinstance`, static arguments (`static_argnums`,
`static_argnames`, Equinox `filter_jit` non-array arguments), parameters left at
their default, and the truth value of Python containers and pytrees
(`if params:`). Under `grad` alone values stay concrete and `if` works, so it is
not reported there.

## Why is this bad
Python evaluates the condition once, while JAX traces the function, and a tracer
has no concrete value then. JAX raises `TracerBoolConversionError`
("Attempted boolean conversion of traced array with shape bool[]") for a scalar
condition, and `ValueError` ("The truth value of an array with more than one
element is ambiguous") for a condition with more than one element.

## Example
```python
import jax

@jax.jit
def relu(x):
    if x > 0:
        y = x
    else:
        y = 0.0
    return y
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.jit
def relu(x):
    y = jnp.where(x > 0, x, 0.0)
    return y
```
`jnp.where` computes both sides and selects element-wise; `lax.cond(pred, f, g,
x)` runs only one branch (both are traced). Use `jnp.logical_and`/`&` for `and`,
and `jax.experimental.checkify` or `equinox.error_if` for runtime asserts. If the
condition should be known at trace time, mark its argument static
(`static_argnames=("flag",)`).

## Fix safety
Unsafe, offered for `y = a if c else b` and for `if c: y = a` / `else: y = b`
(one assignment to the same name in each branch, no comments): both become
`y = jnp.where(c, a, b)` (spelled through the file's imports). `jnp.where`
evaluates both branches (a branch that fails or is costly now always runs),
returns an array even where a branch was a Python number, broadcasts the two
branches, and does not accept pytrees.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the
`TracerBoolConversionError` (or `ValueError`) with your file and line, naming
JAX201.
"""
    VALID = [
        _EXAMPLES_JAX201.valid(
            "valid_shape_ndim_len_dtype_tests.py",
            note="shape, ndim, len and dtype tests are static",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_none_tests_parameter_left_default.py",
            note="`is None` tests and a parameter left at its default",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_static_arguments_name_number.py",
            note="static arguments by name and by number",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_truth_pytree_parameter_python_list.py",
            note="truth of a pytree parameter and of a Python list is static",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_host_code_after_jitted_call.py",
            note="host code, after the jitted call returns a concrete array",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_grad_alone_keeps_values_concrete.py",
            note="grad alone keeps values concrete: `if` works",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_fixes_jnp_where_lax_cond.py", note="the fixes: jnp.where and lax.cond", runs=True
        ),
        _EXAMPLES_JAX201.valid(
            "valid_filter_jit_keeps_bool_int.py",
            note="filter_jit keeps bool and int arguments static",
        ),
        _EXAMPLES_JAX201.valid(
            "valid_module_attributes_static_metadata_pytree.py",
            note="module attributes are static metadata of the pytree",
        ),
        _EXAMPLES_JAX201.valid(
            "valid_loop_over_python_tuple_gives.py",
            note="a loop over a Python tuple gives static elements",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_vmap_axes_none_passes_value.py",
            note="vmap in_axes=None passes the value through unchanged",
            runs=True,
        ),
        _EXAMPLES_JAX201.valid(
            "valid_axes_given_position_equinox_nn.py",
            note="in_axes given by position (equinox/nn/_pool.py): `size` is not mapped",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX201.invalid(
            "invalid_if_x_0.py",
            line=5,
            column=8,
            message_contains="`x` is traced: parameter of `relu`, jitted by `jax.jit` at line 3",
            unsafe_fix=True,
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_y_x_if_x_1_0.py",
            line=5,
            column=14,
            unsafe_fix=True,
            message_contains="jitted by `jax.jit` at line 8",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_condition_more_than_one_element.py",
            note="a condition with more than one element raises ValueError",
            message_contains="select with `jnp.where",
            raises="ValueError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_assert_x_sum_0_empty.py",
            line=7,
            column=12,
            message_contains="Python `assert`",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_keep_x_0_carry_10.py",
            line=4,
            column=12,
            count=1,
            message_contains="traced as a body of `lax.scan`",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_helper_method_reached_through_self.py",
            line=14,
            column=20,
            message_contains="Python `not`",
            note="a helper method reached through self from a jitted method",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_return_1_0_if_0_0.py",
            line=6,
            column=19,
            count=1,
            message_contains="vmapped by `jax.vmap`",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_grad_inside_jitted_step_runs.py",
            line=8,
            column=45,
            note="grad inside a jitted step runs under jit: its tracers are abstract",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_bool_argument_static_becomes_tracer.py",
            line=5,
            message_contains="`flag` is traced",
            note="a bool argument that is not static becomes a tracer",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_if_jnp_isnan_y_any.py", line=7, message_contains="jitted by `flax.nnx.jit`"
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_elif_chain_reported_twice_fix.py",
            count=2,
            message_contains="Python `if`",
            unsafe_fix=True,
            note="an elif chain: reported twice, no fix",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_comment_inside_branches_would_lost.py",
            line=6,
            unsafe_fix=True,
            note="a comment inside the branches would be lost: no fix",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_comment_above_if_kept.py",
            line=7,
            unsafe_fix=True,
            note="a comment above the if is kept",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_jax_import_jit_lax_jax.py",
            line=5,
            message_contains="traced as a body of `lax.while_loop`",
            note="`from jax import jit, lax`, jax.numpy imported as np, a while_loop body",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX201.invalid(
            "invalid_equinox_array_annotated_arguments_traced.py",
            line=9,
            message_contains="jitted by `equinox.filter_jit`",
            note="Equinox: array-annotated arguments are traced",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._elif: set[int] = set()
        self._while_leaves: set[int] = set()
        self._single_assign: dict[int, cst.Assign] = {}

    # contexts that test a condition ------------------------------------------------

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            self._single_assign[id(node.value)] = node

    def visit_While(self, node: cst.While) -> None:
        # JAX202 reports ``while`` conditions
        for leaf in _truth_leaves(node.test):
            self._while_leaves.add(id(leaf))

    def visit_If(self, node: cst.If) -> None:
        construct = "Python `elif`" if id(node) in self._elif else "Python `if`"
        if isinstance(node.orelse, cst.If):
            self._elif.add(id(node.orelse))
        fix = None if id(node) in self._elif else self._if_fix(node)
        self._condition(node.test, construct, "select", fix)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._condition(node.test, "Python `a if cond else b`", "select", self._ifexp_fix(node))

    def visit_Assert(self, node: cst.Assert) -> None:
        self._condition(node.test, "Python `assert`", "assert", None)

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self._condition(node.test, "A comprehension's `if`", "filter", None)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        construct = "Python `and`" if isinstance(node.operator, cst.And) else "Python `or`"
        for leaf in _truth_leaves(node.left):
            self._leaf(leaf, construct, "logical", None)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            for leaf in _truth_leaves(node.expression):
                self._leaf(leaf, "Python `not`", "logical", None)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) > 1:
            self._chained(node)

    # checks -----------------------------------------------------------------------------

    def _condition(self, test: cst.BaseExpression, construct: str, kind: str, fix) -> None:  # type: ignore[no-untyped-def]
        leaves = list(_truth_leaves(test))
        whole = len(leaves) == 1 and leaves[0] is test
        for leaf in leaves:
            if isinstance(leaf, cst.Comparison) and len(leaf.comparisons) > 1:
                self._chained(leaf)
            else:
                self._leaf(leaf, construct, kind, fix if whole else None)

    def _chained(self, node: cst.Comparison) -> None:
        """``a < x < b`` tests ``a < x`` before comparing ``x < b``."""
        val = self.abstract(node)
        if val is None or not val.computed or id(node) in self._while_leaves:
            return
        if self.once(node):
            self.report(
                node,
                construct="A chained comparison",
                cond=_short(self.ctx.code(node)),
                why=self.why(val),
                advice="write `(a < b) & (b < c)`, an array of booleans",
            )

    def _leaf(self, leaf: cst.BaseExpression, construct: str, kind: str, fix) -> None:  # type: ignore[no-untyped-def]
        if id(leaf) in self._while_leaves:
            return
        if isinstance(leaf, cst.Comparison) and len(leaf.comparisons) > 1:
            return  # visit_Comparison reports it
        val = self.truth_tested(leaf)
        if val is None or not self.once(leaf):
            return
        advice = {
            "select": "select with `jnp.where(cond, a, b)` or branch with `lax.cond`",
            "assert": (
                "check values with `jax.experimental.checkify` or `equinox.error_if`,"
                " or assert on shapes only"
            ),
            "filter": "filter with a mask (`jnp.where`) or `jnp.nonzero(..., size=n)`",
            "logical": "use `jnp.logical_and`/`jnp.logical_or`/`jnp.logical_not` (`&`, `|`, `~`)",
        }[kind]
        if kind == "select" and isinstance(leaf, cst.Name):  # ``if flag:``
            hint = _static_hint(val)
            if hint.startswith("mark"):
                advice += f"; or {hint}"
        made = fix() if fix is not None else None
        self.report(
            leaf,
            construct=construct,
            cond=_short(self.ctx.code(leaf)),
            why=self.why(val),
            advice=advice,
            fix=(lambda: made[0]) if made else None,
            applicability=Applicability.UNSAFE if made else None,
            fix_message=made[1] if made else None,
        )

    # fixes --------------------------------------------------------------------------------

    def _selectable(self, expr: cst.BaseExpression) -> bool:
        """``expr`` can be a branch of ``jnp.where``: an array or a number."""
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return False
        if isinstance(expr, (cst.Lambda, cst.Dict, cst.Set, cst.Tuple, cst.List)):
            return False
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return False
        if isinstance(expr, cst.Name) and expr.value in ("None", "True", "False"):
            return expr.value != "None"
        val = self.ctx.trace.value(expr)
        return val is not None and not val.container

    def _where(self, at: cst.CSTNode, test: cst.BaseExpression, a, b):  # type: ignore[no-untyped-def]
        if not (self._selectable(a) and self._selectable(b)):
            return None
        spelled = spell(self.model, "jax.numpy.where", at)
        if spelled is None:
            return None
        func, ops = spelled
        code = self.ctx.code
        return f"{func}({code(test).strip()}, {code(a).strip()}, {code(b).strip()})", ops

    def _ifexp_fix(self, node: cst.IfExp):  # type: ignore[no-untyped-def]
        assign = self._single_assign.get(id(node))
        if assign is None:
            return None

        def make() -> tuple[list[FixOp], str] | None:
            got = self._where(node, node.test, node.body, node.orelse)
            if got is None:
                return None
            text, ops = got
            return [ReplaceNode(node, text), *ops], f"Replace with `{_short(text, 60)}`"

        return make

    def _if_fix(self, node: cst.If):  # type: ignore[no-untyped-def]
        if not isinstance(node.orelse, cst.Else):
            return None
        then = _only_assign(node.body)
        other = _only_assign(node.orelse.body)
        if then is None or other is None:
            return None
        target = then.targets[0].target
        if not isinstance(target, cst.Name) or self.ctx.code(other.targets[0].target) != (
            target.value
        ):
            return None
        if "#" in self.ctx.code(node.with_changes(leading_lines=())):
            return None  # a comment inside would be lost

        def make() -> tuple[list[FixOp], str] | None:
            got = self._where(node.test, node.test, then.value, other.value)
            if got is None:
                return None
            text, ops = got
            line = f"{target.value} = {text}"
            return [ReplaceNode(node, line), *ops], f"Replace with `{_short(line, 60)}`"

        return make


def _only_assign(block: cst.BaseSuite) -> cst.Assign | None:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    stmt = line.body[0]
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1:
        return stmt
    return None


_EXAMPLES_JAX202 = Examples(Path(__file__).parent / "control_flow" / "python_loop_over_tracer.py")


# -- JAX202 -------------------------------------------------------------------------------


class PythonLoopOverTracer(_TracerQueries, Rule):
    code = "JAX202"
    name = "python-loop-over-tracer"
    message = "{what}: {why}; {advice}"
    probe = _PROBE
    docs = """\
## What it does
Flags Python loops whose trip count depends on a value that is definitely a
tracer inside `jit`-like code (and `vmap`, lax loop bodies, helpers called from
them): `range(n)` with a traced `n` (in a `for`, a comprehension or anywhere
else), and `while` loops whose condition is a traced array.

Loops over `range(3)`, `range(x.shape[0])`, `range(len(xs))`, over Python lists
of layers and over static arguments are fine and not reported; so is iterating
over a traced array (`for row in x`), whose length is its static shape.

## Why is this bad
Python runs the loop while JAX traces the function, so it needs the trip count
then. `range(n)` calls `n.__index__()`, which raises
`TracerIntegerConversionError` ("The __index__() method was called on traced
array with shape int32[]"); a `while` condition raises
`TracerBoolConversionError` (or `ValueError` for a condition with more than one
element).

## Example
```python
import jax

@jax.jit
def power(x, n):
    y = x
    for _ in range(n - 1):
        y = y * x
    return y
```

## Use instead
```python
import jax
from jax import lax

@jax.jit
def power(x, n):
    return lax.fori_loop(0, n - 1, lambda i, y: y * x, x)
```
`lax.fori_loop` with traced bounds and `lax.while_loop` loop on the device. If
the trip count is a configuration value, mark it static instead
(`jax.jit(power, static_argnames=("n",))`); each value then compiles once.

## Fix safety
No fix: the loop body has to become a function of the carried state.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the
`TracerIntegerConversionError` or `TracerBoolConversionError` with your file and
line, naming JAX202.
"""
    VALID = [
        _EXAMPLES_JAX202.valid(
            "valid_literal_shape_derived_trip_counts.py",
            note="literal and shape-derived trip counts",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_static_trip_counts_number_name.py",
            note="static trip counts by number and by name",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_python_list_layers_iterating_traced.py",
            note="a Python list of layers, and iterating a traced array by its static shape",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_fixes_fori_loop_traced_bounds.py",
            note="the fixes: fori_loop with traced bounds and while_loop",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_host_code_after_jitted_call.py",
            note="host code after the jitted call",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_parameter_left_default_keeps_python.py",
            note="a parameter left at its default keeps its Python value",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_grad_alone_keeps_values_concrete.py",
            note="grad alone keeps values concrete",
            runs=True,
        ),
        _EXAMPLES_JAX202.valid(
            "valid_filter_jit_keeps_int_arguments.py", note="filter_jit keeps int arguments static"
        ),
        _EXAMPLES_JAX202.valid(
            "valid_module_attributes_static_metadata_pytree.py",
            note="module attributes are static metadata of the pytree",
        ),
        _EXAMPLES_JAX202.valid(
            "valid_iterating_dict_pytree_gives_static.py",
            note="iterating a dict pytree gives its static keys",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX202.invalid(
            "invalid_range_n_1.py",
            line=6,
            column=14,
            message_contains=(
                "`n` is traced: parameter of `power`, jitted by `jax.jit` at line 3;"
                " loop with `lax.fori_loop"
            ),
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_return_sum_x_i_i_range.py",
            line=5,
            message_contains="static_argnames=('n',)",
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_while_x_max_1_0.py",
            line=6,
            column=11,
            message_contains="lax.while_loop",
            raises="TracerBoolConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_fori_loop_index_traced.py",
            line=4,
            message_contains="traced as a body of `lax.fori_loop`",
            note="the fori_loop index is traced",
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_out_x_range_k.py",
            line=5,
            message_contains="vmapped",
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_helper_method_reached_through_self.py",
            line=7,
            message_contains="`n` is traced",
            note="a helper method reached through self from a jitted method",
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_range_steps.py", line=6, message_contains="jitted by `flax.nnx.jit`"
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_return_x_i_i_range_0.py",
            line=7,
            message_contains="`n` is traced",
            raises="TracerIntegerConversionError",
        ),
        _EXAMPLES_JAX202.invalid(
            "invalid_functools_partial_jit_another_argument.py",
            line=7,
            message_contains="static_argnames=('n',)",
            note="functools.partial(jit, ...) with another argument static",
            raises="TracerIntegerConversionError",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "builtins.range":
            return
        for arg in node.args:
            val = self.abstract(arg.value)
            if val is None:
                continue
            value = _short(self.ctx.code(arg.value).strip())
            self.report(
                node,
                what=f"`range()` needs a Python int, but `{value}` is a tracer",
                why=self.why(val),
                advice=(
                    "loop with `lax.fori_loop(lower, upper, body, init)`, whose bounds may be"
                    f" traced; or {_static_hint(val)}"
                ),
            )
            return

    def visit_While(self, node: cst.While) -> None:
        for leaf in _truth_leaves(node.test):
            val = self.truth_tested(leaf)
            if val is None:
                continue
            self.report(
                leaf,
                what=f"Python `while` on traced `{_short(self.ctx.code(leaf))}`",
                why=self.why(val),
                advice="loop with `lax.while_loop(cond_fun, body_fun, init)`",
            )
            return


# -- JAX203 -------------------------------------------------------------------------------

# qualified name -> (positions, keywords) of the arguments that are shapes or sizes
_SIZE_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.zeros_like": ((2,), ("shape",)),
    "jax.numpy.ones_like": ((2,), ("shape",)),
    "jax.numpy.empty_like": ((2,), ("shape",)),
    "jax.numpy.full_like": ((3,), ("shape",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.logspace": ((2,), ("num",)),
    "jax.numpy.geomspace": ((2,), ("num",)),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.lax.full": ((0,), ("shape",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.reshape": ((1,), ("new_sizes",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.broadcast_in_dim": ((1,), ("shape",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.gumbel": ((1,), ("shape",)),
    "jax.random.exponential": ((1,), ("shape",)),
    "jax.random.laplace": ((1,), ("shape",)),
    "jax.random.logistic": ((1,), ("shape",)),
    "jax.random.cauchy": ((1,), ("shape",)),
    "jax.random.rademacher": ((1,), ("shape",)),
    "jax.random.bits": ((1,), ("shape",)),
    "jax.random.categorical": ((3,), ("shape",)),
    "jax.random.choice": ((2,), ("shape",)),
}
# functions whose output size depends on the values of their argument, unless ``size=``
_VALUE_SIZED: dict[str, str] = {
    "jax.numpy.nonzero": "a",
    "jax.numpy.argwhere": "a",
    "jax.numpy.flatnonzero": "a",
    "jax.numpy.unique": "ar",
    "jax.numpy.unique_values": "x",
    "jax.numpy.unique_counts": "x",
    "jax.numpy.unique_inverse": "x",
    "jax.numpy.unique_all": "x",
}
_BOOL_FUNCS = frozenset(
    f"jax.numpy.{n}"
    for n in (
        "isnan",
        "isinf",
        "isfinite",
        "isposinf",
        "isneginf",
        "isclose",
        "signbit",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
    )
)
_ORDER_OPS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
_EQ_OPS = (cst.Equal, cst.NotEqual)
_EXAMPLES_JAX203 = Examples(Path(__file__).parent / "control_flow" / "traced_shape.py")


class TracedShape(_TracerQueries, Rule):
    code = "JAX203"
    name = "traced-shape"
    message = "{what}: {why}; {advice}"
    probe = _PROBE
    docs = """\
## What it does
Flags a value that is definitely a tracer inside `jit`-like code (and `vmap`,
lax loop bodies, helpers called from them) where JAX needs a static shape or
size:

* the shape or size arguments of `jnp.zeros`/`ones`/`empty`/`full` (and their
  `_like` `shape=`), `jnp.eye`/`identity`/`tri`, `jnp.arange`,
  `jnp.linspace`'s `num`, `jnp.reshape`/`x.reshape`, `jnp.broadcast_to`,
  `lax.full`/`iota`/`reshape`/`broadcast`/`broadcast_in_dim`, and the `shape` of
  `jax.random` samplers;
* slice bounds: `x[:n]`, `x[n:]`, `x[::n]`, `x.at[:n]`;
* `jnp.nonzero`/`argwhere`/`flatnonzero`/`unique*` and one-argument
  `jnp.where(cond)` without `size=`;
* boolean-mask indexing `x[x > 0]`, `x[mask]`, `x.at[mask]`.

Shapes from `x.shape`, `len()`, static arguments and literals are fine.

## Why is this bad
JAX compiles for fixed shapes: every array's shape must be known while tracing.
A traced size raises when the function is traced: `TypeError` ("Shapes must be
1D sequences of concrete values of integer type") for shape arguments,
`ConcretizationTypeError` for `jnp.arange`, `linspace`'s `num`, `nonzero`,
`unique` and one-argument `where`, `IndexError` ("Array slice indices must have
static start/stop/step") for slices of arrays (`TracerIntegerConversionError` for
Python lists), and `NonConcreteBooleanIndexError` for a traced boolean mask.

## Example
```python
import jax
import jax.numpy as jnp

@jax.jit
def positive_mean(x):
    return x[x > 0].mean()
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.jit
def positive_mean(x):
    mask = x > 0
    return jnp.where(mask, x, 0).sum() / mask.sum()
```
Keep shapes static: mask instead of filtering, pass `size=` (and `fill_value=`)
to `jnp.nonzero`/`unique`, slice with `lax.dynamic_slice(x, (start,), (size,))`
(static `size`, traced `start`), or mark the size argument static
(`static_argnames=("n",)`), compiling once per value.

## Fix safety
No fix: the replacement depends on what the code should do with the variable
size (pad, mask, or recompile per size).

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the error
with your file and line, naming JAX203.
"""
    VALID = [
        _EXAMPLES_JAX203.valid(
            "valid_sizes_shapes_linspace_traced_stop.py",
            note="sizes from shapes; linspace with a traced stop is fine",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_static_sizes_name_number.py",
            note="static sizes by name and by number",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_integer_indexing_dynamic_slice_three.py",
            note="integer indexing, dynamic_slice, three-argument where, size=",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_static_numpy_mask_masks_nonzero.py",
            note="a static NumPy mask; masks and nonzero in host code",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_parameter_left_default_keeps_python.py",
            note="a parameter left at its default keeps its Python value",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_grad_alone_keeps_values_concrete.py",
            note="grad alone keeps values concrete",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_filter_jit_keeps_int_arguments.py", note="filter_jit keeps int arguments static"
        ),
        _EXAMPLES_JAX203.valid(
            "valid_module_attributes_static_metadata_pytree.py",
            note="module attributes are static metadata of the pytree",
        ),
        _EXAMPLES_JAX203.valid(
            "valid_slicing_python_list_static_bound.py",
            note="slicing a Python list with a static bound",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_axes_given_position_equinox_nn.py",
            note="in_axes given by position (equinox/nn/_pool.py): `size` is not mapped",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_broadcast_shapes_returns_static_tuple.py",
            note="broadcast_shapes returns a static tuple (numpyro/distributions/util.py)",
            runs=True,
        ),
        _EXAMPLES_JAX203.valid(
            "valid_lax_psum_1_axis_axis.py",
            note="`lax.psum(1, axis)` is the axis size, a Python int even under jit",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX203.invalid(
            "invalid_return_jnp_zeros_n_2.py",
            line=6,
            column=23,
            message_contains=(
                "`n` is traced: parameter of `make`, jitted by `jax.jit` at line 4;"
                " mark it static with static_argnames=('n',)"
            ),
            raises="TypeError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_x_n.py",
            line=5,
            column=15,
            message_contains="lax.dynamic_slice",
            raises="IndexError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_x_x_0_mean.py",
            line=6,
            column=14,
            message_contains="boolean mask",
            raises="NonConcreteBooleanIndexError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_x_mask_set_0_0.py",
            line=7,
            message_contains="vmapped by `jax.vmap`",
            raises="NonConcreteBooleanIndexError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_idx_jnp_nonzero_x.py",
            line=6,
            count=3,
            message_contains="pass `size=`",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_carry_jnp_arange_n_sum.py",
            line=6,
            message_contains="traced as a body of `lax.scan`",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_method_reached_through_self_self.py",
            line=6,
            message_contains="`rows` is traced",
            note="a method reached through self; self itself is never definitely traced",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_x_jax_random_normal_key.py", line=7, raises="TypeError"
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_return_jnp_concatenate_model_x_jnp.py",
            line=6,
            message_contains="jitted by `flax.nnx.jit`",
        ),
        _EXAMPLES_JAX203.invalid(
            "invalid_jax_numpy_import_zeros.py",
            line=6,
            column=18,
            message_contains="`zeros` needs a static shape",
            note="`from jax.numpy import zeros`",
            raises="TypeError",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._assigned: dict[int, cst.BaseExpression] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._assigned[id(target.target)] = node.value

    # calls ------------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn is None:
            self._method(node)
            return
        if qn in _SIZE_ARGS:
            positions, keywords = _SIZE_ARGS[qn]
            for arg in _args(node, positions, keywords):
                if self._size(node, arg, self.ctx.code(node.func)):
                    return
        elif qn in _VALUE_SIZED or (qn == "jax.numpy.where" and _one_arg_where(node)):
            keyword = _VALUE_SIZED.get(qn, "condition")
            if any(a.keyword is not None and a.keyword.value == "size" for a in node.args):
                return
            for arg in _args(node, (0,), (keyword,)):
                self._value_sized(node, arg, self.ctx.code(node.func))

    def _method(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        base = self.ctx.trace.value(func.value)
        if base is None or not (base.array or base.traced) or base.container:
            return
        if func.attr.value == "reshape":
            shape = [a.value for a in node.args if a.keyword is None or a.keyword.value == "shape"]
            for arg in shape:
                if self._size(node, arg, "reshape"):
                    return
        elif func.attr.value == "nonzero" and not node.args:
            self._value_sized(node, func.value, "nonzero")

    def _size(self, call: cst.Call, arg: cst.BaseExpression, callee: str) -> bool:
        parts = list(arg.elements) if isinstance(arg, (cst.Tuple, cst.List)) else []
        culprit = arg
        val = None
        for el in parts:
            val = self.abstract(el.value)
            if val is not None:
                culprit = el.value
                break
        else:
            val = self.abstract(arg)
        if val is None:
            return False
        self.report(
            culprit,
            what=(
                f"`{callee}` needs a static shape or size, but"
                f" `{_short(self.ctx.code(culprit).strip())}` is a tracer"
            ),
            why=self.why(val),
            advice=f"{_static_hint(val)}, or use a fixed size",
        )
        return True

    def _value_sized(self, call: cst.Call, arg: cst.BaseExpression, callee: str) -> None:
        val = self.abstract(arg)
        if val is None:
            return
        self.report(
            call,
            what=(
                f"`{callee}` returns an array whose size depends on the values of traced"
                f" `{_short(self.ctx.code(arg).strip())}`"
            ),
            why=self.why(val),
            advice="pass `size=` (and `fill_value=`) for a fixed-size result",
        )

    # indexing ---------------------------------------------------------------------------

    def visit_Subscript(self, node: cst.Subscript) -> None:
        base = self.ctx.trace.value(node.value)
        if base is None:
            return
        for element in node.slice:
            sl = element.slice
            if isinstance(sl, cst.Slice):
                if not (base.array or base.level > Level.STATIC or base.container):
                    continue
                for bound in (sl.lower, sl.upper, sl.step):
                    if bound is None:
                        continue
                    val = self.abstract(bound)
                    if val is not None:
                        self.report(
                            bound,
                            what=(
                                "a slice bound must be static, but"
                                f" `{_short(self.ctx.code(bound).strip())}` is a tracer"
                            ),
                            why=self.why(val),
                            advice=(
                                (
                                    "update a static-size window at a traced start with"
                                    " `lax.dynamic_update_slice(x, update, (start,))`"
                                    if isinstance(node.value, cst.Attribute)
                                    and node.value.attr.value == "at"
                                    else "slice a static size at a traced start with"
                                    " `lax.dynamic_slice(x, (start,), (size,))`"
                                )
                                + f"; or {_static_hint(val)}"
                            ),
                        )
                        return
            elif isinstance(sl, cst.Index) and (base.array or base.traced) and not base.container:
                if not self._boolean(sl.value):
                    continue
                val = self.abstract(sl.value)
                if val is not None:
                    self.report(
                        sl.value,
                        what=(
                            "indexing with a traced boolean mask"
                            f" `{_short(self.ctx.code(sl.value).strip())}` gives a"
                            " value-dependent shape"
                        ),
                        why=self.why(val),
                        advice=(
                            "keep the shape with `jnp.where(mask, x, 0)` (and reduce),"
                            " or `jnp.nonzero(mask, size=n)`"
                        ),
                    )
                    return

    def _boolean(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """``expr`` is syntactically a boolean array: a comparison, ``~``/``&``/``|`` of
        those, ``jnp.isnan``-like calls, or a name assigned once from one."""
        if depth > 3:
            return False
        if isinstance(expr, cst.Comparison):
            return all(isinstance(c.operator, _ORDER_OPS + _EQ_OPS) for c in expr.comparisons)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
            return self._boolean(expr.expression, depth + 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(
            expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)
        ):
            return self._boolean(expr.left, depth + 1) or self._boolean(expr.right, depth + 1)
        if isinstance(expr, cst.Call):
            return self.model.call_name(expr) in _BOOL_FUNCS
        if isinstance(expr, cst.Name):
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None:
                return False
            bindings = found[1]
            values = [self._assigned.get(id(b.node)) for b in bindings]
            return bool(values) and all(
                v is not None and self._boolean(v, depth + 1) for v in values
            )
        return False


def _args(
    call: cst.Call, positions: tuple[int, ...], keywords: tuple[str, ...]
) -> Iterator[cst.BaseExpression]:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for i, arg in enumerate(positional):
        if i in positions:
            yield arg.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords:
            yield arg.value


def _one_arg_where(call: cst.Call) -> bool:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    return (
        len(positional) + len(keywords & {"condition"}) == 1
        and not keywords & {"x", "y"}
        and not any(a.star for a in call.args)
    )


_EXAMPLES_JAX204 = Examples(Path(__file__).parent / "control_flow" / "large_unrolled_loop.py")


# -- JAX204 -------------------------------------------------------------------------------


class LargeUnrolledLoop(_TracerQueries, Rule):
    code = "JAX204"
    name = "large-unrolled-loop"
    message = (
        "Python `for` over `range({n})` unrolls {n} copies of its body into the program"
        " traced from `{fn}` ({how}); compile time grows with the trip count: use"
        " `lax.fori_loop` or `lax.scan`"
    )
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    options = {
        "threshold": Option(
            int, 100, "Report loops with more iterations than this (each one is traced)."
        )
    }
    docs = """\
## What it does
Flags a Python `for` loop (or comprehension) over `range(N)` with a literal `N`
(or a module constant) above `threshold` (default 100) inside a function that JAX
stages out (`jit`, lax loop bodies, `checkpoint`, helpers called from them),
when its body runs JAX operations on traced values.

Configure the limit with `[tool.jaxlint.rules.JAX204] threshold = 50`.

## Why is this bad
JAX traces Python loops by running them: a loop of `N` iterations records `N`
copies of its body in the jaxpr, and XLA compiles all of them. Trace and compile
time (and sometimes memory) grow with `N`, often to minutes, and the compiled
program is large. `lax.fori_loop` and `lax.scan` trace the body once and loop on
the device. This is a performance problem, not an error: the program runs.

## Example
```python
import jax

@jax.jit
def simulate(x):
    for _ in range(1000):
        x = x + 0.01 * x
    return x
```

## Use instead
```python
import jax
from jax import lax

@jax.jit
def simulate(x):
    return lax.fori_loop(0, 1000, lambda i, x: x + 0.01 * x, x)
```
Use `lax.scan` when each step also produces an output to stack. For a short
loop that benefits from unrolling, `lax.fori_loop(..., unroll=k)` and
`lax.scan(..., unroll=k)` unroll a few steps.

## Fix safety
No fix: the loop body has to become a function of the carried state.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` reports the jaxpr equation
count and the trace and compile times; an unrolled loop shows as an equation
count proportional to `N` (the dump repeats the body).
"""
    VALID = [
        _EXAMPLES_JAX204.valid("valid_short_loop.py", note="a short loop", runs=True),
        _EXAMPLES_JAX204.valid("valid_fix_fori_loop.py", note="the fix: fori_loop", runs=True),
        _EXAMPLES_JAX204.valid(
            "valid_host_code_traced.py", note="host code: not traced", runs=True
        ),
        _EXAMPLES_JAX204.valid(
            "valid_python_only_arithmetic_per_iteration.py",
            note="Python-only arithmetic per iteration adds nothing to the program",
            runs=True,
        ),
        _EXAMPLES_JAX204.valid(
            "valid_trip_count_literal.py", note="the trip count is not a literal", runs=True
        ),
        _EXAMPLES_JAX204.valid(
            "valid_grad_alone_runs_eagerly_nothing.py",
            note="grad alone runs eagerly: nothing is staged",
            runs=True,
        ),
        _EXAMPLES_JAX204.valid(
            "valid_under_raised_threshold.py",
            options={"threshold": 200},
            note="under a raised threshold",
            runs=True,
        ),
        _EXAMPLES_JAX204.valid(
            "valid_building_modules_host_code_loop.py",
            note="building modules in host code; a loop over a list of layers",
        ),
        _EXAMPLES_JAX204.valid(
            "valid_exactly_threshold.py", note="exactly at the threshold", runs=True
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX204.invalid(
            "invalid_range_1000.py",
            line=5,
            column=5,
            message_contains=(
                "`range(1000)` unrolls 1000 copies of its body into the program traced from"
                " `simulate` (jitted by `jax.jit` at line 3)"
            ),
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_module_constant_range_start_step.py",
            line=7,
            message_contains="`range(250)`",
            note="a module constant; range with start and step",
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_range_128.py", line=6, message_contains="traced as a body of `lax.scan`"
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_comprehension_helper_jitted_code.py",
            line=5,
            message_contains="called from traced `f`",
            note="a comprehension in a helper of jitted code",
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_return_x.py", options={"threshold": 50}, message_contains="`range(60)`"
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_return_x_2.py", message_contains="jitted by `flax.nnx.jit`"
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_return_x_3.py", message_contains="jitted by `equinox.filter_jit`"
        ),
        _EXAMPLES_JAX204.invalid(
            "invalid_jax_import_jit_jax_numpy.py",
            message_contains="`range(200)`",
            note="`from jax import jit`, jax.numpy imported as np, a negative start",
        ),
    ]

    def visit_For(self, node: cst.For) -> None:
        self._loop(node, node.iter, node.body)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._loop(node, node.iter, None)

    def _loop(
        self, node: cst.CSTNode, iterable: cst.BaseExpression, body: cst.CSTNode | None
    ) -> None:
        trace = self.ctx.trace
        fn = trace.traced_function_of(iterable)
        if fn is None or not fn.staging:
            return
        n = self._trip_count(iterable)
        if n is None or n <= self.settings["threshold"]:
            return
        if body is None:
            body = self._comprehension_of.get(id(node))
        if body is None or not self._runs_jax(body):
            return
        self.report(node, n=n, fn=fn.name, how=fn.how(trace.line_of))

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._comprehension_of: dict[int, cst.CSTNode] = {}

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.value

    def _trip_count(self, iterable: cst.BaseExpression) -> int | None:
        if not isinstance(iterable, cst.Call) or self.model.call_name(iterable) != "builtins.range":
            return None
        if any(a.keyword is not None or a.star for a in iterable.args):
            return None
        values = [self._int(a.value) for a in iterable.args]
        if not values or len(values) > 3 or any(v is None for v in values):
            return None
        try:
            return len(range(*values))  # type: ignore[arg-type]
        except ValueError:
            return None

    def _int(self, expr: cst.BaseExpression) -> int | None:
        if isinstance(expr, cst.Integer):
            return int(expr.evaluated_value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            inner = self._int(expr.expression)
            return None if inner is None else -inner
        if isinstance(expr, cst.Name):
            # a module constant assigned once from an integer literal
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None:
                return None
            scope, bindings = found
            if scope is not self.model.module_scope or len(bindings) != 1:
                return None
            return self._module_ints().get(expr.value)
        return None

    def _module_ints(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for stmt in self.ctx.module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if (
                        isinstance(small, cst.Assign)
                        and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)
                        and isinstance(small.value, cst.Integer)
                    ):
                        out[small.targets[0].target.value] = int(small.value.evaluated_value)
        return out

    def _runs_jax(self, node: cst.CSTNode) -> bool:
        """Some operation in ``node`` (not a bare name) produces a traced value."""
        trace = self.ctx.trace
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(
                current,
                (cst.Call, cst.BinaryOperation, cst.UnaryOperation, cst.Subscript, cst.Comparison),
            ):
                val = trace.value(current)
                if val is not None and val.traced:
                    return True
            if isinstance(current, cst.AugAssign):
                val = trace.value(current.target)
                if val is not None and val.traced:
                    return True
            if isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                continue
            stack.extend(children(current))
        return False
