"""How many times a ``for`` loop can run, when the code bounds it: a literal ``range``, a
literal collection, ``np.arange``/``np.linspace`` of literal numbers, and names bound once
to one of these; and the guards that make part of a loop body rare (``if step % N == 0:``,
``if step % N: continue``).

The host-loop rules (JAX102 host-sync-in-loop, JAX401 jit-in-loop) ask it to tell a short
walk the code itself bounds (a tutorial's ``for i in range(50)``, a scan over 37 angles)
from a stream of steps whose length is data (``range(num_steps)``, ``for batch in
loader``): a cost paid once per iteration of the first is paid a few dozen times.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.transforms import DEVICE_LOOPS
from jaxlint.analysis.walk import children, descendants

SHORT_LOOP = 100
"""The most iterations of a loop the rules call short (docs: JAX102's and JAX401's pages)."""

_ARANGE = frozenset({"numpy.arange", "jax.numpy.arange"})
_LINSPACE = frozenset({"numpy.linspace", "jax.numpy.linspace"})
_ARITHMETIC = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
}
_SAME_LENGTH = frozenset(
    {"builtins.enumerate", "builtins.reversed", "builtins.sorted", "builtins.list",
     "builtins.tuple"}
)  # fmt: skip


def trip_count(model: SemanticModel, expr: cst.BaseExpression, depth: int = 2) -> int | None:
    """The most iterations of ``for _ in expr`` when the code bounds it, else ``None``.

    ``depth`` is how many names bound once (``STEPS = 50``, ``angles = np.arange(0, 181,
    5)``) are followed."""
    kind = type(expr)
    if kind in (cst.List, cst.Tuple, cst.Set):
        elements = expr.elements  # type: ignore[attr-defined]
        if any(isinstance(e, cst.StarredElement) for e in elements):
            return None
        return len(elements)
    if kind is cst.Dict:
        return len(expr.elements)  # type: ignore[attr-defined]
    if kind is cst.Name:
        value = _bound_once(model, expr, depth)  # type: ignore[arg-type]
        return trip_count(model, value, depth - 1) if value is not None else None
    if kind is not cst.Call:
        return None
    call: cst.Call = expr  # type: ignore[assignment]
    qn = model.call_name(call)
    args = [a for a in call.args if a.keyword is None and not a.star]
    if any(a.star for a in call.args):
        return None
    if qn == "builtins.range" or qn in _ARANGE:
        if not args or len(args) > 3 or len(args) != len(call.args):
            return None
        values = [number(model, a.value, depth) for a in args]
        if any(v is None for v in values):
            return None
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (*values, 1)[:3]
        if not step:
            return None
        return max(0, math.ceil((stop - start) / step))  # type: ignore[operator]
    if qn in _LINSPACE:
        num = next((a.value for a in call.args if a.keyword and a.keyword.value == "num"), None)
        if num is None:
            num = args[2].value if len(args) > 2 else None
        if num is None:
            return 50  # numpy's default
        got = number(model, num, depth)
        return int(got) if got is not None else None
    if qn in _SAME_LENGTH and args:
        return trip_count(model, args[0].value, depth)
    if qn == "builtins.zip" and args:
        counts = [trip_count(model, a.value, depth) for a in args]
        known = [c for c in counts if c is not None]
        return min(known) if known else None
    if qn == "itertools.product" and args:
        counts = [trip_count(model, a.value, depth) for a in args]
        if any(c is None for c in counts):
            return None
        return math.prod(counts)  # type: ignore[arg-type]
    return None


def number(model: SemanticModel, expr: cst.BaseExpression, depth: int = 2) -> float | None:
    """The value of a numeric literal, ``-literal``, ``a if c else b`` (the larger), ``+``,
    ``-`` or ``*`` of these (``5 * K``), or a name bound once to one of these; else ``None``."""
    kind = type(expr)
    if kind is cst.Integer or kind is cst.Float:
        return expr.evaluated_value  # type: ignore[attr-defined]
    if kind is cst.UnaryOperation and type(expr.operator) is cst.Minus:  # type: ignore[attr-defined]
        got = number(model, expr.expression, depth)  # type: ignore[attr-defined]
        return -got if got is not None else None
    if kind is cst.IfExp:
        a = number(model, expr.body, depth)  # type: ignore[attr-defined]
        b = number(model, expr.orelse, depth)  # type: ignore[attr-defined]
        return max(a, b) if a is not None and b is not None else None
    if kind is cst.BinaryOperation:
        op = _ARITHMETIC.get(type(expr.operator))  # type: ignore[attr-defined]
        a = number(model, expr.left, depth)  # type: ignore[attr-defined]
        b = number(model, expr.right, depth)  # type: ignore[attr-defined]
        return op(a, b) if op is not None and a is not None and b is not None else None
    if kind is cst.Name:
        value = _bound_once(model, expr, depth)  # type: ignore[arg-type]
        return number(model, value, depth - 1) if value is not None else None
    return None


def short_loop(model: SemanticModel, loop: cst.For | cst.While) -> bool:
    """A ``for`` loop the code bounds to at most :data:`SHORT_LOOP` iterations."""
    if type(loop) is not cst.For:
        return False
    count = trip_count(model, loop.iter)  # type: ignore[union-attr]
    return count is not None and count <= SHORT_LOOP


def _bound_once(model: SemanticModel, name: cst.Name, depth: int) -> cst.BaseExpression | None:
    return model.bound_once(name) if depth > 0 else None


# -- how often a statement of a loop body runs --------------------------------------


def _modulo(expr: cst.BaseExpression) -> bool:
    """``step % N`` (not ``"%d" % n``, which formats text)."""
    return (
        isinstance(expr, cst.BinaryOperation)
        and isinstance(expr.operator, cst.Modulo)
        and not isinstance(expr.left, (cst.SimpleString, cst.FormattedString))
    )


def _compares_modulo(test: cst.Comparison, op: type) -> bool:
    """``step % N == 0`` (``op`` ``Equal``) or ``step % N != 0`` (``NotEqual``)."""
    comps = test.comparisons
    return (
        len(comps) == 1
        and isinstance(comps[0].operator, op)
        and (_modulo(test.left) or _modulo(comps[0].comparator))
    )


def _equals_number(test: cst.Comparison) -> bool:
    """``step == 1``, ``0 == epoch``: a counter equal to one number, on one iteration."""
    comps = test.comparisons
    if len(comps) != 1 or not isinstance(comps[0].operator, cst.Equal):
        return False
    sides = (test.left, comps[0].comparator)
    return any(type(a) is cst.Name and type(b) is cst.Integer for a, b in (sides, sides[::-1]))


def rare_test(test: cst.BaseExpression) -> bool:
    """True on one iteration in N: ``step % N == 0``, ``(i + 1) % N == 0``,
    ``not step % N``, ``step > 0 and step % N == 0``, and ``step % N == 0 or step ==
    1`` (a counter equal to one number is true once)."""
    if type(test) is cst.Comparison:
        return _compares_modulo(test, cst.Equal) or _equals_number(test)
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        return _frequent_test(test.expression)
    if isinstance(test, cst.BooleanOperation):
        if isinstance(test.operator, cst.And):
            return rare_test(test.left) or rare_test(test.right)
        return rare_test(test.left) and rare_test(test.right)
    return False


def _frequent_test(test: cst.BaseExpression) -> bool:
    """False on one iteration in N: ``step % N``, ``step % N != 0``."""
    if _modulo(test):
        return True
    if isinstance(test, cst.Comparison):
        return _compares_modulo(test, cst.NotEqual)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return rare_test(test.expression)
    return False


def if_ends_with(stmt: cst.CSTNode, kind: type[cst.BaseSmallStatement]) -> bool:
    """An ``if`` without ``else`` whose body ends with a ``kind`` statement
    (``continue``, ``raise``)."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None:
        return False
    body = stmt.body.body
    last = body[-1] if body else None
    return (
        isinstance(last, cst.SimpleStatementLine)
        and bool(last.body)
        and isinstance(last.body[-1], kind)
    )


def skips_unless_every_n(stmt: cst.CSTNode) -> bool:
    """``if step % N != 0: continue``: what follows in the loop runs every N steps."""
    return if_ends_with(stmt, cst.Continue) and _frequent_test(stmt.test)  # type: ignore[attr-defined]


def leaves_loop(block: Sequence[cst.BaseStatement]) -> bool:
    """A block that leaves the loop around it on some path: a ``break`` or ``return`` in
    it, or in an ``if``, ``with`` or ``try`` within it (not in an inner loop or function)."""
    for stmt in block:
        if isinstance(stmt, cst.SimpleStatementLine):
            if any(isinstance(small, (cst.Break, cst.Return)) for small in stmt.body):
                return True
        elif isinstance(stmt, cst.If):
            if leaves_loop(stmt.body.body) or (  # type: ignore[arg-type]
                stmt.orelse is not None
                and leaves_loop(
                    [stmt.orelse] if isinstance(stmt.orelse, cst.If) else stmt.orelse.body.body
                )  # type: ignore[list-item, arg-type]
            ):
                return True
        elif isinstance(stmt, (cst.With, cst.Try, cst.TryStar)):
            if leaves_loop(stmt.body.body):  # type: ignore[arg-type]
                return True
    return False


def exit_decisions(loop: cst.For | cst.While) -> list[cst.BaseExpression]:
    """The tests that decide whether the loop goes on: a ``while`` test, and the test
    of an ``if`` whose branches leave the loop (``break`` or ``return``), at any depth
    of ``if``, ``with`` and ``try`` in the body, except under an ``if`` that runs one
    iteration in N (``if i % 100 == 0 and res < tol: break`` reads its value every N
    steps)."""
    out: list[cst.BaseExpression] = []
    if isinstance(loop, cst.While):
        out.append(loop.test)

    def add(block: Sequence[cst.BaseStatement]) -> None:
        for stmt in block:
            if isinstance(stmt, (cst.With, cst.Try, cst.TryStar)):
                add(stmt.body.body)  # type: ignore[arg-type]
                for handler in getattr(stmt, "handlers", ()):
                    add(handler.body.body)
            elif isinstance(stmt, cst.If):
                if rare_test(stmt.test):
                    continue
                branches: list[Sequence[cst.BaseStatement]] = [stmt.body.body]  # type: ignore[list-item]
                orelse = stmt.orelse
                if isinstance(orelse, cst.Else):
                    branches.append(orelse.body.body)  # type: ignore[arg-type]
                if any(leaves_loop(branch) for branch in branches):
                    out.append(stmt.test)
                for branch in branches:
                    add(branch)
                if isinstance(orelse, cst.If):
                    add([orelse])

    add(loop.body.body)  # type: ignore[arg-type]
    return out


# -- a function that runs many steps itself --------------------------------------------


def runs_steps(
    model: SemanticModel,
    fn: cst.FunctionDef | cst.Lambda,
    resolve: Callable[[cst.BaseExpression], tuple[cst.CSTNode, int, frozenset[str]] | None],
    depth: int = 2,
    cache: dict[tuple[int, int], bool] | None = None,
    imported: Callable[[cst.BaseExpression], dict | None] | None = None,
) -> bool:
    """``fn`` loops over many steps itself: a ``lax.scan``/``fori_loop``/``while_loop``/
    ``lax.map`` or a ``for`` over ``range`` in its body, or in a function of the module it
    calls (``resolve``: the trace analysis' ``resolve_callable``), ``depth`` calls deep,
    or in a function of another module of the project that its summary says loops
    (``imported``: the trace analysis' ``imported_function``). One call of it is an
    epoch or a chunk of steps."""
    cache = {} if cache is None else cache
    key = (id(fn), depth)
    found = cache.get(key)
    if found is not None:
        return found
    cache[key] = False  # recursion guard
    found = False
    for node in descendants(fn.body):
        kind = type(node)
        if kind is cst.For:
            it = node.iter  # type: ignore[attr-defined]
            found = type(it) is cst.Call and model.call_name(it) == "builtins.range"
        elif kind is cst.Call:
            qn = model.call_name(node)  # type: ignore[arg-type]
            if qn in DEVICE_LOOPS:
                found = True
            elif qn is None and depth > 1:
                inner = resolve(node.func)  # type: ignore[attr-defined]
                found = (
                    inner is not None
                    and isinstance(inner[0], (cst.FunctionDef, cst.Lambda))
                    and runs_steps(model, inner[0], resolve, depth - 1, cache, imported)
                )
            elif qn is not None and imported is not None:
                fact = imported(node.func)  # type: ignore[attr-defined]
                found = fact is not None and bool(fact.get("loops"))
        if found:
            break
    cache[key] = found
    return found


# -- a loop that comes round only when an attempt fails ---------------------------------

_NESTED = (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _continues(node: cst.CSTNode) -> bool:
    """A ``continue`` of the loop around ``node`` (not of a loop or function inside it)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Continue):
            return True
        if current is not node and isinstance(current, _NESTED):
            continue
        stack.extend(children(current))
    return False


def retry_attempt(loop: cst.For | cst.While, attempt: cst.CSTNode) -> bool:
    """``loop`` comes round only when ``attempt``, a ``try`` statement of its body, fails:
    the ``try`` body ends with an unconditional ``return`` or ``break`` and holds no
    ``continue`` of the loop (nor does its ``finally``), so on success the loop ends, and
    only an ``except`` handler that falls through starts the next iteration (an
    out-of-memory retry with a smaller batch, a retry of a flaky call). What the ``try``
    body does runs once per attempt, not once per step."""
    if not isinstance(attempt, cst.Try) or not any(s is attempt for s in loop.body.body):
        return False
    body = attempt.body.body
    last = body[-1] if body else None
    if not (
        isinstance(last, cst.SimpleStatementLine)
        and last.body
        and isinstance(last.body[-1], (cst.Return, cst.Break))
    ):
        return False
    if attempt.finalbody is not None and _continues(attempt.finalbody):
        return False
    return not any(_continues(stmt) for stmt in body)
