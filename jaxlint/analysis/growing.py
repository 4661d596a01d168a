"""Arguments that grow on every iteration of a loop, so that every call of a jitted
function has a new shape and JAX traces and compiles it again whatever else is kept.

Two ways the code makes an argument ``x`` of ``f(x, ...)`` (called in a loop) longer each
time, both read from the code alone:

- the loop rebinds it to itself joined with more: ``x = jnp.concatenate([x, y])``
  (``append``, ``vstack``, ``hstack``... of ``jax.numpy`` or ``numpy``);
- the call hands it back that way: ``a, x = f(a, x)`` where every ``return`` of ``f``
  (a function of the module) gives, at ``x``'s position, the parameter ``x`` joined with
  more, directly or through a name it binds so (``x = jnp.concatenate([x, new])``).

JAX keys its trace cache on the shapes of the arguments: a new length is a new trace and
a new compilation (``tests/test_compilation_runtime.py`` counts them).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trace_values import positional_params
from jaxlint.analysis.walk import descendants, own_nodes

_JOINS = frozenset(
    f"{lib}.{name}"
    for lib in ("jax.numpy", "numpy")
    for name in (
        "concatenate", "concat", "append", "vstack", "hstack", "dstack", "row_stack",
        "column_stack",
    )
)  # fmt: skip
"""Functions whose result is their first argument (or the arrays listed there) joined with
more along an axis: longer than each input."""

Resolve = Callable[
    [cst.BaseExpression], "tuple[cst.FunctionDef | cst.Lambda, int, frozenset[str]] | None"
]


def growing_argument(
    model: SemanticModel,
    resolve: Resolve,
    fexpr: cst.BaseExpression,
    call: cst.Call,
    loop: cst.CSTNode,
) -> tuple[str, cst.Call] | None:
    """The name of a positional argument of ``call`` (a call, in ``loop``, of the function
    ``fexpr`` wrapped by a transform) that grows on every iteration, with the join that
    makes it longer; ``None`` when no argument is seen to grow."""
    args = [a for a in call.args if a.keyword is None and not a.star]
    if any(a.star for a in call.args):
        return None
    names = {a.value.value: i for i, a in enumerate(args) if type(a.value) is cst.Name}
    if not names:
        return None
    for node in descendants(loop):
        if type(node) is cst.Assign and len(node.targets) == 1:
            target = node.targets[0].target
            if type(target) is cst.Name and target.value in names:
                join = _joins(model, node.value, target.value)
                if join is not None:
                    return target.value, join
    returned = _returned_positions(model, call)
    if not returned:
        return None
    resolved = resolve(fexpr)
    if resolved is None or type(resolved[0]) is not cst.FunctionDef or resolved[2]:
        return None
    fn: cst.FunctionDef = resolved[0]  # type: ignore[assignment]
    params = positional_params(fn)
    for position, name in returned.items():
        index = names.get(name)
        if index is None or index >= len(params):
            continue
        join = _returns_joined(model, fn, position, params[index])
        if join is not None:
            return name, join
    return None


def _joins(model: SemanticModel, value: cst.BaseExpression, name: str) -> cst.Call | None:
    """``value`` is ``name`` joined with more (``jnp.concatenate([name, y])``)."""
    if type(value) is not cst.Call or model.call_name(value) not in _JOINS:
        return None
    first = next((a for a in value.args if a.keyword is None and not a.star), None)
    if first is None:
        return None
    items: list[cst.BaseExpression] = [first.value]
    if type(first.value) in (cst.List, cst.Tuple):
        items = [el.value for el in first.value.elements]  # type: ignore[attr-defined]
        if len(items) < 2:
            return None
    elif model.call_name(value) not in ("jax.numpy.append", "numpy.append"):
        return None
    return value if any(type(i) is cst.Name and i.value == name for i in items) else None


def _returned_positions(model: SemanticModel, call: cst.Call) -> dict[int, str]:
    """``a, x = call``: the position of each plain name among the targets."""
    parent = model.parents.get(id(call))
    if type(parent) is not cst.Assign or parent.value is not call or len(parent.targets) != 1:
        return {}
    target = parent.targets[0].target
    if type(target) not in (cst.Tuple, cst.List):
        return {}
    elements = target.elements  # type: ignore[attr-defined]
    if any(type(el) is cst.StarredElement for el in elements):
        return {}
    return {i: el.value.value for i, el in enumerate(elements) if type(el.value) is cst.Name}


def _returns_joined(
    model: SemanticModel, fn: cst.FunctionDef, position: int, param: str
) -> cst.Call | None:
    """Every ``return`` of ``fn`` gives, at ``position`` of its tuple, ``param`` joined with
    more (directly, or a name ``fn`` binds only to such a join); the join, else ``None``."""
    own = list(own_nodes(fn))
    joined: dict[str, cst.Call] = {}
    rebound: set[str] = set()
    for node in own:
        if type(node) is cst.Assign and len(node.targets) == 1:
            target = node.targets[0].target
            if type(target) is cst.Name:
                join = _joins(model, node.value, param)
                if join is not None and target.value not in rebound:
                    joined[target.value] = join
                else:
                    rebound.add(target.value)
                    joined.pop(target.value, None)
    found: cst.Call | None = None
    returns = [n for n in own if type(n) is cst.Return]
    if not returns:
        return None
    for ret in returns:
        value = ret.value
        if type(value) is not cst.Tuple or position >= len(value.elements):
            return None
        element = value.elements[position].value
        join = (
            joined.get(element.value)
            if type(element) is cst.Name
            else _joins(model, element, param)
        )
        if join is None:
            return None
        found = found or join
    return found
