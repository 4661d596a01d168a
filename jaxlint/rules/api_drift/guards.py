"""What a version test is worth on the target JAX (JAX701 and JAX702's guards).

``if jax_version >= (0, 3, 1):`` is true on JAX 0.12, so its body runs (and is
checked) and only its ``else`` is skipped; ``if hasattr(aval, "to_tangent_aval"):``
is feature detection, whose ``else`` is a fallback for an older JAX. A test jaxlint
cannot read skips every branch (``helpers.py``'s ``visit_If``).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.walk import BLOCK_EXITS
from jaxlint.versions import format_version, parse_version

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext
    from jaxlint.rules.api_drift.table import Table

_JAX_VERSION = frozenset(
    {
        "jax.__version__",
        "jax.__version_info__",
        "jax.version.__version__",
        "jax.version._version",
        "jax.version.__version_info__",
        "jax.version._version_as_tuple",
    }
)
"""Expressions whose value is the running JAX's version."""
_VERSION_PARSERS = frozenset(
    {"parse", "Version", "LooseVersion", "StrictVersion", "parse_version", "version_tuple"}
)
"""Callees (by their last name) that turn a version string into something comparable."""
_COMPARE = {
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
}


def jax_hasattr(model: SemanticModel, test: cst.BaseExpression) -> str | None:
    """``hasattr(jax.sharding, "use_mesh")``: the JAX name it asks about
    (``jax.sharding.use_mesh``), else ``None``."""
    if type(test) is not cst.Call or len(test.args) != 2:  # type: ignore[attr-defined]
        return None
    if model.call_name(test) != "builtins.hasattr":  # type: ignore[arg-type]
        return None
    owner = model.qualified_name(test.args[0].value) or ""  # type: ignore[attr-defined]
    attr = test.args[1].value  # type: ignore[attr-defined]
    if not (owner == "jax" or owner.startswith("jax.")) or type(attr) is not cst.SimpleString:
        return None
    return f"{owner}.{attr.evaluated_value}"


class VersionGuards:
    """Reads version tests; mixed into :class:`~jaxlint.rules.api_drift.helpers.DriftBase`,
    which records ``_jax_version_names`` and ``_version_flags`` at module level."""

    ctx: FileContext
    model: SemanticModel
    _table: Table
    _jax_version_names: dict[str, str]
    _version_flags: dict[str, cst.BaseExpression]

    def _read_version(self, expr: cst.BaseExpression) -> tuple[str, object] | None:
        """What a version expression is: ``("target", kind)`` for the running JAX's
        version, ``("literal", (kind, value))`` for a literal; ``kind`` is ``"str"``
        (``jax.__version__``, ``"0.4.1"``: compared as strings, as Python does),
        ``"strs"`` (a ``split``), ``"ints"`` (``jax.__version_info__``,
        ``tuple(map(int, ...))``, ``(0, 4, 1)``) or ``"parsed"`` (``Version(...)``);
        None when jaxlint cannot read it."""
        if isinstance(expr, cst.Tuple):
            parts = [e.value for e in expr.elements]
            if parts and all(isinstance(p, cst.Integer) for p in parts):
                return ("literal", ("ints", tuple(p.evaluated_value for p in parts)))  # type: ignore[attr-defined]
            return None
        if isinstance(expr, cst.SimpleString):
            value = expr.evaluated_value
            return ("literal", ("str", value)) if isinstance(value, str) else None
        if isinstance(expr, cst.Name) and expr.value in self._jax_version_names:
            return ("target", self._jax_version_names[expr.value])
        if type(expr) in (cst.Name, cst.Attribute):
            q = self.model.qualified_name(expr)
            if q in _JAX_VERSION:
                return ("target", "ints" if "info" in q or "tuple" in q else "str")  # type: ignore[operator]
            return None
        if isinstance(expr, cst.Call):
            func = expr.func
            last = (
                func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
            )
            args = [a.value for a in expr.args if a.keyword is None and not a.star]
            if last == "split" and isinstance(func, cst.Attribute):
                inner = self._read_version(func.value)
                return ("target", "strs") if inner == ("target", "str") else None
            if len(args) != 1 and not (last == "map" and len(args) == 2):
                return None
            if last in _VERSION_PARSERS:
                inner = self._read_version(args[0])
                if inner == ("target", "str"):
                    return ("target", "parsed")
                if inner is not None and inner[0] == "literal" and inner[1][0] == "str":  # type: ignore[index]
                    try:
                        return ("literal", ("parsed", parse_version(inner[1][1])))  # type: ignore[index]
                    except ValueError:
                        return None
                return None
            if last == "tuple":
                inner = self._read_version(args[0])
                return ("target", "ints") if inner == ("target", "int-iter") else None
            if last == "map" and getattr(args[0], "value", "") == "int":
                inner = self._read_version(args[1])
                return ("target", "int-iter") if inner == ("target", "strs") else None
            return None
        if isinstance(expr, cst.IfExp):
            # ``jax.__version_info__ if hasattr(jax, "__version_info__") else
            # tuple(map(int, jax.__version__.split(".")))``: both sides the same version
            body, orelse = self._read_version(expr.body), self._read_version(expr.orelse)
            return body if body is not None and body[0] == "target" and body == orelse else None
        if isinstance(expr, cst.GeneratorExp) and expr.for_in.inner_for_in is None:
            elt = expr.elt
            if (
                not expr.for_in.ifs
                and isinstance(elt, cst.Call)
                and getattr(elt.func, "value", "") == "int"
                and self._read_version(expr.for_in.iter) == ("target", "strs")
            ):
                return ("target", "int-iter")
            return None
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1:
            index = expr.slice[0].slice
            if (
                isinstance(index, cst.Slice)
                and index.step is None
                and index.upper is not None
                and (
                    index.lower is None
                    or (isinstance(index.lower, cst.Integer) and index.lower.value == "0")
                )
            ):
                inner = self._read_version(expr.value)
                return inner if inner == ("target", "strs") else None
        return None

    def _compare(
        self, kind: str, literal: tuple[str, Any], compare: Any, target_left: bool
    ) -> bool | None:
        """``compare(target, literal)`` (or reversed) as Python would evaluate it, or None."""
        here = self.ctx.target_jax
        lit_kind, value = literal
        if kind == "str" and lit_kind == "str":
            mine: object = format_version(here)
        elif kind == "ints" and lit_kind == "ints":
            mine = tuple(here)
        elif kind == "parsed" and lit_kind == "parsed":
            mine = tuple(here)
        else:
            return None  # a comparison Python would refuse, or one jaxlint does not model
        return bool(compare(mine, value) if target_left else compare(value, mine))

    def _truth(self, test: cst.BaseExpression, depth: int = 0) -> bool | None:
        """The value of a version test on the target JAX, or None when jaxlint cannot tell."""
        if depth > 20:
            return None
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._truth(test.expression, depth + 1)
            return None if inner is None else not inner
        if isinstance(test, cst.BooleanOperation):
            left = self._truth(test.left, depth + 1)
            right = self._truth(test.right, depth + 1)
            if isinstance(test.operator, cst.And):
                if left is False or right is False:
                    return False
                return True if left and right else None
            if left is True or right is True:
                return True
            return False if left is False and right is False else None
        if isinstance(test, cst.Name) and test.value in self._version_flags:
            return self._truth(self._version_flags[test.value], depth + 1)
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            target = test.comparisons[0]
            compare = _COMPARE.get(type(target.operator))
            left, right = self._read_version(test.left), self._read_version(target.comparator)
            if compare is None or left is None or right is None or left[0] == right[0]:
                return None
            if left[0] == "target":
                return self._compare(left[1], right[1], compare, True)  # type: ignore[arg-type]
            return self._compare(right[1], left[1], compare, False)  # type: ignore[arg-type]
        if isinstance(test, cst.Call):
            name = jax_hasattr(self.model, test)
            if name is None:
                return None
            drift = self._table.names.get(name) or self._table.module_entry(name)
            if drift is not None and drift.status(self.ctx.target_jax) == "removed":
                return False
            return None
        return None

    def _exits_when_taken(self, node: cst.BaseStatement) -> bool:
        """``node`` is an ``if`` without ``else`` whose body always leaves the block
        (``return``, ``raise``, ``continue``, ``break``) and that is taken on the
        target JAX: a version test true there (``if jax_version >= (0, 4, 36):
        return ...``) or a feature test (``if hasattr(jax, "typeof"): return ...``),
        so the statements after it are a fallback for an older JAX."""
        if not isinstance(node, cst.If) or node.orelse is not None:
            return False
        body = node.body.body
        last = body[-1] if body else None
        if isinstance(node.body, cst.IndentedBlock):
            if not isinstance(last, cst.SimpleStatementLine):
                return False
            last = last.body[-1] if last.body else None
        if type(last) not in BLOCK_EXITS:
            return False
        if self._is_version_test(node.test):  # type: ignore[attr-defined]
            truth = self._truth(node.test)
            if truth is None and jax_hasattr(self.model, node.test) is not None:
                # ``if hasattr(jax, "enable_x64"): return ...``: feature detection of a
                # name not known to be gone, whose fallthrough is the older JAX's path (as
                # with an ``else``, which a test jaxlint cannot read keeps from being checked)
                return True
            return truth is True
        return self._feature_test(node.test) is True

    def _feature_test(self, test: cst.BaseExpression) -> bool | None:
        """``True`` for ``hasattr(obj, "name")`` (its ``else`` is the fallback), ``False``
        for ``not hasattr(...)`` (its body is), else None."""
        negated = False
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
            test, negated = test.expression, True
        if (
            type(test) is cst.Call
            and len(test.args) == 2
            and isinstance(test.args[1].value, cst.SimpleString)
            and self.model.call_name(test) == "builtins.hasattr"
        ):
            return not negated
        return None
