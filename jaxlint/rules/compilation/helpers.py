"""Shared by the JAX4xx rules: the per-file index, the queries of the `Queries` mixin
(jitted call sites, loops, scopes, bound methods) and the transform sets they use."""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.jit_params import jit_facts_of, module_jit_params, project_wrapper
from jaxlint.analysis.methods import STATICMETHOD, decorated, own_method
from jaxlint.analysis.names import Binding, Scope, SemanticModel
from jaxlint.analysis.testcode import program_module
from jaxlint.analysis.trace_values import bind_arguments
from jaxlint.analysis.tracing import _literal_ints, _literal_strs, positional_params
from jaxlint.analysis.transforms import COMPILING, TRANSFORMS
from jaxlint.rules.base import short as base_short

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

# Transforms that take ``static_argnums``/``donate_argnums`` and hash the static ones.
_ARGNUM_TRANSFORMS = frozenset(q for q in COMPILING if TRANSFORMS[q].has_static_args)
_CACHING_DECORATORS = frozenset(
    {"functools.cache", "functools.lru_cache", "functools.cached_property"}
)
_RUN_ONCE = frozenset(
    {"main", "setUp", "setUpClass", "setUpModule", "setup_method", "setup_class", "setup"}
)
"""Functions that run once per program or test: re-jitting there costs one compile."""
SCOPE_NODES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_REPEATING = (cst.For, cst.While, *SCOPE_NODES, *COMPREHENSIONS)
"""Code that may run a call in it many times (or at another time: a function body)."""
_SCOPES_AND_MODULE = frozenset({cst.Module, *SCOPE_NODES, *COMPREHENSIONS})

_NOT_BOUND_ANEW = (STATICMETHOD, "builtins.property", "functools.cached_property")
"""Decorators whose method is not a new bound-method object when read: static methods
and properties."""


def short(text: str, limit: int = 48) -> str:
    return base_short(text, limit)


def positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


# -- a per-file index shared by the rules of this module -----------------------------------


class _Index:
    """Parents and event spans (the model's), every name used (built on first use) and
    the answers the rules share, for one module."""

    def __init__(self, model: SemanticModel) -> None:
        self.events = model.events
        self.assigned = model.assigned
        """``name = value``: id of the target ``Name`` -> value."""
        self.jitted: dict[int, Jitted | None] = {}
        """``Queries.jitted_call`` of each call asked about (JAX404 and JAX405 ask for
        every call of the module)."""
        self.wrappers: dict[int, tuple[str, cst.BaseExpression] | None] = {}
        """``Queries.wrapper`` of each call asked about with the compiling transforms
        (JAX401 and JAX402 ask for every call of the module)."""
        self.parent: dict[int, cst.CSTNode] = model.parents
        """id(node) -> its parent (the model's walk records it)."""
        self._span: dict[int, int] | None = None
        self._names: set[str] | None = None
        self._scopes = model.scope_of_node  # not the model: it is this weak dict's key
        self._methods: frozenset[str] | None = None

    @property
    def method_names(self) -> frozenset[str]:
        """The names of the ``def`` statements directly in a class body of the module: a
        ``name.m(...)`` call is a method of a class of this module only if ``m`` is one
        (read from the model's class scopes, without building the parent index)."""
        if self._methods is None:
            found = set()
            for scope in self._scopes.values():
                if scope.kind == "class":
                    for stmt in scope.node.body.body:  # type: ignore[attr-defined]
                        if type(stmt) is cst.FunctionDef:
                            found.add(stmt.name.value)
            self._methods = frozenset(found)
        return self._methods

    @property
    def span(self) -> dict[int, int]:
        """id(node) -> ``first << 32 | last``: its entering and leaving event indexes in
        ``model.events`` (one int per node: two dicts of ints cost twice the memory)."""
        if self._span is None:
            span: dict[int, int] = {}
            open_at: list[int] = []
            push, pop = open_at.append, open_at.pop
            for i, (node, entering) in enumerate(self.events):
                if entering:
                    push(i)
                else:
                    span[id(node)] = pop() << 32 | i
            self._span = span
        return self._span

    @property
    def names(self) -> set[str]:
        """Every name the module's code uses as a ``Name`` (not an attribute's name)."""
        if self._names is None:
            name_cls = cst.Name
            self._names = {node.value for node in self.events.nodes if type(node) is name_cls}
        return self._names

    def inside(self, node: cst.CSTNode, container: cst.CSTNode) -> bool:
        inner = self.span.get(id(node))
        outer = self.span.get(id(container))
        if inner is None or outer is None:
            return False
        return outer >> 32 < inner >> 32 <= outer & 0xFFFFFFFF

    def nodes_in(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        """Every node under ``node`` (entering events), in walk order."""
        key = id(node)
        packed = self.span[key]
        first, last = packed >> 32, packed & 0xFFFFFFFF
        for i in range(first + 1, last):
            child, entering = self.events[i]
            if entering:
                yield child

    def ancestors(self, node: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, cst.CSTNode]]:
        """``(child, parent)`` pairs from ``node`` up to the module."""
        get_parent = self.parent.get
        child = node
        parent = get_parent(id(child))
        while parent is not None:
            yield child, parent
            child = parent
            parent = get_parent(id(child))


_INDEXES: weakref.WeakKeyDictionary[SemanticModel, _Index] = weakref.WeakKeyDictionary()


@dataclass
class Jitted:
    """What a call site calls: a function wrapped by a transform with ``*_argnums``."""

    transform: str
    options: dict[str, cst.BaseExpression]
    fn: cst.FunctionDef | cst.Lambda | None
    bound: int = 0
    """Positional parameters bound by ``functools.partial``."""
    bound_keywords: frozenset[str] = frozenset()
    method: bool = False
    """Called as ``self.m(...)``: the first parameter is bound."""

    def params(self) -> list[str] | None:
        if self.fn is None:
            return None
        return positional_params(self.fn)[self.bound :]

    def chosen(self, nums_keys: Sequence[str], names_key: str) -> set[str | int] | None:
        """The parameters named by ``*_argnums``/``*_argnames``: names where the function
        is known, else positions; ``None`` when an option is not a literal."""
        nums: list[int] = []
        for key in nums_keys:
            got = _literal_ints(self.options.get(key))
            if got is None:
                return None
            nums.extend(got)
        names = _literal_strs(self.options.get(names_key))
        if names is None:
            return None
        params = self.params()
        out: set[str | int] = set(names)
        for n in nums:
            if params is None:
                if n >= 0:
                    out.add(n)
                continue
            idx = n if n >= 0 else len(params) + n
            if 0 <= idx < len(params):
                out.add(params[idx])
        return out

    def static_arguments(self, call: cst.Call) -> Iterator[tuple[cst.Arg, str | int]]:
        """The arguments of ``call`` that bind a static parameter (``static_argnums``,
        ``static_broadcasted_argnums``, ``static_argnames``), each with that parameter;
        none when the options are not literals."""
        statics = self.chosen(("static_argnums", "static_broadcasted_argnums"), "static_argnames")
        if not statics:
            return
        for arg, param in self.argument_params(call):
            if param in statics:
                yield arg, param

    def argument_params(self, call: cst.Call) -> Iterator[tuple[cst.Arg, str | int]]:
        """Each argument of ``call`` with the parameter (name, else position) it binds."""
        return bind_arguments(call, self.params(), 1 if self.method else 0)


class Queries:
    """Common queries of the JAX4xx rules (a mixin, not a rule: it does not subclass Rule)."""

    ctx: FileContext
    _index: tuple[SemanticModel, _Index] | None = None
    """This rule's last index (asked for ~100k times a file: skips the weak dict)."""

    @property
    def index(self) -> _Index:
        model = self.ctx.model
        mine = self._index
        if mine is not None and mine[0] is model:
            return mine[1]
        found = _INDEXES.get(model)
        if found is None:
            found = _Index(model)
            _INDEXES[model] = found
        self._index = (model, found)
        return found

    def wrapper(
        self, call: cst.Call, kinds: frozenset[str] = COMPILING
    ) -> tuple[str, cst.BaseExpression] | None:
        """``jax.jit(f, ...)``: the transform's qualified name and the wrapped callable."""
        if kinds is COMPILING:  # the rules only read the answer: one per call and module
            cache = self.index.wrappers
            key = id(call)
            if key in cache:
                return cache[key]
            found = cache[key] = self._wrapper(call, kinds)
            return found
        return self._wrapper(call, kinds)

    def _wrapper(
        self, call: cst.Call, kinds: frozenset[str]
    ) -> tuple[str, cst.BaseExpression] | None:
        positional_args = positional(call)
        if not positional_args:
            return None
        found = self.ctx.trace.transform_of(call.func)
        if found is None:
            return self.project_wrapper(call) if kinds is COMPILING else None
        if found[0].qualname not in kinds:
            return None
        return found[0].qualname, positional_args[0].value

    def project_wrapper(self, call: cst.Call) -> tuple[str, cst.BaseExpression] | None:
        """``maybe_jit(loop_fn, ...)``: a function of the project (this module or
        another) that returns the jit of its parameter; (its transform, the argument)."""
        if type(call.func) not in (cst.Name, cst.Attribute):
            return None
        trace = self.ctx.trace
        model = self.ctx.model
        local = module_jit_params(model, trace.transform_of, trace.imported_function)
        return project_wrapper(model, call, local, trace.imported_function)

    def jit_facts(self, call: cst.Call) -> list[dict[str, Any]]:
        """What the project says the function ``call`` calls jits of its parameters
        (``analysis/jit_params.py``)."""
        trace = self.ctx.trace
        model = self.ctx.model
        local = module_jit_params(model, trace.transform_of, trace.imported_function)
        return jit_facts_of(model, call.func, local, trace.imported_function)

    def bindings(self, name: cst.Name) -> tuple[Scope, list[Binding]] | None:
        model = self.ctx.model
        return model.lookup(name.value, model.scope_for(name))

    def function_scope(self, node: cst.CSTNode) -> tuple[cst.CSTNode | None, bool]:
        """The innermost ``def`` (or ``None`` for the module) whose code evaluates
        ``node``, and whether a loop or comprehension of that code contains it."""
        looped = False
        for child, parent in self.index.ancestors(node):
            if isinstance(parent, cst.Lambda):
                return parent, looped
            if isinstance(parent, cst.FunctionDef):
                if child is parent.body:
                    return parent, looped
                continue  # decorators, defaults: evaluated by the enclosing code
            if isinstance(parent, cst.ClassDef) and child is parent.body:
                return parent, looped
            if type(parent) in (cst.For, cst.While) and child is parent.body:
                looped = True
            if type(parent) in COMPREHENSIONS:
                looped = True
        return None, looped

    def loops_around(self, node: cst.CSTNode) -> list[cst.For | cst.While]:
        """The loops whose body evaluates ``node``, innermost first, in the same scope.
        Empty when a comprehension or a nested scope comes first."""
        loops: list[cst.For | cst.While] = []
        for child, parent in self.index.ancestors(node):
            if type(parent) in _SCOPES_AND_MODULE:
                if type(parent) in COMPREHENSIONS:
                    return []
                break
            if type(parent) in (cst.For, cst.While) and child is parent.body:
                loops.append(parent)
        return loops

    def enclosing_class(self, fn: cst.CSTNode) -> cst.ClassDef | None:
        parents = self.index.parent
        parent = parents.get(id(fn))
        if type(parent) is cst.IndentedBlock:
            grand = parents.get(id(parent))
            if type(grand) is cst.ClassDef:
                return grand
        return None

    def enclosing_def(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        # called for most calls: a plain loop over the parents with ``type() is`` tests
        # (concrete libcst classes have no subclasses) rather than ``isinstance``
        get_parent = self.index.parent.get
        parent = get_parent(id(node))
        while parent is not None:
            if type(parent) is cst.FunctionDef:
                return parent
            if type(parent) is cst.Lambda or type(parent) is cst.ClassDef:
                return None
            parent = get_parent(id(parent))
        return None

    def bound_method(self, expr: cst.BaseExpression, within: cst.CSTNode | None) -> str | None:
        """``self.m`` where ``m`` is a method of the class of the enclosing method: a new
        bound-method object each time it is evaluated."""
        if not (
            type(expr) is cst.Attribute
            and type(expr.value) is cst.Name
            and type(within) is cst.FunctionDef
        ):
            return None
        # the first positional parameter, without building the list of all of them
        params = within.params
        first = params.posonly_params or params.params
        if not first or expr.value.value != first[0].name.value:
            return None
        cls = self.enclosing_class(within)
        if cls is None or decorated(self.ctx.model, within, (STATICMETHOD,)):
            return None
        return self._plain_method(cls, expr)

    def _plain_method(self, cls: cst.ClassDef, expr: cst.Attribute) -> str | None:
        """``name.method`` when ``cls`` defines ``method`` as a plain method (not a static
        method or a property): evaluating it makes a new bound-method object."""
        method = own_method(cls, expr.attr.value)
        if method is None or decorated(self.ctx.model, method, _NOT_BOUND_ANEW):
            return None
        return f"{expr.value.value}.{expr.attr.value}"  # type: ignore[attr-defined]

    def instance_method(self, expr: cst.BaseExpression) -> str | None:
        """``model.method`` where ``model`` is bound once to ``Model(...)``, a class of this
        module that defines ``method`` as a plain method: a new bound-method object each
        time it is evaluated."""
        if not (type(expr) is cst.Attribute and type(expr.value) is cst.Name):
            return None
        found = self.bindings(expr.value)
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        value = self.index.assigned.get(id(found[1][0].node))
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return None
        cls_found = self.bindings(value.func)
        if cls_found is None or len(cls_found[1]) != 1 or cls_found[1][0].kind != "class":
            return None
        cls = cls_found[1][0].node
        assert isinstance(cls, cst.ClassDef)
        return self._plain_method(cls, expr)

    def jitted_call(self, call: cst.Call) -> Jitted | None:
        """The wrapped function a call calls, when this module shows its ``jit``
        (shared by the rules: the callers only read it)."""
        cache = self.index.jitted
        key = id(call)
        if key in cache:
            return cache[key]
        found = cache[key] = self._jitted_call(call)
        return found

    def _jitted_call(self, call: cst.Call) -> Jitted | None:
        func = call.func
        # ``type() is`` tests (concrete libcst classes have no subclasses): ``isinstance``
        # goes through ABCMeta, and this runs for every call
        if type(func) is cst.Call:
            return self._from_wrapper(func)
        if type(func) is cst.Name:
            found = self.bindings(func)
            if found is None or len(found[1]) != 1:
                return None
            binding = found[1][0]
            if binding.kind == "def" and type(binding.node) is cst.FunctionDef:
                return self._from_decorated(binding.node, method=False)
            if binding.kind == "assign":
                value = self.index.assigned.get(id(binding.node))
                if type(value) is cst.Call:
                    return self._from_wrapper(value)
            return None
        if type(func) is cst.Attribute and type(func.value) is cst.Name:
            if func.attr.value not in self.index.method_names:
                return None  # no class of this module defines the method (``x.sum()``)
            if self.ctx.model.qualified_name(func.value) is not None:
                return None  # ``jnp.sum(x)``: an import, not the method's first parameter
            within = self.enclosing_def(call)
            if within is None or self.bound_method(func, within) is None:
                return None
            cls = self.enclosing_class(within)
            assert cls is not None
            for stmt in cls.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == func.attr.value:
                    return self._from_decorated(stmt, method=True)
        return None

    def _from_wrapper(self, wrapper: cst.Call) -> Jitted | None:
        found = self.wrapper(wrapper, _ARGNUM_TRANSFORMS)
        if found is None:
            return None
        transform, fexpr = found
        got = self.ctx.trace.transform_of(wrapper.func)
        assert got is not None
        options = {**got[1]}
        for arg in wrapper.args:
            if arg.keyword is not None:
                options[arg.keyword.value] = arg.value
        resolved = self.ctx.trace.resolve_callable(fexpr)
        if resolved is None:
            return Jitted(transform, options, None)
        fn, bound, bound_kw = resolved
        return Jitted(transform, options, fn, bound, bound_kw)

    def _from_decorated(self, fn: cst.FunctionDef, method: bool) -> Jitted | None:
        if not fn.decorators:
            return None
        got = self.ctx.trace.transform_of(fn.decorators[0].decorator)
        if got is None or got[0].qualname not in _ARGNUM_TRANSFORMS:
            return None
        return Jitted(got[0].qualname, dict(got[1]), fn, method=method)

    def runs_once(self, fn: cst.FunctionDef) -> bool:
        """A test, ``main`` or set-up function: it runs once, so one compile is all it costs."""
        name = fn.name.value
        return name.startswith("test") or name in _RUN_ONCE

    def program_entry(self, fn: cst.FunctionDef) -> bool:
        """``fn`` is a top-level function of a program (:func:`program_module`) that the
        program calls once, from its module-level code (``if __name__ == "__main__":
        fit()``), outside any loop, and that the module names nowhere else: it runs once
        per run, so a ``jit`` built in it compiles once per run (decayamplitude's
        ``examples/three_body_jpsi.py``, fresh-2026-12x)."""
        if type(self.index.parent.get(id(fn))) is not cst.Module:
            return False
        project = self.ctx.project
        module = project.module.name if project is not None else None
        if module is None:  # no project: the file's path as given
            module = ".".join(PurePath(self.ctx.filename).with_suffix("").parts)
        if not program_module(module):
            return False
        calls = 0
        for node in self.index.nodes_in(self.ctx.module):
            if type(node) is not cst.Name or node.value != fn.name.value or node is fn.name:
                continue
            call = self.index.parent.get(id(node))
            if not (isinstance(call, cst.Call) and call.func is node):
                return False  # passed on or stored: it may run any number of times
            if any(type(p) in _REPEATING for _, p in self.index.ancestors(call)):
                return False
            calls += 1
        return calls == 1

    def caches_result(self, fn: cst.FunctionDef) -> bool:
        model = self.ctx.model
        for dec in fn.decorators:
            expr = dec.decorator
            if isinstance(expr, cst.Call):
                expr = expr.func
            if model.qualified_name(expr) in _CACHING_DECORATORS:
                return True
        return False

    def ahead_of_time(self, wrapper: cst.Call) -> bool:
        """``jax.jit(f).lower(...)``, ``.trace(...)``: explicit ahead-of-time staging,
        done on purpose (benchmarks, inspection)."""
        parent = self.index.parent.get(id(wrapper))
        return isinstance(parent, cst.Attribute) and parent.value is wrapper

    def staged(self, node: cst.CSTNode) -> bool:
        """``node`` runs while an outer ``jit`` traces: an inner wrapper is traced inline."""
        info = self.ctx.trace.traced_function_of(node)
        # traced only because another module's jitted code calls it: it may also be
        # called from host code (a public function), where every call compiles again
        return info is not None and info.staging and not info.external
