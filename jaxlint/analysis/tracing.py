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
import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.transforms import (
    ARRAY_ATTRIBUTES,
    ARRAY_MODULES,
    BATCHING,
    BODY_ARGS,
    BODY_KEYWORDS,
    CONSTANT_COLLECTIVES,
    EAGER_BODIES,
    NUMPY_ARRAY_METHODS,
    PARTIAL,
    POSITIONAL_OPTIONS,
    STAGING,
    STATIC_ATTRIBUTES,
    STATIC_CALLS,
    SWITCH,
    TRANSFORMS,
    Transform,
    metadata_call,
)
from jaxlint.analysis.walk import children

if TYPE_CHECKING:
    from jaxlint.analysis.project import ProjectFacts


class Level(enum.IntEnum):
    STATIC = 0
    MAYBE = 1
    TRACED = 2


LineOf = Callable[[cst.CSTNode], int]


@dataclass(eq=False)
class TracedFunction:
    """A function (``def`` or ``lambda``) whose body JAX traces."""

    node: cst.FunctionDef | cst.Lambda
    name: str
    verb: str
    """``jitted``, ``vmapped``, ``the body of `lax.scan```, ``called from traced `step```."""
    site: cst.CSTNode
    """The decorator, wrapping call or call site that makes it traced (for its line)."""
    staging: bool
    """Inside it every JAX operation returns a tracer (jit-like), not only those on inputs."""
    static_params: set[str] = field(default_factory=set)
    param_levels: dict[str, Level] = field(default_factory=dict)
    unknown_statics: bool = False
    """``static_argnums`` was not a literal: no parameter is definitely traced."""
    caller: TracedFunction | None = None
    abstract: bool = False
    """Its tracers are abstract: ``if``, ``int()``, ``range()`` or a shape on a traced
    value raises (jit-like staging, ``vmap``). Under ``grad`` alone values stay concrete."""
    transforms: set[str] = field(default_factory=set)
    """Qualified names of the transforms that trace it (``jax.jit``, ``flax.nnx.jit``);
    empty when it is traced only as a lax body or a helper of traced code."""
    own: list[Reason] = field(default_factory=list)
    """Its own transforms, first seen first (``@jax.jit``, ``g = jax.jit(f)``,
    ``self.step = jax.jit(self._step)``): the explanation a message gives first."""
    bodies: list[Reason] = field(default_factory=list)
    """The lax calls it is a body of (``lax.scan(body, ...)``): said after its own
    transforms."""
    calls: dict[tuple[int, int], CallEdge] = field(default_factory=dict)
    """Helpers only: every call from traced code, (id(caller), id(call)) -> the edge."""
    inside: TracedFunction | None = None
    """The traced function its transform is applied in, when that function's trace is
    what stages it (``jax.grad(loss)(p)`` inside a jitted ``step``)."""
    external: bool = False
    """Traced only because traced code of another module of the project calls it (not
    by a transform or a traced caller of this module)."""

    def how(self, line_of: LineOf, param: str | None = None) -> str:
        """Why it is traced, the shortest true way: its own transform, else the fewest
        calls from traced code back to a transform or lax body, naming each function,
        the line of each call and of the transform. The reason must explain what its
        tracers are: staged (jit-like: every JAX operation makes a tracer) and abstract
        (``if``/``int()`` on them raise) when this function's are. ``param``: explain
        why that parameter is a tracer (abstract is what matters, and the first call
        must pass it a traced value)."""
        need = (self.staging and param is None, self.abstract)
        return self._how(line_of, param, need, 0)

    def _how(self, line_of: LineOf, param: str | None, need: _Need, depth: int) -> str:
        if self.caller is None or self._own_reason(need, param) is not None:
            return self._seed_how(line_of, param, need, depth)
        chain = self._chain(param, need)
        if not chain:
            return f"{self.verb} at line {line_of(self.site)}"
        text = []
        for i, edge in enumerate(chain):
            traced = "traced " if i == 0 else ""
            prefix = "" if i == 0 else ", which is "
            text.append(
                f"{prefix}called from {traced}`{edge.caller.name}` at line {line_of(edge.call)}"
            )
        text.append(", which is " + chain[-1].caller._seed_how(line_of, None, need, depth))
        return "".join(text)

    def _seed_how(self, line_of: LineOf, param: str | None, need: _Need, depth: int) -> str:
        """Its own transform, else its lax body or first transform, and the traced
        function that transform is applied in when that is what stages it."""
        own = self._own_reason(need, param)
        if own is not None:
            return own.at(line_of)
        reasons = self.own or self.bodies or [Reason(self.verb, self.site, False, False)]
        first = reasons[0]
        text = first.at(line_of)
        inside = self.inside
        if inside is not None and inside is not self and depth < 8:
            text += (
                f" inside `{inside.name}`, which is {inside._how(line_of, None, need, depth + 1)}"
            )
        return text

    def _own_reason(self, need: _Need, param: str | None = None) -> Reason | None:
        """Its first own transform whose tracers are as staged and abstract as ``need``
        says (a ``grad`` alone explains no abstract tracer, a ``vmap`` no staging) and
        that traces ``param``, if given."""
        staging, abstract = need
        for reason in (*self.own, *self.bodies):
            if (
                (reason.staging or not staging)
                and (reason.abstract or not abstract)
                and (param is None or reason.params is None or param in reason.params)
            ):
                return reason
        return None

    def _ends(self, need: _Need) -> bool:
        """A chain may end here: its own transform or its lax body explains ``need``."""
        if self._own_reason(need) is not None:
            return True
        staging, abstract = need
        return (
            self.caller is None
            and (self.staging or not staging)
            and (self.abstract or not abstract)
        )

    def _chain(self, param: str | None, need: _Need) -> list[CallEdge]:
        """The fewest calls from traced code that end at a function whose own transform
        or lax body explains this one (breadth first, first-seen calls first)."""
        first = [
            e
            for e in self.calls.values()
            if param is None
            or e.levels.get(param, Level.STATIC) >= self.param_levels.get(param, Level.STATIC)
        ] or list(self.calls.values())
        seen = {id(self)}
        paths: list[list[CallEdge]] = [[e] for e in first]
        deferred: list[CallEdge] | None = None
        while paths:
            nxt: list[list[CallEdge]] = []
            via_inside = None
            for path in paths:
                fn = path[-1].caller
                if id(fn) in seen:
                    continue
                seen.add(id(fn))
                if fn._ends(need):
                    if fn._own_reason(need) is None and fn.inside is not None:
                        # staged by the function its transform is applied in: one hop more
                        via_inside = via_inside or path
                        continue
                    return path
                nxt.extend([*path, e] for e in fn.calls.values())
            if deferred is not None:
                return deferred
            deferred = via_inside
            paths = nxt
        return deferred or []


_Need = tuple[bool, bool]
"""What an explanation must account for: (staged, abstract) tracers."""


def _transform_phrase(t: Transform) -> str:
    """``jitted by `jax.jit```; ``traced by `jax.eval_shape``` (not "traced by
    jax.eval_shape by `jax.eval_shape`")."""
    for lead in ("traced by ", "wrapped in "):
        if t.verb == lead + t.qualname or t.verb == lead + t.short:
            return f"{lead}`{t.short}`"
    return f"{t.verb} by `{t.short}`"


@dataclass(frozen=True)
class Reason:
    """A transform or lax body that traces a function: ``jitted by `jax.jit``` at a site."""

    verb: str
    site: cst.CSTNode
    staging: bool
    abstract: bool
    params: frozenset[str] | None = None
    """The parameters it surely traces, when not all that the analysis found traced."""
    located: bool = False
    """``verb`` already says where (a call from another module): no "at line N"."""

    def at(self, line_of: LineOf) -> str:
        return self.verb if self.located else f"{self.verb} at line {line_of(self.site)}"


@dataclass(eq=False)
class CallEdge:
    """A call from a traced function to a helper, with what it passes each parameter."""

    caller: TracedFunction
    call: cst.CSTNode
    levels: dict[str, Level] = field(default_factory=dict)


@dataclass(frozen=True)
class Origin:
    """Why a value is traced, in the user's names."""

    name: str
    role: str
    func: TracedFunction | None
    param: str | None = None
    """The parameter of ``func`` the value comes from, if any."""

    def describe(self, line_of: LineOf) -> str:
        if self.func is None:
            return f"`{self.name}` is traced: {self.role}"
        return f"`{self.name}` is traced: {self.role}, {self.func.how(line_of, self.param)}"


@dataclass(frozen=True)
class Val:
    level: Level = Level.STATIC
    origin: Origin | None = None
    container: bool = False
    """A Python tuple/list/dict/set built here: its truth value and length are static."""
    array: bool = False
    """Known to be a JAX array (or tracer): a ``jnp`` result, a jitted call's result."""
    computed: bool = False
    """The result of an array operation (arithmetic, a comparison, a ``jnp``/``lax`` call,
    an array method) or an array-annotated parameter: one array, never a pytree of
    arrays, a Python container or ``None`` (whose truth value is static)."""

    @property
    def traced(self) -> bool:
        return self.level is Level.TRACED


STATIC = Val()
MAYBE = Val(Level.MAYBE)


def join(*vals: Val) -> Val:
    best = STATIC
    array = False
    for v in vals:
        array = array or v.array
        if v.level > best.level or (v.level == best.level and best.origin is None):
            best = v
    if best.array != array:
        best = Val(best.level, best.origin, best.container, array, best.computed)
    return best


class LazyWhy:
    """Formats to an origin's description only when a message is rendered."""

    def __init__(self, origin: Origin | None, line_of: LineOf, fallback: str) -> None:
        self.origin = origin
        self.line_of = line_of
        self.fallback = fallback

    def __format__(self, spec: str) -> str:
        text = self.origin.describe(self.line_of) if self.origin else self.fallback
        return format(text, spec)

    def __str__(self) -> str:
        return format(self, "")


# -- finding traced functions --------------------------------------------------------------


@dataclass
class _Wrap:
    transform: Transform
    kwargs: dict[str, cst.BaseExpression]
    bound_positional: int = 0
    bound_keywords: frozenset[str] = frozenset()


def _literal_ints(expr: cst.BaseExpression | None) -> list[int] | None:
    if expr is None:
        return []
    if isinstance(expr, cst.Integer):
        return [int(expr.evaluated_value)]
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = _literal_ints(expr.expression)
        return None if inner is None or len(inner) != 1 else [-inner[0]]
    if isinstance(expr, (cst.Tuple, cst.List)):
        out: list[int] = []
        for el in expr.elements:
            got = _literal_ints(el.value)
            if got is None:
                return None
            out.extend(got)
        return out
    if isinstance(expr, cst.Name) and expr.value == "None":
        return []
    return None


def _literal_strs(expr: cst.BaseExpression | None) -> list[str] | None:
    if expr is None:
        return []
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return [value] if isinstance(value, str) else None
    if isinstance(expr, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in expr.elements:
            got = _literal_strs(el.value)
            if got is None:
                return None
            out.extend(got)
        return out
    if isinstance(expr, cst.Name) and expr.value == "None":
        return []
    return None


def positional_params(fn: cst.FunctionDef | cst.Lambda) -> list[str]:
    p = fn.params
    return [x.name.value for x in (*p.posonly_params, *p.params)]


def all_param_names(fn: cst.FunctionDef | cst.Lambda) -> list[str]:
    p = fn.params
    names = [x.name.value for x in (*p.posonly_params, *p.params)]
    if isinstance(p.star_arg, cst.Param):
        names.append(p.star_arg.name.value)
    names.extend(x.name.value for x in p.kwonly_params)
    if p.star_kwarg is not None:
        names.append(p.star_kwarg.name.value)
    return names


_STATIC_ANNOTATIONS = frozenset(
    {"bool", "int", "str", "float", "Callable", "type", "callable", "Literal", "Sequence[int]"}
)
_ARRAY_ANNOTATION_HINTS = ("Array", "ndarray", "Float[", "Int[", "Bool[", "Shaped[", "PRNGKey")


_SCOPE_NODES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


class TraceAnalysis:
    """Traced functions and the value of every expression, for one module."""

    def __init__(
        self,
        model: SemanticModel,
        line_of: LineOf,
        traced_decorators: Iterable[str] = (),
        traced_wrappers: Iterable[str] = (),
        project: ProjectFacts | None = None,
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
        self.merged_env: dict[int, dict[str, Val]] = {}
        self._defs: list[cst.FunctionDef | cst.Lambda] = []
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
        """Calls inside ``with jax.disable_jit():``: transforms and loop primitives there
        run their functions eagerly, so they trace nothing."""
        """Every call of the module, in event order."""
        self._attr_wraps: list[tuple[cst.ClassDef, str, _Wrap, cst.Call]] = []
        """``self.step = jax.jit(self._step)``: (class, method name, transform, call)."""
        self._collect()
        self._find_seeds()
        self._analyze_all()
        self._only_every_call()
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
        qn = self.project.qualified_name(self.model, func)
        if qn is None or qn.startswith(("jax.", "builtins.", "numpy.")):
            return None
        return self.project.function(qn)

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
        if isinstance(expr, cst.Call):
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
        if isinstance(expr, cst.Lambda):
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

    def _find_seeds(self) -> None:
        for fn in self._defs:
            if isinstance(fn, cst.FunctionDef):
                for dec in reversed(fn.decorators):
                    wrap = self._transform_of(dec.decorator)
                    if wrap is not None:
                        self._mark(fn, wrap, dec)
        for call in self._calls:
            self._seed_from_call(call)
        if self.project is not None:
            for call in self.project.traced_calls():
                self._seed_from_module(call)

    def _seed_from_module(self, call: dict[str, Any]) -> None:
        """A function of this module called from a traced function of another module
        (``step.py``'s jitted ``train_step`` calls ``helper`` imported from here): it is
        traced there, with the arguments that call passes."""
        found = self.model.module_scope.bindings.get(call.get("name", ""))
        if not found or len(found) != 1 or found[0].kind != "def":
            return
        fn = found[0].node
        if type(fn) is not cst.FunctionDef:
            return
        transform = TRANSFORMS.get(call.get("transform") or "")
        if transform is not None:
            kwargs: dict[str, cst.BaseExpression] = {}
            for key in ("static_argnums", "static_argnames", "argnums", "in_axes"):
                if key in call:
                    kwargs[key] = cst.parse_expression(repr(call[key]))
            existed = id(fn) in self.functions
            self._mark(fn, _Wrap(transform, kwargs), fn)
            info = self.functions[id(fn)]
            if not existed:
                info.external = True
            last = info.own[-1]
            info.own[-1] = Reason(
                f"{last.verb} in {call.get('where', '?')}",
                fn, last.staging, last.abstract, last.params, located=True,
            )  # fmt: skip
            return
        staging = bool(call.get("staging"))
        abstract = bool(call.get("abstract"))
        verb = (
            f"called from `{call.get('caller', '?')}` ({call.get('where', '?')}), which is"
            f" {call.get('caller_how') or 'traced'}"
        )
        info = self.functions.get(id(fn))
        if info is None:
            info = TracedFunction(
                node=fn, name=fn.name.value, verb=verb, site=fn, staging=staging,
                abstract=abstract, external=True,
            )  # fmt: skip
            for pname in all_param_names(fn):
                info.param_levels[pname] = Level.STATIC
            self.functions[id(fn)] = info
        else:
            info.staging = info.staging or staging
            info.abstract = info.abstract or abstract
        positional = positional_params(fn)
        traced: set[str] = set()
        i = 0
        for keyword, level in call.get("args", []):
            lvl = Level(min(max(int(level), 0), 2))
            names: list[str] = []
            if keyword is None:
                if i < len(positional):
                    names = [positional[i]]
                i += 1
            elif keyword in ("*", "**"):
                lvl = min(lvl, Level.MAYBE)
                names = positional[i:] if keyword == "*" else all_param_names(fn)
            elif keyword in info.param_levels:
                names = [keyword]
            for pname in names:
                if pname in info.static_params:
                    continue
                info.param_levels[pname] = max(info.param_levels.get(pname, Level.STATIC), lvl)
                if lvl is Level.TRACED:
                    traced.add(pname)
        info.own.append(Reason(verb, fn, staging, abstract, frozenset(traced), located=True))

    def _seed_from_call(self, call: cst.Call) -> None:
        if id(call) in self._eager_calls:
            return
        wrap = self._transform_of(call.func)
        positional = [a for a in call.args if a.keyword is None and not a.star]
        kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if wrap is not None and positional:
            target = self._resolve_callable(positional[0].value)
            if target is None:
                # ``jax.jit(jax.grad(loss))``: the outer transform traces the function
                # the inner one wraps (the inner call seeds its own transform)
                target = self._resolve_transformed(positional[0].value)
            if target is None and self.project is not None:
                names = POSITIONAL_OPTIONS.get(wrap.transform.qualname, ())
                by_position = {k: a.value for k, a in zip(names, positional[1:], strict=False)}
                self.foreign_seeds.append(
                    (_Wrap(wrap.transform, {**wrap.kwargs, **by_position, **kwargs}), call)
                )
            if target is not None:
                node, nb, kb = target
                names = POSITIONAL_OPTIONS.get(wrap.transform.qualname, ())
                by_position = {k: a.value for k, a in zip(names, positional[1:], strict=False)}
                merged = _Wrap(wrap.transform, {**wrap.kwargs, **by_position, **kwargs})
                self._mark(node, merged, call, bound_positional=nb, bound_keywords=kb)
            return
        qn = self.model.call_name(call)
        if qn is None:
            return
        bodies: list[cst.BaseExpression] = []
        if qn in BODY_ARGS:
            for idx in BODY_ARGS[qn]:
                if idx < len(positional):
                    bodies.append(positional[idx].value)
            for key in BODY_KEYWORDS.get(qn, ()):
                if key in kwargs:
                    bodies.append(kwargs[key])
        elif qn == SWITCH and len(positional) >= 2:
            branches = positional[1].value
            if isinstance(branches, (cst.List, cst.Tuple)):
                bodies.extend(el.value for el in branches.elements)
        if not bodies:
            return
        short = qn.replace("jax.lax.", "lax.")
        body_t = Transform(qn, short, f"the body of `{short}`")
        for body in bodies:
            target = self._resolve_callable(body)
            if target is not None:
                node, nb, kb = target
                self._mark(
                    node,
                    _Wrap(body_t, {}),
                    call,
                    verb=f"traced as a body of `{short}`",
                    bound_positional=nb,
                    bound_keywords=kb,
                )
                eager = qn in EAGER_BODIES
                info = self.functions[id(node)]
                info.staging = not eager
                info.abstract = not eager
                info.bodies.append(
                    Reason(f"traced as a body of `{short}`", call, not eager, not eager)
                )

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

    def _analyze_all(self) -> None:
        # Walk every function; helpers called from traced code become traced and are
        # walked again, until nothing changes (bounded).
        for _ in range(4):
            before = {
                k: (dict(v.param_levels), v.staging, v.abstract) for k, v in self.functions.items()
            }
            self.values.clear()
            self.owner.clear()
            self.foreign_calls.clear()
            self._module_walker().run_module()
            for fn in self._defs:
                _FunctionWalker(self, fn).run()
            after = {
                k: (dict(v.param_levels), v.staging, v.abstract) for k, v in self.functions.items()
            }
            if after == before:
                break

    def _only_every_call(self) -> None:
        """In a function traced only because another module's traced code calls it, keep
        what is traced to the statements that run on every call: which ``if``/``match``
        branch runs, whether a ``while`` body runs, and whether a ``try`` body's error is
        expected depend on the caller's arguments, which that module's summary gives only
        as traced or not (``if S is None:`` where the jitted caller always passes ``S``)."""
        for info in self.functions.values():
            if not info.external or info.caller is not None or info.transforms:
                continue
            for node in _conditional_nodes(info.node):
                key = id(node)
                val = self.values.get(key)
                if val is not None and val.level is Level.TRACED:
                    self.values[key] = dataclasses.replace(val, level=Level.MAYBE)
                if self.owner.get(key) is info:
                    del self.owner[key]

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


def _conditional_nodes(fn: cst.FunctionDef | cst.Lambda) -> list[cst.CSTNode]:
    """The nodes of ``fn``'s own body that run only on some calls: the blocks of its
    ``if``, ``match``, ``while`` and ``try`` statements (their tests run every time)."""
    from jaxlint.analysis.walk import descendants

    out: list[cst.CSTNode] = []
    if not isinstance(fn, cst.FunctionDef):
        return out
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        for child in children(node):
            kind = type(child)
            if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                continue
            if kind in (cst.If, cst.While):
                out.extend(descendants(child.body))  # type: ignore[attr-defined]
                if child.orelse is not None:  # type: ignore[attr-defined]
                    out.extend(descendants(child.orelse))  # type: ignore[attr-defined]
                continue
            if kind in (cst.Try, cst.TryStar, cst.Match):
                out.extend(descendants(child))
                continue
            stack.append(child)
    return out


def _params(fn: cst.FunctionDef | cst.Lambda) -> list[cst.Param]:
    p = fn.params
    out = [*p.posonly_params, *p.params]
    if isinstance(p.star_arg, cst.Param):
        out.append(p.star_arg)
    out.extend(p.kwonly_params)
    if p.star_kwarg is not None:
        out.append(p.star_kwarg)
    return out


def _annotation_text(param: cst.Param) -> str:
    if param.annotation is None:
        return ""
    return cst.Module([]).code_for_node(param.annotation.annotation)


_ARRAY_ANNOTATIONS = frozenset(
    {"Array", "ArrayLike", "ndarray", "bool", "int", "float", "complex", "Scalar"}
)
_JAXTYPING = ("Float[", "Int[", "Bool[", "Shaped[", "Num[", "Real[", "Inexact[", "Integer[")


def _array_annotation(fn: cst.FunctionDef | cst.Lambda | None, name: str) -> bool:
    """The parameter is annotated as one array or scalar (not Optional, not a pytree)."""
    if fn is None:
        return False
    for param in _params(fn):
        if param.name.value == name:
            ann = _annotation_text(param).replace(" ", "")
            if not ann:
                return False
            if ann.startswith(_JAXTYPING) or any(
                ann.startswith(f"{m}.{k}") for m in ("jaxtyping", "jt") for k in _JAXTYPING
            ):
                return True
            return ann.split(".")[-1] in _ARRAY_ANNOTATIONS
    return False


def _filter_level(param: cst.Param) -> Level:
    """Equinox filter transforms trace arrays and keep every other leaf static."""
    ann = _annotation_text(param)
    if ann:
        base = ann.split("[")[0].split(".")[-1]
        if base in _STATIC_ANNOTATIONS or ann in _STATIC_ANNOTATIONS:
            return Level.STATIC
        if any(h in ann for h in _ARRAY_ANNOTATION_HINTS):
            return Level.TRACED
    default = param.default
    if isinstance(default, (cst.Integer, cst.Float, cst.SimpleString)):
        return Level.STATIC
    if isinstance(default, cst.Name) and default.value in ("True", "False", "None"):
        return Level.STATIC
    return Level.MAYBE


# -- the per-function walk -----------------------------------------------------------------

Env = dict[str, Val]


def _join_env(a: Env, b: Env) -> Env:
    out = dict(a)
    for k, v in b.items():
        out[k] = join(out[k], v) if k in out else v
    return out


class _FunctionWalker:
    """Evaluates one function body (or the module body) statement by statement."""

    def __init__(self, analysis: TraceAnalysis, fn: cst.FunctionDef | cst.Lambda | None) -> None:
        self.a = analysis
        self.fn = fn
        self.info = analysis.functions.get(id(fn)) if fn is not None else None
        self.env: Env = {}
        self.merged: Env = {}
        self.local_names: set[str] = set()
        if fn is not None:
            scope = analysis.model.scope_of_node.get(id(fn))
            if scope is not None:
                self.local_names = set(scope.bindings) - scope.global_names - scope.nonlocal_names

    # entry points -------------------------------------------------------------------

    def run_module(self) -> None:
        self._block(self.a.model.module.body)

    def run(self) -> None:
        fn = self.fn
        assert fn is not None
        for param in _params(fn):
            name = param.name.value
            if param.default is not None:
                self._eval(param.default)
            self.env[name] = self._param_val(name)
        if isinstance(fn, cst.Lambda):
            val = self._eval(fn.body)
            self.a.returns[id(fn)] = val
        else:
            self._block(fn.body.body if isinstance(fn.body, cst.IndentedBlock) else [fn.body])
        self.a.merged_env[id(fn)] = self.merged

    def _param_val(self, name: str) -> Val:
        info = self.info
        if info is None:
            return STATIC
        level = info.param_levels.get(name, Level.STATIC)
        if level is Level.STATIC:
            return STATIC
        if info.caller is not None:
            role = f"parameter of `{info.name}`"
        elif "body of" in info.verb:
            role = f"parameter of `{info.name}`"
        else:
            role = f"parameter of `{info.name}`"
        computed = level is Level.TRACED and _array_annotation(self.fn, name)
        origin = Origin(name, role, info, name)
        return Val(level, origin, array=level is Level.TRACED, computed=computed)

    # bookkeeping -------------------------------------------------------------------------

    def _own(self, node: cst.CSTNode) -> None:
        if self.info is not None:
            self.a.owner[id(node)] = self.info

    def _set(self, name: str, val: Val) -> None:
        self.env[name] = val
        self.merged[name] = join(self.merged[name], val) if name in self.merged else val

    def _bind(self, target: cst.BaseExpression, val: Val) -> None:
        if type(target) is cst.Name:
            if val.origin is not None and val.level > Level.STATIC:
                origin = val.origin
                if origin.name != target.value:
                    origin = Origin(
                        target.value,
                        f"computed from `{origin.name}` ({origin.role})",
                        origin.func,
                        origin.param,
                    )
                val = Val(val.level, origin, val.container, val.array, val.computed)
            self._set(target.value, val)
            self.a.values[id(target)] = val
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                inner = el.value
                starred = type(inner) is cst.StarredElement
                self._bind(inner, Val(val.level, val.origin, starred, val.array, val.computed))
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, Val(val.level, val.origin, True, val.array, val.computed))
        else:
            # attribute / subscript targets: evaluate their parts
            self._eval(target)

    # statements ------------------------------------------------------------------------

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            self._stmt(stmt)

    def _stmt(self, stmt: cst.CSTNode) -> None:
        self._own(stmt)
        kind = type(stmt)  # ``kind is``: concrete libcst classes have no subclasses
        if kind is cst.SimpleStatementLine:
            for small in stmt.body:
                self._small(small)
            return
        if kind is cst.If:
            self._if(stmt)
        elif kind is cst.For:
            self._for(stmt)
        elif kind is cst.While:
            self._own(stmt)
            self._eval(stmt.test)
            before = dict(self.env)
            for _ in range(2):
                self._block(stmt.body.body)
                self.env = _join_env(before, self.env)
                self._eval(stmt.test)
            if stmt.orelse is not None:
                self._block(stmt.orelse.body.body)
        elif kind is cst.With:
            for item in stmt.items:
                v = self._eval(item.item)
                if item.asname is not None:
                    self._bind(item.asname.name, v)
            self._block(stmt.body.body)
        elif kind is cst.Try or kind is cst.TryStar:
            before = dict(self.env)
            self._block(stmt.body.body)
            after_body = dict(self.env)
            envs = [after_body]
            for handler in stmt.handlers:
                self.env = _join_env(before, after_body)
                if handler.type is not None:
                    self._eval(handler.type)
                if handler.name is not None and isinstance(handler.name.name, cst.Name):
                    self._set(handler.name.name.value, STATIC)
                self._block(handler.body.body)
                envs.append(dict(self.env))
            self.env = envs[0]
            for e in envs[1:]:
                self.env = _join_env(self.env, e)
            if stmt.orelse is not None:
                self._block(stmt.orelse.body.body)
            if stmt.finalbody is not None:
                self._block(stmt.finalbody.body.body)
        elif kind is cst.FunctionDef:
            for dec in stmt.decorators:
                self._eval(dec.decorator)
                self.a.seeded_inside(dec, self.info)
            self._set(stmt.name.value, STATIC)
        elif kind is cst.ClassDef:
            self._set(stmt.name.value, STATIC)
        elif kind is cst.Match:
            self._eval(stmt.subject)
            before = dict(self.env)
            result = dict(before)
            for case in stmt.cases:
                self.env = dict(before)
                if case.guard is not None:
                    self._eval(case.guard)
                self._block(case.body.body)
                result = _join_env(result, self.env)
            self.env = result
        elif kind is cst.IndentedBlock:
            self._block(stmt.body)

    def _if(self, stmt: cst.If) -> None:
        self._own(stmt)
        self._eval(stmt.test)
        before = dict(self.env)
        self._block(stmt.body.body)
        then_env = self.env
        self.env = dict(before)
        if isinstance(stmt.orelse, cst.If):
            self._if(stmt.orelse)
        elif isinstance(stmt.orelse, cst.Else):
            self._block(stmt.orelse.body.body)
        self.env = _join_env(then_env, self.env)

    def _for(self, stmt: cst.For) -> None:
        self._own(stmt)
        it = self._eval(stmt.iter)
        element = self._element_of(stmt.iter, it)
        before = dict(self.env)
        for _ in range(2):
            self._bind_element(stmt.target, stmt.iter, element)
            self._block(stmt.body.body)
            self.env = _join_env(before, self.env)
        if stmt.orelse is not None:
            self._block(stmt.orelse.body.body)

    def _bind_element(
        self, target: cst.BaseExpression, iterable: cst.BaseExpression, element: Val
    ) -> None:
        """Bind a loop target to the elements of ``iterable``, position by position for
        ``enumerate``/``zip`` unpacked into a tuple: the index of ``enumerate(params)``
        is a Python int, and ``size`` in ``zip(SIZES, keys)`` comes from ``SIZES`` only."""
        parts = self._unpacked_parts(target, iterable)
        if parts is None:
            self._bind(target, element)
            return
        for el, val in parts:
            self._bind(el, val)

    def _unpacked_parts(
        self, target: cst.BaseExpression, iterable: cst.BaseExpression
    ) -> list[tuple[cst.BaseExpression, Val]] | None:
        if type(target) not in (cst.Tuple, cst.List) or type(iterable) is not cst.Call:
            return None
        elements = target.elements  # type: ignore[attr-defined]
        if any(type(el.value) is cst.StarredElement for el in elements):
            return None
        args = iterable.args
        if any(a.star for a in args):
            return None
        qn = self.a.model.call_name(iterable)
        positional = [a.value for a in args if a.keyword is None]
        if qn == "builtins.enumerate" and positional and len(elements) == 2:
            seq = positional[0]
            inner = self._element_of(seq, self.a.values.get(id(seq), STATIC))
            start = [a.value for a in args[1:] if a.keyword is None or a.keyword.value == "start"]
            index = self.a.values.get(id(start[0]), STATIC) if start else STATIC
            return [(elements[0].value, index), (elements[1].value, inner)]
        if (
            qn == "builtins.zip"
            and len(positional) == len(elements)
            and all(a.keyword is None or a.keyword.value == "strict" for a in args)
        ):
            return [
                (el.value, self._element_of(seq, self.a.values.get(id(seq), STATIC)))
                for el, seq in zip(elements, positional, strict=True)
            ]
        return None

    def _element_of(self, iterable: cst.BaseExpression, it: Val) -> Val:
        if isinstance(iterable, cst.Call):
            qn = self.a.model.call_name(iterable)
            if qn == "builtins.range":
                return STATIC
            if qn in ("builtins.enumerate", "builtins.zip") and iterable.args:
                parts = [
                    self._element_of(a.value, self.a.values.get(id(a.value), STATIC))
                    for a in iterable.args
                ]
                val = join(*parts)
                return Val(val.level, val.origin, True, val.array, val.computed)
        if isinstance(iterable, (cst.Tuple, cst.List, cst.Set)):
            vals = [self.a.values.get(id(el.value), STATIC) for el in iterable.elements]
            if not vals:
                return STATIC
            val = join(*vals)
            return Val(val.level, val.origin, False, val.array, val.computed)
        if it.container:
            return Val(it.level, it.origin, False, it.array, it.computed)
        return it

    def _small(self, small: cst.BaseSmallStatement) -> None:
        self._own(small)
        kind = type(small)
        if kind is cst.Assign:
            val = self._eval(small.value)
            for t in small.targets:
                self._bind(t.target, val)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                self._bind(small.target, self._eval(small.value))
        elif kind is cst.AugAssign:
            current = self._eval(small.target)
            val = join(current, self._eval(small.value))
            if isinstance(small.target, cst.Name):
                self._set(small.target.value, val)
        elif kind is cst.Expr:
            self._eval(small.value)
        elif kind is cst.Return:
            if small.value is not None and self.fn is not None:
                val = self._eval(small.value)
                prev = self.a.returns.get(id(self.fn))
                self.a.returns[id(self.fn)] = join(prev, val) if prev else val
        elif kind is cst.Assert:
            self._eval(small.test)
            if small.msg is not None:
                self._eval(small.msg)
        elif kind is cst.Raise:
            if small.exc is not None:
                self._eval(small.exc)
        elif kind is cst.Del:
            self._eval(small.target)

    # expressions -----------------------------------------------------------------------

    def _eval(self, expr: cst.BaseExpression) -> Val:
        # one dict lookup on the exact class picks the handler: an ``isinstance`` chain
        # costs up to 20 ABCMeta checks per expression (libcst classes are ABCs)
        handler = _EVAL_HANDLERS.get(type(expr))
        if handler is None:
            handler = _eval_handler(type(expr))
        val = handler(self, expr)
        self.a.values[id(expr)] = val
        if self.info is not None:
            self.a.owner[id(expr)] = self.info
        return val

    def _lookup(self, name: str) -> Val:
        if name in self.env:
            return self.env[name]
        if name in self.local_names:
            return STATIC  # assigned later in the function (loop back-edge handled above)
        # a closure: the enclosing function's values
        parent = self.a._parent_fn.get(id(self.fn)) if self.fn is not None else None
        while parent is not None:
            merged = self.a.merged_env.get(id(parent))
            if merged is not None and name in merged:
                val = merged[name]
                if val.level > Level.STATIC and val.origin is not None:
                    origin = val.origin
                    val = Val(
                        val.level,
                        Origin(
                            origin.name,
                            f"{origin.role}, captured by `{_fn_name(self.fn)}`",
                            origin.func,
                            origin.param,
                        ),
                        val.container,
                        val.array,
                        val.computed,
                    )
                return val
            parent = self.a._parent_fn.get(id(parent))
        return STATIC

    # Handlers of ``_eval``, one per kind of expression (see ``_EVAL_KINDS``). A new
    # ``Val`` is built with all five fields (level, origin, container, array, computed)
    # rather than with ``dataclasses.replace``, which costs several times more.

    def _eval_static(self, expr: cst.BaseExpression) -> Val:
        """Literals, lambdas and anything else: known at trace time."""
        return STATIC

    def _eval_name(self, expr: cst.Name) -> Val:
        if expr.value in ("True", "False", "None"):
            return STATIC
        return self._lookup(expr.value)

    def _eval_concatenated(self, expr: cst.ConcatenatedString) -> Val:
        self._eval(expr.left)
        self._eval(expr.right)
        return STATIC

    def _eval_formatted(self, expr: cst.FormattedString) -> Val:
        for part in expr.parts:
            if type(part) is cst.FormattedStringExpression:
                self._eval(part.expression)
        return STATIC

    def _eval_attribute(self, expr: cst.Attribute) -> Val:
        base = self._eval(expr.value)
        if expr.attr.value in STATIC_ATTRIBUTES:
            return STATIC
        if base.level > Level.STATIC:
            if expr.attr.value in ARRAY_ATTRIBUTES:
                return Val(base.level, base.origin, False, base.array, True)
            if not base.computed:
                # pytree navigation (``state.step``, ``model.depth``): the leaf may be
                # static metadata of the node (a static field, a module attribute)
                return Val(Level.MAYBE, base.origin, False, base.array, base.computed)
            return Val(base.level, base.origin, False, base.array, base.computed)
        return STATIC

    def _eval_subscript(self, expr: cst.Subscript) -> Val:
        base = self._eval(expr.value)
        index = STATIC
        for el in expr.slice:
            sl = el.slice
            if type(sl) is cst.Index:
                index = join(index, self._eval(sl.value))
            elif type(sl) is cst.Slice:
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        index = join(index, self._eval(part))
        if base.level > Level.STATIC:
            return Val(base.level, base.origin, False, base.array, base.computed)
        if index.level > Level.STATIC:
            return Val(Level.MAYBE, index.origin, False, index.array, index.computed)
        return STATIC

    def _eval_binary(self, expr: cst.BinaryOperation) -> Val:
        val = join(self._eval(expr.left), self._eval(expr.right))
        return Val(val.level, val.origin, False, val.array, val.level > Level.STATIC)

    def _eval_unary(self, expr: cst.UnaryOperation) -> Val:
        inner = self._eval(expr.expression)
        if type(expr.operator) is cst.Not:
            if inner.container:
                return STATIC
            return Val(inner.level, inner.origin, False, inner.array, inner.computed)
        return Val(inner.level, inner.origin, False, inner.array, inner.level > Level.STATIC)

    def _eval_boolean(self, expr: cst.BooleanOperation) -> Val:
        return join(self._eval(expr.left), self._eval(expr.right))

    def _eval_comparison(self, expr: cst.Comparison) -> Val:
        vals = [self._eval(expr.left)]
        identity = False
        membership = False
        for comp in expr.comparisons:
            vals.append(self._eval(comp.comparator))
            op = type(comp.operator)
            if op is cst.Is or op is cst.IsNot:
                identity = True
            if (op is cst.In or op is cst.NotIn) and type(comp.comparator) not in _LITERAL_SEQS:
                membership = True
        if identity:
            return STATIC
        val = join(*vals)
        if membership:
            # ``"w" in params`` looks up a key of a pytree: a Python bool
            return Val(min(val.level, Level.MAYBE), val.origin, False, val.array, val.computed)
        return Val(val.level, val.origin, False, val.array, val.level > Level.STATIC)

    def _eval_if_exp(self, expr: cst.IfExp) -> Val:
        self._eval(expr.test)
        return join(self._eval(expr.body), self._eval(expr.orelse))

    def _eval_sequence(self, expr: cst.Tuple | cst.List | cst.Set) -> Val:
        vals = [self._eval(el.value) for el in expr.elements]
        if not vals:
            return Val(container=True)
        val = join(*vals)
        return Val(val.level, val.origin, True, False, val.computed)

    def _eval_dict(self, expr: cst.Dict) -> Val:
        vals = []
        for el in expr.elements:
            if type(el) is cst.DictElement:
                self._eval(el.key)
                vals.append(self._eval(el.value))
            else:
                vals.append(self._eval(el.value))
        if not vals:
            return Val(container=True)
        val = join(*vals)
        return Val(val.level, val.origin, True, False, val.computed)

    def _eval_named(self, expr: cst.NamedExpr) -> Val:
        val = self._eval(expr.value)
        self._bind(expr.target, val)
        return val

    def _eval_starred(self, expr: cst.StarredElement) -> Val:
        return self._eval(expr.value)

    def _eval_await_yield(self, expr: cst.Await | cst.Yield) -> Val:
        inner = getattr(expr, "expression", None) or getattr(expr, "value", None)
        if isinstance(inner, cst.BaseExpression):
            self._eval(inner)
        return MAYBE

    def _comprehension(self, expr: cst.BaseComprehension) -> Val:
        saved = dict(self.env)
        comp: cst.CompFor | None = expr.for_in
        while comp is not None:
            it = self._eval(comp.iter)
            self._bind_element(comp.target, comp.iter, self._element_of(comp.iter, it))
            for cond in comp.ifs:
                self._eval(cond.test)
            comp = comp.inner_for_in
        if isinstance(expr, cst.DictComp):
            self._eval(expr.key)
            val = self._eval(expr.value)
        else:
            val = self._eval(expr.elt)  # type: ignore[attr-defined]
        self.env = saved
        return Val(val.level, val.origin, True, False, val.computed)

    def _call(self, call: cst.Call) -> Val:
        model = self.a.model
        func = call.func
        args: list[tuple[str | None, Val]] = []
        for arg in call.args:
            v = self._eval(arg.value)
            key = (
                arg.keyword.value
                if arg.keyword is not None
                else ("*" if arg.star == "*" else "**" if arg.star == "**" else None)
            )
            args.append((key, v))
        if args:
            joined = join(*[v for _, v in args])
            joined = Val(joined.level, joined.origin, False, joined.array, joined.computed)
        else:
            joined = STATIC
        qn = model.call_name(call)
        info = self.info
        staging = info is not None and info.staging
        self.a.seeded_inside(call, info)
        if qn is not None:
            if qn in STATIC_CALLS:
                return STATIC
            if qn in ("builtins.float", "builtins.int", "builtins.bool", "builtins.complex"):
                return STATIC
            if qn in CONSTANT_COLLECTIVES and args and args[0][1].level is Level.STATIC:
                return STATIC  # ``lax.psum(1, "i")``: the axis size, a Python int
            if qn.startswith(ARRAY_MODULES):
                if metadata_call(qn):
                    return joined  # ``lax.ConvDimensionNumbers(*spec)``: Python values
                if staging and info is not None:
                    if joined.traced:
                        return Val(joined.level, joined.origin, False, True, True)
                    short = _short(qn)
                    return Val(
                        Level.TRACED,
                        Origin(
                            cst.Module([]).code_for_node(call)[:40],
                            f"made by `{short}` inside `{info.name}`",
                            info,
                        ),
                        array=True,
                        computed=True,
                    )
                return Val(joined.level, joined.origin, False, True, joined.level > Level.STATIC)
            if qn in TRANSFORMS or qn in PARTIAL:
                return STATIC  # builds a function
            if qn in NUMPY_ARRAY_METHODS and args and args[0][0] is None:
                first = args[0][1]
                if first.traced and not first.container:
                    # ``np.mean(x)`` is ``x.mean()``: a tracer of a tracer
                    return Val(first.level, first.origin, False, True, True)
        if type(func) is cst.Call:
            # ``jax.jit(f)(x)``, ``jax.vmap(f)(x)``: the wrapped function's results
            self._eval(func)
            inner = self.a._transform_of(func.func)
            if inner is not None:
                if joined.level > Level.STATIC:
                    return Val(joined.level, joined.origin, False, True, joined.computed)
                if info is None:  # host code: a concrete jax.Array
                    return Val(Level.STATIC, array=True)
                return Val(Level.MAYBE if not staging else Level.TRACED, joined.origin, array=True)
        else:
            attribute = type(func) is cst.Attribute
            base = self._eval(func) if attribute else None
            if (
                attribute
                and base is not None
                and base.level > Level.STATIC
                # ``self.helper(x)`` with a maybe-traced ``self``: the method is resolved below
                and not (self._local_target(call) is not None and self.info is not None)
            ):
                method = func.attr.value
                if method in ("item", "tolist", "__bool__", "__float__", "__int__", "__index__"):
                    return STATIC
                array = base.array or base.traced
                return Val(base.level, base.origin, False, array, base.computed)
        if info is None and self.a.transformed_callee(call, self.fn) is not None:
            # host code calls a jitted/vmapped function: its results are jax.Arrays
            # (unless the function returns nothing)
            local = self._local_target(call)
            if local is not None and not _returns_value(local[0]):
                return STATIC
            return Val(Level.STATIC, array=True)
        target = self._local_target(call)
        if target is None and info is not None and self.a.project is not None:
            if type(func) in (cst.Name, cst.Attribute) and (qn is None or "." in qn):
                self.a.foreign_calls.append((info, call, args))
        if target is not None and info is not None:
            fn, skip_first = target
            self.a.call_helper(info, call, fn, args, skip_first)
            ret = self.a.returns.get(id(fn))
            if ret is not None:
                return ret if ret.level <= joined.level or ret.origin is None else ret
            level = min(joined.level, Level.MAYBE)
            return Val(level, joined.origin, False, joined.array, joined.computed)
        if target is not None:
            fn, _ = target
            callee = self.a.functions.get(id(fn))
            if (
                callee is not None
                and callee.staging
                and callee.caller is None
                and not fn.decorators  # decorated: transformed_callee decided above
                and _returns_value(fn)
            ):
                # calling a jitted function from host code returns jax.Arrays
                return Val(Level.STATIC, array=True)
        if joined.traced and staging and type(func) is cst.Name:
            callee = self._lookup(func.value)
            origin = callee.origin
            if (
                callee.traced
                and origin is not None
                and origin.func is info
                and origin.param == func.value
                and origin.name == func.value
            ):
                # ``model(x)`` for a traced parameter ``model`` of a jit-like function
                # (an NNX/Equinox module under ``nnx.jit``/``eqx.filter_jit``, a
                # ``tree_util.Partial``): its leaves are tracers and so is what it
                # computes from a traced argument (one array or a pytree of them)
                return Val(Level.TRACED, joined.origin, False, True, False)
        if joined.level > Level.STATIC:
            return Val(Level.MAYBE, joined.origin, False, joined.array, joined.computed)
        return STATIC

    def _local_target(self, call: cst.Call) -> tuple[cst.FunctionDef, bool] | None:
        func = call.func
        if type(func) is cst.Name:
            resolved = self.a._resolve_callable(func)
            if resolved is not None and type(resolved[0]) is cst.FunctionDef:
                return resolved[0], False
            return None
        if (
            type(func) is cst.Attribute
            and type(func.value) is cst.Name
            and func.value.value == "self"
            and type(self.fn) is cst.FunctionDef
        ):
            cls = self.a._class_of.get(id(self.fn))
            if cls is None:
                return None
            for stmt in cls.body.body:
                if type(stmt) is cst.FunctionDef and stmt.name.value == func.attr.value:
                    return stmt, True
        return None


_LITERAL_SEQS = frozenset({cst.Tuple, cst.List, cst.Set})

_EvalHandler = Callable[[_FunctionWalker, cst.BaseExpression], Val]

_EVAL_KINDS: tuple[tuple[tuple[type[cst.CSTNode], ...], _EvalHandler], ...] = (
    ((cst.Name,), _FunctionWalker._eval_name),
    (
        (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis),
        _FunctionWalker._eval_static,
    ),
    ((cst.ConcatenatedString,), _FunctionWalker._eval_concatenated),
    ((cst.FormattedString,), _FunctionWalker._eval_formatted),
    ((cst.Attribute,), _FunctionWalker._eval_attribute),
    ((cst.Subscript,), _FunctionWalker._eval_subscript),
    ((cst.Call,), _FunctionWalker._call),
    ((cst.BinaryOperation,), _FunctionWalker._eval_binary),
    ((cst.UnaryOperation,), _FunctionWalker._eval_unary),
    ((cst.BooleanOperation,), _FunctionWalker._eval_boolean),
    ((cst.Comparison,), _FunctionWalker._eval_comparison),
    ((cst.IfExp,), _FunctionWalker._eval_if_exp),
    ((cst.Tuple, cst.List, cst.Set), _FunctionWalker._eval_sequence),
    ((cst.Dict,), _FunctionWalker._eval_dict),
    (
        (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp),
        _FunctionWalker._comprehension,
    ),
    ((cst.Lambda,), _FunctionWalker._eval_static),
    ((cst.NamedExpr,), _FunctionWalker._eval_named),
    ((cst.StarredElement,), _FunctionWalker._eval_starred),
    ((cst.Await, cst.Yield), _FunctionWalker._eval_await_yield),
)  # type: ignore[assignment]
"""Which handler evaluates an expression: the first entry it is an instance of."""

_EVAL_HANDLERS: dict[type, _EvalHandler] = {}
"""The handler of each expression class seen so far (filled by ``_eval_handler``)."""


def _eval_handler(cls: type) -> _EvalHandler:
    handler = next(
        (h for classes, h in _EVAL_KINDS if issubclass(cls, classes)),
        _FunctionWalker._eval_static,
    )
    _EVAL_HANDLERS[cls] = handler
    return handler


def _returns_value(fn: cst.FunctionDef) -> bool:
    """``fn`` has a ``return <value>`` (nested functions aside)."""
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Return) and node.value is not None:
            return True
        for child in children(node):
            if not isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                stack.append(child)
    return False


def _fn_name(fn: cst.CSTNode | None) -> str:
    if isinstance(fn, cst.FunctionDef):
        return fn.name.value
    return "<lambda>"


def _short(qn: str) -> str:
    for long, short in (
        ("jax.numpy.", "jnp."),
        ("jax.lax.", "lax."),
        ("jax.random.", "jax.random."),
    ):
        if qn.startswith(long):
            return short + qn[len(long) :]
    return qn
