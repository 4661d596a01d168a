"""Which functions JAX traces, and which values inside them are tracers.

Two questions every JAX rule asks, answered once per file:

* **Is this function traced?** Decorated by a transform (``@jax.jit``,
  ``@partial(jax.jit, static_argnums=...)``, ``@nnx.jit``, ``@eqx.filter_jit``,
  stacked or not), wrapped by one (``step = jax.jit(train_step)``,
  ``jax.vmap(f)(x)``, or through another: ``jax.jit(jax.grad(loss))`` jits
  ``loss``), passed as a body to ``lax.scan``/``fori_loop``/
  ``while_loop``/``cond``/``switch``/``map``/``associative_scan``, called from
  traced code in the same module (helpers, ``self.method``), or named in the
  ``traced-decorators``/``traced-wrappers`` settings.
* **Is this value traced?** A flow-sensitive walk of each function gives every
  expression a :class:`Val`: ``STATIC`` (known at trace time: literals, shapes,
  static arguments), ``MAYBE`` (depends on something we cannot see, such as an
  unknown function called with traced arguments) or ``TRACED`` (definitely a
  tracer). Error-level rules fire on ``TRACED`` only.

Every function is walked, traced or not, so that host code also knows which
values are JAX arrays (results of ``jnp`` calls or of jitted functions).

Messages explain why a function is traced the shortest true way
(:meth:`TracedFunction.how`): its own transform first (``@jax.jit``,
``fast = jax.jit(f)``, ``self.step = jax.jit(self._step)``), even when traced code
also calls it; otherwise the fewest calls from traced code back to a transform or a
lax body, each named with the user's function and the line of the call, ending with
the transform and its line (``called from traced `b` at line 9, which is called from
`a` at line 6, which is jitted by `jax.jit` at line 4``). The end must explain what
the function's tracers are: a ``grad`` alone leaves values concrete, so a ``grad``
applied inside a jitted function names that function's ``jit`` too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.decided import TRACED, Decided, external_facts, literal_params
from jaxlint.analysis.flags import constant_flags, decided_if
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trace_contract import _Contract
from jaxlint.analysis.trace_rounds import _Rounds, _Walk
from jaxlint.analysis.trace_seeds import _Seeds
from jaxlint.analysis.trace_values import (
    _SCOPE_NODES,
    CallEdge,
    LazyWhy,
    Level,
    Reason,
    TracedFunction,
    Val,
    _conditional_nodes,
    _filter_level,
    _literal_ints,
    _literal_strs,
    _params,
    _transform_phrase,
    _Wrap,
    all_param_names,
    passed_as_is,
    passed_level,
    positional_params,
)
from jaxlint.analysis.trace_walk import _FunctionWalker
from jaxlint.analysis.transforms import (
    BATCHING,
    NONDIFF_TRANSFORMS,
    PARTIAL,
    POSITIONAL_OPTIONS,
    STAGING,
    TRANSFORMS,
    Transform,
)

if TYPE_CHECKING:
    from jaxlint.analysis.project import ProjectFacts
    from jaxlint.analysis.trace_values import LineOf

__all__ = [
    "Level",
    "TraceAnalysis",
    "TracedFunction",
    "Val",
    "_literal_ints",
    "_literal_strs",
    "positional_params",
]


class TraceAnalysis(_Seeds, _Contract, _Rounds):
    """Traced functions and the value of every expression, for one module."""

    def __init__(
        self,
        model: SemanticModel,
        line_of: LineOf,
        traced_decorators: Iterable[str] = (),
        traced_wrappers: Iterable[str] = (),
        project: ProjectFacts | None = None,
        contracts: bool = True,
    ) -> None:
        self.model = model
        self.project = project
        """What other modules of the project say (``None``: this file alone)."""
        self.foreign_seeds: list[tuple[_Wrap, cst.Call]] = []
        """``jax.jit(f)`` where ``f`` is imported: ``f``'s module learns it is traced."""
        self.foreign_calls: list[tuple[TracedFunction, cst.Call, list[tuple[str | None, Val]]]] = []
        """Calls from traced functions to functions this module does not define (for the
        module's summary: the callee's module learns that its function is traced)."""
        self.line_of = line_of
        self.extra_decorators = frozenset(traced_decorators)
        self.extra_wrappers = frozenset(traced_wrappers)
        self.functions: dict[int, TracedFunction] = {}
        self.values: dict[int, Val] = {}
        self.owner: dict[int, TracedFunction] = {}
        self.returns: dict[int, Val] = {}
        self.return_parts: dict[int, list[Val] | None] = {}
        """A function whose every ``return`` is a tuple display of one length -> the
        value of each position (``return x.shape[0], x * 2``); ``None``: not so."""
        self.return_star: dict[int, int] = {}
        """For such a function whose tuples hold one starred element (``return (*rows, n,
        rep)``): its index; the parts after it are counted from the end."""
        self.call_parts: dict[int, list[Val]] = {}
        """A call from traced code to such a function -> the value of each position."""
        self.call_star: dict[int, int] = {}
        """Such a call -> the index of the starred part (see ``return_star``)."""
        self.merged_env: dict[int, dict[str, Val]] = {}
        self._walks: dict[int, _Walk] = {}
        """Each function's last walk: what it started from and read (see ``_walk``)."""
        self._defs: list[cst.FunctionDef | cst.Lambda] = []
        self._imported: dict[int, dict[str, Any] | None] = {}
        self._parent_fn: dict[int, cst.FunctionDef | cst.Lambda | None] = {}
        self._class_of: dict[int, cst.ClassDef] = {}
        self._seeded_at: dict[int, list[cst.FunctionDef | cst.Lambda]] = {}
        """Decorator or call -> the functions it makes traced."""
        self._wrapped_names: dict[int, Transform] = {}
        """``step = jax.jit(f)``: the target ``Name`` node -> the transform."""
        self._wrapped_attrs: dict[tuple[int, str], Transform] = {}
        """``self.step = jax.jit(self._step)`` in a method: (class node, attr) -> transform."""
        self._calls: list[cst.Call] = []
        self._eager_calls: set[int] = set()
        self._factory_products: dict[int, cst.FunctionDef | None] = {}
        """Per name node: the nested function its factory call returns (``factory_product``)."""
        """Calls inside ``with jax.disable_jit():``: transforms and loop primitives there
        run their functions eagerly, so they trace nothing."""
        """Every call of the module, in event order."""
        self._attr_wraps: list[tuple[cst.ClassDef, str, _Wrap, cst.Call]] = []
        """``self.step = jax.jit(self._step)``: (class, method name, transform, call)."""
        self._called_modules: list[tuple[cst.ClassDef, cst.FunctionDef, dict[str, Level]]] = []
        """Modules' ``__call__`` traced by contract, with their parameters' own levels."""
        self._static_fields: dict[int, frozenset[str]] = {}
        """Linen module class -> its static fields (see ``static_field``)."""
        self._module_sites: dict[int, list[cst.Call]] | None = None
        """Class -> its calls ``Cls(...)(...)``, when that is all its name is used for."""
        self._flags: dict[str, bool] | None = None
        self._decide = Decided(model)
        self._facts: dict[int, dict[str, bool]] = {}
        """Per traced function (``id``): what decides its branches (``_decided_by_callers``)."""
        self._collect()
        self._find_seeds()
        if contracts:  # not in tests, which call their modules and optimizers eagerly
            self._find_contract_seeds()
        self._analyze_all()
        self._only_every_call()
        self._decided_by_callers()
        self._own_attr_wraps()

    # -- public queries ----------------------------------------------------------------

    def value(self, expr: cst.CSTNode) -> Val | None:
        """The value of ``expr`` where it is evaluated, or ``None`` if never evaluated."""
        return self.values.get(id(expr))

    def traced_function_of(self, node: cst.CSTNode) -> TracedFunction | None:
        """The traced function whose body directly contains ``node``, if any."""
        return self.owner.get(id(node))

    def info(self, fn: cst.CSTNode) -> TracedFunction | None:
        return self.functions.get(id(fn))

    def why(self, val: Val, fallback: str = "it is traced") -> LazyWhy:
        return LazyWhy(val.origin, self.line_of, fallback)

    def describe(self, val: Val) -> str:
        return str(self.why(val))

    def is_abstract(self, val: Val, at: cst.CSTNode) -> bool:
        """``val`` is definitely traced by a transform whose tracers are abstract, so
        Python cannot get its concrete value (``bool``, ``int``, shapes raise).

        The function the value comes from decides (a closure's value comes from the
        enclosing function); ``at`` locates values without an origin."""
        if not val.traced:
            return False
        fn = val.origin.func if val.origin is not None else None
        if fn is None:
            fn = self.traced_function_of(at)
        return fn is not None and fn.abstract

    def transformed_callee(
        self, call: cst.Call, within: cst.FunctionDef | cst.Lambda | None = None
    ) -> Transform | None:
        """The transform wrapping the function that ``call`` calls, when this module shows
        it: ``jax.jit(f)(x)``, ``f(x)`` for ``@jax.jit def f`` or ``f = jax.jit(g)``, and
        ``self.step(x)`` for ``self.step = jax.jit(...)`` in a method of the class of
        ``within`` (the function containing the call)."""
        func = call.func
        # ``type() is`` (concrete libcst classes have no subclasses): asked for every call
        if type(func) is cst.Call:
            has_fn = any(a.keyword is None and not a.star for a in func.args)
            wrap = self._transform_of(func.func)
            return wrap.transform if wrap is not None and has_fn else None
        if type(func) is cst.Attribute:
            if (
                type(func.value) is cst.Name
                and func.value.value == "self"
                and type(within) is cst.FunctionDef
            ):
                cls = self._class_of.get(id(within))
                if cls is not None:
                    return self._wrapped_attrs.get((id(cls), func.attr.value))
            return self._imported_transform(func)
        if type(func) is not cst.Name:
            return None
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None:
            return None
        if all(b.kind == "import" for b in found[1]):
            return self._imported_transform(func)
        result: Transform | None = None
        for binding in found[1]:
            if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
                decorators = binding.node.decorators
                # the outermost decorator decides what a call returns
                wrap = self._transform_of(decorators[0].decorator) if decorators else None
                if wrap is not None:
                    result = wrap.transform
            elif binding.kind == "assign" and id(binding.node) in self._wrapped_names:
                result = self._wrapped_names[id(binding.node)]
            else:
                return None  # rebound to something else: cannot tell
        return result

    def imported_function(self, func: cst.BaseExpression) -> dict[str, Any] | None:
        """What another module of the project says of the function ``func`` names
        (``from .step import train_step``): see ``ProjectFacts.function``."""
        if self.project is None or type(func) not in (cst.Name, cst.Attribute):
            return None
        # asked for every call, several times (each round of the walk, the rules): the
        # tree does not change and the project keeps its first answer to each question
        key = id(func)
        cache = self._imported
        if key in cache:
            return cache[key]
        qn = self.project.qualified_name(self.model, func)
        if qn is None or qn.startswith(("jax.", "builtins.", "numpy.")):
            found = None
        else:
            found = self.project.function(qn)
        cache[key] = found
        return found

    def _imported_transform(self, func: cst.BaseExpression) -> Transform | None:
        fact = self.imported_function(func)
        if fact is None or not fact.get("transform"):
            return None
        return TRANSFORMS.get(fact["transform"])

    def transform_of(
        self, expr: cst.BaseExpression
    ) -> tuple[Transform, dict[str, cst.BaseExpression]] | None:
        """The transform that ``expr`` applies to the function it is called on, with its
        keyword options: ``jax.jit`` -> (jit, {}); ``partial(jax.jit, static_argnums=0)``
        and ``jax.jit(static_argnums=0)`` -> (jit, {"static_argnums": <node>})."""
        wrap = self._transform_of(expr)
        return None if wrap is None else (wrap.transform, dict(wrap.kwargs))

    def resolve_callable(
        self, expr: cst.BaseExpression
    ) -> tuple[cst.FunctionDef | cst.Lambda, int, frozenset[str]] | None:
        """The function of this module that ``expr`` is (a lambda, a name bound once by
        a ``def``, ``partial(f, ...)`` of one), with the number of positional arguments
        and the keyword names that ``functools.partial`` binds."""
        return self._resolve_callable(expr)

    # -- collection --------------------------------------------------------------------

    def _collect(self) -> None:
        """One pass over the module's events: functions with their enclosing function and
        class, names and ``self`` attributes bound to a transformed function, and calls."""
        stack: list[cst.CSTNode] = []  # enclosing functions and classes
        classes: list[cst.ClassDef | None] = []  # the class of each enclosing function
        calls = self._calls
        eager: list[cst.With] = []  # enclosing ``with jax.disable_jit():`` blocks
        for node, entering in self.model.events:
            # ``type(node) is``/``in``: concrete libcst classes have no subclasses, and
            # isinstance on libcst classes goes through ABCMeta (slow)
            kind = type(node)
            if kind is cst.Call:
                if entering:
                    calls.append(node)
                    if eager:
                        self._eager_calls.add(id(node))
            elif kind is cst.With:
                if not entering:
                    if eager and eager[-1] is node:
                        eager.pop()
                elif any(
                    type(item.item) is cst.Call
                    and self.model.call_name(item.item) == "jax.disable_jit"
                    for item in node.items  # type: ignore[attr-defined]
                ):
                    eager.append(node)  # type: ignore[arg-type]
            elif kind is cst.Assign:
                if entering:
                    self._collect_wrapped(node, classes)
            elif kind in _SCOPE_NODES:
                if not entering:
                    stack.pop()
                    if kind is not cst.ClassDef:
                        classes.pop()
                    continue
                if kind is not cst.ClassDef:
                    self._defs.append(node)
                    parent = next((n for n in reversed(stack) if type(n) is not cst.ClassDef), None)
                    self._parent_fn[id(node)] = parent  # type: ignore[assignment]
                    if kind is cst.FunctionDef and stack and type(stack[-1]) is cst.ClassDef:
                        self._class_of[id(node)] = stack[-1]
                    classes.append(self._class_of.get(id(node)))
                stack.append(node)

    def _is_dead(self, node: cst.CSTNode) -> bool:
        """``node`` lies in a statement that never runs: one after a statement that always
        leaves its block (``return``, ``raise``, ``break``, ``continue``), or in the branch
        of an ``if`` whose test this file decides against it (:meth:`Decided.decided`), so a
        transform applied there traces nothing (``return f(x)`` left above an old
        ``lax.cond(p, f, g, x)``). Asked only of the calls that would make a function
        traced."""
        return self._decide.never_runs(node, None, {})

    def _collect_wrapped(self, node: cst.Assign, classes: list[cst.ClassDef | None]) -> None:
        """Names and ``self`` attributes that ``node`` binds to a transformed function;
        ``classes`` holds the class of each enclosing function."""
        value = node.value
        if type(value) is not cst.Call or not any(
            a.keyword is None and not a.star for a in value.args
        ):
            return
        wrap = self._transform_of(value.func)
        if wrap is None:
            return
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Name):
                self._wrapped_names[id(t)] = wrap.transform
            elif (
                isinstance(t, cst.Attribute)
                and isinstance(t.value, cst.Name)
                and t.value.value == "self"
                and classes
                and classes[-1] is not None
            ):
                self._wrapped_attrs[(id(classes[-1]), t.attr.value)] = wrap.transform
                arg = next(a.value for a in value.args if a.keyword is None and not a.star)
                if (
                    isinstance(arg, cst.Attribute)
                    and isinstance(arg.value, cst.Name)
                    and arg.value.value == "self"
                ):
                    positional = [a for a in value.args if a.keyword is None and not a.star]
                    names = POSITIONAL_OPTIONS.get(wrap.transform.qualname, ())
                    options = {
                        **wrap.kwargs,
                        **{k: a.value for k, a in zip(names, positional[1:], strict=False)},
                        **{a.keyword.value: a.value for a in value.args if a.keyword is not None},
                    }
                    merged = _Wrap(wrap.transform, options)
                    self._attr_wraps.append((classes[-1], arg.attr.value, merged, value))

    # -- seeds -------------------------------------------------------------------------

    def _transform_of(self, expr: cst.BaseExpression) -> _Wrap | None:
        """``jax.jit`` / ``jax.jit(static_argnums=0)`` / ``partial(jax.jit, ...)``."""
        qn = self.model.qualified_name(expr)
        if qn is not None:
            if qn in TRANSFORMS:
                return _Wrap(TRANSFORMS[qn], {})
            if qn in self.extra_decorators or qn in self.extra_wrappers:
                return _Wrap(Transform(qn, qn, f"wrapped by `{qn}`", has_static_args=True), {})
            return None
        if type(expr) is cst.Call:
            fq = self.model.qualified_name(expr.func)
            kwargs = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
            positional = [a for a in expr.args if a.keyword is None and not a.star]
            if fq in PARTIAL and positional:
                inner = self._transform_of(positional[0].value)
                if inner is not None and len(positional) == 1:
                    return _Wrap(inner.transform, {**inner.kwargs, **kwargs})
                return None
            if fq is not None and not positional:
                inner = self._transform_of(expr.func)
                if inner is not None:  # ``@jax.jit(static_argnums=...)`` / ``@eqx.filter_jit()``
                    return _Wrap(inner.transform, {**inner.kwargs, **kwargs})
        return None

    def _resolve_callable(
        self, expr: cst.BaseExpression
    ) -> tuple[cst.FunctionDef | cst.Lambda, int, frozenset[str]] | None:
        """A function node that ``expr`` refers to in this module, with partial bindings."""
        if type(expr) is cst.Lambda:
            return expr, 0, frozenset()
        if isinstance(expr, cst.Name):
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None:
                return None
            _, bindings = found
            defs = [b.node for b in bindings if b.kind == "def"]
            if len(defs) == 1 and len(bindings) == 1 and isinstance(defs[0], cst.FunctionDef):
                return defs[0], 0, frozenset()
            return None
        if isinstance(expr, cst.Call) and self.model.qualified_name(expr.func) in PARTIAL:
            positional = [a for a in expr.args if a.keyword is None and not a.star]
            if not positional or any(a.star for a in expr.args):
                return None
            inner = self._resolve_callable(positional[0].value)
            if inner is None:
                return None
            node, n, kws = inner
            keywords = frozenset(a.keyword.value for a in expr.args if a.keyword is not None)
            return node, n + len(positional) - 1, kws | keywords
        return None

    def factory_product(self, name: cst.Name) -> cst.FunctionDef | None:
        """The function a factory of this module returns, for a name bound once to a call
        of it: ``stats = make_stats(mesh)`` where ``make_stats`` defines ``def f(...)``
        and returns ``f`` (on some path), so ``stats(...)`` calls that nested ``f``. Only
        a function defined inside the factory: one defined elsewhere is resolved by
        name where it is called."""
        cached = self._factory_products.get(id(name))
        if cached is not None or id(name) in self._factory_products:
            return cached
        self._factory_products[id(name)] = None
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        value = self.model.assigned.get(id(found[1][0].node))
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return None
        resolved = self._resolve_callable(value.func)
        if resolved is None or type(resolved[0]) is not cst.FunctionDef:
            return None
        factory = resolved[0]
        nested = {
            stmt.name.value: stmt
            for stmt in factory.body.body  # type: ignore[union-attr]
            if type(stmt) is cst.FunctionDef
        }
        if not nested:
            return None
        product = None
        for node in self.model.body_nodes(factory):
            if type(node) is cst.Return and type(node.value) is cst.Name:
                fn = nested.get(node.value.value)
                if fn is not None and self._enclosing_def(node) is factory:
                    product = fn
                    break
        self._factory_products[id(name)] = product
        return product

    def _enclosing_def(self, node: cst.CSTNode) -> cst.CSTNode | None:
        parents = self.model.parents
        current = parents.get(id(node))
        while current is not None and type(current) not in (cst.FunctionDef, cst.Lambda):
            current = parents.get(id(current))
        return current

    def _resolve_transformed(
        self, expr: cst.BaseExpression, depth: int = 0
    ) -> tuple[cst.FunctionDef | cst.Lambda, int, frozenset[str]] | None:
        """The function of this module that a transform call wraps, through any number of
        transforms: ``jax.grad(loss)``, ``jax.vmap(jax.grad(loss))``. The composed
        function takes the wrapped one's arguments (``grad``, ``vmap``, ``checkpoint``
        and ``jit`` keep the signature), so an outer ``jit`` traces its parameters."""
        if type(expr) is cst.Name and depth <= 4:  # ``g = jax.vmap(f); jax.jit(g)``
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is not None and len(found[1]) == 1 and found[1][0].kind == "assign":
                value = self.model.assigned.get(id(found[1][0].node))
                if value is not None and type(value) is cst.Call:
                    return self._resolve_transformed(value, depth + 1)
            return None
        if type(expr) is not cst.Call or depth > 4:
            return None
        if self._transform_of(expr.func) is None:
            return None
        positional = [a for a in expr.args if a.keyword is None and not a.star]
        if not positional:
            return None
        inner = positional[0].value
        return self._resolve_callable(inner) or self._resolve_transformed(inner, depth + 1)

    def _mark(
        self,
        fn: cst.FunctionDef | cst.Lambda,
        wrap: _Wrap,
        site: cst.CSTNode,
        verb: str | None = None,
        bound_positional: int = 0,
        bound_keywords: frozenset[str] = frozenset(),
    ) -> None:
        t = wrap.transform
        self._seeded_at.setdefault(id(site), []).append(fn)
        name = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
        existing = self.functions.get(id(fn))
        info = existing or TracedFunction(
            node=fn,
            name=name,
            verb=verb or f"{t.verb} by `{t.short}`",
            site=site,
            staging=t.qualname in STAGING,
            abstract=t.qualname in STAGING or t.qualname in BATCHING,
        )
        if existing is not None and t.qualname in STAGING:
            existing.staging = True
        if verb is None:  # a transform, not a lax body
            info.transforms.add(t.qualname)
            info.own.append(
                Reason(
                    _transform_phrase(t),
                    site,
                    t.qualname in STAGING,
                    t.qualname in STAGING or t.qualname in BATCHING,
                )
            )
        if existing is not None and (t.qualname in STAGING or t.qualname in BATCHING):
            existing.abstract = True
        positional = positional_params(fn)
        names = all_param_names(fn)
        levels: dict[str, Level] = {}
        statics: set[str] = set()
        # parameters bound by functools.partial are closed-over constants
        for pname in positional[:bound_positional]:
            statics.add(pname)
        statics |= set(bound_keywords) & set(names)
        unknown = False
        if t.has_static_args:
            keys = ("static_argnums", "static_broadcasted_argnums")
            nums: list[int] | None = []
            for key in keys:
                got = _literal_ints(wrap.kwargs.get(key))
                nums = None if got is None or nums is None else nums + got
            strs = _literal_strs(wrap.kwargs.get("static_argnames"))
            if nums is None or strs is None:
                unknown = True
            else:
                usable = positional[bound_positional:]
                for n in nums:
                    idx = n if n >= 0 else len(usable) + n
                    if 0 <= idx < len(usable):
                        statics.add(usable[idx])
                statics |= set(strs)
        for pname in names:
            levels[pname] = Level.TRACED
        if not t.all_params_traced:
            argnums = _literal_ints(wrap.kwargs.get("argnums"))
            in_axes = wrap.kwargs.get("in_axes")
            traced_idx: set[int] | None = None
            if t.verb == "differentiated":
                traced_idx = set(argnums) if argnums is not None and argnums else {0}
                if argnums is None:
                    traced_idx = None
            elif in_axes is not None:
                if isinstance(in_axes, (cst.Tuple, cst.List)):
                    traced_idx = {
                        i
                        for i, el in enumerate(in_axes.elements)
                        if not (isinstance(el.value, cst.Name) and el.value.value == "None")
                    }
                elif isinstance(in_axes, cst.Integer):
                    traced_idx = set(range(len(names)))
                else:
                    traced_idx = None
            elif t.filter_static:
                traced_idx = None
            else:
                traced_idx = set(range(len(names)))
            usable = positional[bound_positional:]
            for i, pname in enumerate(usable):
                if traced_idx is None or i not in traced_idx:
                    levels[pname] = Level.MAYBE
            for pname in names[len(positional) :]:
                if traced_idx is None:
                    levels[pname] = Level.MAYBE
        if t.qualname in NONDIFF_TRANSFORMS:  # ``custom_jvp(f, nondiff_argnums=(0,))``
            for n in _literal_ints(wrap.kwargs.get("nondiff_argnums")) or ():
                usable = positional[bound_positional:]
                idx = n if n >= 0 else len(usable) + n
                if 0 <= idx < len(usable):  # passed through as the caller gave it
                    levels[usable[idx]] = Level.MAYBE
        for i in passed_as_is(wrap):  # ``shard_map``'s ``None`` specs
            if i < len(positional) - bound_positional:
                pname = positional[bound_positional + i]
                levels[pname] = min(levels.get(pname, Level.MAYBE), Level.MAYBE)
        if t.filter_static:
            for param in _params(fn):
                levels[param.name.value] = min(
                    levels.get(param.name.value, Level.TRACED), _filter_level(param)
                )
                if _filter_level(param) is Level.STATIC:
                    statics.add(param.name.value)
        if unknown:
            for pname in names:
                levels[pname] = min(levels[pname], Level.MAYBE)
        for param in _params(fn):
            # ``jit``/``vmap`` trace only the arguments a call passes: a parameter left
            # at its default keeps its Python value, so it is traced only sometimes
            if param.default is not None:
                name_ = param.name.value
                levels[name_] = min(levels.get(name_, Level.MAYBE), Level.MAYBE)
        for pname in statics:
            levels[pname] = Level.STATIC
        if isinstance(fn, cst.FunctionDef) and id(fn) in self._class_of and positional:
            # ``self``/``cls``: a pytree module or a static object; never definitely traced
            first = positional[0]
            if first not in statics:
                levels[first] = min(levels.get(first, Level.MAYBE), Level.MAYBE)
        if existing is not None:
            # stacked transforms: a parameter is static if any layer makes it static,
            # and traced if any layer traces it
            for pname, lvl in levels.items():
                old = existing.param_levels.get(pname, Level.STATIC)
                if pname in statics or pname in existing.static_params:
                    existing.param_levels[pname] = Level.STATIC
                else:
                    existing.param_levels[pname] = max(old, lvl)
            existing.static_params |= statics
            existing.unknown_statics = existing.unknown_statics or unknown
            return
        info.param_levels = levels
        info.static_params = statics
        info.unknown_statics = unknown
        self.functions[id(fn)] = info

    # -- analysis ----------------------------------------------------------------------

    def _own_attr_wraps(self) -> None:
        """``self.step = jax.jit(self._step)`` is ``_step``'s own transform. It does not
        make ``_step`` traced here (the analysis cannot see which calls go through the
        wrapper), but when ``_step`` is traced as a helper of traced code, this is the
        first thing to say about it: only for the parameters it surely traces (no static
        options, every parameter traced, none left at a default, no Equinox filter)."""
        for cls, method, wrap, call in self._attr_wraps:
            t = wrap.transform
            if not t.all_params_traced or any(k.startswith("static_") for k in wrap.kwargs):
                continue
            for stmt in cls.body.body:
                if type(stmt) is not cst.FunctionDef or stmt.name.value != method:
                    continue
                info = self.functions.get(id(stmt))
                if info is None or info.caller is None:
                    continue  # not traced here, or traced by its own transform already
                params = _params(stmt)[1:]  # a bound method: ``self`` is not an argument
                traced = frozenset(
                    p.name.value
                    for p in params
                    if p.default is None and not t.filter_static  # filter_jit: arrays only
                )
                reason = Reason(
                    _transform_phrase(t),
                    call,
                    t.qualname in STAGING,
                    t.qualname in STAGING or t.qualname in BATCHING,
                    traced,
                )
                info.own.append(reason)

    def _only_every_call(self) -> None:
        """In a function traced only because another module's traced code calls it, keep
        what is traced to the statements that run on every call: which ``if``/``match``
        branch runs, whether a ``while`` body runs, and whether a ``try`` body's error is
        expected depend on the caller's arguments, which that module's summary gives only
        as traced or not (``if S is None:`` where the jitted caller always passes ``S``)."""
        for info in self.functions.values():
            if not info.external or info.caller is not None or info.transforms:
                continue
            nodes = _conditional_nodes(info.node)
            facts = self._external_facts(info)
            if facts:  # ``if grid is not None: return ...``, the callers passing ``grid``
                fn = info.node
                nodes += [
                    n
                    for n in self.model.body_nodes(fn)  # type: ignore[arg-type]
                    if self.owner.get(id(n)) is info and self._decide.never_runs(n, fn, facts)
                ]
            for node in nodes:
                key = id(node)
                val = self.values.get(key)
                if val is not None and val.level is Level.TRACED:
                    self.values[key] = dataclasses.replace(val, level=Level.MAYBE)
                if self.owner.get(key) is info:
                    del self.owner[key]

    def _decided_by_callers(self) -> None:
        """In a helper traced only because traced code of this module calls it, a branch
        on a parameter that every such call gives the same literal truth (by keyword,
        by position, or left at a literal default) never runs traced:
        ``energy(out, for_jit=True)`` from both jitted callers, and ``if not for_jit:
        float(...)`` in ``energy``, which host callers reach with ``for_jit=False``.
        A helper whose every traced call lies where its caller never runs traced is not
        traced at all (``return host_helper(x)`` after ``if grid is not None: return
        ...``, the jitted caller passing ``grid``), nor what only it calls."""
        facts = self._facts
        helpers: list[TracedFunction] = []
        guarded: list[TracedFunction] = []
        for info in self.functions.values():
            fn = info.node
            if info.external:
                facts[id(info)] = self._external_facts(info)
            if type(fn) is not cst.FunctionDef:
                continue
            if self._decide.tests_tracers(fn):  # ``if isinstance(x, Tracer): return ...``
                facts[id(info)] = {**facts.get(id(info), {}), TRACED: True}
                guarded.append(info)
            if info.caller is None or info.transforms or info.external or not info.calls:
                continue
            helpers.append(info)
        # what the callers give: a caller's own facts pass on through its parameters
        # (``backend=backend``), so a few rounds, each linear in the calls
        own = {id(info): facts.get(id(info), {}) for info in helpers}
        for _ in range(4):
            changed = False
            for info in helpers:
                edges = list(info.calls.values())
                called = literal_params(
                    info.node,  # type: ignore[arg-type]
                    [edge.call for edge in edges],
                    [facts.get(id(edge.caller), {}) for edge in edges],
                    self.model,
                )
                new = {**called, **own[id(info)]}
                if new != facts.get(id(info)):
                    facts[id(info)] = new
                    changed = True
            if not changed:
                break
        # each call is placed once (the expensive part); then a helper is dead when every
        # call into it is placed where its caller never runs traced, or comes from a dead one
        live: dict[int, list[TracedFunction]] = {}
        for info in helpers:
            if not info.contract:
                live[id(info)] = [
                    edge.caller
                    for edge in info.calls.values()
                    if not self._decide.never_runs(
                        edge.call, edge.caller.node, facts.get(id(edge.caller), {})
                    )
                ]
        dead: set[int] = set()
        changed = True
        while changed:
            changed = False
            for key, callers in live.items():
                if key not in dead and all(id(c) in dead for c in callers):
                    dead.add(key)
                    changed = True
        for info in (*helpers, *(g for g in guarded if g not in helpers)):
            fn = info.node
            values = facts.get(id(info), {})
            if not values and id(info) not in dead:
                continue
            for node in self.model.body_nodes(fn):  # type: ignore[arg-type]
                key = id(node)
                if self.owner.get(key) is not info:
                    continue
                if id(info) not in dead and not self._decide.never_runs(node, fn, values):
                    continue
                val = self.values.get(key)
                if val is not None and val.level is Level.TRACED:
                    self.values[key] = dataclasses.replace(val, level=Level.MAYBE)
                del self.owner[key]

    def flag_truth(self, test: cst.BaseExpression) -> bool | None:
        """The truth of an ``if`` test made of a module flag bound once (``if
        DEBUG_CHECKS:`` with ``DEBUG_CHECKS = False``, :mod:`jaxlint.analysis.flags`):
        the branch it rules out never runs, and traces nothing."""
        if self._flags is None:
            self._flags = constant_flags(self.model)
        return decided_if(self.model, self._flags, test)

    def _skipped_by_defaults(self, caller: TracedFunction, call: cst.Call) -> bool:
        """In a function traced only because another module's traced code calls it,
        ``call`` lies in the branch of an ``if`` on a parameter that no such call passes,
        which its default (a literal) keeps from running: ``if use_jax: ... else:
        host_helper(x)`` with ``use_jax=True`` left at its default; or after ``if grid is
        not None: return ...`` where the callers pass ``grid``."""
        facts = self._external_facts(caller)
        return bool(facts) and self._decide.never_runs(call, caller.node, facts)

    def never_traced(self, call: cst.CSTNode, caller: TracedFunction) -> bool:
        """``call``, in traced ``caller``, lies where ``caller`` never runs traced (after
        the analysis: the facts of ``_decided_by_callers``)."""
        facts = self._facts.get(id(caller))
        return bool(facts) and self._decide.never_runs(call, caller.node, facts)  # type: ignore[arg-type]

    def _external_facts(self, info: TracedFunction) -> dict[str, bool]:
        """What a function traced only because another module's traced code calls it
        knows of its parameters (:func:`external_facts`), and whether it tests for
        tracers (:data:`TRACED`)."""
        if type(info.node) is not cst.FunctionDef:
            return {}
        traced = {TRACED: True} if self._decide.tests_tracers(info.node) else {}
        if not info.external or info.caller is not None or info.transforms:
            return traced
        if info.external_passed is None:
            return traced
        return traced | external_facts(
            info.node, info.external_passed, info.external_none, info.external_literal
        )

    def _module_walker(self) -> _FunctionWalker:
        return _FunctionWalker(self, None)

    def seeded_inside(self, site: cst.CSTNode, outer: TracedFunction | None) -> None:
        """A transform applied inside traced code (``jax.grad(loss)(p)`` in a jitted
        step) runs under the outer trace too: its function's tracers are the outer's."""
        if outer is None:
            return
        for fn in self._seeded_at.get(id(site), ()):
            info = self.functions.get(id(fn))
            if info is not None and info is not outer:
                if (outer.staging and not info.staging) or (outer.abstract and not info.abstract):
                    info.inside = info.inside or outer
                info.staging = info.staging or outer.staging
                info.abstract = info.abstract or outer.abstract

    def call_helper(
        self,
        caller: TracedFunction,
        call: cst.Call,
        target: cst.FunctionDef,
        args: Sequence[tuple[str | None, Val]],
        skip_first: bool,
    ) -> None:
        """A call from traced code to a function of this module: that function is traced."""
        if self._skipped_by_defaults(caller, call):
            return
        info = self.functions.get(id(target))
        if info is None:
            info = TracedFunction(
                node=target,
                name=target.name.value,
                verb=f"called from traced `{caller.name}`",
                site=call,
                staging=caller.staging,
                caller=caller,
                abstract=caller.abstract,
            )
            for pname in all_param_names(target):
                info.param_levels[pname] = Level.STATIC
            self.functions[id(target)] = info
        elif info.caller is not None and caller.staging:
            info.staging = True
        if info.caller is not None and caller.abstract:
            info.abstract = True
        if info.caller is None:
            return  # a transform already decided its parameters
        edge = info.calls.get((id(caller), id(call)))
        if edge is None:
            edge = info.calls[(id(caller), id(call))] = CallEdge(caller, call)
        passed = edge.levels  # what this call passes: which calls explain a parameter
        levels = info.param_levels
        positional = positional_params(target)
        if skip_first and positional:
            positional = positional[1:]
        names = all_param_names(target)
        i = 0
        for keyword, val in args:
            if val.mixed:
                # a dict of weights and Python values passed whole: an entry read there is
                # only maybe traced (``int(p.get("steps", 1))`` reads a Python int)
                val = Val(passed_level(val), val.origin, val.container, val.array, False)
            if keyword is None:
                if i < len(positional):
                    pname = positional[i]
                    levels[pname] = max(levels[pname], val.level)
                    passed[pname] = max(passed.get(pname, Level.STATIC), val.level)
                i += 1
            elif keyword == "*":
                for pname in positional[i:]:
                    levels[pname] = max(levels[pname], Level.MAYBE)
                    passed[pname] = max(passed.get(pname, Level.STATIC), Level.MAYBE)
            elif keyword == "**":
                for pname in names:
                    levels[pname] = max(levels[pname], Level.MAYBE)
                    passed[pname] = max(passed.get(pname, Level.STATIC), Level.MAYBE)
            elif keyword in levels:
                levels[keyword] = max(levels[keyword], val.level)
                passed[keyword] = max(passed.get(keyword, Level.STATIC), val.level)
        if skip_first and names:
            first = names[0]
            levels[first] = max(levels[first], Level.MAYBE)
            passed[first] = max(passed.get(first, Level.STATIC), Level.MAYBE)
