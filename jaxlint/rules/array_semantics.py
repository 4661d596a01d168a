"""JAX6xx: array semantics that differ from NumPy."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, Invalid, ReplaceNode, Rule, Valid

_EMPTY_TO_ZEROS = {
    "jax.numpy.empty": "jax.numpy.zeros",
    "jax.numpy.empty_like": "jax.numpy.zeros_like",
}
_UNINITIALIZED_SINCE = (0, 11, 0)


class EmptyNotZeros(Rule):
    code = "JAX602"
    name = "empty-not-zeros"
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
        Valid("import jax.numpy as jnp\nx = jnp.zeros((3,))\n"),
        Valid("import numpy as np\nx = np.empty((3,))\n", note="NumPy, not JAX"),
        Valid("import jax.numpy as jnp\ny = jnp.zeros_like(x)\n"),
        Valid(
            "import jax.numpy as jnp\nx = jnp.empty((3,))\n",
            target_jax="0.10.2",
            note="before 0.11 jnp.empty was jnp.zeros",
        ),
        Valid(
            "import jax.numpy as jnp\ndef f(jnp):\n    return jnp.empty(3)\n",
            note="parameter shadows the import",
        ),
        Valid("import jax.numpy as jnp\ns = 'jnp.empty((3,))'  # jnp.empty(3)\n"),
        Valid("import jax.numpy as jnp\nq = queue.empty()\nfull = jnp.full((2,), 1.0)\n"),
        Valid(
            "try:\n    import jax.numpy as np\nexcept ImportError:\n    import numpy as np\n"
            "x = np.empty(3)\n",
            note="two possible modules: ambiguous, stay silent",
        ),
        Valid("import jax.numpy as jnp\nx = jnp.empty((3,))  # noqa: JAX602\n"),
        Valid(
            "import jax.numpy as jnp\ndt = jnp.empty((), dtype=p.dtype).real.dtype\n"
            "nd = jnp.empty((2, 3)).ndim\n",
            note="only metadata is read, never the uninitialized memory",
        ),
    ]
    INVALID = [
        Invalid(
            "import jax.numpy as jnp\nx = jnp.empty((3, 4))\n",
            line=2,
            column=5,
            expected_fix="import jax.numpy as jnp\nx = jnp.zeros((3, 4))\n",
            message_contains="`jnp.empty`",
        ),
        Invalid(
            "import jax\ny = jax.numpy.empty_like(x, dtype=jax.numpy.float32)\n",
            expected_fix="import jax\ny = jax.numpy.zeros_like(x, dtype=jax.numpy.float32)\n",
        ),
        Invalid(
            "from jax.numpy import empty\nx = empty(5)\n",
            expected_fix="from jax.numpy import empty\nimport jax\nx = jax.numpy.zeros(5)\n",
        ),
        Invalid(
            "import jax.numpy as np2\nx = np2.empty(5)  # keep me\n",
            expected_fix="import jax.numpy as np2\nx = np2.zeros(5)  # keep me\n",
        ),
        Invalid(
            "from jax import numpy as jnp\n\ndef f(x):\n    return jnp.empty_like(prototype=x)\n",
            expected_fix=(
                "from jax import numpy as jnp\n\ndef f(x):\n    return jnp.zeros_like(a=x)\n"
            ),
        ),
        Invalid(
            "import jax.numpy as jnp\nx = jnp.empty((3,))  # noqa: JAX601\n",
            note="noqa for another code does not suppress",
        ),
        Invalid(
            "import jax.numpy as jnp\r\nx = jnp.empty(\r\n    (3,),\r\n)\r\n",
            expected_fix="import jax.numpy as jnp\r\nx = jnp.zeros(\r\n    (3,),\r\n)\r\n",
            note="CRLF kept",
        ),
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
        if id(node) in self._metadata_only:
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
