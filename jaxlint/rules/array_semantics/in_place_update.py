"""JAX601 in-place-update: item assignment (`x[i] = v`, `x[i] += v`) into a JAX array."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.arrays import ArrayEvidence
from jaxlint.rules.array_semantics.in_place_update_fix import AUG_METHODS, InPlaceFixPlan
from jaxlint.rules.base import Examples, FixOp, Raises, ReplaceNode, Rule

EXAMPLES = Examples(__file__)


def _subscript_targets(expr: cst.BaseExpression) -> list[cst.Subscript]:
    # ``type() is`` (concrete libcst classes have no subclasses): asked for every target
    kind = type(expr)
    if kind is cst.Subscript:
        return [expr]  # type: ignore[list-item]
    if kind is cst.Tuple or kind is cst.List:
        return [s for el in expr.elements for s in _subscript_targets(el.value)]  # type: ignore[attr-defined]
    if kind is cst.StarredElement:
        return _subscript_targets(expr.value)  # type: ignore[attr-defined]
    return []


class InPlaceUpdate(InPlaceFixPlan, Rule):
    code = "JAX601"
    name = "in-place-update"
    message = (
        "`{base}` is a JAX array ({why}): item assignment raises TypeError because JAX"
        " arrays are immutable; use `{suggestion}`"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("TypeError", message_startswith="JAX arrays are immutable"),)
    docs = """\
## What it does
Flags item assignment into a JAX array: `x[i] = v`, and the augmented forms
`x[i] += v`, `-=`, `*=`, `/=`, `**=`, `//=` and the other operators, on host or
in traced code.

It fires only when `x` is certainly one immutable `jax.Array`: made by a
`jax.numpy`/`jax.lax`/`jax.random` function that returns one array, by an
`.at[...]` update, by array arithmetic or an array method on such a value or on a
tracer, a traced parameter annotated `jax.Array` (or jaxtyping `Float[Array,
...]`), the carry of a `lax.scan`/`fori_loop`/`while_loop` body (and `scan`'s
per-step slice) when the loop's initial value is certainly one array, a name
unpacked from such a carry (`total, hist = carry`) whose element of the initial
tuple is one, an unannotated traced parameter that the function itself uses in a way
only one array allows (`x - 1`, `x / n`, `x + 1.0`, `-x`, `x > 0`, `x.sum()`,
`x.astype(...)`, `x.at[i].add(v)`, `jnp.sqrt(x)`), or the result of a jitted function of
the module whose every `return` is such a value. Every assignment to the name in its
scope must qualify (`x = np.zeros(3)` on one branch keeps the rule silent).

It stays silent on values that accept item assignment: NumPy arrays, Python
lists and dicts, pytrees of parameters passed to a jitted function, mutable
`jax.Ref`s (`r = jax.new_ref(x); r[...] = v`, also inside `jax.jit`) and Flax
NNX `Variable`s (`v[...] += 1`). An unannotated parameter of a jitted function may
be any of these, so it needs an annotation to be flagged, or a use in the function
that all of them reject: `x.shape`, `x.dtype`, `x.ndim`, `x.T`, `x.reshape(...)` and
`x.at[i].set(v)` do not count (a `jax.Ref` has them), nor do `xs + ys`, `xs * 2` (list
concatenation and repetition) or `jnp.stack(xs)` (the `jnp` functions that take a
list). A Flax NNX `Variable` passed bare to a jitted function and used in arithmetic
would still be reported (it forwards every array operation); NNX code passes modules.

## Why is this bad
JAX arrays are immutable. `x[i] = v` raises, on the host and under `jit` alike:

```text
TypeError: JAX arrays are immutable and do not support in-place item assignment.
Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method
```

`x.at[i].set(v)` returns a new array with the update (under `jit`, XLA performs
it in place when `x` is not used afterwards).

## Example
```python
import jax.numpy as jnp

x = jnp.zeros(5)
for i in range(5):
    x[i] = i * i
x[0] += 1.0
```

## Use instead
```python
import jax.numpy as jnp

x = jnp.zeros(5)
for i in range(5):
    x = x.at[i].set(i * i)
x = x.at[0].add(1.0)
```

`x[i] = v` becomes `x = x.at[i].set(v)`; `+=`, `-=`, `*=`, `/=`, `**=` become
`.add(v)`, `.subtract(v)`, `.multiply(v)`, `.divide(v)`, `.power(v)`
(`.subtract` exists since JAX 0.4.35; for an older `target-jax`, `-=` becomes
`.add(-v)`, which gives the same result, also for unsigned integers);
`x[i] = jnp.minimum(x[i], v)` becomes `.min(v)` (`.max` likewise; NaNs and
signed zeros are handled the same, checked on CPU); the other operators become
`.set(x[i] OP v)`.

## Fix safety
The fix rebinds the name (`x = x.at[i].set(v)`), keeping comments and the rest
of the line. It is safe when the update means exactly what the NumPy code meant:

- the index is basic: integer literals, slices, `...`, `None`, or a loop
  variable of `for i in range(...)`. An index array may hold repeated indices:
  NumPy's `x[idx] += v` then applies one update per position, `.at[idx].add(v)`
  applies all of them, and `.set` keeps an unspecified one;
- `x` is a local of the function, not a parameter: NumPy code that fills an
  argument in place is seen by the caller, while the rebinding is not (return
  `x` instead);
- the method touches only the indexed elements. `.divide` and `.power` compute
  over the whole array (`x / ones.at[i].mul(v)`): on CPU that flushes subnormal
  numbers to zero in the other elements, and on an integer array `.divide`
  returns floats.

Otherwise the fix is unsafe. A statement with several targets (`x[0] = y[0] = v`,
`x[0], y = v`) or a nested target (`x[i][j] = v`) gets no fix, nor does an array
bound in an enclosing scope (rebinding it would make the name local). With an
integer array and a float value, `.add(v)` casts `v` to the array's dtype before
adding, while NumPy adds then casts; JAX warns about that cast (FutureWarning).

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function: an item assignment
fails the `eval_shape` stage with `TypeError: JAX arrays are immutable and do not
support in-place item assignment`, with the file and line of the assignment.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_scan_tuple_carry_dict_element.py",
            runs=True,
            note="the unpacked element of the carry is a dict",
        ),
        EXAMPLES.valid(
            "valid_scan_carry_is_a_dict.py",
            runs=True,
            note="a scan carry that is a dict accepts item assignment",
        ),
        EXAMPLES.valid(
            "valid_scan_body_through_partial.py",
            runs=True,
            note="a body passed through partial: its parameters are not matched to the carry",
        ),
        EXAMPLES.valid(
            "valid_functional_update_already.py", runs=True, note="the functional update already"
        ),
        EXAMPLES.valid("valid_numpy_arrays_mutable.py", runs=True, note="NumPy arrays are mutable"),
        EXAMPLES.valid(
            "valid_python_list_dict_holding_arrays.py",
            runs=True,
            note="Python list and dict holding arrays",
        ),
        EXAMPLES.valid(
            "valid_mutable_jax_ref_host_passed.py",
            runs=True,
            note="mutable jax.Ref, on host and passed into jit",
        ),
        EXAMPLES.valid(
            "valid_traced_pytree_parameters_dict_list.py",
            runs=True,
            note="a traced pytree of parameters is a dict and a list inside jit",
        ),
        EXAMPLES.valid(
            "valid_one_assignment_numpy_certainly_jax.py",
            runs=True,
            note="one assignment is NumPy: not certainly a JAX array",
        ),
        EXAMPLES.valid(
            "valid_copied_numpy_array_host_before.py",
            runs=True,
            note="copied to a NumPy array on the host before the assignment",
        ),
        EXAMPLES.valid(
            "valid_flax_nnx_variable_attributes_mutable.py",
            note="Flax NNX Variable attributes are mutable",
        ),
        EXAMPLES.valid(
            "valid_jnp_split_returns_list_unannotated.py",
            runs=True,
            note="jnp.split returns a list; an unannotated host parameter may be NumPy",
        ),
        EXAMPLES.valid(
            "valid_assigning_jax_array_into_dict.py",
            runs=True,
            note="assigning a JAX array into a dict is fine",
        ),
        EXAMPLES.valid(
            "valid_equinox_dict_gradients_list_repeated.py",
            note="Equinox: a dict of gradients, a list repeated with `*`",
        ),
        EXAMPLES.valid(
            "valid_unannotated_parameter_pytree_or_ref.py",
            runs=True,
            note="unannotated parameters that are a dict, a list and a jax.Ref (`.shape` is"
            " no proof of an array: a Ref has one)",
        ),
        EXAMPLES.valid("valid_suppressed.py", note="suppressed"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_scan_tuple_carry_unpacked.py",
            line=7,
            message_contains="made by `jnp.ones` at line 11",
            raises="TypeError",
            note="an element of a tuple carry, unpacked in the body: a local, so safe",
        ),
        EXAMPLES.invalid(
            "invalid_scan_carry_slice_augmented.py",
            line=6,
            message_contains="of the body of `lax.scan` at line 10, whose initial value is an array",
            unsafe_fix=True,
            raises="TypeError",
            note="the carry of a lax.scan body started from an array: unsafe (a parameter)",
        ),
        EXAMPLES.invalid(
            "invalid_fori_loop_carry_divided.py",
            line=6,
            unsafe_fix=True,
            raises="TypeError",
            note="the carry of a fori_loop body; `/=` on a row becomes .divide (unsafe)",
        ),
        EXAMPLES.invalid(
            "invalid_x_i_i_i_square.py",
            line=5,
            column=5,
            message_contains="made by `jnp.zeros` at line 3",
            raises="TypeError",
        ),
        EXAMPLES.invalid("invalid_x_1_3_0.py", count=3, raises="TypeError"),
        EXAMPLES.invalid(
            "invalid_subtract_before_jax_0_4.py",
            target_jax="0.4.30",
            note="no .at[].subtract before JAX 0.4.35",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_traced_parameter_unsafe_caller_does.py",
            line=6,
            message_contains="parameter of `relax` annotated `jax.Array`, jitted by `jax.jit`",
            unsafe_fix=True,
            note="a traced parameter: unsafe (the caller does not see a rebinding)",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_unannotated_parameter_used_as_array.py",
            line=6,
            message_contains="a parameter of `boost` used as an array (`jnp.sqrt(x)` at line 7)",
            unsafe_fix=True,
            raises="TypeError",
            note="an unannotated parameter passed to `jnp.sqrt`: one array, not a pytree",
        ),
        EXAMPLES.invalid(
            "invalid_unannotated_parameter_arithmetic.py",
            line=6,
            message_contains="used as an array (`x - x.mean()` at line 7)",
            unsafe_fix=True,
            raises="TypeError",
            note="an unannotated parameter in arithmetic: one array",
        ),
        EXAMPLES.invalid(
            "invalid_arithmetic_tracer_array_divide_unsafe.py",
            line=7,
            message_contains="derived from an array `acc` of the body of `lax.fori_loop`",
            unsafe_fix=True,
            note="arithmetic on a tracer is an array; .divide is unsafe",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_host_result_jitted_call_other.py",
            line=9,
            message_contains="returned by `step`, jitted by `jax.jit`",
            note="host result of a jitted call; other operators go through .set",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_chained_assignment_reported_fix.py",
            count=2,
            note="chained assignment: reported, no fix",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_nested_target_reported_fix.py",
            note="nested target: reported, no fix",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_index_array_may_repeat_indices.py",
            unsafe_fix=True,
            note="an index array may repeat indices: unsafe",
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_bound_enclosing_scope_rebinding_would.py",
            note="bound in the enclosing scope: rebinding would make it local",
            raises="TypeError",
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.evidence = ArrayEvidence(self)

    def visit_Assign(self, node: cst.Assign) -> None:
        targets = [s for t in node.targets for s in _subscript_targets(t.target)]
        single = len(node.targets) == 1 and type(node.targets[0].target) is cst.Subscript
        for target in targets:
            self._check(node, target, None, single)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript):
            self._check(node, node.target, node.operator, True)

    def _check(
        self,
        stmt: cst.Assign | cst.AugAssign,
        target: cst.Subscript,
        op: cst.BaseAugOp | None,
        fixable: bool,
    ) -> None:
        why = self.evidence.of(target.value)
        if why is None:
            return
        base = self.ctx.code(target.value)
        index = self.ctx.code(target)[len(base) :]
        plan = self._plan(stmt, target, op) if fixable else None
        if plan is not None:
            text, applicability, fix_message = plan
            suggestion = text
        else:
            method = "set" if op is None else AUG_METHODS.get(type(op), "set")
            root = target.value
            while isinstance(root, cst.Subscript):
                root = root.value
            if root is target.value:
                suggestion = f"{base} = {base}.at{index}.{method}(...)"
            else:
                suggestion = f"x = x.at[...].{method}(...)"
        suggestion = " ".join(suggestion.split())
        if len(suggestion) > 70:
            suggestion = suggestion[:67] + "..."

        def fix() -> list[FixOp]:
            return [ReplaceNode(stmt, plan[0])] if plan is not None else []

        self.report(
            target,
            base=base,
            why=why,
            suggestion=suggestion,
            fix=fix if plan is not None else None,
            applicability=plan[1] if plan is not None else None,
            fix_message=plan[2] if plan is not None else None,
        )
