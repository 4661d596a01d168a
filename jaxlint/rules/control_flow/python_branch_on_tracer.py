"""JAX201 python-branch-on-tracer: Python branching (`if`, `a if c else b`, `assert`,
`and`/`or`/`not`, chained comparisons) on a value that is definitely traced."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.trace_values import admits_array
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, Raises, Rule, short
from jaxlint.rules.control_flow.helpers import (
    BOOL_ERRORS,
    PROBE,
    TracerQueries,
    static_hint,
    truth_leaves,
)
from jaxlint.rules.control_flow.python_branch_on_tracer_fix import BranchFixes

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)

_AMBIGUOUS_TRUTH = Raises(
    "ValueError",
    message_startswith="The truth value of an array with more than one element",
    raised_in_jax=True,
)


_ADVICE = {
    "select": "select with `jnp.where(cond, a, b)` or branch with `lax.cond`",
    "assert": (
        "check values with `jax.experimental.checkify` or `equinox.error_if`,"
        " or assert on shapes only"
    ),
    "filter": "filter with a mask (`jnp.where`) or `jnp.nonzero(..., size=n)`",
    "logical": "use `jnp.logical_and`/`jnp.logical_or`/`jnp.logical_not` (`&`, `|`, `~`)",
}


# The valid examples are data, listed here rather than in the class body (the rule class
# stays under 400 lines: tests/test_rule_examples.py).
VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_conditional_tuple_pairs_by_position.py",
        note="`a, kind = (v1, k2) if ... else (v2, k1)`: each name gets its position's"
        " elements, so `kind` stays static (propax's flash routes)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_optional_argument_selects_the_host_path.py",
        note="`grid is None and ...` where every traced caller passes `grid`: `and` stops"
        " before the traced test (clm-ml-jax's host and differentiable modes)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_star_args_tuple_truth.py",
        note="`*values: Array` is a tuple: `values and ...` tests its length (representax)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_array_parameter_is_none_default.py",
        note="`steps if steps is not None else default`: an identity test reads no value",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_try_catches_tracer_bool_error.py",
        note="a `try` that catches the tracer's error tests at runtime whether it is one",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_custom_jvp_nondiff_argument.py",
        note="`custom_jvp`'s `nondiff_argnums` reach the function as the caller passed them",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_mode_compared_with_a_string.py",
        note='a comparison with a string (`mode == "train"`) and a parameter annotated'
        " `str` are Python values: JAX traces no string, and a tracer equals none",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_shape_ndim_len_dtype_tests.py",
        note="shape, ndim, len and dtype tests are static",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_none_tests_parameter_left_default.py",
        note="`is None` tests and a parameter left at its default",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_static_arguments_name_number.py",
        note="static arguments by name and by number",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_truth_pytree_parameter_python_list.py",
        note="truth of a pytree parameter and of a Python list is static",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_host_code_after_jitted_call.py",
        note="host code, after the jitted call returns a concrete array",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_grad_alone_keeps_values_concrete.py",
        note="grad alone keeps values concrete: `if` works",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_fixes_jnp_where_lax_cond.py", note="the fixes: jnp.where and lax.cond", runs=True
    ),
    EXAMPLES.valid(
        "valid_filter_jit_keeps_bool_int.py",
        note="filter_jit keeps bool and int arguments static",
    ),
    EXAMPLES.valid(
        "valid_module_attributes_static_metadata_pytree.py",
        note="module attributes are static metadata of the pytree",
    ),
    EXAMPLES.valid(
        "valid_loop_over_python_tuple_gives.py",
        note="a loop over a Python tuple gives static elements",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_vmap_axes_none_passes_value.py",
        note="vmap in_axes=None passes the value through unchanged",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_axes_given_position_equinox_nn.py",
        note="in_axes given by position (equinox/nn/_pool.py): `size` is not mapped",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_flax_module_static_flags_fields.py",
        note="in a Flax module's `__call__`, flags annotated `bool` or given a literal"
        " default, `mask is None` tests and module fields are static",
    ),
    EXAMPLES.valid(
        "valid_lax_metadata_constructor_static.py",
        note="`lax.ConvDimensionNumbers(...)` (any class of `jax.lax`) builds static"
        " metadata from static arguments, not a traced array",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_metadata_of_custom_pytree_method_result.py",
        note="`x.reshape(...).muls`: no JAX array has `muls`, so `x` is another"
        " pytree and `muls` may be its static metadata (e3nn-jax's `irreps`)",
        runs=True,
    ),
]


class PythonBranchOnTracer(BranchFixes, TracerQueries, Rule):
    code = "JAX201"
    name = "python-branch-on-tracer"
    guard_errors = BOOL_ERRORS
    message = "{construct} needs the truth value of traced `{cond}`: {why}; {advice}"
    fix_availability = "sometimes"
    probe = PROBE
    # `if x > 0:` on a traced value; on a traced array of more than one element, JAX's ValueError
    confirmed_by = (Raises("TracerBoolConversionError"), _AMBIGUOUS_TRUTH)
    docs = """\
## What it does
Flags Python branching on a value that is definitely a tracer inside `jit`-like
code (and `vmap`, lax loop and `cond` bodies, `checkpoint`, helpers called from
them): the condition of `if`/`elif`, of a conditional expression
(`a if c else b`), of `assert` and of a comprehension's `if`, the operands of
`and`/`or`/`not`, and chained comparisons (`0 < x < 1`). `while` conditions are
reported by JAX202.

Traced code includes what frameworks trace by contract (a Flax, Equinox or Haiku
module's `__call__`, a function given to `hk.transform`, an optax `update`): traced
whenever the user's training step is jitted, which the message says.

Wherever it is, `x or default` (and `x and y`) on a parameter whose annotation admits
an array (`steps: int | jax.Array | None`, `Optional[jnp.ndarray]`, `ArrayLike`) is
reported: the author says an array may come, and under the caller's `jit` it is a
tracer, whose truth value Python cannot take (`TracerBoolConversionError`, checked);
test `x is not None` instead (optax's `microbatch` before be291068, a bug in the real-bug
corpus this form was built from). An array in a container or a callable's type
(`Sequence[Array]`, `Callable[..., Array]`) does not count, nor does `*values: Array`,
whose annotation types each element of a tuple.

It stays silent on conditions known at trace time: shapes, `ndim`, `len()`,
`dtype` tests, `x is None`, `isinstance`, static arguments (`static_argnums`,
`static_argnames`, Equinox `filter_jit` non-array arguments), parameters left at
their default, parameters annotated as strings (`mode: str`, `Literal["a", "b"]`: no
transform traces a string), comparisons with a string (`mode == "train"`, `kind in
("sum", "mean")`: a tracer equals no string, so the result is Python's `False` and
never raises; checked on JAX 0.12), and the truth value of Python containers and
pytrees (`if params:`). Under `grad` alone values stay concrete and `if` works, so it is
not reported there; nor in the body of a `try` whose `except` catches the tracer's
error (`TypeError`, `ConcretizationTypeError`, `TracerBoolConversionError`): the code
tests at runtime whether it holds a tracer. Names are static in the branch of
`isinstance(x, (int, float))`; a branch ruled out by a module flag bound once
(`if DEBUG:` with `DEBUG = False`) traces nothing; and in `if grid is None and
jnp.any(x <= 0):`, where `grid` defaults to `None` and every traced caller passes it,
`and` stops before the traced test (the optional argument selects a host path).

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
    VALID = VALID_EXAMPLES
    INVALID = [
        EXAMPLES.invalid(
            "invalid_conditional_tuple_traced_at_its_position.py",
            line=13,
            message_contains="`val` is traced",
            note="a conditional tuple assignment: the traced elements' position stays traced",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_field_of_jax_result_tuple.py",
            line=8,
            note="the fields of the named tuples JAX returns (`eigh(x).eigenvalues`) are arrays",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_optional_argument_left_at_none.py",
            line=6,
            note="the jitted caller leaves `grid` at `None`: the traced test runs",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_try_catches_other_error.py",
            line=8,
            raises="TracerBoolConversionError",
            note="`except ValueError` does not catch the tracer's error",
        ),
        EXAMPLES.invalid(
            "invalid_if_x_0.py",
            line=5,
            column=8,
            message_contains="`x` is traced: parameter of `relu`, jitted by `jax.jit` at line 3",
            unsafe_fix=True,
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_y_x_if_x_1_0.py",
            line=5,
            column=14,
            unsafe_fix=True,
            message_contains="jitted by `jax.jit` at line 8",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_condition_more_than_one_element.py",
            note="a condition with more than one element raises ValueError",
            message_contains="select with `jnp.where",
            raises="ValueError",
        ),
        EXAMPLES.invalid(
            "invalid_assert_x_sum_0_empty.py",
            line=7,
            column=12,
            message_contains="Python `assert`",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_keep_x_0_carry_10.py",
            line=4,
            column=12,
            count=1,
            message_contains="traced as a body of `lax.scan`",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_helper_method_reached_through_self.py",
            line=14,
            column=20,
            message_contains="Python `not`",
            note="a helper method reached through self from a jitted method",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_return_1_0_if_0_0.py",
            line=6,
            column=19,
            count=1,
            message_contains="vmapped by `jax.vmap`",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_grad_inside_jitted_step_runs.py",
            line=8,
            column=45,
            note="grad inside a jitted step runs under jit: its tracers are abstract",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_bool_argument_static_becomes_tracer.py",
            line=5,
            message_contains="`flag` is traced",
            note="a bool argument that is not static becomes a tracer",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_if_jnp_isnan_y_any.py", line=7, message_contains="jitted by `flax.nnx.jit`"
        ),
        EXAMPLES.invalid(
            "invalid_elif_chain_reported_twice_fix.py",
            count=2,
            message_contains="Python `if`",
            unsafe_fix=True,
            note="an elif chain: reported twice, no fix",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_comment_inside_branches_would_lost.py",
            line=6,
            unsafe_fix=True,
            note="a comment inside the branches would be lost: no fix",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_comment_above_if_kept.py",
            line=7,
            unsafe_fix=True,
            note="a comment above the if is kept",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_jax_import_jit_lax_jax.py",
            line=5,
            message_contains="traced as a body of `lax.while_loop`",
            note="`from jax import jit, lax`, jax.numpy imported as np, a while_loop body",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_flax_module_call_traced_by_contract.py",
            line=8,
            message_contains="`x` is traced: parameter of `MLP.__call__`, a Flax Linen module"
            " method, traced whenever the model runs under `jax.jit`",
            note="no `jit` in sight: Flax runs `__call__` inside the user's jitted `apply`",
        ),
        EXAMPLES.invalid(
            "invalid_optax_update_fn_traced_by_contract.py",
            line=17,
            message_contains="given to `optax.GradientTransformation` at line 21, traced"
            " whenever the optimizer's `update` runs under `jax.jit`",
            note="an optimizer's `update_fn` runs inside the user's jitted training step"
            " (optax/contrib/momo.py before 47404ab6)",
        ),
        EXAMPLES.invalid(
            "invalid_array_parameter_or_default.py",
            line=7,
            message_contains="its annotation `int | jax.Array | None` admits a `jax.Array`",
            raises="TracerBoolConversionError",
            note="`steps or default` on a parameter annotated to take an array (optax's"
            " `microbatch` before be291068): the caller's `jit` makes it a tracer",
        ),
        EXAMPLES.invalid(
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
        for leaf in truth_leaves(node.test):
            self._while_leaves.add(id(leaf))

    def visit_If(self, node: cst.If) -> None:
        construct = "Python `elif`" if id(node) in self._elif else "Python `if`"
        if type(node.orelse) is cst.If:
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
        for leaf in truth_leaves(node.left):
            self._leaf(leaf, construct, "logical", None)
        self._array_parameter_default(node, construct)

    def _array_parameter_default(self, node: cst.BooleanOperation, construct: str) -> None:
        """``n = steps or default`` where ``steps`` is a parameter annotated to take a
        ``jax.Array`` (``int | jax.Array | None``): the author says an array may come,
        and under the caller's ``jit`` it is a tracer, whose truth value Python cannot
        take (optax's ``microbatch`` before be291068)."""
        left = node.left
        if type(left) is not cst.Name or not self.once(left):
            return
        found = self.ctx.model.lookup(left.value, self.ctx.model.scope_for(left))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "param":
            return
        param = found[1][0].node
        if getattr(param, "star", "") in ("*", "**"):
            return  # ``*values: Array``: a tuple (or a dict), whose truth is its length
        annotation = getattr(param, "annotation", None)
        if annotation is None or not admits_array(annotation.annotation):
            return
        text = " ".join(self.ctx.code(annotation.annotation).split())
        self.report(
            left,
            construct=construct,
            cond=left.value,
            why=f"its annotation `{text}` admits a `jax.Array`, a tracer when the caller"
            " jits (and an array of more than one element has no truth value either)",
            advice=f"test `{left.value} is not None` instead",
        )

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            for leaf in truth_leaves(node.expression):
                self._leaf(leaf, "Python `not`", "logical", None)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) > 1:
            self._chained(node)

    # checks -----------------------------------------------------------------------------

    def _condition(self, test: cst.BaseExpression, construct: str, kind: str, fix) -> None:  # type: ignore[no-untyped-def]
        leaves = list(truth_leaves(test))
        whole = len(leaves) == 1 and leaves[0] is test
        for leaf in leaves:
            if type(leaf) is cst.Comparison and len(leaf.comparisons) > 1:
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
                cond=short(self.ctx.code(node)),
                why=self.why(val),
                advice="write `(a < b) & (b < c)`, an array of booleans",
            )

    def _leaf(self, leaf: cst.BaseExpression, construct: str, kind: str, fix) -> None:  # type: ignore[no-untyped-def]
        if id(leaf) in self._while_leaves:
            return
        if type(leaf) is cst.Comparison and len(leaf.comparisons) > 1:
            return  # visit_Comparison reports it
        val = self.truth_tested(leaf)
        if val is None or not self.once(leaf):
            return
        advice = _ADVICE[kind]
        if kind == "select" and isinstance(leaf, cst.Name):  # ``if flag:``
            hint = static_hint(val)
            if hint.startswith("mark"):
                advice += f"; or {hint}"
        made = fix() if fix is not None else None
        self.report(
            leaf,
            construct=construct,
            cond=short(self.ctx.code(leaf)),
            why=self.why(val),
            advice=advice,
            fix=(lambda: made[0]) if made else None,
            applicability=Applicability.UNSAFE if made else None,
            fix_message=made[1] if made else None,
        )
