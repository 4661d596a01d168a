"""Methods of the classes of a module, and which one a call runs.

Shared by the trace and key analyses (what a call of a method of this module does with
its arguments) and the rules that ask whether a method is static, a class method or a
property: one place knows that a ``@staticmethod`` gets no ``self``, whether it is
called through ``self`` or through its class, and that a ``@classmethod`` gets ``cls``
either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.walk import descendants

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from jaxlint.analysis.names import SemanticModel

STATICMETHOD = "builtins.staticmethod"
CLASSMETHOD = "builtins.classmethod"
PROPERTY = "builtins.property"


def own_method(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The method ``name`` defined in ``cls``'s own body (not a base's)."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for stmt in body:
        if type(stmt) is cst.FunctionDef and stmt.name.value == name:
            return stmt
    return None


def properties(cls: cst.ClassDef, qualify: Callable[[cst.BaseExpression], str | None]) -> list[str]:
    """The names of the ``@property`` methods of ``cls``'s own body: reading one runs its
    code every time (a ``functools.cached_property`` runs once, and is not one).
    ``qualify`` gives a decorator's qualified name (the model's, or the project's)."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return [
        stmt.name.value
        for stmt in body
        if type(stmt) is cst.FunctionDef
        and any(qualify(d.decorator) == PROPERTY for d in stmt.decorators)
    ]


def decorated(model: SemanticModel, fn: cst.FunctionDef, qualnames: tuple[str, ...]) -> bool:
    """``fn`` carries a decorator whose qualified name is one of ``qualnames``."""
    return any(model.qualified_name(d.decorator) in qualnames for d in fn.decorators)


def module_class(model: SemanticModel, name: cst.Name) -> cst.ClassDef | None:
    """The class of this module that ``name`` is bound to, once, where it is used."""
    found = model.lookup(name.value, model.scope_for(name))
    if found is None or len(found[1]) != 1 or found[1][0].kind != "class":
        return None
    node = found[1][0].node
    return node if type(node) is cst.ClassDef else None


def method_call(
    model: SemanticModel,
    func: cst.Attribute,
    own_class: cst.ClassDef | None,
    self_name: str = "self",
) -> tuple[cst.FunctionDef, bool] | None:
    """The method a call of ``func`` runs, and whether its first parameter is bound
    without an argument of the call: ``self.m(...)`` (``own_class`` is the class of the
    method the call is in) or ``Cls.m(...)`` for a class of this module.

    ``self_name`` is the first parameter of the method the call is in.
    ``self.m``: a ``@staticmethod`` takes the call's first argument as its first
    parameter, any other method gets ``self`` (or ``cls``). ``Cls.m``: a
    ``@classmethod`` gets ``cls``; a ``@staticmethod`` and a plain function read
    through the class (``Cls.m(obj, x)``, ``obj`` given explicitly) take the call's
    arguments in order."""
    if type(func.value) is not cst.Name:
        return None
    if func.value.value == self_name:
        if own_class is None:
            return None
        method = own_method(own_class, func.attr.value)
        if method is None:
            return None
        return method, not decorated(model, method, (STATICMETHOD,))
    cls = module_class(model, func.value)
    if cls is None:
        return None
    method = own_method(cls, func.attr.value)
    if method is None:
        return None
    return method, decorated(model, method, (CLASSMETHOD,))


# -- the attributes a class assigns ------------------------------------------------------


def self_attr(expr: cst.CSTNode) -> str | None:
    """``X`` for ``self.X``."""
    if (
        type(expr) is cst.Attribute
        and type(expr.value) is cst.Name  # type: ignore[attr-defined]
        and expr.value.value == "self"  # type: ignore[attr-defined]
    ):
        return expr.attr.value  # type: ignore[attr-defined]
    return None


def targets(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The names, attributes and subscripts an assignment target binds (``a, (b, *c)``)."""
    if type(target) in (cst.Tuple, cst.List):
        out: list[cst.BaseExpression] = []
        for el in target.elements:  # type: ignore[attr-defined]
            out.extend(targets(el.value))
        return out
    if type(target) is cst.StarredElement:
        return targets(target.value)  # type: ignore[attr-defined]
    return [target]


def assigned_targets(root: cst.CSTNode) -> Iterator[cst.BaseExpression]:
    """Every name, attribute and subscript that an assignment under ``root`` writes
    (``=``, an annotation with a value or not, an augmented assignment), unpacked."""
    for node in descendants(root):
        kind = type(node)
        if kind is cst.Assign:
            found = [t.target for t in node.targets]  # type: ignore[attr-defined]
        elif kind in (cst.AnnAssign, cst.AugAssign):
            found = [node.target]  # type: ignore[attr-defined]
        else:
            continue
        for target in found:
            yield from targets(target)


def self_name(fn: cst.FunctionDef) -> str | None:
    """The first positional parameter of a method (``self``, ``cls``), if any."""
    params = fn.params.posonly_params or fn.params.params
    return params[0].name.value if params else None


def assigned_self_attrs(cls: cst.ClassDef) -> frozenset[str]:
    """The attributes some code of ``cls`` assigns as ``self.name = ...`` (or annotates
    with a value, or augments)."""
    names = {self_attr(t) for t in assigned_targets(cls)}
    names.discard(None)
    return frozenset(names)  # type: ignore[arg-type]
