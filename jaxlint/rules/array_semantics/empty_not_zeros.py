"""JAX602 empty-not-zeros: `jnp.empty` and `jnp.empty_like`, which return uninitialized
memory since JAX 0.11."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule

EXAMPLES = Examples(__file__)

_EMPTY_TO_ZEROS = {
    "jax.numpy.empty": "jax.numpy.zeros",
    "jax.numpy.empty_like": "jax.numpy.zeros_like",
}
_UNINITIALIZED_SINCE = (0, 11, 0)


class EmptyNotZeros(Rule):
    code = "JAX602"
    name = "empty-not-zeros"
    default_enabled = False  # see "Off by default" in the docs
    message = (
        "`{callee}` returns uninitialized memory since JAX 0.11 (zeros only on CPU);"
        " use `{replacement}`"
    )
    fix_availability = "always"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags calls to `jax.numpy.empty` and `jax.numpy.empty_like` (in any import
spelling) when the target JAX version is 0.11 or newer.

**Off by default.** It does not know whether the uninitialized memory is ever read:
both sampled findings on the held-out projects were false alarms (a zero-size
padding block, and a scan-carry placeholder that the body never reads), as were 10
of 20 on the tuning corpus (docs/precision/heldout.md); a literal 0 in the shape is
now skipped, the placeholder case cannot be told apart statically. Turn it on with
`extend-select = ["JAX602"]` (or `--extend-select JAX602`) when porting NumPy code
that fills `empty` arrays; the fix is safe either way (zeros cost a memset).

## Why is this bad
Since JAX 0.11, `jnp.empty` emits an `empty` primitive: on GPU and TPU it lowers
to an uninitialized buffer (`AllocateBuffer`), so the array holds garbage. On CPU
it still lowers to a zero fill, so tests on a laptop pass and the bug appears
only on an accelerator. JAX arrays are immutable: code ported from NumPy that
fills an `empty` array with `.at[...].set(...)` and reads it before every element
is written reads garbage. Before 0.11, `jnp.empty` was an alias of `jnp.zeros`,
so the rule stays silent for `target-jax` below 0.11.

## Example
```python
import jax.numpy as jnp

buf = jnp.empty((n, d))
```

## Use instead
```python
import jax.numpy as jnp

buf = jnp.zeros((n, d))
```

## Fix safety
Safe: zeros are one of the values uninitialized memory may hold, so no program
that was correct before changes its result; programs that read unwritten
elements become deterministic. `empty_like(prototype=x)` becomes
`zeros_like(a=x)`.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` shows an `empty` equation
in the jaxpr where `jnp.empty` is used (a `broadcast_in_dim` for `jnp.zeros`).
"""
    VALID = [
        EXAMPLES.valid("valid_x_jnp_zeros_3.py"),
        EXAMPLES.valid("valid_numpy_jax.py", note="NumPy, not JAX"),
        EXAMPLES.valid("valid_y_jnp_zeros_like_x.py"),
        EXAMPLES.valid(
            "valid_before_0_11_jnp_empty.py",
            target_jax="0.10.2",
            note="before 0.11 jnp.empty was jnp.zeros",
        ),
        EXAMPLES.valid("valid_parameter_shadows_import.py", note="parameter shadows the import"),
        EXAMPLES.valid("valid_s_jnp_empty_3_jnp_empty.py"),
        EXAMPLES.valid("valid_full_jnp_full_2_1_0.py"),
        EXAMPLES.valid(
            "valid_two_possible_modules_ambiguous_stay.py",
            note="two possible modules: ambiguous, stay silent",
        ),
        EXAMPLES.valid("valid_x_jnp_empty_3_noqa_jax602.py"),
        EXAMPLES.valid(
            "valid_only_metadata_read_never_uninitialized.py",
            note="only metadata is read, never the uninitialized memory",
        ),
        EXAMPLES.valid(
            "valid_zero_size_nothing_to_read.py",
            note="a literal 0 in the shape: no element, nothing uninitialized to read",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_x_jnp_empty_3_4.py", line=2, column=5, message_contains="`jnp.empty`"
        ),
        EXAMPLES.invalid("invalid_y_jax_numpy_empty_like_x.py"),
        EXAMPLES.invalid("invalid_x_empty_5.py"),
        EXAMPLES.invalid("invalid_x_np2_empty_5_keep_me.py"),
        EXAMPLES.invalid("invalid_return_jnp_empty_like_prototype_x.py"),
        EXAMPLES.invalid(
            "invalid_noqa_another_code_does_suppress.py",
            note="noqa for another code does not suppress",
        ),
        EXAMPLES.invalid("invalid_crlf_kept.py", note="CRLF kept"),
    ]

    _METADATA = frozenset({"dtype", "shape", "ndim", "size", "itemsize", "nbytes"})

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._metadata_only: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # ``jnp.empty((), dtype).dtype`` reads only metadata, never the memory
        if node.attr.value not in self._METADATA:
            return
        value = node.value
        while isinstance(value, cst.Attribute) and value.attr.value in ("real", "imag", "T", "mT"):
            value = value.value
        if isinstance(value, cst.Call):
            self._metadata_only.add(id(value))

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._metadata_only or _zero_size(node):
            return
        qualname = self.model.call_name(node)
        replacement = _EMPTY_TO_ZEROS.get(qualname or "")
        if replacement is None or self.ctx.target_jax < _UNINITIALIZED_SINCE:
            return
        callee = self.ctx.code(node.func)
        spelled = spell(self.model, replacement, node.func)
        shown = spelled[0] if spelled else replacement.replace("jax.numpy.", "jnp.")

        def fix() -> list[FixOp]:
            if spelled is None:
                return []
            text, ops = spelled
            out: list[FixOp] = [ReplaceNode(node.func, text), *ops]
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "prototype":
                    out.append(ReplaceNode(arg.keyword, "a"))
            return out

        self.report(
            node.func,
            callee=callee,
            replacement=shown,
            fix=fix if spelled is not None else None,
            applicability=Applicability.SAFE if spelled is not None else None,
            fix_message=f"Replace with `{shown}`",
        )


def _zero_size(call: cst.Call) -> bool:
    """``jnp.empty((0, d))``: a literal 0 in the shape, so no element is ever read."""
    shape = next(
        (a.value for a in call.args if a.keyword is None or a.keyword.value == "shape"), None
    )
    dims = [el.value for el in shape.elements] if type(shape) in (cst.Tuple, cst.List) else [shape]
    return any(type(d) is cst.Integer and d.evaluated_value == 0 for d in dims)
