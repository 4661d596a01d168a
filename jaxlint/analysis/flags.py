"""Module-level constant flags: ``DEBUG_CHECKS: bool = False`` bound once and never
rebound, whose ``if`` branches this file decides (the body of ``if DEBUG_CHECKS:`` never
runs, so what it does under a trace never happens: clm-ml-jax's debug checks,
fresh-2026-12q)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.names import SemanticModel


def _truth(expr: cst.BaseExpression) -> bool | None:
    if type(expr) is cst.Name and expr.value in ("True", "False", "None"):
        return expr.value == "True"
    if type(expr) is cst.Integer:
        return bool(expr.evaluated_value)
    return None


def constant_flags(model: SemanticModel) -> dict[str, bool]:
    """Name -> truth, for the module's names bound exactly once, at the top level, to
    ``True``/``False``/``None`` or an integer literal, that no function declares
    ``global``."""
    declared: set[str] = set()
    for scope in model.scope_of_node.values():
        declared |= scope.global_names
    out: dict[str, bool] = {}
    parents = model.parents
    for name, bindings in model.module_scope.bindings.items():
        if len(bindings) != 1 or bindings[0].kind != "assign" or name in declared:
            continue
        target = bindings[0].node
        parent = parents.get(id(target))
        if type(parent) is cst.AssignTarget:
            statement = parents.get(id(parent))
            if type(statement) is not cst.Assign or len(statement.targets) != 1:
                continue
        elif type(parent) is cst.AnnAssign and parent.target is target:
            statement = parent
        else:
            continue
        if statement.value is None or parents.get(id(statement)) is None:
            continue
        line = parents.get(id(statement))
        if type(parents.get(id(line))) is not cst.Module:
            continue  # inside an ``if``/``try`` at the top level: it may not run
        truth = _truth(statement.value)
        if truth is not None:
            out[name] = truth
    return out


def decided_if(
    model: SemanticModel, flags: dict[str, bool], test: cst.BaseExpression
) -> bool | None:
    """The truth of an ``if`` test made of one flag (``FLAG``, ``not FLAG``) or a literal
    (``if False:``, ``if 0:``: code switched off by hand), else ``None`` (a local name that
    shadows the flag decides nothing)."""
    negate = False
    while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        negate = not negate
        test = test.expression
    literal = _truth(test)
    if literal is not None:
        return literal is not negate
    if type(test) is not cst.Name or test.value not in flags:
        return None
    found = model.lookup(test.value, model.scope_for(test))
    if found is None or found[0] is not model.module_scope:
        return None
    return flags[test.value] is not negate


_PYTHON_SCALARS = frozenset(
    {
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        "builtins.complex",
        "builtins.str",
        "numbers.Number",
        "numbers.Real",
        "numbers.Integral",
        "numbers.Complex",
    }
)


def python_scalars(model: SemanticModel, test: cst.BaseExpression) -> list[str]:
    """The names an ``if`` test proves to be Python scalars in its body:
    ``isinstance(e1, (int, float))``, alone or joined by ``and`` (shine-wl's
    ``if isinstance(e1, (int, float)) and isinstance(e2, (int, float)):``, then ``if e1
    == 0.0``, fresh-2026-12q): there they are static, whatever the callers pass."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        return python_scalars(model, test.left) + python_scalars(model, test.right)
    if type(test) is not cst.Call or model.call_name(test) != "builtins.isinstance":
        return []
    args = [a.value for a in test.args if a.keyword is None and not a.star]
    if len(args) != 2 or type(args[0]) is not cst.Name:
        return []
    kinds = args[1]
    names = [el.value for el in kinds.elements] if type(kinds) is cst.Tuple else [kinds]
    if not names or any(model.qualified_name(n) not in _PYTHON_SCALARS for n in names):
        return []
    return [args[0].value]
