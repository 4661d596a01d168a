"""JAX6xx: array semantics that differ from NumPy."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path

import libcst as cst

from jaxlint.analysis.names import Binding, Scope, SemanticModel
from jaxlint.analysis.tracing import Level
from jaxlint.analysis.transforms import ARRAY_MODULES, STATIC_CALLS
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule

_EMPTY_TO_ZEROS = {
    "jax.numpy.empty": "jax.numpy.zeros",
    "jax.numpy.empty_like": "jax.numpy.zeros_like",
}
_UNINITIALIZED_SINCE = (0, 11, 0)
_EXAMPLES_JAX602 = Examples(Path(__file__).parent / "array_semantics" / "empty_not_zeros.py")


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
        _EXAMPLES_JAX602.valid("valid_x_jnp_zeros_3.py"),
        _EXAMPLES_JAX602.valid("valid_numpy_jax.py", note="NumPy, not JAX"),
        _EXAMPLES_JAX602.valid("valid_y_jnp_zeros_like_x.py"),
        _EXAMPLES_JAX602.valid(
            "valid_before_0_11_jnp_empty.py",
            target_jax="0.10.2",
            note="before 0.11 jnp.empty was jnp.zeros",
        ),
        _EXAMPLES_JAX602.valid(
            "valid_parameter_shadows_import.py", note="parameter shadows the import"
        ),
        _EXAMPLES_JAX602.valid("valid_s_jnp_empty_3_jnp_empty.py"),
        _EXAMPLES_JAX602.valid("valid_full_jnp_full_2_1_0.py"),
        _EXAMPLES_JAX602.valid(
            "valid_two_possible_modules_ambiguous_stay.py",
            note="two possible modules: ambiguous, stay silent",
        ),
        _EXAMPLES_JAX602.valid("valid_x_jnp_empty_3_noqa_jax602.py"),
        _EXAMPLES_JAX602.valid(
            "valid_only_metadata_read_never_uninitialized.py",
            note="only metadata is read, never the uninitialized memory",
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX602.invalid(
            "invalid_x_jnp_empty_3_4.py", line=2, column=5, message_contains="`jnp.empty`"
        ),
        _EXAMPLES_JAX602.invalid("invalid_y_jax_numpy_empty_like_x.py"),
        _EXAMPLES_JAX602.invalid("invalid_x_empty_5.py"),
        _EXAMPLES_JAX602.invalid("invalid_x_np2_empty_5_keep_me.py"),
        _EXAMPLES_JAX602.invalid("invalid_return_jnp_empty_like_prototype_x.py"),
        _EXAMPLES_JAX602.invalid(
            "invalid_noqa_another_code_does_suppress.py",
            note="noqa for another code does not suppress",
        ),
        _EXAMPLES_JAX602.invalid("invalid_crlf_kept.py", note="CRLF kept"),
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


# -- which expressions are certainly one immutable jax.Array ------------------------------

# Functions of JAX's array modules that return a tuple, a list, a pytree, a function or
# a Python value rather than one array.
_NOT_ONE_ARRAY = frozenset(
    {
        *(
            f"jax.numpy.{n}"
            for n in (
                "split array_split hsplit vsplit dsplit unstack meshgrid broadcast_arrays"
                " atleast_1d atleast_2d atleast_3d nonzero unique_all unique_counts"
                " unique_inverse histogram histogram2d histogramdd ix_ tril_indices"
                " triu_indices tril_indices_from triu_indices_from diag_indices"
                " diag_indices_from mask_indices unravel_index divmod frexp modf polyfit"
                " einsum_path broadcast_shapes load vectorize frompyfunc printoptions"
                " get_printoptions set_printoptions linalg.eig linalg.eigh linalg.svd"
                " linalg.qr linalg.slogdet linalg.lstsq"
            ).split()
        ),
        *(
            f"jax.lax.{n}"
            for n in (
                "scan fori_loop while_loop cond switch map associative_scan custom_root"
                " custom_linear_solve reduce sort sort_key_val top_k approx_max_k"
                " approx_min_k psum pmean pmax pmin all_gather all_to_all ppermute pshuffle"
                " psum_scatter pbroadcast optimization_barrier stop_gradient"
                " with_sharding_constraint pcast pvary platform_dependent composite"
            ).split()
        ),
    }
)
_NOT_ONE_ARRAY_PREFIXES = ("jax.nn.initializers.", "jax.lax.linalg.")
_ONE_ARRAY_SCIPY = ("jax.scipy.special.", "jax.scipy.stats.")

# Array methods whose result is a new array, whatever array-like object they are
# called on (a list, a dict or a pytree has none of them).
_ARRAY_METHODS = frozenset(
    "astype reshape transpose ravel flatten squeeze sum mean max min prod cumsum cumprod"
    " clip round conj conjugate swapaxes argmax argmin argsort sort std var dot".split()
)
# ... and these, only on a value already known to be one array (``list.copy()``).
_COPY_METHODS = frozenset({"copy", "block_until_ready"})
_ARRAY_VIEWS = frozenset({"T", "mT", "real", "imag"})
_AT_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)
# The output of these transforms is the output of the function they wrap.
_SAME_OUTPUT_VERBS = frozenset(
    {"jitted", "vmapped", "pmapped", "shard_mapped", "rematerialized", "scanned"}
)
_ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array"})


def _one_array_call(qualname: str, call: cst.Call) -> bool:
    """``qualname(...)`` returns one JAX array."""
    if not qualname.startswith(ARRAY_MODULES) or qualname in STATIC_CALLS:
        return False
    if qualname in _NOT_ONE_ARRAY or qualname.startswith(_NOT_ONE_ARRAY_PREFIXES):
        return False
    if qualname.startswith("jax.scipy.") and not qualname.startswith(_ONE_ARRAY_SCIPY):
        return False
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    positional = [a for a in call.args if a.keyword is None]
    if qualname == "jax.numpy.where" and len(positional) < 3 and not keywords & {"x", "y"}:
        return False  # ``jnp.where(cond)`` is ``jnp.nonzero``: a tuple
    if qualname == "jax.numpy.unique" and any(k.startswith("return_") for k in keywords):
        return False
    if qualname == "jax.numpy.indices" and "sparse" in keywords:
        return False
    return True


def _short(qualname: str) -> str:
    for long, short in (("jax.numpy.", "jnp."), ("jax.lax.", "lax.")):
        if qualname.startswith(long):
            return short + qualname[len(long) :]
    return qualname


def _derived(evidence: str | None) -> str | None:
    """Evidence for a value computed from an array with that evidence."""
    if evidence is None or evidence.startswith(("derived from", "computed from")):
        return evidence
    return f"derived from an array {evidence}"


def _is_number(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary))


_ASSIGNED: weakref.WeakKeyDictionary[SemanticModel, dict[int, tuple[str, cst.BaseExpression]]] = (
    weakref.WeakKeyDictionary()
)
"""``_ArrayEvidence.assigned`` of each module, shared by the rules that use it."""


class _ArrayEvidence:
    """Why an expression is certainly one immutable ``jax.Array``, or ``None``.

    The trace analysis's ``Val.array``/``Val.traced`` say that a value is, or holds,
    JAX arrays: a traced parameter may be a pytree (a dict of parameters, a list of
    caches), a mutable ``jax.Ref`` or a Flax NNX ``Variable``, and all of these accept
    ``v[i] = x``. So an item assignment is flagged only with positive evidence of one
    array: a ``jnp``/``lax``/``jax.random`` call that returns one array, an ``.at[]``
    update, array arithmetic or an array method on such a value or on a tracer, a
    traced parameter annotated ``jax.Array``, or the result of a jitted function of
    this module whose every ``return`` is such a value. A name qualifies when *every*
    assignment to it in its scope does (``x += v`` keeps what ``x`` was).
    """

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.model = rule.model
        self.ctx = rule.ctx
        self._assigned: dict[int, tuple[str, cst.BaseExpression]] | None = None
        self._returns: dict[int, list[cst.Return]] = {}

    # bookkeeping ------------------------------------------------------------------

    @property
    def assigned(self) -> dict[int, tuple[str, cst.BaseExpression]]:
        """``id(target Name)`` -> (``value``/``aug``/``for``, the expression)."""
        if self._assigned is None:
            shared = _ASSIGNED.get(self.model)
            if shared is not None:  # the other rule of this module already built it
                self._assigned = shared
                return shared
            found: dict[int, tuple[str, cst.BaseExpression]] = {}
            # every node of the module: ``type() is`` (concrete libcst classes have no
            # subclasses) instead of ``isinstance``, which goes through ABCMeta
            name = cst.Name
            for node, entering in self.model.events:
                if not entering:
                    continue
                kind = type(node)
                if kind is cst.Assign:
                    for t in node.targets:
                        if type(t.target) is name:
                            found[id(t.target)] = ("value", node.value)
                elif kind is cst.AnnAssign:
                    if node.value is not None and type(node.target) is name:
                        found[id(node.target)] = ("value", node.value)
                elif kind is cst.AugAssign:
                    if type(node.target) is name:
                        found[id(node.target)] = ("aug", node.value)
                elif kind is cst.For and type(node.target) is name:
                    found[id(node.target)] = ("for", node.iter)
            self._assigned = found
            _ASSIGNED[self.model] = found
        return self._assigned

    def line(self, node: cst.CSTNode) -> int:
        return self.ctx.positions[node].start.line

    def bindings(self, name: cst.Name) -> tuple[Scope, list[Binding]] | None:
        return self.model.lookup(name.value, self.model.scope_for(name))

    # evidence ---------------------------------------------------------------------

    def of(self, expr: cst.BaseExpression, depth: int = 0) -> str | None:
        if depth > 8:
            return None
        if isinstance(expr, cst.Name):
            return self._name(expr, depth)
        if isinstance(expr, cst.Call):
            return self._call(expr, depth)
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(expr, depth)
        if isinstance(expr, cst.UnaryOperation) and not isinstance(expr.operator, cst.Not):
            return _derived(self.of(expr.expression, depth + 1))
        if isinstance(expr, cst.Subscript):
            return _derived(self.of(expr.value, depth + 1))
        if isinstance(expr, cst.Attribute) and expr.attr.value in _ARRAY_VIEWS:
            return _derived(self.of(expr.value, depth + 1))
        if isinstance(expr, cst.IfExp):
            body = self.of(expr.body, depth + 1)
            return body if body and self.of(expr.orelse, depth + 1) else None
        return None

    def _traced(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.trace.value(expr)
        return val is not None and val.traced and not val.container

    def _binary(self, expr: cst.BinaryOperation, depth: int) -> str | None:
        left, right = expr.left, expr.right
        for side in (left, right):
            found = self.of(side, depth + 1)
            if found:
                return _derived(found)
        if isinstance(left, (cst.List, cst.Tuple, cst.SimpleString, cst.FormattedString)):
            return None
        if isinstance(right, (cst.List, cst.Tuple)):
            return None
        flags = [(side, self._traced(side)) for side in (left, right)]
        traced = [side for side, is_traced in flags if is_traced]
        if not traced:
            return None
        if isinstance(expr.operator, (cst.Add, cst.Multiply)):
            # ``xs + ys`` / ``xs * 2`` may concatenate or repeat a list of arrays
            for side, is_traced in flags:
                if is_traced:
                    continue
                whole = side.expression if isinstance(side, cst.UnaryOperation) else side
                if not _is_number(side) or (
                    isinstance(expr.operator, cst.Multiply) and isinstance(whole, cst.Integer)
                ):
                    return None
        val = self.ctx.trace.value(traced[0])
        assert val is not None
        return f"computed from a tracer ({self.ctx.trace.why(val)})"

    def _call(self, call: cst.Call, depth: int) -> str | None:
        qualname = self.model.call_name(call)
        if qualname is not None:
            if _one_array_call(qualname, call):
                return f"made by `{_short(qualname)}` at line {self.line(call)}"
            return None
        func = call.func
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            inner = func.value
            if (
                method in _AT_METHODS
                and isinstance(inner, cst.Subscript)
                and isinstance(inner.value, cst.Attribute)
                and inner.value.attr.value == "at"
            ):
                return f"made by `.at[].{method}` at line {self.line(call)}"
            if method in _ARRAY_METHODS or method in _COPY_METHODS:
                found = self.of(inner, depth + 1)
                if found:
                    return _derived(found)
                if method in _ARRAY_METHODS and self._traced(inner):
                    why = self.ctx.trace.why(self.ctx.trace.value(inner))  # type: ignore[arg-type]
                    return f"made by `.{method}()` on a tracer ({why})"
            return None
        return self._jitted_result(call, depth)

    def _jitted_result(self, call: cst.Call, depth: int) -> str | None:
        """``step(x)`` for a jitted ``step`` of this module that returns one array."""
        transform = self.ctx.trace.transformed_callee(call)
        if transform is None or transform.verb not in _SAME_OUTPUT_VERBS:
            return None
        fn = self._callee_def(call.func)
        if fn is None:
            return None
        returns = self._returns_of(fn)
        if not returns or any(r.value is None or not self.of(r.value, depth + 1) for r in returns):
            return None
        return f"returned by `{fn.name.value}`, {transform.verb} by `{transform.short}`"

    def _callee_def(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        if isinstance(func, cst.Call):  # ``jax.jit(f)(x)``
            positional = [a for a in func.args if a.keyword is None and not a.star]
            return self._callee_def(positional[0].value) if positional else None
        if not isinstance(func, cst.Name):
            return None
        found = self.bindings(func)
        if found is None or len(found[1]) != 1:
            return None
        binding = found[1][0]
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return binding.node
        if binding.kind == "assign":  # ``step = jax.jit(train_step)``
            kind, value = self.assigned.get(id(binding.node), ("", cst.Name("None")))
            if kind == "value" and isinstance(value, cst.Call):
                return self._callee_def(value)
        return None

    def _returns_of(self, fn: cst.FunctionDef) -> list[cst.Return]:
        if id(fn) not in self._returns:
            found: list[cst.Return] = []

            class _Returns(cst.CSTVisitor):
                def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                    return node is fn

                def visit_Lambda(self, node: cst.Lambda) -> bool:
                    return False

                def visit_ClassDef(self, node: cst.ClassDef) -> bool:
                    return False

                def visit_Return(self, node: cst.Return) -> None:
                    found.append(node)

            fn.visit(_Returns())
            self._returns[id(fn)] = found
        return self._returns[id(fn)]

    def _name(self, name: cst.Name, depth: int) -> str | None:
        found = self.bindings(name)
        if found is None:
            return None
        scope, bindings = found
        evidence: str | None = None
        for binding in bindings:
            if binding.kind == "param" and isinstance(binding.node, cst.Param):
                got = self._param(scope, binding.node)
            elif binding.kind == "assign":
                kind, value = self.assigned.get(id(binding.node), ("", name))
                if kind == "aug":
                    continue  # ``x += v`` keeps the kind of ``x``
                got = self.of(value, depth + 1) if kind == "value" else None
            else:
                got = None
            if got is None:
                return None
            evidence = evidence or got
        return evidence

    def _param(self, scope: Scope, param: cst.Param) -> str | None:
        """A traced parameter annotated as one ``jax.Array``."""
        info = self.ctx.trace.info(scope.node)
        if info is None or info.param_levels.get(param.name.value) is not Level.TRACED:
            return None
        if param.annotation is None:
            return None
        ann = param.annotation.annotation
        qualname = self.model.qualified_name(ann)
        if qualname is None and isinstance(ann, cst.Subscript) and ann.slice:
            # jaxtyping: ``Float[Array, "n"]``
            base = self.model.qualified_name(ann.value)
            first = ann.slice[0].slice
            if base is not None and base.startswith("jaxtyping.") and isinstance(first, cst.Index):
                qualname = self.model.qualified_name(first.value)
        if qualname not in _ARRAY_ANNOTATIONS:
            return None
        text = self.ctx.code(ann)
        return (
            f"parameter of `{info.name}` annotated `{text}`,"
            f" {info.how(lambda n: self.ctx.positions[n].start.line)}"
        )


# -- JAX601 --------------------------------------------------------------------------------

_SUBTRACT_SINCE = (0, 4, 35)
"""``x.at[i].subtract`` exists since JAX 0.4.35 (checked on the release tags)."""
_AUG_METHODS: dict[type[cst.BaseAugOp], str] = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}
_AUG_OPERATORS: dict[type[cst.BaseAugOp], str] = {
    cst.FloorDivideAssign: "//",
    cst.ModuloAssign: "%",
    cst.MatrixMultiplyAssign: "@",
    cst.BitAndAssign: "&",
    cst.BitOrAssign: "|",
    cst.BitXorAssign: "^",
    cst.LeftShiftAssign: "<<",
    cst.RightShiftAssign: ">>",
}
_WHOLE_ARRAY_METHODS = frozenset({"divide", "power"})
"""``.at[i].divide``/``.power`` compute over every element (``x / ones.at[i].mul(v)``)."""
_MIN_MAX = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max"}
_ATOMIC = (
    cst.Name,
    cst.Attribute,
    cst.Call,
    cst.Subscript,
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.List,
    cst.Dict,
    cst.Set,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
)


def _subscript_targets(expr: cst.BaseExpression) -> list[cst.Subscript]:
    if isinstance(expr, cst.Subscript):
        return [expr]
    if isinstance(expr, (cst.Tuple, cst.List)):
        return [s for el in expr.elements for s in _subscript_targets(el.value)]
    if isinstance(expr, cst.StarredElement):
        return _subscript_targets(expr.value)
    return []


_EXAMPLES_JAX601 = Examples(Path(__file__).parent / "array_semantics" / "in_place_update.py")


class InPlaceUpdate(Rule):
    code = "JAX601"
    name = "in-place-update"
    message = (
        "`{base}` is a JAX array ({why}): item assignment raises TypeError because JAX"
        " arrays are immutable; use `{suggestion}`"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags item assignment into a JAX array: `x[i] = v`, and the augmented forms
`x[i] += v`, `-=`, `*=`, `/=`, `**=`, `//=` and the other operators, on host or
in traced code.

It fires only when `x` is certainly one immutable `jax.Array`: made by a
`jax.numpy`/`jax.lax`/`jax.random` function that returns one array, by an
`.at[...]` update, by array arithmetic or an array method on such a value or on a
tracer, a traced parameter annotated `jax.Array` (or jaxtyping `Float[Array,
...]`), or the result of a jitted function of the module whose every `return` is
such a value. Every assignment to the name in its scope must qualify
(`x = np.zeros(3)` on one branch keeps the rule silent).

It stays silent on values that accept item assignment: NumPy arrays, Python
lists and dicts, pytrees of parameters passed to a jitted function, mutable
`jax.Ref`s (`r = jax.new_ref(x); r[...] = v`, also inside `jax.jit`) and Flax
NNX `Variable`s (`v[...] += 1`). An unannotated parameter of a jitted function may
be any of these, so it needs an annotation to be flagged.

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
        _EXAMPLES_JAX601.valid(
            "valid_functional_update_already.py", runs=True, note="the functional update already"
        ),
        _EXAMPLES_JAX601.valid(
            "valid_numpy_arrays_mutable.py", runs=True, note="NumPy arrays are mutable"
        ),
        _EXAMPLES_JAX601.valid(
            "valid_python_list_dict_holding_arrays.py",
            runs=True,
            note="Python list and dict holding arrays",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_mutable_jax_ref_host_passed.py",
            runs=True,
            note="mutable jax.Ref, on host and passed into jit",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_traced_pytree_parameters_dict_list.py",
            runs=True,
            note="a traced pytree of parameters is a dict and a list inside jit",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_one_assignment_numpy_certainly_jax.py",
            runs=True,
            note="one assignment is NumPy: not certainly a JAX array",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_copied_numpy_array_host_before.py",
            runs=True,
            note="copied to a NumPy array on the host before the assignment",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_flax_nnx_variable_attributes_mutable.py",
            note="Flax NNX Variable attributes are mutable",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_jnp_split_returns_list_unannotated.py",
            runs=True,
            note="jnp.split returns a list; an unannotated host parameter may be NumPy",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_assigning_jax_array_into_dict.py",
            runs=True,
            note="assigning a JAX array into a dict is fine",
        ),
        _EXAMPLES_JAX601.valid(
            "valid_equinox_dict_gradients_list_repeated.py",
            note="Equinox: a dict of gradients, a list repeated with `*`",
        ),
        _EXAMPLES_JAX601.valid("valid_suppressed.py", note="suppressed"),
    ]
    INVALID = [
        _EXAMPLES_JAX601.invalid(
            "invalid_x_i_i_i_square.py",
            line=5,
            column=5,
            message_contains="made by `jnp.zeros` at line 3",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid("invalid_x_1_3_0.py", count=3, raises="TypeError"),
        _EXAMPLES_JAX601.invalid(
            "invalid_subtract_before_jax_0_4.py",
            target_jax="0.4.30",
            note="no .at[].subtract before JAX 0.4.35",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_traced_parameter_unsafe_caller_does.py",
            line=6,
            message_contains="parameter of `relax` annotated `jax.Array`, jitted by `jax.jit`",
            unsafe_fix=True,
            note="a traced parameter: unsafe (the caller does not see a rebinding)",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_arithmetic_tracer_array_divide_unsafe.py",
            line=7,
            message_contains="computed from a tracer (`acc` is traced: parameter of `body`",
            unsafe_fix=True,
            note="arithmetic on a tracer is an array; .divide is unsafe",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_host_result_jitted_call_other.py",
            line=9,
            message_contains="returned by `step`, jitted by `jax.jit`",
            note="host result of a jitted call; other operators go through .set",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_chained_assignment_reported_fix.py",
            count=2,
            note="chained assignment: reported, no fix",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_nested_target_reported_fix.py",
            note="nested target: reported, no fix",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_index_array_may_repeat_indices.py",
            unsafe_fix=True,
            note="an index array may repeat indices: unsafe",
            raises="TypeError",
        ),
        _EXAMPLES_JAX601.invalid(
            "invalid_bound_enclosing_scope_rebinding_would.py",
            note="bound in the enclosing scope: rebinding would make it local",
            raises="TypeError",
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.evidence = _ArrayEvidence(self)

    def visit_Assign(self, node: cst.Assign) -> None:
        targets = [s for t in node.targets for s in _subscript_targets(t.target)]
        single = len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript)
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
            method = "set" if op is None else _AUG_METHODS.get(type(op), "set")
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

    def _plan(
        self, stmt: cst.Assign | cst.AugAssign, target: cst.Subscript, op: cst.BaseAugOp | None
    ) -> tuple[str, Applicability, str] | None:
        """The replacement statement, its applicability and the fix message."""
        name = target.value
        if not isinstance(name, cst.Name):
            return None
        found = self.evidence.bindings(name)
        scope = self.model.scope_for(name)
        if found is None:
            return None
        owner, bindings = found
        if owner is not scope and not (
            name.value in scope.global_names or name.value in scope.nonlocal_names
        ):
            return None  # ``x = x.at[...]`` would make ``x`` local here
        code = self.ctx.code
        base = name.value
        index = code(target)[len(code(name)) :]
        value = stmt.value
        unsafe: list[str] = []
        if op is None:
            method, arg = "set", _unwrapped(value, code)
            if isinstance(value, cst.Call) and not any(a.keyword or a.star for a in value.args):
                minmax = _MIN_MAX.get(self.model.call_name(value) or "")
                args = [a.value for a in value.args]
                if minmax is not None and len(args) == 2:
                    same = [a for a in args if code(a) == code(target)]
                    if same:
                        other = args[1] if args[0] is same[0] else args[0]
                        method, arg = minmax, _unwrapped(other, code)
        elif type(op) in _AUG_METHODS:
            method, arg = _AUG_METHODS[type(op)], _unwrapped(value, code)
            if method == "subtract" and self.ctx.target_jax < _SUBTRACT_SINCE:
                method, arg = "add", f"-{_atom(value, code)}"
            if method in _WHOLE_ARRAY_METHODS:
                unsafe.append(
                    f"`.{method}` computes over the whole array (subnormals flushed on CPU,"
                    " floats for an integer array)"
                )
        elif type(op) in _AUG_OPERATORS:
            symbol = _AUG_OPERATORS[type(op)]
            method, arg = "set", f"{code(target)} {symbol} {_atom(value, code)}"
        else:
            return None
        if not self._basic_index(target):
            unsafe.append("an index array may repeat indices, which `.at[]` treats differently")
        if any(b.kind == "param" for b in bindings):
            unsafe.append(f"the caller does not see the update: return `{base}`")
        text = f"{base} = {base}.at{index}.{method}({arg})"
        shown = f"Replace with `{base} = {base}.at[...].{method}(...)`"
        if unsafe:
            return text, Applicability.UNSAFE, f"{shown} (unsafe: {'; '.join(unsafe)})"
        return text, Applicability.SAFE, shown

    def _basic_index(self, target: cst.Subscript) -> bool:
        """No element can be an index array (which may repeat indices)."""
        for element in target.slice:
            part = element.slice
            if isinstance(part, cst.Slice):
                continue
            if part.star is not None:
                return False
            value = part.value
            if _is_number(value) or isinstance(value, cst.Ellipsis):
                continue
            if isinstance(value, cst.Name) and (value.value == "None" or self._range_index(value)):
                continue
            return False
        return True

    def _range_index(self, name: cst.Name) -> bool:
        """``name`` is only ever bound by ``for name in range(...)``."""
        found = self.evidence.bindings(name)
        if found is None:
            return False
        for binding in found[1]:
            kind, it = self.evidence.assigned.get(id(binding.node), ("", name))
            if (
                kind != "for"
                or not isinstance(it, cst.Call)
                or self.model.call_name(it) != "builtins.range"
            ):
                return False
        return True


def _unwrapped(value: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> str:
    """``value`` as one call argument (a bare tuple needs parentheses)."""
    if isinstance(value, (cst.Tuple, cst.Yield, cst.GeneratorExp)) and not value.lpar:
        return f"({code(value)})"
    return code(value)


def _atom(value: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> str:
    """``value`` as an operand of a binary or unary operator."""
    if isinstance(value, _ATOMIC) or getattr(value, "lpar", None):
        return code(value)
    return f"({code(value)})"


# -- JAX603 --------------------------------------------------------------------------------

_FLOAT64_NAMES = frozenset(
    {"jax.numpy.float64", "jax.numpy.double", "numpy.float64", "numpy.double", "numpy.float_"}
)
_FLOAT64_STRINGS = frozenset({"float64", "f8", "<f8", "=f8", "double"})
_DTYPE_CALLS = frozenset({"numpy.dtype", "jax.numpy.dtype"})
_X64_FLAGS = frozenset({"jax_enable_x64", "JAX_ENABLE_X64"})
_X64_CONTEXTS = frozenset({"jax.enable_x64", "jax.experimental.enable_x64"})
_CONFIG_UPDATES = frozenset({"jax.config.update", "jax.config.config.update"})
_FLAG_PARSERS = frozenset({"jax.config.parse_flags_with_absl", "jax.config.config_with_absl"})
_X64_ATTRIBUTES = frozenset({"jax_enable_x64", "x64_enabled"})
_CONVERT_METHODS = frozenset({"astype", "view"})


def _literal_false(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value == "False"
    if isinstance(expr, cst.Integer):
        return expr.value == "0"
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value).lower() in ("0", "false", "")
    return False


_EXAMPLES_JAX603 = Examples(Path(__file__).parent / "array_semantics" / "float64_without_x64.py")


class Float64WithoutX64(Rule):
    code = "JAX603"
    name = "float64-without-x64"
    message = (
        "{request}, but this module never enables x64: JAX warns and makes float32 instead;"
        " enable `jax_enable_x64` at startup or ask for float32"
    )
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags a request for float64 from JAX in a module that never enables 64-bit
mode: `jnp.float64(x)`, a float64 dtype (`jnp.float64`, `np.float64`,
`jnp.double`, `"float64"`, `"f8"`, `np.dtype("float64")`) passed to a
`jax.numpy`/`jax.lax`/`jax.random`/`jax.nn`/`jax.scipy` function
(`jnp.zeros(n, dtype=jnp.float64)`, `jnp.asarray(x, np.float64)`,
`lax.convert_element_type(x, jnp.float64)`), and `x.astype(jnp.float64)` or
`x.view(jnp.float64)` on a JAX array.

A module enables x64, and the rule stays silent in it, when it calls
`jax.config.update("jax_enable_x64", True)` (or with a value that is not a
literal false), uses `jax.enable_x64(...)` other than as a bare statement (`with`,
decorator, assigned), sets or reads the flag by name (`os.environ["JAX_ENABLE_X64"]`,
`jax.config.jax_enable_x64`, `jax.config.x64_enabled`, a `jax_enable_x64=` keyword),
updates a config option whose name is not a literal, or parses JAX flags from the
command line (`jax.config.parse_flags_with_absl()`). Reading the flag counts
because such code usually picks the dtype from it
(`jnp.float64 if jax.config.jax_enable_x64 else jnp.float32`).

Only JAX's own functions are checked: a library that passes the dtype on to
JAX (`nnx.Linear(2, 3, param_dtype=jnp.float64)`) truncates too, but is not
flagged.

It does not flag dtype introspection (`jnp.finfo(jnp.float64)`,
`jnp.issubdtype(x.dtype, jnp.float64)`, `x.dtype == jnp.float64`),
`jax.ShapeDtypeStruct(..., jnp.float64)` (which keeps float64), NumPy calls
(`np.zeros(3, np.float64)`), nor `dtype=float`, which JAX maps to its default
float type without a warning.

## Why is this bad
JAX is 32-bit by default. Without x64, a float64 request makes a float32 array
and emits a `UserWarning` that is easy to miss (shown once per call site, hidden
by many test runners and notebooks):

```text
UserWarning: Explicitly requested dtype float64 requested in zeros is not
available, and will be truncated to dtype float32. To enable more dtypes, set
the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment
variable.
```

Code that needs double precision (accumulations, ill-conditioned solves,
finite-difference checks) then silently computes in single precision.

## Example
```python
import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float32
```

## Use instead
```python
import jax

jax.config.update("jax_enable_x64", True)  # at startup, before any array is made

import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float64
```

Or, when float32 is what the program gets anyway, say so: `dtype=jnp.float32`.

`jax.enable_x64(True)` as a bare statement does nothing: it is a context
manager (`with jax.enable_x64(True): ...`).

## Fix safety
No fix. Enabling x64 changes the default dtype of the whole program (every
`jnp.arange`, every Python float becomes 64-bit, doubling memory and slowing
accelerators), so it is a decision for the program's entry point, not for this
line; replacing `float64` by `float32` would make the code match what it does
today but drop the precision the author asked for. The rule only sees the
module it checks: a project that enables x64 elsewhere (a `conftest.py`, the
`JAX_ENABLE_X64` environment variable, its `main`) can turn the rule off for
those files with `per-file-ignores`.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports its output
dtypes (`float32[...]` where float64 was asked for) and, under the stage that
emitted it, JAX's `Explicitly requested dtype float64 ... truncated to dtype
float32` warning (`stages.eval_shape.warnings` in the JSON; add `--format text`
to read it). `jaxlint probe env` shows `jax_enable_x64`.
"""
    VALID = [
        _EXAMPLES_JAX603.valid(
            "valid_x64_enabled_module.py", runs=True, note="x64 enabled in the module"
        ),
        _EXAMPLES_JAX603.valid(
            "valid_context_manager_used.py", runs=True, note="the context manager, used with `with`"
        ),
        _EXAMPLES_JAX603.valid(
            "valid_environment_variable_set_before_jax.py",
            note="the environment variable, set before JAX is imported",
        ),
        _EXAMPLES_JAX603.valid(
            "valid_x64_aware_code_reads_flag.py", runs=True, note="x64-aware code reads the flag"
        ),
        _EXAMPLES_JAX603.valid(
            "valid_numpy_keeps_float64_float32_float.py",
            runs=True,
            note="NumPy keeps float64; float32 and `float` are not float64 requests",
        ),
        _EXAMPLES_JAX603.valid(
            "valid_dtype_introspection_shapedtypestruct_make_array.py",
            runs=True,
            note="dtype introspection and ShapeDtypeStruct make no array",
        ),
        _EXAMPLES_JAX603.valid(
            "valid_leaves_may_numpy_arrays_which.py",
            note="the leaves may be NumPy arrays, which keep float64",
        ),
        _EXAMPLES_JAX603.valid(
            "valid_flags_command_line_may_enable.py",
            note="flags from the command line may enable x64",
        ),
        _EXAMPLES_JAX603.valid(
            "valid_config_updated_through_variables.py",
            runs=True,
            note="config updated through variables",
        ),
        _EXAMPLES_JAX603.valid("valid_suppressed.py", note="suppressed"),
    ]
    INVALID = [
        _EXAMPLES_JAX603.invalid(
            "invalid_acc_jnp_zeros_3_dtype_jnp.py",
            line=2,
            column=26,
            message_contains="`jnp.zeros` is asked for `jnp.float64`, but this module never enables x64",
        ),
        _EXAMPLES_JAX603.invalid(
            "invalid_x_jnp_asarray_np_linspace_0.py",
            message_contains="`jnp.asarray` is asked for `np.float64`",
        ),
        _EXAMPLES_JAX603.invalid(
            "invalid_return_x_astype_float64_mean.py",
            line=6,
            message_contains='`x.astype` is asked for `"float64"`',
        ),
        _EXAMPLES_JAX603.invalid(
            "invalid_bare_enable_x64_call_does.py",
            message_contains="`jnp.float64(...)` makes a float64 scalar",
            note="a bare enable_x64(...) call does nothing",
        ),
        _EXAMPLES_JAX603.invalid(
            "invalid_x64_explicitly_disabled.py", note="x64 explicitly disabled"
        ),
        _EXAMPLES_JAX603.invalid("invalid_z_jnp_ones_3_view_jnp.py", count=2),
        _EXAMPLES_JAX603.invalid(
            "invalid_grid_zeros_2_2_float64.py", message_contains="`zeros` is asked for `float64`"
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._x64: bool | None = None
        self.evidence = _ArrayEvidence(self)

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.model.call_name(node)
        if qualname in ("jax.numpy.float64", "jax.numpy.double"):
            self._flag(node.func, f"`{self.ctx.code(node.func)}(...)` makes a float64 scalar")
            return
        if qualname is not None:
            if not qualname.startswith(ARRAY_MODULES) or qualname in STATIC_CALLS:
                return
            for arg in node.args:
                if self._is_float64(arg.value):
                    self._flag(arg.value, self._asked(node, arg.value))
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _CONVERT_METHODS:
            dtype = next(
                (
                    a.value
                    for a in node.args
                    if (a.keyword is None and not a.star)
                    or (a.keyword is not None and a.keyword.value == "dtype")
                ),
                None,
            )
            if dtype is None or not self._is_float64(dtype):
                return
            val = self.ctx.trace.value(func.value)
            traced = val is not None and val.traced
            if traced or self.evidence.of(func.value) is not None:
                self._flag(dtype, self._asked(node, dtype))

    def _is_float64(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.SimpleString):
            return expr.evaluated_value in _FLOAT64_STRINGS
        if isinstance(expr, cst.Call):
            if self.model.call_name(expr) in _DTYPE_CALLS and len(expr.args) == 1:
                return self._is_float64(expr.args[0].value)
            return False
        return self.model.qualified_name(expr) in _FLOAT64_NAMES

    def _asked(self, call: cst.Call, dtype: cst.BaseExpression) -> str:
        return f"`{self.ctx.code(call.func)}` is asked for `{self.ctx.code(dtype)}`"

    def _flag(self, node: cst.BaseExpression, request: str) -> None:
        if self._enables_x64():
            return
        self.report(node, request=request)

    def _enables_x64(self) -> bool:
        """The module turns x64 on, may turn it on, or reads the flag (see the docs)."""
        if self._x64 is None:
            self._x64 = self._scan_x64()
        return self._x64

    def _scan_x64(self) -> bool:
        model = self.model
        statements: set[int] = set()  # calls that are a whole expression statement
        callees: set[int] = set()  # the functions of calls (checked with the call)
        disabling: set[int] = set()  # "jax_enable_x64" in config.update(..., False)
        for node, entering in model.events:
            if not entering:
                continue
            if isinstance(node, cst.Expr):
                statements.add(id(node.value))
            elif isinstance(node, cst.Call):
                qualname = model.call_name(node)
                positional = [a.value for a in node.args if a.keyword is None and not a.star]
                if qualname in _CONFIG_UPDATES:
                    if not positional or not isinstance(positional[0], cst.SimpleString):
                        return True  # an option chosen at runtime
                    if positional[0].evaluated_value in _X64_FLAGS:
                        if len(positional) > 1 and _literal_false(positional[1]):
                            disabling.add(id(positional[0]))
                        else:
                            return True
                elif qualname in _FLAG_PARSERS:
                    return True
                elif qualname in _X64_CONTEXTS:
                    off = positional and _literal_false(positional[0])
                    if id(node) not in statements and not off:
                        return True
                if any(a.keyword is not None and a.keyword.value in _X64_FLAGS for a in node.args):
                    return True
            elif isinstance(node, cst.SimpleString):
                if node.evaluated_value in _X64_FLAGS and id(node) not in disabling:
                    return True
            elif isinstance(node, cst.Attribute):
                if node.attr.value in _X64_ATTRIBUTES:
                    return True
                if model.qualified_name(node) in _X64_CONTEXTS and id(node) not in callees:
                    return True  # ``ctx = jax.enable_x64``: used some other way
            if isinstance(node, cst.Call):
                callees.add(id(node.func))
        return False
