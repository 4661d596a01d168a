"""JAX505's rewrite of ``jax.device_put_replicated``/``jax.device_put_sharded`` (removed in
JAX 0.10.0): the leaves stacked, then one ``device_put`` with one sharding."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.walk import children
from jaxlint.rules.sharding.helpers import (
    Facts,
    Rewrite,
    Speller,
    bare,
    has_comment,
    has_star,
    is_reference,
    positional,
    walk_all,
)

DEVICE_PUT = {
    "jax.device_put_replicated": ("x", "devices"),
    "jax.device_put_sharded": ("shards", "devices"),
}
"""The removed functions and their parameters."""

_RUNS_OTHER_THAN_ONCE = (
    cst.Lambda,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
    cst.IfExp,
    cst.BooleanOperation,
)


def _path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from ``root`` down to ``target`` (both included), or None."""
    if root is target:
        return [root]
    for child in children(root):
        below = _path_to(child, target)
        if below is not None:
            return [root, *below]
    return None


def _variables_in(node: cst.CSTNode) -> set[str]:
    """The names in ``node`` other than attribute names (``devices`` of ``jax.devices``)."""
    nodes = list(walk_all(node))
    attrs = {id(n.attr) for n in nodes if isinstance(n, cst.Attribute)}
    return {n.value for n in nodes if isinstance(n, cst.Name) and id(n) not in attrs}


def _fresh(base: str, taken: set[str]) -> str:
    name = base
    while name in taken:
        name += "_"
    return name


def device_put_rewrite(
    rule: Facts, call: cst.Call, name: str, line: cst.SimpleStatementLine | None
) -> Rewrite | str:
    """``jax.device_put_replicated``/``device_put_sharded`` as one ``device_put`` of the
    stacked tree with one sharding over a one-axis mesh ``'x'`` (JAX's drop-in
    replacement), or why not."""
    if has_star(call):
        return "it passes `*args` or `**kwargs`"
    params = DEVICE_PUT[name]
    given: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(positional(call)):
        if index >= len(params):
            return "too many arguments"
        given[params[index]] = arg.value
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value not in params:
                return f"`{arg.keyword.value}`"
            given[arg.keyword.value] = arg.value
    if len(given) != 2:
        return "missing arguments"
    if has_comment(call):
        return "comments inside the call"
    data, devices = given[params[0]], given["devices"]
    code = rule.ctx.code
    s = Speller(rule, call.func)
    leaf = _fresh("leaf", _variables_in(devices))
    # ``devices`` of device_put_replicated is read twice (its length per leaf, and the
    # mesh): a call such as ``jax.local_devices()`` is bound once, on a line of its own
    # above, where that keeps the order of evaluation
    hoist = None
    devices_text = code(bare(devices))
    if name == "jax.device_put_replicated" and not is_reference(devices):
        hoist = _hoist_point(rule, call, line)
        if hoist is not None:
            devices_text = _fresh("devices", _variables_in(rule.ctx.module))
    sharding = (
        f"{s('jax.NamedSharding', 'jax.sharding.NamedSharding')}"
        f"({s('jax.sharding.Mesh')}({devices_text}, ('x',)), {s.partition_spec()}('x'))"
    )
    put, stack, tree_map = s("jax.device_put"), s("jax.numpy.stack"), s("jax.tree.map")
    # the leaves stacked, then one device_put of the tree with one sharding
    if name == "jax.device_put_replicated":
        stacked = (
            f"{tree_map}(lambda {leaf}: {stack}([{leaf}] * len({devices_text})),"
            f" {code(bare(data))})"
        )
    else:
        stacked = f"{tree_map}(lambda *{leaf}: {stack}({leaf}), *{code(data)})"
    text = f"{put}({stacked}, {sharding})"
    if not s.ok:
        return "the name `jax` is taken here"
    if hoist is not None:
        small = hoist
        line = rule.ctx.source_with(small, call, text)
        newline = rule.ctx.module.default_newline
        indent = rule.ctx.line_indent(small)
        bound = f"{devices_text} = {rule.ctx.source(devices)}"
        return Rewrite(small, f"{bound}{newline}{indent}{line}", s.ops)
    return Rewrite(call, text, s.ops)


def _hoist_point(
    rule: Facts, call: cst.Call, line: cst.SimpleStatementLine | None
) -> cst.BaseSmallStatement | None:
    """The statement above which a value the call reads can be bound: the call's line
    holds one statement (an assignment, expression or ``return``) outside a class
    body, the call is the
    line's only ``device_put_*`` and it is not inside a lambda, comprehension,
    conditional expression or ``and``/``or`` (where it might run other than once)."""
    if line is None or len(line.body) != 1:
        return None
    small = line.body[0]
    if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.Expr, cst.Return)):
        return None
    first = rule.model.leftmost_name(call.func)
    if first is None or rule.model.scope_for(first).kind == "class":
        return None  # a class attribute would appear
    path = _path_to(small, call)
    if path is None or any(isinstance(n, _RUNS_OTHER_THAN_ONCE) for n in path):
        return None
    calls = [
        n
        for n in walk_all(small)
        if isinstance(n, cst.Call) and rule.model.call_name(n) in DEVICE_PUT
    ]
    return small if calls == [call] else None
