"""What the trace analysis says about a function and a value: :class:`TracedFunction`
(why a function is traced, said the shortest true way), :class:`Val` and its
:class:`Level` (static, maybe, traced) and where a tracer came from (:class:`Origin`);
the answers of :mod:`jaxlint.analysis.tracing`."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from jaxlint.analysis.transforms import (
    PASSED_AS_IS_SPECS,
    Transform,
)
from jaxlint.analysis.walk import children


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
    external_passed: set[str] | None = field(default_factory=set)
    """The parameters those calls pass (``None``: unknown, a ``*args``/``**kw`` call);
    the others keep their defaults in every traced call."""
    external_none: set[str] = field(default_factory=set)
    """The parameters those calls give as a literal ``None`` (not in ``external_passed``
    unless a call passes something else)."""
    external_literal: dict[str, bool | None] = field(default_factory=dict)
    """The parameters in ``external_passed`` -> the truth of the literal every such call
    gives it (``check=False``), or ``None`` when one gives something else."""
    contract: bool = False
    """Traced by a framework's contract (a Flax module's ``__call__``, an optax
    ``update``; see :mod:`jaxlint.analysis.trace_contract`): it runs traced whenever the
    user's training step is jitted, and eagerly otherwise."""

    def presumed(self, _seen: set[int] | None = None) -> bool:
        """Traced only by a framework's contract: the function itself (``contract``), or
        every reason and every traced caller that makes it traced goes back to one (a
        helper of a module's ``__call__``, in this module or, through the summaries,
        another). No transform in sight traces it: it runs traced when the user's step
        is jitted, as it usually is, and eagerly when the user calls it directly."""
        if self.contract:
            return True
        seen = set() if _seen is None else _seen
        if id(self) in seen:
            return True  # a cycle of calls adds no reason of its own
        seen.add(id(self))
        reasons = [*self.own, *self.bodies]
        if any(not r.presumed for r in reasons):
            return False
        callers = [edge.caller for edge in self.calls.values()]
        if self.caller is not None:
            callers.append(self.caller)
        if not reasons and not callers:
            return False
        return all(c.presumed(seen) for c in callers)

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
    tail: str = ""
    """Said after the line (``given to `hk.transform` at line 9, traced whenever ...``)."""
    presumed: bool = False
    """A framework's contract, not a transform in sight: a call from a function of
    another module that is traced only by contract (:meth:`TracedFunction.presumed`)."""

    def at(self, line_of: LineOf) -> str:
        if self.located:
            return self.verb + self.tail
        return f"{self.verb} at line {line_of(self.site)}{self.tail}"


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
    keys: tuple[tuple[str, Val], ...] | None = None
    """A dict built here with string keys (``{"w": jnp.ones(3), "steps": int(n)}``): the
    value of each entry, so that ``p["steps"]`` and ``p.get("steps", n)`` read the entry's
    own value rather than the whole dict's (zoomy-jax's dicts of weights and Python
    hyperparameters, fresh-2026-12t)."""

    @property
    def traced(self) -> bool:
        return self.level is Level.TRACED

    def entry(self, key: str) -> Val | None:
        """The value of entry ``key``, when this is a dict of known keys that has it."""
        if self.keys is None:
            return None
        for k, v in self.keys:
            if k == key:
                return v
        return None

    @property
    def mixed(self) -> bool:
        """A dict of known keys (or a tuple or list display, by position) that holds both
        traced and static entries: passed whole to a function, each entry there is only
        maybe traced."""
        if self.keys is None or self.level is not Level.TRACED:
            return False
        return any(v.level is Level.STATIC for _, v in self.keys)


STATIC = Val()
MAYBE = Val(Level.MAYBE)


def join(*vals: Val) -> Val:
    best = STATIC
    array = False
    keyed = False
    for v in vals:
        array = array or v.array
        keyed = keyed or v.keys is not None
        if v.level > best.level or (v.level == best.level and best.origin is None):
            best = v
    if keyed:
        return _join_keys(vals, best, array)
    if best.array != array:
        best = Val(best.level, best.origin, best.container, array, best.computed)
    return best


def positions(val: Val) -> list[Val] | None:
    """The elements, by position, of a tuple or list display that mixes traced and static
    elements (kept as the entries ``#0``, ``#1``...), else ``None``."""
    if val.keys is None or not val.keys or not all(k.startswith("#") for k, _ in val.keys):
        return None
    return [v for _, v in val.keys]


def passed_level(val: Val) -> Level:
    """The level an argument gives the parameter it is passed to: a dict of known keys
    that mixes traced and static entries gives only maybe traced (an entry read there
    may be either)."""
    return Level.MAYBE if val.mixed else val.level


def _join_keys(vals: Sequence[Val], best: Val, array: bool) -> Val:
    """The join of values some of which are dicts of known keys: each key's entry joins
    the entries of those that have it and, at most maybe traced, those that are not such
    dicts (a parameter's dict may hold anything under that key: a Python value as well as
    an array); a dict of known keys that lacks the key adds nothing (the lookup fails or
    gives the default there). Positions of a tuple (``#0``...) join the whole of a value
    that is not a display as it is: a traced array unpacked gives traced elements."""
    names: dict[str, None] = {}
    for v in vals:
        for k, _ in v.keys or ():
            names[k] = None
    entries = []
    for k in names:
        parts = []
        for v in vals:
            if v.keys is None:
                if v.level is Level.TRACED and not k.startswith("#"):
                    v = Val(Level.MAYBE, v.origin, False, v.array, False)
                parts.append(v)  # (a traced array unpacked by position: traced elements)
            else:
                got = v.entry(k)
                if got is not None:
                    parts.append(got)
        entries.append((k, join(*parts)))
    return Val(best.level, best.origin, best.container, array, best.computed, tuple(entries))


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


def passed_as_is(wrap: _Wrap) -> set[int]:
    """Positions (after any ``partial``-bound ones) of the arguments that ``wrap``'s
    transform hands to the function unchanged: ``shard_map``'s ``in_specs`` entry
    ``None`` (a Python int stays a Python int; checked on jax 0.12, eager and under
    an outer ``jit``, where it is traced only if the outer ``jit`` traces it). Only a
    literal tuple or list of specs is read."""
    key = PASSED_AS_IS_SPECS.get(wrap.transform.qualname)
    specs = wrap.kwargs.get(key) if key is not None else None
    if type(specs) not in (cst.Tuple, cst.List):
        return set()
    return {
        i
        for i, el in enumerate(specs.elements)  # type: ignore[union-attr]
        if type(el.value) is cst.Name and el.value.value == "None"  # type: ignore[attr-defined]
    }


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


def bind_arguments(
    call: cst.Call, params: Sequence[str] | None, shift: int = 0
) -> Iterator[tuple[cst.Arg, str | int]]:
    """Each argument of ``call`` with the parameter it binds, as Python binds it: by
    keyword, or by position in ``params`` (after ``shift`` bound ones, ``self``); the
    position itself where ``params`` is ``None``. Positions after ``*args`` are unknown
    (nothing more is given); ``**kwargs`` is skipped."""
    i = 0
    for arg in call.args:
        if arg.star:
            if arg.star == "*":
                return
            continue
        if arg.keyword is not None:
            yield arg, arg.keyword.value
            continue
        pos = i + shift
        i += 1
        if params is None:
            yield arg, pos
        elif pos < len(params):
            yield arg, params[pos]


def all_param_names(fn: cst.FunctionDef | cst.Lambda) -> list[str]:
    return [param.name.value for param in _params(fn)]


_STATIC_ANNOTATIONS = frozenset(
    {"bool", "int", "str", "float", "Callable", "type", "callable", "Literal", "Sequence[int]"}
)
_ARRAY_ANNOTATION_HINTS = ("Array", "ndarray", "Float[", "Int[", "Bool[", "Shaped[", "PRNGKey")


_SCOPE_NODES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


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
    """Every parameter of ``fn`` in the order Python binds them (the key and the trace
    analyses share this one)."""
    p = fn.params
    out = [*p.posonly_params, *p.params]
    if type(p.star_arg) is cst.Param:
        out.append(p.star_arg)
    out.extend(p.kwonly_params)
    if p.star_kwarg is not None:
        out.append(p.star_kwarg)
    return out


def _annotation_text(param: cst.Param) -> str:
    if param.annotation is None:
        return ""
    return cst.Module([]).code_for_node(param.annotation.annotation)


def annotation_parts(ann: str) -> list[str]:
    """The alternatives of an annotation other than ``None``, spaces removed:
    ``Optional[str]`` and ``str | None`` give ``["str"]``."""
    ann = ann.replace(" ", "")
    if ann.startswith("Optional[") and ann.endswith("]"):
        ann = ann[len("Optional[") : -1]
    return [p for p in ann.split("|") if p != "None"]


_ARRAY_ANNOTATIONS = frozenset(
    {"Array", "ArrayLike", "ndarray", "bool", "int", "float", "complex", "Scalar"}
)
_JAXTYPING = ("Float[", "Int[", "Bool[", "Shaped[", "Num[", "Real[", "Inexact[", "Integer[")


def admits_array(annotation: cst.BaseExpression) -> bool:
    """A union annotation one of whose alternatives is a JAX or NumPy array type
    (``int | jax.Array | None``, ``Optional[jnp.ndarray]``, ``Union[float, ArrayLike]``):
    the author says an array may come. Not an array inside a container or a callable
    (``Sequence[Array]``, ``Callable[..., Array]``)."""
    todo = [annotation]
    while todo:
        ann = todo.pop()
        kind = type(ann)
        if kind is cst.BinaryOperation and type(ann.operator) is cst.BitOr:  # type: ignore[attr-defined]
            todo += [ann.left, ann.right]  # type: ignore[attr-defined]
        elif kind is cst.Subscript:
            base = ann.value  # type: ignore[attr-defined]
            name = base.attr.value if type(base) is cst.Attribute else getattr(base, "value", "")
            if name in ("Optional", "Union"):
                todo += [
                    el.slice.value  # type: ignore[attr-defined]
                    for el in ann.slice  # type: ignore[attr-defined]
                    if type(el.slice) is cst.Index
                ]
        elif kind is cst.Name and ann.value in _ARRAY_TYPES:  # type: ignore[attr-defined]
            return True
        elif kind is cst.Attribute and ann.attr.value in _ARRAY_TYPES:  # type: ignore[attr-defined]
            return True
    return False


_ARRAY_TYPES = frozenset({"Array", "ArrayLike", "ndarray"})


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


def _display_parts(
    values: dict[int, Val], display: cst.Tuple | cst.List, whole: Val
) -> tuple[list[Val] | None, int | None]:
    """The value of each element of a tuple or list display, and the position of its one
    starred element (``None``: none); ``None`` for the parts when it has two."""
    parts: list[Val] = []
    star: int | None = None
    for i, el in enumerate(display.elements):
        if type(el) is cst.StarredElement:
            if star is not None:
                return None, None
            star = i
        parts.append(values.get(id(el.value), whole))
    return parts, star


def _if_exp_parts(
    values: dict[int, Val], expr: cst.IfExp, whole: Val
) -> tuple[list[Val] | None, int | None]:
    """The value of each position of a conditional expression whose two alternatives are
    tuple or list displays of one length, none starred (``(val1, kind2) if k1 == K else
    (val2, kind1)``): each position joins the two elements there. ``None`` for the parts
    otherwise."""
    body, orelse = expr.body, expr.orelse
    if type(body) not in (cst.Tuple, cst.List) or type(orelse) not in (cst.Tuple, cst.List):
        return None, None
    first, star1 = _display_parts(values, body, whole)  # type: ignore[arg-type]
    second, star2 = _display_parts(values, orelse, whole)  # type: ignore[arg-type]
    if first is None or second is None or star1 is not None or star2 is not None:
        return None, None
    if len(first) != len(second):
        return None, None
    return [join(a, b) for a, b in zip(first, second, strict=True)], None


def _by_position(
    target: cst.BaseAssignTargetExpression, parts: list[Val], star: int | None
) -> list[tuple[cst.BaseExpression, Val]] | None:
    """Each name of a tuple target with the part of a returned tuple display it gets:
    ``n, y = helper(x)`` for ``return x.shape[0], x * 2``, and, when the display holds one
    starred element (``return (*rows, n, rep)``), the names before it from the start, the
    names after it from the end and the names in between from the starred value.
    ``None``: not a tuple target of a length that lines up (or a starred target)."""
    if type(target) not in (cst.Tuple, cst.List):
        return None
    elements = target.elements  # type: ignore[attr-defined]
    if any(type(el) is cst.StarredElement for el in elements):
        return None
    if star is None:
        if len(elements) != len(parts):
            return None
        return [(el.value, part) for el, part in zip(elements, parts, strict=True)]
    after = len(parts) - star - 1
    if len(elements) < star + after:
        return None
    out = []
    for i, el in enumerate(elements):
        if i < star:
            part = parts[i]
        elif i >= len(elements) - after:
            part = parts[len(parts) - (len(elements) - i)]
        else:
            part = parts[star]
        out.append((el.value, part))
    return out


_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def _against_strings(expr: cst.Comparison) -> bool:
    """``mode == "train"``, ``kind != "sum"``, ``mode in ("a", "b")``: a string on one side
    of ``==``/``!=``/``in``. JAX arrays and tracers are never equal to a string (the
    comparison falls back to Python's and gives ``False``, checked on JAX 0.12 under
    ``jit``), so the result is a Python bool, decided when JAX traces."""
    left = expr.left
    for comp in expr.comparisons:
        op = type(comp.operator)
        right = comp.comparator
        if op in (cst.Equal, cst.NotEqual):
            if isinstance(left, _STRINGS) or isinstance(right, _STRINGS):
                return True
        elif op in (cst.In, cst.NotIn) and type(right) in (cst.Tuple, cst.List, cst.Set):
            elements = right.elements  # type: ignore[attr-defined]
            if elements and all(isinstance(e.value, _STRINGS) for e in elements):
                return True
        left = right
    return False


def _string_annotation(fn: cst.FunctionDef | cst.Lambda | None, name: str) -> bool:
    """The parameter is annotated as a string (``str``, ``Optional[str]``, ``str | None``,
    ``Literal["a", "b"]``): no JAX transform traces a string (``jit`` rejects one as an
    argument unless it is static)."""
    if fn is None or type(fn) is not cst.FunctionDef:
        return False
    for param in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params):
        if param.name.value != name:
            continue
        parts = annotation_parts(_annotation_text(param))
        return bool(parts) and all(
            p in ("str", "builtins.str") or _string_literal(p) for p in parts
        )
    return False


def _string_literal(ann: str) -> bool:
    """``Literal["a", "b"]``: a ``Literal`` of strings only."""
    for head in ("Literal[", "typing.Literal["):
        if ann.startswith(head) and ann.endswith("]"):
            items = ann[len(head) : -1].split(",")
            return all(i[:1] in ("'", '"') for i in items)
    return False


_TEST_PARTS = (
    cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString, cst.Comparison,
    cst.ComparisonTarget, cst.BooleanOperation, cst.UnaryOperation, cst.BinaryOperation,
)  # fmt: skip


def _test_key(module: cst.Module, test: cst.BaseExpression) -> tuple[str, list[str]] | None:
    """An ``if`` test that gives the same answer again while its names keep their values
    (names, attributes, literals and operators: no call), as its code and its names."""
    from jaxlint.analysis.walk import descendants

    names: list[str] = []
    for node in descendants(test):
        if isinstance(node, (cst.BaseExpression, cst.ComparisonTarget)):
            if not isinstance(node, _TEST_PARTS):
                return None
            if type(node) is cst.Name:
                names.append(node.value)
    return module.code_for_node(test), names


DICT_CHANGES = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})
"""Methods that change which entries a dict holds."""


def one_string(expr: cst.CSTNode | None) -> str | None:
    """The value of a single string literal (``"k"``), else ``None``."""
    if type(expr) is not cst.SimpleString:
        return None
    value = expr.evaluated_value  # type: ignore[attr-defined]
    return value if isinstance(value, str) else None


def string_key(expr: cst.Subscript) -> str | None:
    """``"k"`` of ``p["k"]``: the one index, a string literal."""
    if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
        return None
    return one_string(expr.slice[0].slice.value)  # type: ignore[attr-defined]


def _entry_named(entry: Val, owner: cst.BaseExpression, key: str) -> Val:
    """An entry of a dict of known keys, its origin named as the code reads it
    (``p["w"]`` is traced: computed from ``x``)."""
    origin = entry.origin
    if origin is None or entry.level is Level.STATIC or type(owner) is not cst.Name:
        return entry
    name = f'{owner.value}["{key}"]'
    if origin.name == name:
        return entry
    role = f"computed from `{origin.name}` ({origin.role})"
    renamed = Origin(name, role, origin.func, origin.param)
    return Val(entry.level, renamed, entry.container, entry.array, entry.computed, entry.keys)


def with_entry(current: Val, key: str | None, val: Val) -> Val:
    """A dict of known keys after ``p["k"] = v`` (entry ``k`` is now ``v``); any other
    change (``key`` ``None``: a computed key, ``p.update(...)``) forgets the keys."""
    if key is None:
        entries = None
        level, origin = current.level, current.origin
    else:
        entries = tuple((k, v) for k, v in current.keys or () if k != key) + ((key, val),)
        whole = join(*(v for _, v in entries))
        level, origin = whole.level, whole.origin
    return Val(level, origin, current.container, current.array, False, entries)


def dict_get(
    owner: Val | None,
    method: str,
    receiver: cst.BaseExpression,
    call: cst.Call,
    args: list[tuple[str | None, Val]],
) -> Val | None:
    """``p.get("steps", n)`` on a dict of known keys that has the entry: the entry, joined
    with the default (a path may have left the entry out); ``None`` otherwise."""
    if method != "get" or owner is None or owner.keys is None or not call.args:
        return None
    name = one_string(call.args[0].value)
    entry = owner.entry(name) if name is not None else None
    if entry is None or name is None:
        return None
    entry = _entry_named(entry, receiver, name)
    default = args[1][1] if len(args) > 1 and args[1][0] is None else None
    return join(entry, default) if default is not None else entry


def sequence_positions(
    expr: cst.Tuple | cst.List | cst.Set, vals: list[Val], whole: Val
) -> tuple[tuple[str, Val], ...] | None:
    """``(x_min, pixel_size, height, width)``: a tuple or list display of traced and static
    elements keeps them by position (``#0``, ``#1``..., see :func:`positions`), so that
    passed whole it is ``mixed``; ``None`` for any other display."""
    if (
        whole.level is not Level.TRACED
        or type(expr) is cst.Set
        or not any(v.level is Level.STATIC for v in vals)
        or any(type(el) is cst.StarredElement for el in expr.elements)
    ):
        return None
    return tuple((f"#{i}", v) for i, v in enumerate(vals))
