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
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress

import libcst as cst

from jaxlint.analysis.walk import _CHILDREN as CHILDREN
from jaxlint.analysis.walk import CHILD_FIELDS, children, descendants

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


class Events:
    """``(node, entering)`` pairs, in walk order: iterate, index and ``len`` them like a
    list of tuples. Stored as a list of nodes and a ``bytearray`` of flags (1 entering,
    0 leaving): a tuple per event cost 64 bytes, and a module has about one event per
    source byte. ``entering`` is an int (truthy or not), not a bool."""

    __slots__ = ("flags", "nodes")

    def __init__(self) -> None:
        self.nodes: list[cst.CSTNode] = []
        self.flags = bytearray()

    def __iter__(self) -> Iterator[tuple[cst.CSTNode, int]]:
        return zip(self.nodes, self.flags, strict=True)

    def __getitem__(self, index: int) -> tuple[cst.CSTNode, int]:
        return self.nodes[index], self.flags[index]

    def __len__(self) -> int:
        return len(self.nodes)

    def add(self, node: cst.CSTNode, entering: bool) -> None:
        self.nodes.append(node)
        self.flags.append(entering)


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
        self.events = Events()
        """``(node, entering)`` for every non-trivia node, in source order."""
        self.identifiers: set[str] = set()
        """Every identifier the code spells: names, attribute names, import paths."""
        self.assigned: dict[int, cst.BaseExpression] = {}
        """``name = value`` and ``name: T = value``: id of the target ``Name`` -> value."""
        self.body_spans: dict[int, int] = {}
        """id of a ``def``, lambda or class -> ``first << 32 | end``: the events of its body."""
        self.parents: dict[int, cst.CSTNode] = {}
        """id of a node -> the node of the innermost event open around its entering event
        (its parent in the tree, trivia left out); the module has none."""
        builder = _ScopeBuilder(self)
        builder.walk(module)
        # the builder's handler tables hold its bound methods (a reference cycle) and it
        # holds the model: left alone, that cycle keeps the whole tree alive until the
        # garbage collector runs
        builder.__dict__.clear()
        self._resolved: dict[tuple[int, str], str | None] = {}
        self._import_names: dict[int, list[tuple[str, str]]] = {}
        self._qualified: dict[int, str | None] = {}
        """``qualified_name`` per node id (the tree and the model do not change once built)."""

    def body_nodes(self, node: cst.FunctionDef | cst.Lambda | cst.ClassDef) -> list[cst.CSTNode]:
        """The body of a ``def``, lambda or class and every node in it, nested functions
        and classes included, in walk order: a slice of the events, no new walk. Like
        ``walk.descendants(node.body)`` but for the ``attr`` name of ``x.attr`` (not a
        variable, so not an event) and the order."""
        packed = self.body_spans.get(id(node))
        if packed is None:  # not a node of this module's tree
            return list(descendants(node.body))
        first, end = packed >> 32, packed & 0xFFFFFFFF
        return list(compress(self.events.nodes[first:end], self.events.flags[first:end]))

    def inside(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """``region`` is ``node`` or holds it: up the parents the walk recorded (no
        positions: they cost a code generation of the whole file)."""
        parents = self.parents
        current: cst.CSTNode | None = node
        while current is not None:
            if current is region:
                return True
            current = parents.get(id(current))
        return False

    # -- lookups ---------------------------------------------------------------------

    def bound_once(self, name: cst.Name) -> cst.BaseExpression | None:
        """The value of ``name`` where its scope binds it once, by ``name = value``
        (``shape = [n, 1]``); ``None`` for a parameter, an import or a name bound twice."""
        found = self.lookup(name.value, self.scope_for(name))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        return self.assigned.get(id(found[1][0].node))

    def scope_for(self, name: cst.Name) -> Scope:
        return self.scope_of_name.get(id(name), self.module_scope)

    def function_of_name(self, name: cst.Name) -> cst.CSTNode | None:
        """The ``def`` or lambda whose own code holds ``name`` (class bodies and
        comprehensions belong to the function around them); ``None`` for the module."""
        scope: Scope | None = self.scope_for(name)
        while scope is not None and scope.kind in ("comprehension", "class"):
            scope = scope.parent
        if scope is None or scope.kind == "module":
            return None
        return scope.node

    def lookup(self, name: str, scope: Scope) -> tuple[Scope, list[Binding]] | None:
        """Python's LEGB lookup of ``name`` from ``scope`` (class scopes do not enclose)."""
        current: Scope | None = scope
        first = True
        while current is not None:
            # ``global x`` at module level is legal and means nothing (it used to loop forever)
            if name in current.global_names and current is not self.module_scope:
                current = self.module_scope
                first = False
                continue
            if (first or current.kind != "class") and name in current.bindings:
                return current, current.bindings[name]
            first = False
            current = current.parent
        return None

    def resolve_name(self, name: str, scope: Scope) -> str | None:
        # cached per scope and name: the answer reads every binding of the name, and
        # generated code can bind one name thousands of times (quadratic without it)
        key = (id(scope), name)
        try:
            return self._resolved[key]
        except KeyError:
            pass
        found = self._resolve_name(name, scope)
        self._resolved[key] = found
        return found

    def _resolve_name(self, name: str, scope: Scope) -> str | None:
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
        key = id(expr)
        try:
            return self._qualified[key]
        except KeyError:
            pass
        cls = type(expr)
        if cls is cst.Name:
            found = self.resolve_name(expr.value, self.scope_for(expr))
        elif cls is cst.Attribute:
            base = self.qualified_name(expr.value)
            if base is None or base.startswith("builtins."):
                found = None
            else:
                found = f"{base}.{expr.attr.value}"
        else:
            found = None
        self._qualified[key] = found
        return found

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
            yield from self._import_names_of(current)
            current = current.parent

    def _import_names_of(self, scope: Scope) -> list[tuple[str, str]]:
        """The scope's ``(name, imported qualname)`` pairs, each once (a module that
        repeats ``import jax`` lists it once), in binding order."""
        found = self._import_names.get(id(scope))
        if found is None:
            pairs: dict[tuple[str, str], None] = {}
            for name, bindings in scope.bindings.items():
                for b in bindings:
                    if b.kind == "import" and b.qualname is not None:
                        pairs[(name, b.qualname)] = None
            found = self._import_names[id(scope)] = list(pairs)
        return found

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


def dotted(expr: cst.BaseExpression) -> str | None:
    """``a.b.c`` as written -> ``"a.b.c"``; ``None`` for anything but names and attributes."""
    if type(expr) is cst.Name:
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr.value}"
    return None


def _relative_module(node: cst.ImportFrom) -> str | None:
    if node.relative:
        return None
    if node.module is None:
        return None
    return dotted(node.module)


class _ScopeBuilder:
    """One walk: scopes, bindings, the scope of every ``Name``, and the event stream.

    ``model.events`` lists ``(node, entering)`` for every non-trivia node in source
    order, so that the rules can be run afterwards without walking the tree again.
    """

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.stack: list[Scope] = [model.module_scope]
        self.events = model.events
        self._add_node = model.events.nodes.append
        self._add_flag = model.events.flags.append
        self._parents = model.parents
        self._current: cst.CSTNode | None = None
        self.identifiers_add = model.identifiers.add
        self._special = {
            cst.Attribute: self._attribute,
            cst.FunctionDef: self._function,
            cst.Lambda: self._lambda,
            cst.ClassDef: self._class,
            cst.ListComp: self._comprehension,
            cst.SetComp: self._comprehension,
            cst.GeneratorExp: self._comprehension,
            cst.DictComp: self._comprehension,
        }
        self._binders = {
            cst.Name: self._name,
            cst.Import: self._import,
            cst.ImportFrom: self._import_from,
            cst.Global: self._global,
            cst.Nonlocal: self._nonlocal,
            cst.Assign: self._assign,
            cst.AssignTarget: lambda n: self._bind_target(n.target, "assign"),
            cst.AnnAssign: self._ann_assign,
            cst.AugAssign: lambda n: self._bind_target(n.target, "assign"),
            cst.For: lambda n: self._bind_target(n.target, "assign"),
            cst.WithItem: self._with_item,
            cst.ExceptHandler: self._except_handler,
            cst.NamedExpr: self._named_expr,
            cst.MatchAs: self._match_name,
            cst.MatchStar: self._match_name,
            cst.MatchMapping: self._match_mapping,
        }

    @property
    def scope(self) -> Scope:
        return self.stack[-1]

    def walk(self, node: cst.CSTNode) -> None:
        add_node = self._add_node
        add_flag = self._add_flag
        parent = self._current
        if parent is not None:
            self._parents.setdefault(id(node), parent)
        add_node(node)
        add_flag(1)
        self._current = node
        cls = type(node)
        special = self._special.get(cls)
        if special is not None:
            special(node)
        else:
            binder = self._binders.get(cls)
            if binder is not None:
                binder(node)
            if CHILD_FIELDS.get(cls) != ():  # leaves (names, numbers, strings) have no children
                walk = self.walk
                listed = CHILDREN.get(cls)
                for child in listed(node) if listed is not None else children(node):
                    walk(child)
        self._current = parent
        add_node(node)
        add_flag(0)

    def _open(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The entering event of a node that a handler adds itself (not through ``walk``)."""
        parent = self._current
        if parent is not None:
            self._parents.setdefault(id(node), parent)
        self.events.add(node, True)
        self._current = node
        return parent

    def _close(self, node: cst.CSTNode, parent: cst.CSTNode | None) -> None:
        self._current = parent
        self.events.add(node, False)

    def _new_scope(self, kind: str, node: cst.CSTNode) -> Scope:
        scope = Scope(kind, node, self.scope)
        self.model.scope_of_node[id(node)] = scope
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
        if type(target) is cst.Name:
            self._bind(target.value, kind, target)
        elif type(target) in (cst.Tuple, cst.List):
            for el in target.elements:
                self._bind_target(el.value, kind)
        elif type(target) is cst.StarredElement:
            self._bind_target(target.value, kind)

    # binders (the node's children are walked afterwards) ---------------------------------

    def _name(self, node: cst.Name) -> None:
        self.model.scope_of_name[id(node)] = self.scope
        self.identifiers_add(node.value)

    def _import(self, node: cst.Import) -> None:
        for alias in node.names:
            path = dotted(alias.name)
            if path is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name.value, "import", node, path)
            else:
                top = path.split(".")[0]
                self._bind(top, "import", node, top)

    def _import_from(self, node: cst.ImportFrom) -> None:
        if type(node.names) is cst.ImportStar:
            return
        module = _relative_module(node)
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            qualname = f"{module}.{alias.name.value}" if module else None
            self._bind(local, "import", node, qualname)

    def _global(self, node: cst.Global) -> None:
        for item in node.names:
            self.scope.global_names.add(item.name.value)

    def _nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self.scope.nonlocal_names.add(item.name.value)

    def _assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if type(target.target) is cst.Name:
                self.model.assigned[id(target.target)] = node.value

    def _ann_assign(self, node: cst.AnnAssign) -> None:
        if node.value is not None and type(node.target) is cst.Name:
            self.model.assigned[id(node.target)] = node.value
        self._bind_target(node.target, "assign" if node.value is not None else "annotation")

    def _with_item(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_target(node.asname.name, "assign")

    def _except_handler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None and isinstance(node.name.name, cst.Name):
            self._bind(node.name.name.value, "assign", node)

    def _named_expr(self, node: cst.NamedExpr) -> None:
        # PEP 572: the target binds in the nearest enclosing non-comprehension scope.
        idx = len(self.stack) - 1
        while idx > 0 and self.stack[idx].kind == "comprehension":
            idx -= 1
        if isinstance(node.target, cst.Name):
            self.stack[idx].bind(Binding(node.target.value, "assign", None, node.target))

    def _match_name(self, node: cst.MatchAs | cst.MatchStar) -> None:
        if node.name is not None:
            self._bind(node.name.value, "assign", node)

    def _match_mapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._bind(node.rest.value, "assign", node)

    # nodes that open scopes or hide children ------------------------------------------------

    def _attribute(self, node: cst.Attribute) -> None:
        self.identifiers_add(node.attr.value)
        self.walk(node.value)  # ``attr`` is not a variable reference

    def _params(self, params: cst.Parameters, inner: Scope) -> None:
        opened = self._open(params)
        for param in _all_params(params):
            opened_param = self._open(param)
            self.stack.append(inner)
            self._bind(param.name.value, "param", param)
            self.walk(param.name)
            self.stack.pop()
            if param.annotation is not None:
                self.walk(param.annotation)
            if param.default is not None:
                self.walk(param.default)
            self._close(param, opened_param)
        self._close(params, opened)

    def _function(self, node: cst.FunctionDef) -> None:
        for dec in node.decorators:
            self.walk(dec)
        self._bind(node.name.value, "def", node)
        self.walk(node.name)
        inner = self._new_scope("function", node)
        self._params(node.params, inner)
        if node.returns is not None:
            self.walk(node.returns)
        self.stack.append(inner)
        first = len(self.events)
        self.walk(node.body)
        self.model.body_spans[id(node)] = first << 32 | len(self.events)
        self.stack.pop()

    def _lambda(self, node: cst.Lambda) -> None:
        inner = self._new_scope("lambda", node)
        self._params(node.params, inner)
        self.stack.append(inner)
        first = len(self.events)
        self.walk(node.body)
        self.model.body_spans[id(node)] = first << 32 | len(self.events)
        self.stack.pop()

    def _class(self, node: cst.ClassDef) -> None:
        for dec in node.decorators:
            self.walk(dec)
        self._bind(node.name.value, "class", node)
        self.walk(node.name)
        for arg in (*node.bases, *node.keywords):
            self.walk(arg)
        self.stack.append(self._new_scope("class", node))
        first = len(self.events)
        self.walk(node.body)
        self.model.body_spans[id(node)] = first << 32 | len(self.events)
        self.stack.pop()

    def _comprehension(self, node: cst.BaseComprehension) -> None:
        outer = self.scope
        inner = self._new_scope("comprehension", node)
        self.stack.append(inner)
        comp: cst.CompFor | None = node.for_in
        while comp is not None:
            self._bind_target(comp.target, "assign")
            comp = comp.inner_for_in
        if isinstance(node, cst.DictComp):
            self.walk(node.key)
            self.walk(node.value)
        else:
            self.walk(node.elt)  # type: ignore[attr-defined]
        self._comp_for(node.for_in, outer, first=True)
        self.stack.pop()

    def _comp_for(self, comp: cst.CompFor, outer: Scope, first: bool) -> None:
        opened = self._open(comp)
        self.walk(comp.target)
        if first:  # the first iterable is evaluated in the enclosing scope
            self.stack.append(outer)
            self.walk(comp.iter)
            self.stack.pop()
        else:
            self.walk(comp.iter)
        for cond in comp.ifs:
            self.walk(cond)
        if comp.inner_for_in is not None:
            self._comp_for(comp.inner_for_in, outer, first=False)
        self._close(comp, opened)


def _all_params(params: cst.Parameters) -> Iterator[cst.Param]:
    yield from params.posonly_params
    yield from params.params
    if type(params.star_arg) is cst.Param:
        yield params.star_arg
    yield from params.kwonly_params
    if params.star_kwarg is not None:
        yield params.star_kwarg
