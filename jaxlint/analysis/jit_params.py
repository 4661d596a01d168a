"""Project functions that jit a function they are given: ``maybe_jit(fn, ...)`` returns
``jax.jit(fn, ...)``, ``fori_collect(..., transform)`` jits a closure that calls
``transform``. A fresh callable passed there (a lambda, a nested ``def``, a ``partial``)
is a new function for ``jit`` on every call, so it is traced and compiled each time.

One fact per module-level ``def``, computed once per module (``module_jit_params``) and
published in the module's summary (``jits``), so that other modules ask it through
``ProjectFacts.function``. Each entry:

- ``param``/``index``: the parameter (its name, its position among the positional
  parameters, ``None`` when keyword-only);
- ``how``: ``returns`` (the function returns the jitted function: a jit wrapper) or
  ``calls`` (it calls it: one compile per call for a new function);
- ``through``: ``None`` when the parameter itself is jitted, ``closure`` when what is
  jitted is a function of the body that calls the parameter;
- ``transform``: the JAX transform (``jax.jit``, ``jax.pmap``, ...).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.trace_values import positional_params
from jaxlint.analysis.transforms import COMPILING, PARTIAL
from jaxlint.analysis.walk import children, descendants, own_nodes

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel

WrapperOf = Callable[[cst.Call], "tuple[str, cst.BaseExpression] | None"]
"""``call`` -> (transform, wrapped expression) when ``call`` jits a function."""

_MODULE_FACTS: weakref.WeakKeyDictionary[Any, dict[str, list[dict[str, Any]]]] = (
    weakref.WeakKeyDictionary()
)


def module_jit_params(
    model: SemanticModel,
    transform_of: Callable[[cst.BaseExpression], Any],
    imported: Callable[[cst.BaseExpression], dict[str, Any] | None] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The module-level ``def``s of the module that jit one of their parameters, with
    the facts above. Two passes: the second sees the first's jit wrappers of the module
    (``fori_collect`` calls ``maybe_jit(loop_fn)``), and ``imported`` answers for the
    functions of other modules of the project (their summaries)."""
    cached = _MODULE_FACTS.get(model)
    if cached is not None:
        return cached
    defs = [
        b.node
        for bindings in model.module_scope.bindings.values()
        if len(bindings) == 1 and bindings[0].kind == "def"
        for b in bindings
        if isinstance(b.node, cst.FunctionDef)
    ]
    facts: dict[str, list[dict[str, Any]]] = {}

    def wrapper_of(call: cst.Call) -> tuple[str, cst.BaseExpression] | None:
        args = [a for a in call.args if a.keyword is None and not a.star]
        found = transform_of(call.func)
        if found is not None:
            qualname = found[0].qualname
            return (qualname, args[0].value) if qualname in COMPILING and args else None
        return project_wrapper(model, call, facts, imported)

    for _ in range(2):
        for fn in defs:
            found = jit_params(fn, model, wrapper_of)
            if found:
                facts[fn.name.value] = found
        if not facts:
            break  # the second pass only differs by the first's wrappers of this module
    _MODULE_FACTS[model] = facts
    return facts


def project_wrapper(
    model: SemanticModel,
    call: cst.Call,
    local: dict[str, list[dict[str, Any]]],
    imported: Callable[[cst.BaseExpression], dict[str, Any] | None] | None,
) -> tuple[str, cst.BaseExpression] | None:
    """``maybe_jit(loop_fn, ...)``: a call of a project function that returns the jit of
    its parameter; (its transform, the argument given for that parameter)."""
    entries = jit_facts_of(model, call.func, local, imported)
    for entry in entries:
        if entry["how"] != "returns" or entry["through"] is not None:
            continue
        arg = argument_for(call, entry)
        if arg is not None:
            return entry["transform"], arg
    return None


def jit_facts_of(
    model: SemanticModel,
    func: cst.BaseExpression,
    local: dict[str, list[dict[str, Any]]],
    imported: Callable[[cst.BaseExpression], dict[str, Any] | None] | None,
) -> list[dict[str, Any]]:
    """The jit facts of the function ``func`` names: a ``def`` of this module, else what
    the project says of an imported one."""
    if type(func) is cst.Name:
        found = model.lookup(func.value, model.scope_for(func))
        if found is not None and found[0] is model.module_scope:
            bindings = found[1]
            if len(bindings) == 1 and bindings[0].kind == "def":
                return local.get(func.value, [])
            if any(b.kind != "import" for b in bindings):
                return []
    if imported is None or type(func) not in (cst.Name, cst.Attribute):
        return []
    fact = imported(func)
    jits = fact.get("jits") if fact is not None else None
    return jits if isinstance(jits, list) else []


def argument_for(call: cst.Call, entry: dict[str, Any]) -> cst.BaseExpression | None:
    """The argument ``call`` passes for the parameter of ``entry`` (by position or by
    keyword); ``None`` when a ``*args``/``**kwargs`` hides it or none is passed."""
    index = entry.get("index")
    position = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if position == index:
                return arg.value
            position += 1
        elif arg.keyword.value == entry["param"]:
            return arg.value
    return None


def jit_params(
    fn: cst.FunctionDef, model: SemanticModel, wrapper_of: WrapperOf
) -> list[dict[str, Any]]:
    """The parameters ``fn`` jits (see the module's docstring), found in its own code."""
    scope = model.scope_of_node.get(id(fn))
    if scope is None:
        return []
    positional = positional_params(fn)
    params = set(positional) | {p.name.value for p in fn.params.kwonly_params}
    call_cls = cst.Call
    if not any(
        type(n) is call_cls and _candidate(n, scope, params) and wrapper_of(n) is not None
        for n in model.body_nodes(fn)
    ):
        return []  # most functions: no call jits anything (the body's events, no walk)
    out: dict[tuple[str, str | None], dict[str, Any]] = {}
    for call in own_calls(fn):
        if not _candidate(call, scope, params):
            continue
        found = wrapper_of(call)
        if found is None:
            continue
        transform, fexpr = found
        how = _use(call, fn, model, scope)
        if how is None:
            continue
        for param, through in _jitted_params(fexpr, model, scope, params):
            key = (param, through)
            if key in out and out[key]["how"] == "calls":
                continue
            out[key] = {
                "param": param,
                "index": positional.index(param) if param in positional else None,
                "how": how,
                "through": through,
                "transform": transform,
            }
    return [
        e
        for e in out.values()
        if e["how"] != "returns" or e["through"] is not None or _wrapper(fn, e, wrapper_of)
    ]


def _wrapper(fn: cst.FunctionDef, entry: dict[str, Any], wrapper_of: WrapperOf) -> bool:
    """Every ``return`` of ``fn`` gives the jit of the parameter or the parameter itself
    (``return fn if DISABLE else jax.jit(fn)``): a jit wrapper. ``map_fn``, which returns
    ``jax.pmap(fn)``, ``jax.vmap(fn)`` or a ``partial`` by its first argument, is not one."""
    param = entry["param"]

    def ok(value: cst.BaseExpression | None) -> bool:
        if type(value) is cst.IfExp:
            return ok(value.body) and ok(value.orelse)
        if type(value) is cst.Name:
            return value.value == param or value.value in jitted_names
        if type(value) is cst.Call:
            found = wrapper_of(value)
            return found is not None and type(found[1]) is cst.Name and found[1].value == param
        return False

    jitted_names: set[str] = set()
    returns: list[cst.Return] = []
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if type(node) is cst.Return:
            returns.append(node)
        elif type(node) is cst.Assign and len(node.targets) == 1 and ok(node.value):
            target = node.targets[0].target
            if type(target) is cst.Name:
                jitted_names.add(target.value)
        stack.extend(children(node))
    return bool(returns) and all(ok(r.value) for r in returns)


def _candidate(call: cst.Call, scope: Any, params: set[str]) -> bool:
    """A call that passes a parameter, a lambda or a function of the body (only those
    are asked about: cheap, and it keeps the questions to other modules few)."""
    for arg in call.args:
        value = arg.value
        if type(value) is cst.Call and value.args:
            value = value.args[0].value  # ``partial(fn, ...)``
        if type(value) is cst.Lambda:
            return True
        if type(value) is cst.Name:
            if value.value in params:
                return True
            bindings = scope.bindings.get(value.value, ())
            if len(bindings) == 1 and bindings[0].kind in ("def", "assign"):
                return True
    return False


def own_calls(fn: cst.FunctionDef) -> Iterator[cst.Call]:
    """The calls of ``fn``'s body, nested functions, lambdas and classes left out."""
    for node in own_nodes(fn):
        if type(node) is cst.Call:
            yield node  # type: ignore[misc]


def _use(call: cst.Call, fn: cst.FunctionDef, model: SemanticModel, scope: Any) -> str | None:
    """How ``fn`` uses the jitted function ``call`` makes: ``calls`` (called there, at
    once or through the name it is bound to), ``returns``, or ``None``."""
    parent = _parent(fn, call)
    node: cst.CSTNode = call
    while isinstance(parent, cst.IfExp) and node is not parent.test:
        node, parent = parent, _parent(fn, parent)  # ``fn if DISABLE else jax.jit(fn)``
    if isinstance(parent, cst.Call) and parent.func is node:
        return "calls"
    if isinstance(parent, cst.Return):
        return "returns"
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and parent.value is node:
        target = parent.targets[0].target
        if isinstance(target, cst.Name) and len(scope.bindings.get(target.value, ())) == 1:
            how = None
            for node in descendants(fn.body):
                if type(node) is cst.Call and type(node.func) is cst.Name:
                    if node.func.value == target.value:
                        return "calls"
                elif type(node) is cst.Return and type(node.value) is cst.Name:
                    if node.value.value == target.value:
                        how = "returns"
            return how
    return None


def _parent(fn: cst.FunctionDef, child: cst.CSTNode) -> cst.CSTNode | None:
    stack: list[cst.CSTNode] = [fn]
    while stack:
        node = stack.pop()
        for c in children(node):
            if c is child:
                return node
            stack.append(c)
    return None


def _jitted_params(
    fexpr: cst.BaseExpression, model: SemanticModel, scope: Any, params: set[str]
) -> Iterator[tuple[str, str | None]]:
    """The parameters of the function whose ``scope`` this is that the jitted
    expression is (``jax.jit(fn)``, ``partial(fn, ...)``) or calls (a lambda or a
    nested ``def`` of the body, bound once, that calls ``transform(...)``)."""
    if type(fexpr) is cst.Call and model.call_name(fexpr) in PARTIAL and fexpr.args:
        fexpr = fexpr.args[0].value
    if type(fexpr) is cst.Lambda:
        yield from ((p, "closure") for p in _called_params(fexpr.body, model, scope, params))
        return
    if type(fexpr) is not cst.Name:
        return
    bindings = scope.bindings.get(fexpr.value, ())
    if model.scope_for(fexpr) is not scope or len(bindings) != 1:
        return
    binding = bindings[0]
    if binding.kind == "param":
        if fexpr.value in params:
            yield fexpr.value, None
        return
    if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
        body: cst.CSTNode | None = binding.node.body
    else:
        body = model.assigned.get(id(binding.node))
        if type(body) is cst.Lambda:
            body = body.body
        elif body is not None and not (type(body) is cst.Call and model.call_name(body) in PARTIAL):
            body = None
    if body is not None:
        yield from ((p, "closure") for p in _called_params(body, model, scope, params))


def _called_params(
    body: cst.CSTNode, model: SemanticModel, scope: Any, params: set[str]
) -> set[str]:
    """The parameters of ``scope``'s function that ``body`` calls (``transform(x)``) or
    passes to ``partial``."""
    out: set[str] = set()
    for node in descendants(body):
        if type(node) is not cst.Call:
            continue
        callee = node.func
        if model.call_name(node) in PARTIAL and node.args:
            callee = node.args[0].value
        if type(callee) is not cst.Name or callee.value not in params:
            continue
        found = model.lookup(callee.value, model.scope_for(callee))
        if found is not None and found[0] is scope and any(b.kind == "param" for b in found[1]):
            out.add(callee.value)
    return out
