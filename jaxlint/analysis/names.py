"""Scopes, bindings and qualified names, built from a module's own imports.

libcst's ``QualifiedNameProvider`` costs several times the parse. jaxlint only
needs to know, for a name or a dotted expression, which imported module member
it refers to, so one light pass records every scope, every binding in it and the
scope of every ``Name`` node. A name resolves to a qualified name only when all
its bindings in the scope that owns it are imports of the same thing: a local
assignment, a parameter, or two different imports (``try: import jax.numpy as np
except ImportError: import numpy as np``) shadow it, and the resolver answers
``None`` rather than guess.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

_BUILTINS = frozenset(dir(builtins))


@dataclass(eq=False)
class Binding:
    name: str
    kind: str
    """``import``, ``assign``, ``param``, ``def``, ``class``, ``global-decl`` ..."""
    qualname: str | None
    """For imports, the imported object's qualified name (``jax.numpy``)."""
    node: cst.CSTNode


@dataclass(eq=False)
class Scope:
    kind: str
    """``module``, ``class``, ``function``, ``lambda`` or ``comprehension``."""
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)

    def bind(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)


class SemanticModel:
    """Answers "what does this name refer to" for one module."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.module_scope = Scope("module", module, None)
        self.scope_of_name: dict[int, Scope] = {}
        self.scope_of_node: dict[int, Scope] = {}
        """The scope each function, lambda, class and comprehension node opens."""
        self.imports: list[tuple[cst.CSTNode, Binding]] = []
        self.scope_of_import: dict[int, Scope] = {}
        builder = _ScopeBuilder(self)
        module.visit(builder)

    # -- lookups ---------------------------------------------------------------------

    def scope_for(self, name: cst.Name) -> Scope:
        return self.scope_of_name.get(id(name), self.module_scope)

    def lookup(self, name: str, scope: Scope) -> tuple[Scope, list[Binding]] | None:
        """Python's LEGB lookup of ``name`` from ``scope`` (class scopes do not enclose)."""
        current: Scope | None = scope
        first = True
        while current is not None:
            if name in current.global_names:
                current = self.module_scope
                first = False
                continue
            if (first or current.kind != "class") and name in current.bindings:
                return current, current.bindings[name]
            first = False
            current = current.parent
        return None

    def resolve_name(self, name: str, scope: Scope) -> str | None:
        found = self.lookup(name, scope)
        if found is None:
            return f"builtins.{name}" if name in _BUILTINS else None
        _, bindings = found
        qualnames = {b.qualname for b in bindings}
        if len(qualnames) != 1 or any(b.kind != "import" for b in bindings):
            return None
        return next(iter(qualnames))

    def qualified_name(self, expr: cst.BaseExpression) -> str | None:
        """``jnp.empty`` -> ``jax.numpy.empty`` when ``jnp`` is ``import jax.numpy as jnp``."""
        if isinstance(expr, cst.Name):
            return self.resolve_name(expr.value, self.scope_for(expr))
        if isinstance(expr, cst.Attribute):
            base = self.qualified_name(expr.value)
            if base is None or base.startswith("builtins."):
                return None
            return f"{base}.{expr.attr.value}"
        return None

    def call_name(self, call: cst.Call) -> str | None:
        return self.qualified_name(call.func)

    def leftmost_name(self, expr: cst.BaseExpression) -> cst.Name | None:
        while isinstance(expr, cst.Attribute):
            expr = expr.value
        return expr if isinstance(expr, cst.Name) else None

    def spelling(self, qualname: str, at: cst.Name | None) -> str | None:
        """How to write ``qualname`` at ``at`` through an existing import, if any.

        Prefers the longest imported prefix (``jnp.zeros`` over ``jax.numpy.zeros``).
        Returns ``None`` when no visible name is bound to a prefix of ``qualname``.
        """
        scope = self.scope_for(at) if at is not None else self.module_scope
        parts = qualname.split(".")
        best: str | None = None
        best_len = 0
        for candidate, target in self._visible_import_names(scope):
            tparts = target.split(".")
            if len(tparts) <= best_len or parts[: len(tparts)] != tparts:
                continue
            if self.resolve_name(candidate, scope) != target:
                continue
            best = ".".join([candidate, *parts[len(tparts) :]])
            best_len = len(tparts)
        return best

    def _visible_import_names(self, scope: Scope) -> Iterator[tuple[str, str]]:
        current: Scope | None = scope
        while current is not None:
            for name, bindings in current.bindings.items():
                for b in bindings:
                    if b.kind == "import" and b.qualname is not None:
                        yield name, b.qualname
            current = current.parent

    def import_target(self, node: cst.Import | cst.ImportFrom, local: str) -> str | None:
        """What ``local``, bound by the import statement ``node``, refers to in its scope.

        ``None`` when the scope binds ``local`` in other ways too (a ``try``/``except
        ImportError`` fallback, a later assignment).
        """
        scope = self.scope_of_import.get(id(node), self.module_scope)
        return self.resolve_name(local, scope)

    def module_imports(self, qualname_prefix: str) -> list[Binding]:
        return [
            b
            for _, b in self.imports
            if b.qualname is not None
            and (b.qualname == qualname_prefix or b.qualname.startswith(qualname_prefix + "."))
        ]


def _dotted(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr.value}"
    return None


def _relative_module(node: cst.ImportFrom) -> str | None:
    if node.relative:
        return None
    if node.module is None:
        return None
    return _dotted(node.module)


class _ScopeBuilder(cst.CSTVisitor):
    """One pass: scopes, bindings, and the scope of every ``Name``."""

    def __init__(self, model: SemanticModel) -> None:
        super().__init__()
        self.model = model
        self.stack: list[Scope] = [model.module_scope]

    @property
    def scope(self) -> Scope:
        return self.stack[-1]

    def _push(self, kind: str, node: cst.CSTNode) -> Scope:
        scope = Scope(kind, node, self.scope)
        self.model.scope_of_node[id(node)] = scope
        self.stack.append(scope)
        return scope

    def _bind(self, name: str, kind: str, node: cst.CSTNode, qualname: str | None = None) -> None:
        scope = self.scope
        if name in scope.global_names:
            scope = self.model.module_scope
        binding = Binding(name, kind, qualname, node)
        scope.bind(binding)
        if kind == "import":
            self.model.imports.append((node, binding))
            self.model.scope_of_import[id(node)] = self.scope

    def _bind_target(self, target: cst.BaseExpression, kind: str) -> None:
        if isinstance(target, cst.Name):
            self._bind(target.value, kind, target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind_target(el.value, kind)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, kind)

    # names ----------------------------------------------------------------------------

    def visit_Name(self, node: cst.Name) -> None:
        self.model.scope_of_name[id(node)] = self.scope

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False  # ``attr`` is not a variable reference

    # imports ----------------------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if dotted is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name.value, "import", node, dotted)
            else:
                top = dotted.split(".")[0]
                self._bind(top, "import", node, top)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if isinstance(node.names, cst.ImportStar):
            return False
        module = _relative_module(node)
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            qualname = f"{module}.{alias.name.value}" if module else None
            self._bind(local, "import", node, qualname)
        return False

    # statements that bind -----------------------------------------------------------------

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self.scope.global_names.add(item.name.value)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self.scope.nonlocal_names.add(item.name.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind_target(node.target, "assign")

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind_target(node.target, "assign")
        else:
            self._bind_target(node.target, "annotation")

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, "assign")

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target, "assign")

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_target(node.asname.name, "assign")

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None and isinstance(node.name.name, cst.Name):
            self._bind(node.name.name.value, "assign", node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        # PEP 572: the target binds in the nearest enclosing non-comprehension scope.
        idx = len(self.stack) - 1
        while idx > 0 and self.stack[idx].kind == "comprehension":
            idx -= 1
        if isinstance(node.target, cst.Name):
            self.stack[idx].bind(Binding(node.target.value, "assign", None, node.target))

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._bind(node.name.value, "assign", node)

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self._bind(node.name.value, "assign", node)

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._bind(node.rest.value, "assign", node)

    # scopes -------------------------------------------------------------------------------

    def _visit_params_outer(self, params: cst.Parameters) -> None:
        for param in _all_params(params):
            if param.default is not None:
                param.default.visit(self)
            if param.annotation is not None:
                param.annotation.visit(self)

    def _bind_params(self, params: cst.Parameters) -> None:
        for param in _all_params(params):
            self._bind(param.name.value, "param", param)
            self.model.scope_of_name[id(param.name)] = self.scope

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for dec in node.decorators:
            dec.visit(self)
        self._visit_params_outer(node.params)
        if node.returns is not None:
            node.returns.visit(self)
        self._bind(node.name.value, "def", node)
        self.model.scope_of_name[id(node.name)] = self.scope
        self._push("function", node)
        self._bind_params(node.params)
        node.body.visit(self)
        self.stack.pop()
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self._visit_params_outer(node.params)
        self._push("lambda", node)
        self._bind_params(node.params)
        node.body.visit(self)
        self.stack.pop()
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        for dec in node.decorators:
            dec.visit(self)
        for arg in (*node.bases, *node.keywords):
            arg.visit(self)
        self._bind(node.name.value, "class", node)
        self.model.scope_of_name[id(node.name)] = self.scope
        self._push("class", node)
        node.body.visit(self)
        self.stack.pop()
        return False

    def _visit_comprehension(
        self, node: cst.BaseComprehension, elements: Sequence[cst.BaseExpression]
    ) -> bool:
        # The first iterable is evaluated in the enclosing scope.
        node.for_in.iter.visit(self)
        self._push("comprehension", node)
        comp: cst.CompFor | None = node.for_in
        first = True
        while comp is not None:
            self._bind_target(comp.target, "assign")
            comp.target.visit(self)
            if not first:
                comp.iter.visit(self)
            for cond in comp.ifs:
                cond.visit(self)
            first = False
            comp = comp.inner_for_in
        for el in elements:
            el.visit(self)
        self.stack.pop()
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._visit_comprehension(node, [node.elt])

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return self._visit_comprehension(node, [node.key, node.value])


def _all_params(params: cst.Parameters) -> Iterator[cst.Param]:
    yield from params.posonly_params
    yield from params.params
    if isinstance(params.star_arg, cst.Param):
        yield params.star_arg
    yield from params.kwonly_params
    if params.star_kwarg is not None:
        yield params.star_kwarg
