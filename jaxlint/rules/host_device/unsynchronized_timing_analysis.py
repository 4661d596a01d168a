"""JAX105's analysis (a mixin): which statements dispatch device work, and which may
wait for it."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.transforms import ARRAY_MODULES, STAGING
from jaxlint.rules.host_device.helpers import (
    LOG_METHODS,
    Shared,
    host_sync_operands,
    preorder,
    walk,
)


def _walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Pre-order walk into lambdas too (not into nested ``def``s or classes)."""
    yield from preorder(
        node, lambda child: type(child) is not cst.FunctionDef and type(child) is not cst.ClassDef
    )


# -- JAX105 ----------------------------------------------------------------------------------


class TimingChecks(Shared):
    """Device work and synchronisation in host statements (a mixin of JAX105)."""

    def _device_calls(self, unit: cst.CSTNode, depth: int = 0) -> list[cst.BaseExpression]:
        """Device work the unit dispatches: calls of jitted (or vmapped...) functions,
        and JAX operations on JAX arrays (``jnp.dot(a, b)``, ``a @ b``), also through a
        host function of this module that dispatches such work and returns an array
        (``w = run_epoch(w, batches)``). Making an array from Python values
        (``jnp.array(0.0)``, ``jax.random.key(0)``) is not counted: it is cheap and
        usually not what is being timed."""
        trace = self.ctx.trace
        out: list[cst.BaseExpression] = []
        for node in walk(unit):
            if isinstance(node, cst.Call):
                val = trace.value(node)
                if val is None or not val.array:
                    if (
                        val is not None
                        and (depth > 0 or not isinstance(unit, cst.BaseCompoundStatement))
                        and self._dispatching_helper(node, depth)
                    ):
                        out.append(node)
                    continue
                qn = self.model.call_name(node)
                if qn is not None and qn.startswith(ARRAY_MODULES):
                    if not any(self._is_array(a.value) for a in node.args):
                        continue
                elif _passes_through(self.model, node):
                    continue
                out.append(node)
            elif isinstance(node, cst.BinaryOperation):
                if self._is_array(node.left) or self._is_array(node.right):
                    out.append(node)
        return out

    def _dispatching_helper(self, call: cst.Call, depth: int) -> bool:
        """``call``, a statement of the timed block itself (``w = run_epoch(w, data)``),
        calls a host function of this module that returns a JAX array and calls a jitted
        function (directly or through another such helper) without waiting for it
        (nothing in its body syncs). Plain ``jnp`` helpers are not counted: their
        results are usually read (printed, formatted) before the clock."""
        if depth >= 2 or type(call.func) is not cst.Name:
            return False
        trace = self.ctx.trace
        resolved = trace.resolve_callable(call.func)
        if resolved is None or type(resolved[0]) is not cst.FunctionDef:
            return False
        fn = resolved[0]
        if trace.info(fn) is not None:
            return False  # traced: its calls are not host dispatches
        ret = trace.returns.get(id(fn))
        if ret is None or not ret.array or ret.container:
            return False
        body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else [fn.body]
        if any(self._syncs(stmt) for stmt in body):
            return False
        for node in walk(fn.body):
            if type(node) is not cst.Call:
                continue
            callee = trace.transformed_callee(node, fn)
            if callee is not None and callee.qualname in STAGING:
                return True
            if self._dispatching_helper(node, depth + 1):
                return True
        return False

    def _is_array(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.trace.value(expr)
        return val is not None and val.array and not val.container

    def _syncs(self, unit: cst.CSTNode) -> bool:
        """The unit may wait for device work (generous, to stay precise):
        ``block_until_ready`` or ``jax.device_get``, called or passed as a function
        (``tree_map(lambda x: x.block_until_ready(), out)``), or a host conversion,
        log call, ``assert`` or ``if``/``while`` test on a JAX array."""
        if isinstance(unit, (cst.FunctionDef, cst.ClassDef)):
            return False
        trace = self.ctx.trace

        def is_array_in(expr: cst.CSTNode) -> bool:
            for inner in walk(expr):
                val = trace.value(inner)
                if val is not None and val.array:
                    return True
            return False

        for node in _walk_all(unit):
            if isinstance(node, cst.Attribute) and node.attr.value == "block_until_ready":
                return True
            if isinstance(node, (cst.Name, cst.Attribute)):
                if self.model.qualified_name(node) in ("jax.block_until_ready", "jax.device_get"):
                    return True
            if isinstance(node, (cst.Assert, cst.If, cst.While)) and is_array_in(node.test):
                return True
            if not isinstance(node, cst.Call):
                continue
            operands = host_sync_operands(self.model, node)
            func = node.func
            if operands is None and (
                isinstance(func, cst.Attribute) and func.attr.value in LOG_METHODS
            ):
                operands = [a.value for a in node.args]
            if any(is_array_in(op) for op in operands or ()):
                return True
        return False


def _passes_through(model: SemanticModel, call: cst.Call) -> bool:
    """``call`` calls a function of this module whose body only returns some of its
    parameters (``return graphdef, state``): nothing runs on the device, and timing
    it measures the dispatch overhead on purpose."""
    if not isinstance(call.func, cst.Name):
        return False
    found = model.lookup(call.func.value, model.scope_for(call.func))
    if found is None or len(found[1]) != 1:
        return False
    fn = found[1][0].node
    if not isinstance(fn, cst.FunctionDef) or not isinstance(fn.body, cst.IndentedBlock):
        return False
    params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params)}
    for stmt in fn.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            return False
        for small in stmt.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
                continue  # docstring
            if isinstance(small, cst.Return):
                value = small.value
                items = value.elements if isinstance(value, cst.Tuple) else [value]
                if all(
                    isinstance(getattr(el, "value", el), cst.Name)
                    and getattr(el, "value", el).value in params  # type: ignore[union-attr]
                    for el in items
                ):
                    continue
            return False
    return True
