"""The statements a module decides never run: those after a statement that always
leaves its block, and the branches of an ``if`` whose test the module decides, from
literal values (a parameter every traced call gives the same literal, or leaves at a
literal default) or from the names of the modules it imports (``if "jax" in
np.__name__:``). The trace analysis asks it which calls trace nothing and which values
of a traced function never exist under the trace."""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trace_values import bind_arguments, one_string, positional_params
from jaxlint.analysis.walk import BLOCK_EXITS, descendants


def literal_truth(expr: cst.BaseExpression) -> bool | None:
    """The truth of a literal default: ``True``, ``False``, ``None``, a number, a string."""
    kind = type(expr)
    if kind is cst.Name and expr.value in ("True", "False", "None"):  # type: ignore[attr-defined]
        return expr.value == "True"  # type: ignore[attr-defined]
    if kind is cst.Integer or kind is cst.Float:
        return bool(expr.evaluated_value)  # type: ignore[attr-defined]  # 0xA24BAED4, 1_000, 1e-3
    if kind is cst.SimpleString:
        return bool(expr.evaluated_value)  # type: ignore[attr-defined]
    return None


def literal_params(
    fn: cst.FunctionDef,
    calls: Sequence[cst.CSTNode],
    callers: Sequence[dict[str, bool]] | None = None,
    model: SemanticModel | None = None,
) -> dict[str, bool]:
    """The parameters of ``fn`` that every call in ``calls`` gives the same literal truth
    (see ``literal_truth``): by keyword, by position (a plain ``name(...)`` call) or
    left at a literal default; and, under :func:`is_none_key`, those that every call gives
    or leaves ``None``, or gives something else (:func:`none_fact`); and, under
    :func:`eq_key`, those that every call gives the same string (``backend="jax"``).
    ``callers``, beside ``calls``: the facts of each call's caller, so that an argument
    that is a parameter of the caller with a known value passes that value on
    (``backend=backend``); with ``model``, a name that may hold ``None`` where the call
    is (:func:`may_be_none`) says nothing of whether the parameter is ``None``. Nothing
    when a call spreads ``*args``/``**kwargs``."""
    params = fn.params
    defaults = {
        p.name.value: p.default
        for p in (*params.posonly_params, *params.params, *params.kwonly_params)
    }
    positional = positional_params(fn)
    found: dict[str, bool | None] = {}
    strings: dict[str, str | None] = {}
    for n, call in enumerate(calls):
        if type(call) is not cst.Call or any(a.star for a in call.args):
            return {}
        outer = callers[n] if callers is not None else {}
        # a plain ``name(...)`` call binds by position; a method's positions shift by
        # ``self``, so there a positional argument binds a parameter not known here
        plain = type(call.func) is cst.Name
        given: dict[str, cst.BaseExpression] = {}
        unplaced = False
        for arg, param in bind_arguments(call, positional if plain else None):
            if isinstance(param, str):
                given[param] = arg.value
            else:
                unplaced = True
        if unplaced:  # positions unknown: a positional parameter not given by keyword
            for name in positional:
                if name not in given:
                    found[name] = found[is_none_key(name)] = None
        for name, default in defaults.items():
            value = given.get(name, default)
            truth = literal_truth(value) if value is not None else None
            text = one_string(value) if value is not None else None
            if type(value) is cst.Name and name in given and outer:
                # ``backend=backend``: the caller's own fact about its parameter
                truth = outer.get(value.value)
                text = string_fact(outer, value.value)
            facts = [(name, truth)]
            if default is not None:
                fact = none_fact(value, default)
                if type(value) is cst.Name and name in given:
                    fact = outer.get(is_none_key(value.value), fact)
                    if model is not None and is_none_key(value.value) not in outer:
                        fact = None if may_be_none(model, value) else fact
                facts.append((is_none_key(name), fact))
            for key, fact in facts:
                if key not in found:
                    found[key] = fact
                elif found[key] is not fact:
                    found[key] = None
            if name not in strings:
                strings[name] = text
            elif strings[name] != text:
                strings[name] = None
    out = {name: truth for name, truth in found.items() if truth is not None}
    for name, text in strings.items():
        if text is not None:
            out.update(string_facts(name, text))
    return out


def eq_key(name: str, text: str) -> str:
    """The key of the fact that parameter ``name`` holds the string ``text``."""
    return f"{name} == {text!r}"


def _string_known(name: str) -> str:
    return f"{name} =="


def string_facts(name: str, text: str) -> dict[str, bool]:
    """The facts that say parameter ``name`` holds the string ``text``."""
    return {_string_known(name): True, eq_key(name, text): True}


def string_fact(values: dict[str, bool], name: str) -> str | None:
    """The string that ``values`` says parameter ``name`` holds, if any."""
    if not values.get(_string_known(name)):
        return None
    prefix = f"{name} == "
    for key, fact in values.items():
        if fact and key.startswith(prefix) and key != _string_known(name):
            try:
                text = ast.literal_eval(key[len(prefix) :])
            except (ValueError, SyntaxError):
                return None
            return text if isinstance(text, str) else None
    return None


def external_facts(
    fn: cst.FunctionDef, passed: set[str], nones: set[str], literals: dict[str, bool | None]
) -> dict[str, bool]:
    """The facts of :func:`literal_params` for a function traced only by another module's
    traced calls, which name the parameters they pass (``passed``) and those they give as
    a literal ``None`` (``nones``), and the truth of the literal every one of them gives a
    parameter (``literals``, ``check=False``): a parameter none of them passes (or only as
    ``None``, where that is its default) keeps its literal default; one they all give the
    same literal has its truth; an optional one (default ``None``) that they pass is taken
    to be given (:func:`none_fact`)."""
    params = fn.params
    out: dict[str, bool] = {}
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        name, default = param.name.value, param.default
        if name in nones and (name in passed or not is_none(default)):
            continue
        if name in passed:
            truth = literals.get(name)
            if truth is not None:
                out[name] = truth
                out[is_none_key(name)] = False
            elif is_none(default):
                out[is_none_key(name)] = False
            continue
        truth = literal_truth(default) if default is not None else None
        if truth is not None:
            out[name] = truth
            out[is_none_key(name)] = is_none(default)
        text = one_string(default) if default is not None else None
        if text is not None:  # ``backend: str = "jax"`` that no traced call passes
            out.update(string_facts(name, text))
    return out


TRACED = "<traced>"
"""The key of the facts that say the code runs traced: a test for a tracer
(``isinstance(x, jax.core.Tracer)``) is then true (see :meth:`Decided.tracer_truth`)."""


def is_none_key(name: str) -> str:
    """The key of the facts of :func:`literal_params` that says whether the parameter
    ``name`` is ``None``."""
    return f"{name} is None"


def is_none(expr: cst.BaseExpression | None) -> bool:
    """``expr`` is the literal ``None``."""
    return type(expr) is cst.Name and expr.value == "None"  # type: ignore[union-attr]


def none_fact(value: cst.BaseExpression, default: cst.BaseExpression) -> bool | None:
    """Whether a parameter given ``value`` (its default is ``default``) is ``None``: a
    literal says; an expression given to an optional parameter (default ``None``) is taken
    to be given, so not ``None``, the way the code reads (``CanopyTurbulence(...,
    grid=grid)`` from the traced step, and ``if grid is not None: return
    _HF2008_diff(...)`` in it: clm-ml-jax, fresh-2026-12q); else unknown."""
    if is_none(value):
        return True
    if literal_truth(value) is not None:
        return False
    return False if is_none(default) else None


def may_be_none(model: SemanticModel, name: cst.Name) -> bool:
    """``name`` may hold ``None`` where it is read: a binding of it assigns ``None``
    (``grid_height = None``, then ``if grid_shape is not None: grid_height, ... =
    grid_shape``: ptyrodactyl, fresh-2026-12v), or it is a parameter whose default is
    ``None``, or no binding is found."""
    found = model.lookup(name.value, model.scope_for(name))
    if found is None:
        return True
    for binding in found[1]:
        node = binding.node
        if binding.kind == "param":
            if type(node) is cst.Param and is_none(node.default):
                return True
        elif binding.kind == "assign":
            parent = model.parents.get(id(node))
            if type(parent) is cst.AssignTarget:
                parent = model.parents.get(id(parent))
            if type(parent) in (cst.Assign, cst.AnnAssign) and is_none(parent.value):  # type: ignore[union-attr]
                return True
    return False


def _compare_string(text: str | None, op: type, other: cst.BaseExpression) -> bool | None:
    """``text == "cpu"``, ``!=``, ``in ("newton", "lbfgs")``, ``not in``: their truth for
    a known string ``text``; ``None`` otherwise."""
    if text is None:
        return None
    if op is cst.Equal or op is cst.NotEqual:
        lit = one_string(other)
        return None if lit is None else (text == lit) is (op is cst.Equal)
    if op is cst.In or op is cst.NotIn:
        if type(other) not in (cst.Tuple, cst.List, cst.Set):
            return None
        lits = [one_string(el.value) for el in other.elements]  # type: ignore[attr-defined]
        if not lits or None in lits:
            return None
        return (text in lits) is (op is cst.In)
    return None


_CONCRETE_TESTS = frozenset({"jax.core.is_concrete", "jax._src.core.is_concrete"})
_TRACER_WORDS = frozenset({"Tracer", "is_concrete"})


class Decided:
    """Which statements of one module never run (see the module's docstring)."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self._tests: dict[int, bool] = {}

    def never_runs(
        self, node: cst.CSTNode, stop: cst.CSTNode | None, values: dict[str, bool]
    ) -> bool:
        """``node``, climbing its parents up to ``stop``, follows a statement that always
        leaves its block, or lies in a branch of an ``if`` (or of a conditional expression,
        or on the right of an ``and``/``or``) that :meth:`decided` (with the truth of the
        names ``values`` gives) keeps from running."""
        parents = self.model.parents
        child = node
        current = parents.get(id(node))
        while current is not None and current is not stop:
            kind = type(current)
            if kind is cst.IndentedBlock or kind is cst.Module:
                for stmt in current.body:  # type: ignore[attr-defined]
                    if stmt is child:
                        break
                    if type(stmt) is cst.SimpleStatementLine and type(stmt.body[-1]) in BLOCK_EXITS:
                        return True
                    if values and type(stmt) is cst.If and self.leaves(stmt, values):
                        return True
            elif kind is cst.If:
                truth = self.decided(current.test, values)  # type: ignore[attr-defined]
                if truth is not None and (child is current.body) is not truth:  # type: ignore[attr-defined]
                    return True
            elif kind is cst.IfExp and child is not current.test:  # type: ignore[attr-defined]
                truth = self.decided(current.test, values)  # type: ignore[attr-defined]
                if truth is not None and (child is current.body) is not truth:  # type: ignore[attr-defined]
                    return True
            elif kind is cst.BooleanOperation and child is current.right:  # type: ignore[attr-defined]
                truth = self.decided(current.left, values)  # type: ignore[attr-defined]
                if truth is not None and truth is (type(current.operator) is cst.Or):  # type: ignore[attr-defined]
                    return True  # ``grid is None and ...`` where ``grid`` is given
            child = current
            current = parents.get(id(current))
        return False

    def leaves(self, stmt: cst.If, values: dict[str, bool]) -> bool:
        """``if for_jit: return total`` where ``values`` decides the test: the branch it
        takes ends with ``return``/``raise`` (or the like), so what follows never runs."""
        truth = self.decided(stmt.test, values)
        if truth is None:
            return False
        branch = stmt.body if truth else stmt.orelse
        if branch is None or type(branch) is cst.If:
            return False
        body = branch.body if type(branch) is cst.Else else branch
        last = body.body[-1] if type(body) is cst.IndentedBlock and body.body else None
        return type(last) is cst.SimpleStatementLine and type(last.body[-1]) in BLOCK_EXITS

    def decided(self, test: cst.BaseExpression, values: dict[str, bool]) -> bool | None:
        """The truth of an ``if`` test this file decides, else ``None``: a name whose truth
        ``values`` gives (a parameter left at its literal default), ``name is None`` or
        ``name is not None`` where ``values`` says (:func:`is_none_key`), or a comparison of
        string literals and names of modules the file imports (``if "jax" in
        np.__name__:`` with ``import numpy as np``, the switch of code written for NumPy
        or JAX), negated or not."""
        kind = type(test)
        if values.get(TRACED):
            truth = self.tracer_truth(test)
            if truth is not None:
                return truth
        if kind is cst.Name:
            return values.get(test.value)  # type: ignore[attr-defined]
        if kind is cst.UnaryOperation and type(test.operator) is cst.Not:  # type: ignore[attr-defined]
            inner = self.decided(test.expression, values)  # type: ignore[attr-defined]
            return None if inner is None else not inner
        if kind is cst.BooleanOperation and values:
            # ``backend == "jax" and method in (...)``: a false side decides ``and``
            sides = (self.decided(test.left, values), self.decided(test.right, values))  # type: ignore[attr-defined]
            deciding = type(test.operator) is cst.Or  # type: ignore[attr-defined]
            if deciding in sides:
                return deciding
            return None if None in sides else not deciding
        if kind is not cst.Comparison or len(test.comparisons) != 1:  # type: ignore[attr-defined]
            return None
        target = test.comparisons[0]  # type: ignore[attr-defined]
        op = type(target.operator)
        if values and type(test.left) is cst.Name:  # type: ignore[attr-defined]
            truth = _compare_string(
                string_fact(values, test.left.value),  # type: ignore[attr-defined]
                op,
                target.comparator,
            )
            if truth is not None:  # ``backend == "cpu"`` where the callers give "jax"
                return truth
        if (op is cst.Is or op is cst.IsNot) and type(test.left) is cst.Name:  # type: ignore[attr-defined]
            if not is_none(target.comparator):
                return None
            fact = values.get(is_none_key(test.left.value))  # type: ignore[attr-defined]
            return None if fact is None else fact is (op is cst.Is)
        left = one_string(test.left) or self.module_name(test.left)  # type: ignore[attr-defined]
        right = one_string(target.comparator) or self.module_name(target.comparator)
        if left is None or right is None:
            return None
        if op is cst.In:
            return left in right
        if op is cst.NotIn:
            return left not in right
        if op is cst.Equal:
            return left == right
        if op is cst.NotEqual:
            return left != right
        return None

    def tracer_truth(self, test: cst.BaseExpression, depth: int = 0) -> bool | None:
        """The truth of a test for tracers in code that runs traced: ``isinstance(x,
        jax.core.Tracer)`` (alone, in ``any(...)``, or through a name bound once to it:
        ``is_traced = any(isinstance(b, Tracer) for b in blocks)``) is true, ``not`` of
        it false, ``jax.core.is_concrete(x)`` false (tenax-tn's host paths, taken only
        for concrete arrays; fresh-2026-12s); joined by ``and``/``or`` with a test it
        cannot decide, the tracer test decides. ``None`` for any other test."""
        if depth > 8:
            return None
        kind = type(test)
        if kind is cst.UnaryOperation and type(test.operator) is cst.Not:  # type: ignore[attr-defined]
            inner = self.tracer_truth(test.expression, depth + 1)  # type: ignore[attr-defined]
            return None if inner is None else not inner
        if kind is cst.Name:
            value = self.model.bound_once(test)  # type: ignore[arg-type]
            return self.tracer_truth(value, depth + 1) if value is not None else None
        if kind is cst.BooleanOperation:  # ``is_traced and tensor.blocks``: the tracer test
            sides = [self.tracer_truth(s, depth + 1) for s in (test.left, test.right)]  # type: ignore[attr-defined]
            known = [t for t in sides if t is not None]
            if not known:
                return None
            return all(known) if type(test.operator) is cst.And else any(known)  # type: ignore[attr-defined]
        if kind is not cst.Call:
            return None
        qn = self.model.call_name(test)  # type: ignore[arg-type]
        args = [a.value for a in test.args if a.keyword is None and not a.star]  # type: ignore[attr-defined]
        if qn in ("builtins.any", "builtins.all") and len(args) == 1:
            inner = args[0]
            if type(inner) in (cst.GeneratorExp, cst.ListComp):
                return self.tracer_truth(inner.elt, depth + 1)  # type: ignore[attr-defined]
            return None
        if qn == "builtins.isinstance" and len(args) == 2:
            kinds = args[1]
            items = [e.value for e in kinds.elements] if type(kinds) is cst.Tuple else [kinds]
            names = [self.model.qualified_name(k) or "" for k in items]
            return True if any(n.split(".")[-1] == "Tracer" for n in names) else None
        if qn in _CONCRETE_TESTS:
            return False
        return None

    def tests_tracers(self, fn: cst.CSTNode) -> bool:
        """``fn``'s code spells a test for tracers (``Tracer``, ``is_concrete``); read
        once per function."""
        found = self._tests.get(id(fn))
        if found is None:
            found = self._tests[id(fn)] = any(
                (type(n) is cst.Name and n.value in _TRACER_WORDS)
                or (type(n) is cst.Attribute and n.attr.value in _TRACER_WORDS)
                for n in descendants(fn)
            )
        return found

    def module_name(self, expr: cst.BaseExpression) -> str | None:
        """``np.__name__`` where ``np`` is bound only by ``import numpy as np``: ``numpy``."""
        if type(expr) is not cst.Attribute or expr.attr.value != "__name__":  # type: ignore[attr-defined]
            return None
        base = expr.value  # type: ignore[attr-defined]
        if type(base) is not cst.Name:
            return None
        found = self.model.lookup(base.value, self.model.scope_for(base))
        if found is None:
            return None
        bindings = found[1]
        if len(bindings) != 1 or bindings[0].kind != "import":
            return None
        if type(bindings[0].node) is not cst.Import:  # ``from m import x``: maybe not a module
            return None
        return bindings[0].qualname
