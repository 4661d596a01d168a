"""Static parameters of the project's jitted functions, and the functions that hand one of
their own parameters on to such a parameter unchanged.

``jax.jit(f, static_argnums=...)`` hashes the arguments given for ``f``'s static
parameters; an unhashable one (a list, a dict) raises ``ValueError`` at the call. A
public function often forwards to a private jitted one::

    @partial(jit, static_argnums=(1,))
    def _mesh_eval(func, x_limits): ...

    def mesh_eval(func, x_limits):
        return _mesh_eval(func, x_limits)

``mesh_eval``'s ``x_limits`` is then as static as ``_mesh_eval``'s: a list given to it
fails in ``_mesh_eval``. One fact per module-level ``def`` (``module_static_forwards``),
published in the module's summary (``static_via``: parameter -> [callee, its static
parameter]), so that calls in other modules see it too, through any number of such
functions. The jitted callee is a ``def`` of the module jitted by its decorator, a name
bound to ``jax.jit(g, ...)``, an imported jitted function (its summary's ``static``), or
another forwarding function. A parameter counts only when the function never binds it
again (``x = tuple(x)`` makes it hashable) and passes it as is, by position or keyword.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.jit_params import own_calls
from jaxlint.analysis.names import dotted
from jaxlint.analysis.trace_values import bind_arguments, positional_params
from jaxlint.analysis.transforms import COMPILING, TRANSFORMS

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel

ARGNUM_TRANSFORMS = frozenset(q for q in COMPILING if TRANSFORMS[q].has_static_args)
"""Transforms that take ``static_argnums``/``static_argnames`` and hash those arguments
(``jax.jit``, ``jax.pmap``; not Equinox's ``filter_jit``, which treats a list as a pytree)."""

Forwards = dict[str, list[str]]
"""parameter -> [the jitted callee's name as the code calls it, its static parameter]."""

_MODULE_FORWARDS: weakref.WeakKeyDictionary[Any, dict[str, Forwards]] = weakref.WeakKeyDictionary()


def static_signature(
    model: SemanticModel,
    trace: Any,
    func: cst.BaseExpression,
    local: Callable[[], dict[str, Forwards]] | None = None,
) -> tuple[list[str], set[str], Forwards] | None:
    """What a call of ``func`` hashes: (its positional parameters, the static ones of a
    jitted function, the forwarded ones of a forwarding function); ``None`` when it is
    neither or unknown. ``local`` gives this module's forwarding functions (asked only
    for a call of a plain ``def`` of the module)."""
    if type(func) is cst.Name:
        found = model.lookup(func.value, model.scope_for(func))
        if found is not None and found[0] is model.module_scope:
            bindings = found[1]
            if len(bindings) != 1:
                return None
            binding = bindings[0]
            if binding.kind == "def" and type(binding.node) is cst.FunctionDef:
                fn = binding.node
                statics = _decorated_statics(trace, fn)
                forwards = {} if statics or local is None else local().get(func.value, {})
                if statics or forwards:
                    return positional_params(fn), statics or set(), forwards
                return None
            if binding.kind == "assign":
                value = model.assigned.get(id(binding.node))
                if type(value) is cst.Call:
                    return _wrapped_statics(trace, value)
                return None
            if binding.kind != "import":
                return None
    elif type(func) is cst.Attribute:
        root = func.value
        while type(root) is cst.Attribute:
            root = root.value
        if type(root) is not cst.Name:
            return None
        found = model.lookup(root.value, model.scope_for(root))
        if found is None or any(b.kind != "import" for b in found[1]):
            return None  # ``x.sum()``, ``self.step(...)``: not a module's function
    else:
        return None
    fact = trace.imported_function(func)
    if fact is None:
        return None
    params = fact.get("params")
    if not isinstance(params, list) or fact.get("partial") or fact.get("posonly"):
        return None
    statics: set[str] = set()
    if fact.get("transform") in ARGNUM_TRANSFORMS and not fact.get("unknown_static"):
        statics = {s for s in fact.get("static") or () if isinstance(s, str)}
    via = fact.get("static_via")
    forwards = via if isinstance(via, dict) else {}
    if not statics and not forwards:
        return None
    return [p for p in params if isinstance(p, str)], statics, forwards


def _decorated_statics(trace: Any, fn: cst.FunctionDef) -> set[str] | None:
    if not fn.decorators:
        return None
    got = trace.transform_of(fn.decorators[0].decorator)  # the outermost decides
    if got is None or got[0].qualname not in ARGNUM_TRANSFORMS:
        return None
    info = trace.info(fn)
    if info is None or info.unknown_statics:
        return None
    return set(info.static_params)


def _wrapped_statics(trace: Any, value: cst.Call) -> tuple[list[str], set[str], Forwards] | None:
    """``g = jax.jit(h, static_argnums=...)``."""
    got = trace.transform_of(value.func)
    if got is None or got[0].qualname not in ARGNUM_TRANSFORMS:
        return None
    first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
    if first is None:
        return None
    resolved = trace.resolve_callable(first)
    if resolved is None or not isinstance(resolved[0], cst.FunctionDef):
        return None
    fn, bound, bound_keywords = resolved
    if bound or bound_keywords:
        return None  # ``jax.jit(partial(h, ...))``: the positions move; left out
    info = trace.info(fn)
    if info is None or info.unknown_statics or not info.static_params:
        return None
    return positional_params(fn), set(info.static_params), {}


def hashed_arguments(
    call: cst.Call, signature: tuple[list[str], set[str], Forwards]
) -> Iterator[tuple[cst.Arg, str, list[str] | None]]:
    """The arguments of ``call`` that the callee (or a jitted function it forwards them
    to) hashes, each with the callee's parameter and, for a forwarded one, [the jitted
    function, its static parameter]."""
    params, statics, forwards = signature
    for arg, name in bind_arguments(call, params):
        if name in statics:
            yield arg, str(name), None
        elif name in forwards:
            yield arg, str(name), forwards[str(name)]


def module_static_forwards(model: SemanticModel, trace: Any) -> dict[str, Forwards]:
    """The module-level ``def``s that hand a parameter on unchanged to a static
    parameter of a jitted function (see the module's docstring). Two passes, so that a
    forwarding function of the module may call another defined below it."""
    cached = _MODULE_FORWARDS.get(model)
    if cached is not None:
        return cached
    facts: dict[str, Forwards] = {}
    defs = [
        b.node
        for bindings in model.module_scope.bindings.values()
        if len(bindings) == 1 and bindings[0].kind == "def"
        for b in bindings
        if type(b.node) is cst.FunctionDef
    ]
    for _ in range(2):
        changed = False
        for fn in defs:
            if _decorated_statics(trace, fn) is not None:
                continue  # jitted itself: its own statics say it
            found = _forwards(fn, model, trace, facts)
            if found and found != facts.get(fn.name.value):
                facts[fn.name.value] = found
                changed = True
        if not changed:
            break
    _MODULE_FORWARDS[model] = facts
    return facts


def _forwards(
    fn: cst.FunctionDef, model: SemanticModel, trace: Any, local: dict[str, Forwards]
) -> Forwards:
    scope = model.scope_of_node.get(id(fn))
    if scope is None:
        return {}
    own = {
        name
        for name, bindings in scope.bindings.items()
        if len(bindings) == 1 and bindings[0].kind == "param"
    }
    params = set(positional_params(fn)) | {p.name.value for p in fn.params.kwonly_params}
    own &= params
    if not own:
        return {}
    out: Forwards = {}
    name_cls = cst.Name
    candidates = [
        n
        for n in model.body_nodes(fn)  # source order: the first forwarding call names it
        if type(n) is cst.Call
        and any(type(a.value) is name_cls and a.value.value in own for a in n.args)
    ]
    if not candidates:
        return out  # most functions: no call passes a parameter as is (the body's events)
    mine = {id(c) for c in own_calls(fn)}  # not those of nested functions or lambdas
    for node in candidates:
        if id(node) not in mine:
            continue
        if type(node.func) not in (cst.Name, cst.Attribute):
            continue
        if type(node.func) is cst.Name and node.func.value == fn.name.value:
            continue  # recursion
        signature = static_signature(model, trace, node.func, lambda: local)
        if signature is None:
            continue
        callee = dotted(node.func) or "the function"
        for arg, param, via in hashed_arguments(node, signature):
            value = arg.value
            if type(value) is name_cls and value.value in own and value.value not in out:
                out[value.value] = [callee, param] if via is None else via
    return out
