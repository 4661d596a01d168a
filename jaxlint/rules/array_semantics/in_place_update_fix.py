"""The fix of JAX601 in-place-update: the functional update that replaces an item
assignment (``x = x.at[i].add(v)``), and when it is safe (a mixin of the rule)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.arrays import is_number
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import ATOMS

if TYPE_CHECKING:
    from jaxlint.analysis.arrays import ArrayEvidence
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

_SUBTRACT_SINCE = (0, 4, 35)
"""``x.at[i].subtract`` exists since JAX 0.4.35 (checked on the release tags)."""
AUG_METHODS: dict[type[cst.BaseAugOp], str] = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}
_AUG_OPERATORS: dict[type[cst.BaseAugOp], str] = {
    cst.FloorDivideAssign: "//",
    cst.ModuloAssign: "%",
    cst.MatrixMultiplyAssign: "@",
    cst.BitAndAssign: "&",
    cst.BitOrAssign: "|",
    cst.BitXorAssign: "^",
    cst.LeftShiftAssign: "<<",
    cst.RightShiftAssign: ">>",
}
_WHOLE_ARRAY_METHODS = frozenset({"divide", "power"})
"""``.at[i].divide``/``.power`` compute over every element (``x / ones.at[i].mul(v)``)."""
_MIN_MAX = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max"}


class InPlaceFixPlan:
    """The replacement statement of an item assignment (a mixin of ``InPlaceUpdate``)."""

    ctx: FileContext
    model: SemanticModel
    evidence: ArrayEvidence

    def _plan(
        self, stmt: cst.Assign | cst.AugAssign, target: cst.Subscript, op: cst.BaseAugOp | None
    ) -> tuple[str, Applicability, str] | None:
        """The replacement statement, its applicability and the fix message."""
        name = target.value
        if not isinstance(name, cst.Name):
            return None
        found = self.evidence.bindings(name)
        scope = self.model.scope_for(name)
        if found is None:
            return None
        owner, bindings = found
        if owner is not scope and not (
            name.value in scope.global_names or name.value in scope.nonlocal_names
        ):
            return None  # ``x = x.at[...]`` would make ``x`` local here
        code = self.ctx.code
        base = name.value
        index = code(target)[len(code(name)) :]
        value = stmt.value
        unsafe: list[str] = []
        if op is None:
            method, arg = "set", _unwrapped(value, code)
            if isinstance(value, cst.Call) and not any(a.keyword or a.star for a in value.args):
                minmax = _MIN_MAX.get(self.model.call_name(value) or "")
                args = [a.value for a in value.args]
                if minmax is not None and len(args) == 2:
                    same = [a for a in args if code(a) == code(target)]
                    if same:
                        other = args[1] if args[0] is same[0] else args[0]
                        method, arg = minmax, _unwrapped(other, code)
        elif type(op) in AUG_METHODS:
            method, arg = AUG_METHODS[type(op)], _unwrapped(value, code)
            if method == "subtract" and self.ctx.target_jax < _SUBTRACT_SINCE:
                method, arg = "add", f"-{_atom(value, code)}"
            if method in _WHOLE_ARRAY_METHODS:
                unsafe.append(
                    f"`.{method}` computes over the whole array (subnormals flushed on CPU,"
                    " floats for an integer array)"
                )
        elif type(op) in _AUG_OPERATORS:
            symbol = _AUG_OPERATORS[type(op)]
            method, arg = "set", f"{code(target)} {symbol} {_atom(value, code)}"
        else:
            return None
        if not self._basic_index(target):
            unsafe.append("an index array may repeat indices, which `.at[]` treats differently")
        if any(b.kind == "param" for b in bindings):
            unsafe.append(f"the caller does not see the update: return `{base}`")
        text = f"{base} = {base}.at{index}.{method}({arg})"
        shown = f"Replace with `{base} = {base}.at[...].{method}(...)`"
        if unsafe:
            return text, Applicability.UNSAFE, f"{shown} (unsafe: {'; '.join(unsafe)})"
        return text, Applicability.SAFE, shown

    def _basic_index(self, target: cst.Subscript) -> bool:
        """No element can be an index array (which may repeat indices)."""
        for element in target.slice:
            part = element.slice
            if isinstance(part, cst.Slice):
                continue
            if part.star is not None:
                return False
            value = part.value
            if is_number(value) or isinstance(value, cst.Ellipsis):
                continue
            if isinstance(value, cst.Name) and (value.value == "None" or self._range_index(value)):
                continue
            return False
        return True

    def _range_index(self, name: cst.Name) -> bool:
        """``name`` is only ever bound by ``for name in range(...)``."""
        found = self.evidence.bindings(name)
        if found is None:
            return False
        for binding in found[1]:
            kind, it = self.evidence.assigned.get(id(binding.node), ("", name))
            if (
                kind != "for"
                or not isinstance(it, cst.Call)
                or self.model.call_name(it) != "builtins.range"
            ):
                return False
        return True


def _unwrapped(value: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> str:
    """``value`` as one call argument (a bare tuple needs parentheses)."""
    if isinstance(value, (cst.Tuple, cst.Yield, cst.GeneratorExp)) and not value.lpar:
        return f"({code(value)})"
    return code(value)


def _atom(value: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> str:
    """``value`` as an operand of a binary or unary operator."""
    if isinstance(value, ATOMS) or getattr(value, "lpar", None):
        return code(value)
    return f"({code(value)})"
