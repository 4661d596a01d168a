"""JAX604 discarded-index-update: `x.at[i].set(v)` as a statement of its own, whose result
(the updated copy) is thrown away."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.notebook import CELL_MARK
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule, short

EXAMPLES = Examples(__file__)

UPDATE_METHODS = frozenset(
    {
        "set",
        "add",
        "subtract",
        "mul",
        "multiply",
        "divide",
        "power",
        "min",
        "max",
        "apply",
    }
)
"""The methods of ``x.at[i]`` that return an updated copy of ``x`` (JAX 0.12's
``_IndexUpdateRef``; ``get`` only reads)."""


class DiscardedIndexUpdate(Rule):
    code = "JAX604"
    name = "discarded-index-update"
    message = (
        "`{call}` returns an updated copy and leaves `{receiver}` unchanged (JAX arrays are"
        " immutable); the copy is discarded here, so the update is lost: {advice}"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    required_names = frozenset({"at"})
    docs = """\
## What it does
Flags `x.at[i].set(v)` and the other updates of `.at[...]` (`add`, `subtract`,
`mul`, `multiply`, `divide`, `power`, `min`, `max`, `apply`) written as a statement
of their own, so that the array they return is never used. It stays silent where
the result is assigned, returned or passed on, and on the last statement of a
notebook cell (`.ipynb`, or a `# %%` cell), whose value the notebook displays.

## Why is this bad
JAX arrays are immutable: `x.at[i].set(v)` does not change `x`, it returns a new
array with the update applied. Written as a statement, as one would write
`x[i] = v` in NumPy, it computes the new array and drops it: `x` keeps its old
values, and no error tells you (checked on JAX 0.12: after `x.at[0].set(5.0)`, `x`
is unchanged). Under `jit` the update is dead code: JAX leaves it out when it lowers
the function (checked on JAX 0.12: no `scatter` in the lowered program).

## Example
```python
import jax.numpy as jnp

counts = jnp.zeros(3)
counts.at[1].add(1)
```

## Use instead
```python
import jax.numpy as jnp

counts = jnp.zeros(3)
counts = counts.at[1].add(1)
```

## Fix safety
Unsafe, offered where the array is a plain name bound in the same function (or at
module level): `x.at[i].set(v)` becomes `x = x.at[i].set(v)`. The program then
does what it meant, which is a change of behaviour: every later read of `x` sees
the update. A name of an enclosing function is not fixed (assigning it would make
it local), nor an attribute or an item (`self.buf.at[i].set(v)`: the object may be
frozen, as Flax and Equinox modules are); the message says what to assign.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` writes the function's jaxpr:
the update is a `scatter` (or `scatter-add`, ...) equation whose result is `_`,
read by no later equation.
"""
    VALID = [
        EXAMPLES.valid("valid_assigned.py", note="the result assigned", runs=True),
        EXAMPLES.valid("valid_returned.py", note="the result returned", runs=True),
        EXAMPLES.valid("valid_passed_on.py", note="the result passed to a call", runs=True),
        EXAMPLES.valid("valid_get_only_reads.py", note="`get` only reads", runs=True),
        EXAMPLES.valid(
            "valid_numpy_add_at.py", note="NumPy's `np.add.at` updates in place", runs=True
        ),
        EXAMPLES.valid(
            "valid_percent_cell_displays_it.py",
            note="the last statement of a `# %%` cell: the notebook displays its value",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_module_level_set.py",
            line=4,
            unsafe_fix=True,
            message_contains=(
                "`result.at[0].set(5.0)` returns an updated copy and leaves `result` unchanged"
            ),
        ),
        EXAMPLES.invalid(
            "invalid_jitted_add.py",
            line=7,
            unsafe_fix=True,
            note="in a jitted function: the update is dead code",
        ),
        EXAMPLES.invalid(
            "invalid_loop_body_set.py",
            line=6,
            unsafe_fix=True,
            note="a `fori_loop` body: every step's write is lost",
        ),
        EXAMPLES.invalid(
            "invalid_percent_cell_not_last.py",
            line=5,
            unsafe_fix=True,
            note="in a `# %%` cell, but not its last statement",
        ),
        EXAMPLES.invalid(
            "invalid_attribute_no_fix.py",
            line=9,
            message_contains="assign the result back (`self.buf = self.buf.at[i].set(v)`)",
            note="an attribute: no fix",
        ),
        EXAMPLES.invalid(
            "invalid_enclosing_name_no_fix.py",
            line=8,
            message_contains="return the new array and assign it where `out` is bound",
            note="a name of the enclosing function: assigning it here would make it local",
        ),
    ]

    def visit_Expr(self, node: cst.Expr) -> None:
        call = node.value
        if type(call) is not cst.Call:
            return
        method = call.func
        if type(method) is not cst.Attribute or method.attr.value not in UPDATE_METHODS:
            return
        ref = method.value
        if type(ref) is not cst.Subscript:
            return
        at = ref.value
        if type(at) is not cst.Attribute or at.attr.value != "at":
            return
        if self._displayed(node):
            return
        receiver = at.value
        code = self.ctx.code
        call_text = code(call)
        receiver_text = code(receiver)
        shown = short(call_text, 60)
        fixable = type(receiver) is cst.Name and self._local(receiver)
        if fixable:
            advice = f"assign it (`{receiver_text} = {shown}`)"
        elif type(receiver) is cst.Name:
            advice = (
                f"return the new array and assign it where `{receiver_text}` is bound "
                "(assigning it here would make it a new local name)"
            )
        elif "\n" not in receiver_text:
            advice = f"assign the result back (`{receiver_text} = {shown}`)"
        else:
            advice = "assign the result back"

        def fix(call: cst.Call = call, text: str = f"{receiver_text} = {call_text}") -> list[FixOp]:
            return [ReplaceNode(call, text)]

        self.report(
            call,
            fix=fix if fixable else None,
            applicability=Applicability.UNSAFE if fixable else None,
            fix_message=f"Assign the updated array to `{receiver_text}`",
            call=shown,
            receiver=short(receiver_text, 60),
            advice=advice,
        )

    def _local(self, name: cst.Name) -> bool:
        """``name`` is bound in the scope of the statement that reads it (not only in an
        enclosing one): ``name = ...`` there keeps it the same variable."""
        model = self.ctx.model
        scope = model.scope_for(name)
        found = model.lookup(name.value, scope)
        return found is not None and found[0] is scope and scope.kind in ("function", "module")

    def _displayed(self, node: cst.Expr) -> bool:
        """The last statement of a notebook cell: the notebook shows its value."""
        parents = self.ctx.model.parents
        line = parents.get(id(node))
        module = parents.get(id(line)) if line is not None else None
        if type(module) is not cst.Module:
            return False
        body = module.body
        index = next((i for i, stmt in enumerate(body) if stmt is line), None)
        if index is None:
            return False
        notebook = self.ctx.filename.endswith(".ipynb")
        if index + 1 < len(body):
            following = body[index + 1].leading_lines
        else:
            following = module.footer
        for empty in following:
            comment = empty.comment
            if comment is None:
                continue
            text = comment.value
            if (notebook and text == CELL_MARK) or text.startswith("# %%"):
                return True
        return index + 1 == len(body) and notebook
