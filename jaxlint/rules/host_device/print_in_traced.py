"""JAX103 print-in-traced: ``print`` of a tracer in traced code, which prints once at
trace time instead of the values.
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxlint.analysis.tracing import Val
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.rules.host_device.helpers import Shared, fstring_operands

EXAMPLES = Examples(__file__)


def _py_str(text: str) -> str:
    """A Python string literal for ``text``, double-quoted when possible."""
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


# -- JAX103 ----------------------------------------------------------------------------------


class PrintInTraced(Shared, Rule):
    code = "JAX103"
    name = "print-in-traced"
    message = "`print` in traced `{fn}` {effect}: {why}; use `jax.debug.print`"
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile FILE.py:FUNC"
    docs = """\
## What it does
Flags `print(...)` in traced code when it prints a value that is definitely a
tracer, directly or formatted into text (`print(x)`, `print("loss", loss)`,
`print(f"{x:.3f}")`, `print("x=" + str(x))`), under `jax.jit`-like transforms,
`vmap` and lax bodies.

## Why is this bad
`print` is ordinary Python: under `jax.jit` it runs once, while JAX traces the
function, and prints the tracer (`JitTracer<float32[3]>`), not the values; the
compiled function then runs on every call without printing anything. Under `vmap`
it prints a batch tracer on each call. A format spec such as `f"{x:.3f}"` even
raises `TypeError` on a tracer. `jax.debug.print` is staged into the computation
and prints the runtime values on every call.

A `print` of static values only (`print(x.shape)`, `print(x.dtype)`,
`print("compiling")`) is **not** flagged: it runs at trace time, which is usually
what such a print is for (seeing shapes when a function compiles). A `print` under
`jax.grad` alone is not flagged either: the function runs on every call there, and
the tracer shows its concrete primal. A format spec on a tracer (`f"{loss:.3f}"`) is
flagged there too: it raises `TypeError` ("unsupported format string passed to
LinearizeTracer.__format__", checked on JAX 0.12) under any transform.

## Example
```python
@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    print("loss", loss)
    print(f"w[0]={w[0]:.3f}")
    return loss
```

## Use instead
```python
@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("loss {}", loss)
    jax.debug.print("w[0]={:.3f}", w[0])
    return loss
```

## Fix safety
Unsafe: the output moves from trace time to run time (printed on every call, and
asynchronously, possibly out of order with other output unless `ordered=True`),
and static values passed as arguments are printed by JAX (`x.shape` shows as a
tuple of arrays). The fix builds a `str.format` string: each positional argument
becomes a `{}` field, joined by spaces as `print` does; string literals are
inlined with their braces escaped; f-string fields keep their conversion and format
spec (`f"{x!r:>8}"` -> `"{!r:>8}"`). Because `jax.debug.print` (JAX 0.12) formats
only when the text before its first field has no braces, such text is passed as an
argument instead (`print("{a}", x)` -> `jax.debug.print("{} {}", "{a}", x)`). No fix
is offered with `sep=`, `end=`, `file=`, `flush=`, `*args`, bytes, nested format
specs (`{x:{w}}`), `{x=}` fields, or text built from a tracer before printing
(`print("x=" + str(x))`, `print("%s" % x)`).

## Verify at runtime
`jaxlint probe recompile FILE.py:FUNC` calls the jitted function once per case
(`--format text` for a readable report): a `print` appears only with the call that
compiled, `jax.debug.print` with every call. tests/test_host_device_runtime.py
checks this on JAX 0.12.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_scan_under_disable_jit_runs_eagerly.py",
            note="`lax.scan` called inside `with jax.disable_jit():` runs its body eagerly:"
            " `print` prints values",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_static_values_print_once_trace.py",
            note="static values print once at trace time, on purpose",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_printing_after_jitted_call_returned.py",
            note="printing after the jitted call returned",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_static_arguments_python_values.py",
            note="static arguments are Python values",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jax_debug_print_print_inside.py",
            note="jax.debug.print, and print inside a host callback",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_grad_alone_runs_function_every.py",
            note="grad alone runs the function every call and the primal is concrete",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_maybe_traced_unknown_function_s.py",
            note="maybe traced: an unknown function's result",
        ),
        EXAMPLES.valid(
            "valid_host_code_array_concrete.py", note="host code: the array is concrete"
        ),
        EXAMPLES.valid(
            "valid_pytree_structure_types_static.py", note="pytree structure and types are static"
        ),
        EXAMPLES.valid("valid_local_function_named_print.py", note="a local function named print"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_print_in_loss_under_jit_of_grad.py",
            line=6,
            message_contains="jitted by `jax.jit` at line 9",
            unsafe_fix=True,
            note="`jax.jit(jax.grad(loss))`: the print runs once, at trace time",
        ),
        EXAMPLES.invalid(
            "invalid_print_loss_loss.py",
            line=8,
            column=5,
            message_contains="`loss` is traced",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_format_spec_tracer_raises_fixed.py",
            unsafe_fix=True,
            raises="TypeError",
            note="a format spec on a tracer raises; the fixed program prints on every call",
        ),
        EXAMPLES.invalid(
            "invalid_literal_braces_escaped_after_first.py",
            unsafe_fix=True,
            note="literal braces: escaped after the first field, an argument before it",
        ),
        EXAMPLES.invalid(
            "invalid_end_has_jax_debug_print.py",
            unsafe_fix=True,
            note="end= has no jax.debug.print equivalent: no fix",
        ),
        EXAMPLES.invalid("invalid_return_x.py", unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_lax_scan_body_0_0_jnp.py",
            message_contains="traced as a body of `lax.scan`",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_vmap_text_built_tracer_fix.py",
            unsafe_fix=True,
            note="vmap; text built from a tracer: no fix",
        ),
        EXAMPLES.invalid("invalid_formatting_tracer.py", note="%-formatting of a tracer"),
        EXAMPLES.invalid(
            "invalid_format_spec_under_grad_alone.py",
            line=7,
            message_contains="formats a tracer with a format spec, which raises TypeError",
            unsafe_fix=True,
            raises="TypeError",
            note="`grad` alone: a plain print shows the values, a format spec raises",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "builtins.print":
            return
        trace = self.ctx.trace
        owner = trace.traced_function_of(node)
        if owner is None or self._tracer_guards:
            return
        traced: Val | None = None
        for arg in node.args:
            if arg.keyword is not None:
                continue
            for operand in fstring_operands(arg.value):
                val = self._traced_inside(operand)
                if val is not None and trace.is_abstract(val, node):
                    traced = val
                    break
            if traced is not None:
                break
        effect = "prints a tracer, not the value, and only when JAX traces it"
        if traced is None:
            # ``f"{loss:.3f}"``: a format spec raises on any tracer, also under ``grad``
            # alone where a plain ``print`` shows the concrete primal
            traced = self._format_spec_on_tracer(node)
            if traced is None:
                return
            effect = "formats a tracer with a format spec, which raises TypeError"
        plan = self._debug_print(node)
        fix = None
        if plan is not None:
            spelled = spell(self.model, "jax.debug.print", node.func)
            if spelled is not None:
                text, ops = spelled
                new = f"{text}({', '.join(plan)})"

                def fix() -> list[FixOp]:
                    return [ReplaceNode(node, new), *ops]

        self.report(
            node,
            fn=owner.name,
            effect=effect,
            why=trace.why(traced),
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message="Replace with `jax.debug.print`",
        )

    def _format_spec_on_tracer(self, call: cst.Call) -> Val | None:
        """A traced value formatted with a spec in an f-string argument (``f"{x:.3f}"``)."""
        for arg in call.args:
            value = arg.value
            if arg.keyword is not None or not isinstance(value, cst.FormattedString):
                continue
            for part in value.parts:
                if isinstance(part, cst.FormattedStringExpression) and part.format_spec:
                    val = self._traced(part.expression)
                    if val is not None and not val.container:
                        return val
        return None

    def _debug_print(self, call: cst.Call) -> list[str] | None:
        """The arguments of the equivalent ``jax.debug.print``: the format string, then
        the values. ``None`` when ``print`` uses ``sep``/``end``/``file``/``flush``,
        ``*args``, bytes, or text built from a tracer before printing."""
        pieces: list[tuple[str, str]] = []  # ("lit", text) or ("field", spec, source)
        values: list[str | None] = []
        for i, arg in enumerate(call.args):
            if arg.keyword is not None or arg.star:
                return None
            if i:
                pieces.append(("lit", " "))
                values.append(None)
            v = arg.value
            if isinstance(v, cst.SimpleString):
                text = v.evaluated_value
                if not isinstance(text, str):
                    return None
                pieces.append(("lit", text))
                values.append(None)
            elif isinstance(v, cst.FormattedString):
                got = self._fstring(v)
                if got is None:
                    return None
                for piece, value in got:
                    pieces.append(piece)
                    values.append(value)
            elif isinstance(v, cst.ConcatenatedString):
                return None
            else:
                if self._traced(v) is None and self._traced_inside(v) is not None:
                    return None  # ``str(x)``, ``"%s" % x``: text made from a tracer
                pieces.append(("field", ""))
                values.append(" ".join(self.ctx.code(v).split()))
        # jax.debug.print (0.12) formats only when the text before the first field has
        # no ``{{``/``}}``; such text goes in as an argument instead.
        first_field = next((i for i, p in enumerate(pieces) if p[0] == "field"), len(pieces))
        fmt: list[str] = []
        args: list[str] = []
        for i, ((kind, payload), value) in enumerate(zip(pieces, values, strict=True)):
            if kind == "lit":
                if i < first_field and ("{" in payload or "}" in payload):
                    fmt.append("{}")
                    args.append(_py_str(payload))
                else:
                    fmt.append(payload.replace("{", "{{").replace("}", "}}"))
            else:
                fmt.append("{" + payload + "}")
                assert value is not None
                args.append(value)
        return [_py_str("".join(fmt)), *args]

    def _fstring(self, fs: cst.FormattedString) -> list[tuple[tuple[str, str], str | None]] | None:
        prefix = fs.prefix.lower()
        if "b" in prefix:
            return None
        plain_prefix = prefix.replace("f", "")
        quote = fs.end
        out: list[tuple[tuple[str, str], str | None]] = []
        for part in fs.parts:
            if isinstance(part, cst.FormattedStringText):
                if "\\N{" in part.value:
                    return None
                text = []
                for chunk in _split_braces(part.value):
                    if chunk in ("{{", "}}"):
                        text.append(chunk[0])
                        continue
                    try:
                        value = ast.literal_eval(f"{plain_prefix}{quote}{chunk}{quote}")
                    except (SyntaxError, ValueError):
                        return None
                    if not isinstance(value, str):
                        return None
                    text.append(value)
                out.append((("lit", "".join(text)), None))
            elif isinstance(part, cst.FormattedStringExpression):
                if part.equal is not None:
                    return None
                spec = ""
                if part.conversion:
                    spec += "!" + part.conversion
                if part.format_spec:
                    if not all(isinstance(p, cst.FormattedStringText) for p in part.format_spec):
                        return None  # a nested field: ``{x:{width}}``
                    spec += ":" + "".join(p.value for p in part.format_spec)  # type: ignore[union-attr]
                expr = part.expression
                if self._traced(expr) is None and self._traced_inside(expr) is not None:
                    return None
                out.append((("field", spec), " ".join(self.ctx.code(expr).split())))
            else:
                return None
        return out


def _split_braces(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    start = 0
    while i < len(text):
        if text[i : i + 2] in ("{{", "}}"):
            if i > start:
                out.append(text[start:i])
            out.append(text[i : i + 2])
            i += 2
            start = i
        else:
            i += 1
    if start < len(text):
        out.append(text[start:])
    return out
