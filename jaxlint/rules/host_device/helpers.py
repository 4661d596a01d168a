"""Shared queries, tables and the mixin of the JAX1xx rules (host transfers and side
effects in traced code).

The table below was checked on jax 0.12.0.1 (CPU) by calling each NumPy function
on a tracer inside ``jax.jit``; the linter itself never imports JAX or NumPy.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.tracing import Val
from jaxlint.analysis.transforms import NUMPY_ARRAY_METHODS
from jaxlint.analysis.walk import children

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

# -- tables ---------------------------------------------------------------------------

# NumPy functions that accept a tracer without converting it: they read metadata
# (``np.shape``) or call the array's own method (``np.sum(x)`` is ``x.sum()``), so they
# work under ``jit``. Every other ``numpy.*`` call converts its array arguments with
# ``__array__``, which raises TracerArrayConversionError on a tracer.
NUMPY_ACCEPTS_TRACERS = NUMPY_ARRAY_METHODS | frozenset(
    "numpy." + name
    for name in (
        # metadata
        "shape ndim size isscalar iterable result_type dtype can_cast issubdtype isdtype"
        " promote_types iscomplexobj isrealobj common_type finfo iinfo"
        # delegate to the array's method (one array: ``NUMPY_ARRAY_METHODS``)
        " prod split array_split unstack tril_indices_from triu_indices_from"
    ).split()
)

_BUILTIN_CONVERSIONS = frozenset(
    {"builtins.float", "builtins.int", "builtins.bool", "builtins.complex"}
)
LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
)


# -- helpers -----------------------------------------------------------------------------


def short_code(ctx_code: str, func_code: str, limit: int = 48) -> str:
    text = " ".join(ctx_code.split())
    return text if len(text) <= limit else f"{func_code}(...)"


def conversion(model, call: cst.Call) -> tuple[str, str, list[cst.BaseExpression]] | None:  # type: ignore[no-untyped-def]
    """A call that needs a host value: (kind, qualified name or method, operands)."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value in ("item", "tolist"):
        if model.qualified_name(func) is None:  # a method, not ``mod.item``
            return "method", func.attr.value, [func.value]
        return None
    qn = model.call_name(call)
    if qn is None:
        return None
    values = [a.value for a in call.args]
    if qn in _BUILTIN_CONVERSIONS:
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        return ("builtin", qn, positional[:1]) if positional else None
    if qn.startswith("numpy.") and qn not in NUMPY_ACCEPTS_TRACERS:
        return "numpy", qn, values
    if qn.startswith("math.") and qn != "math.prod":
        return "math", qn, values
    if qn == "jax.device_get":
        return "device_get", qn, values
    return None


def fstring_operands(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """What formatting ``expr`` turns into text: f-string fields, else ``expr``."""
    if isinstance(expr, cst.FormattedString):
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringExpression):
                yield part.expression
    elif isinstance(expr, cst.ConcatenatedString):
        yield from fstring_operands(expr.left)  # type: ignore[arg-type]
        yield from fstring_operands(expr.right)  # type: ignore[arg-type]
    else:
        yield expr


def host_sync_operands(model, call: cst.Call) -> list[cst.BaseExpression] | None:  # type: ignore[no-untyped-def]
    """Operands of a call that copies array values to the host (and so waits for them):
    the conversions of JAX101 plus ``print``, ``str``, ``repr`` and ``format``."""
    conv = conversion(model, call)
    if conv is not None:
        return conv[2]
    qn = model.call_name(call)
    if qn in ("builtins.print", "builtins.str", "builtins.repr", "builtins.format"):
        out: list[cst.BaseExpression] = []
        for arg in call.args:
            if arg.keyword is None:
                out.extend(fstring_operands(arg.value))
        return out
    return None


_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})
"""Checked with ``type(node) in _SCOPES``: concrete libcst classes have no subclasses, and
``isinstance`` on them goes through ABCMeta, which costs more than the walk itself."""
_COMPOUND: dict[type, bool] = {}
"""Per node class: a compound statement (``issubclass`` once per class)."""


def _is_compound(cls: type) -> bool:
    found = _COMPOUND.get(cls)
    if found is None:
        found = _COMPOUND[cls] = issubclass(cls, cst.BaseCompoundStatement)
    return found


def preorder(node: cst.CSTNode, keep: Callable[[cst.CSTNode], bool]) -> Iterator[cst.CSTNode]:
    """Pre-order walk from ``node`` into the children ``keep`` accepts: an explicit stack
    (children pushed in reverse) rather than nested generators, which cost a frame per
    level for every node yielded."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        kept = [child for child in children(node) if keep(child)]
        kept.reverse()
        stack.extend(kept)


def walk(
    node: cst.CSTNode,
    *,
    into_blocks: bool = True,
    prune: Callable[[cst.CSTNode], bool] | None = None,
) -> Iterator[cst.CSTNode]:
    """Pre-order walk that does not enter nested functions, lambdas or classes (nor,
    with ``into_blocks=False``, compound statements, nor nodes ``prune`` rejects)."""
    if type(node) in _SCOPES:
        return
    yield from preorder(
        node,
        lambda child: (
            type(child) not in _SCOPES
            and (into_blocks or not _is_compound(type(child)))
            and (prune is None or not prune(child))
        ),
    )


def assigned_names(target: cst.BaseExpression) -> list[str] | None:
    """``a`` / ``a, b`` / ``(a, *b)``: the names; ``None`` for other targets."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in target.elements:
            inner = el.value
            got = assigned_names(inner.value if isinstance(inner, cst.StarredElement) else inner)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


# ``isinstance(x, T)`` with one of these types is False for every tracer, so the code
# checks at runtime whether it holds a concrete (host) value; names are the semantic
# model's qualified names, so ``import numpy as onp`` or ``from numbers import Real``
# resolve and an unimported ``np`` does not.
_HOST_TYPES = frozenset(
    {
        "builtins.int",
        "builtins.float",
        "builtins.complex",
        "builtins.bool",
        "numpy.ndarray",
        "numpy.generic",
        "numpy.number",
        "numpy.integer",
        "numpy.floating",
        "numbers.Number",
        "numbers.Real",
        "numbers.Integral",
    }
)


def _checks_host_type(call: cst.Call, model: SemanticModel) -> bool:
    """``isinstance(x, np.ndarray)`` / ``isinstance(x, (int, float))``."""
    if len(call.args) != 2 or model.call_name(call) != "builtins.isinstance":
        return False
    types = call.args[1].value
    items = [el.value for el in types.elements] if type(types) in (cst.Tuple, cst.List) else [types]
    return any(model.qualified_name(item) in _HOST_TYPES for item in items)


def _tests_tracer(test: cst.BaseExpression, model: SemanticModel) -> bool:
    """A name or attribute in ``test`` says ``tracer`` or ``concrete``, or ``test``
    checks for a host type with ``isinstance``."""
    for inner in walk(test):
        if type(inner) is cst.Call and _checks_host_type(inner, model):
            return True
        name = (
            inner.value
            if type(inner) is cst.Name
            else inner.attr.value
            if type(inner) is cst.Attribute
            else ""
        )
        if "tracer" in name.lower() or "concrete" in name.lower():
            return True
    return False


def _exits(body: cst.BaseSuite) -> bool:
    """The block always leaves: its last statement returns, raises or continues."""
    stmts = list(body.body)
    last = stmts[-1] if stmts else None
    if type(last) is cst.SimpleStatementLine:
        last = last.body[-1] if last.body else None
    return type(last) in (cst.Return, cst.Raise, cst.Continue)


_TRACER_GUARDS: weakref.WeakKeyDictionary[SemanticModel, dict[int, bool]] = (
    weakref.WeakKeyDictionary()
)
"""Per module, ``id(if node)`` -> ``_tests_tracer(its test)``, for all the rules."""


_TRACER_ERRORS = frozenset(
    {
        "builtins.TypeError",
        "builtins.Exception",
        "builtins.BaseException",
        "jax.errors.ConcretizationTypeError",
        "jax.errors.TracerArrayConversionError",
        "jax.errors.TracerIntegerConversionError",
        "jax.errors.TracerBoolConversionError",
        "jax.core.ConcretizationTypeError",
    }
)
"""What a conversion of a tracer raises (all ``TypeError``s on jax 0.12), and their bases."""


class Shared:
    """Shared bits of the rules below (a mixin, so that the registry does not see it):
    the enclosing function of the node being visited, traced values, assignments."""

    ctx: FileContext
    model: SemanticModel

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self._functions: list[cst.FunctionDef | cst.Lambda] = []
        self._assigned: dict[int, cst.BaseExpression] | None = None
        self._tracer_guards: list[cst.CSTNode] = []
        self._guarded_bodies: set[int] = set()
        self._exit_guards: dict[int, list[cst.If]] = {}
        """id(block) -> the early-exit tracer guards in it, guarding to its end."""

    def visit_If(self, node: cst.If) -> None:
        # ``if not_jax_tracer(x):`` / ``if isinstance(x, core.Tracer):``: the code
        # checks at runtime whether it holds a tracer; either branch may be concrete
        guards = _TRACER_GUARDS.get(self.model)
        if guards is None:
            guards = _TRACER_GUARDS[self.model] = {}
        found = guards.get(id(node))
        if found is None:  # the first of the rules sharing this mixin to ask
            found = guards[id(node)] = _tests_tracer(node.test, self.model)
        if found:
            self._tracer_guards.append(node)

    def leave_If(self, node: cst.If) -> None:
        if self._tracer_guards and self._tracer_guards[-1] is node:
            self._tracer_guards.pop()
            # ``if has_tracer(x): return``: the rest of the block runs only on concrete
            # values (jax-hf's ``validate_electron_count``), guarded until the block ends
            block = self.model.parents.get(id(node))
            if node.orelse is None and type(block) is cst.IndentedBlock and _exits(node.body):
                self._tracer_guards.append(node)
                self._exit_guards.setdefault(id(block), []).append(node)

    def visit_Try(self, node: cst.Try) -> None:
        # ``try: int(np.asarray(x)) except TypeError: return``: a tracer's conversion
        # raises a TypeError (ConcretizationTypeError, TracerArrayConversionError, ...),
        # which the code expects: its body is a runtime check, as an ``isinstance`` test
        for handler in node.handlers:
            kind = handler.type
            kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
            if kind is None or any(self.model.qualified_name(k) in _TRACER_ERRORS for k in kinds):  # type: ignore[arg-type]
                self._guarded_bodies.add(id(node.body))
                return

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if id(node) in self._guarded_bodies:
            self._tracer_guards.append(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        for guard in reversed(self._exit_guards.pop(id(node), ())):
            if self._tracer_guards and self._tracer_guards[-1] is guard:
                self._tracer_guards.pop()
        if self._tracer_guards and self._tracer_guards[-1] is node:
            self._tracer_guards.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._functions.append(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._functions.pop()

    @property
    def _within(self) -> cst.FunctionDef | cst.Lambda | None:
        return self._functions[-1] if self._functions else None

    def _value_of_binding(self, name_node: cst.CSTNode) -> cst.BaseExpression | None:
        """The value assigned by ``name = value`` where ``name_node`` is the target."""
        if self._assigned is None:
            self._assigned = {}
            for node, entering in self.model.events:
                if entering and type(node) is cst.Assign:
                    for t in node.targets:
                        if isinstance(t.target, cst.Name):
                            self._assigned[id(t.target)] = node.value
                elif (
                    entering
                    and type(node) is cst.AnnAssign
                    and isinstance(node.target, cst.Name)
                    and node.value is not None
                ):
                    self._assigned[id(node.target)] = node.value
        return self._assigned.get(id(name_node))

    def _traced(self, expr: cst.BaseExpression) -> Val | None:
        val = self.ctx.trace.value(expr)
        return val if val is not None and val.traced else None

    def _traced_inside(self, expr: cst.BaseExpression) -> Val | None:
        """A definitely traced value that ``expr`` is, holds or formats into text
        (``x``, ``(x, y)``, ``f"{x}"``, ``str(x)``, ``"%s" % x``), if any. Static
        metadata of a tracer (``x.shape``) is not traced."""
        val = self._traced(expr)
        if val is not None:
            return val
        parts: list[cst.BaseExpression] = []
        if isinstance(expr, cst.FormattedString):
            parts = [
                p.expression for p in expr.parts if isinstance(p, cst.FormattedStringExpression)
            ]
        elif isinstance(expr, cst.ConcatenatedString):
            parts = [expr.left, expr.right]  # type: ignore[list-item]
        elif isinstance(expr, cst.BinaryOperation):
            parts = [expr.left, expr.right]
        elif isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
            parts = [el.value for el in expr.elements]
        elif isinstance(expr, cst.Dict):
            parts = [el.value for el in expr.elements]
        elif isinstance(expr, cst.Call):
            func = expr.func
            qn = self.model.call_name(expr)
            if qn in ("builtins.str", "builtins.repr", "builtins.format") or (
                isinstance(func, cst.Attribute)
                and func.attr.value in ("format", "join")
                and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))
            ):
                parts = [a.value for a in expr.args]
        for part in parts:
            got = self._traced_inside(part)
            if got is not None:
                return got
        return None
