"""Loops over a few cases (a sweep): ``for dtype in DTYPES``, ``for name, cfg in
CONFIGS``, ``for preset, spec in PRESETS.items()``, a literal list of cases, or a loop
whose targets say they hold a case in the user's own words (``dtype``, ``in_shape``,
``cfg``, ``loss_fn``).

Each iteration of a sweep is a case of its own, chosen by the code: the rules that ask
(JAX401 jit-in-loop, JAX301 prng-key-reuse) read it as a comparison of a few
configurations rather than a stream of steps. JAX401: a new function per case compiles
once per case, as it must. JAX301: the same key given to the function that builds or
runs each configuration makes the runs differ only by the configuration.
"""

from __future__ import annotations

import re

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.walk import descendants

CASE_WORDS = frozenset(
    {
        "dtype", "dtypes", "shape", "shapes", "case", "cases", "config", "configs", "cfg",
        "fn", "fns", "func", "funcs", "function", "functions", "impl", "mode", "method",
    }
)  # fmt: skip
"""Words of a name that say it holds a case of a sweep."""
CONSTANT = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
"""A module constant's name (``DTYPES``, ``_CONFIGS``)."""


def case_like(name: str) -> bool:
    """A name that says it holds a case of a sweep, a dtype, a shape or a function
    (``dtype``, ``in_shape``, ``loss_fn``, ``f``), in the user's own words."""
    if name in ("f", "g"):
        return True
    return any(word in CASE_WORDS for word in name.lower().strip("_").split("_"))


def sweep(loop: cst.CSTNode, model: SemanticModel) -> bool:
    """A ``for`` over a list of cases: a literal list (or ``zip``/``enumerate``/
    ``product`` of them), a constant holding one (``DTYPES``, or a name bound only to
    a literal list), or a loop whose targets say they are cases (``for dtype in
    dtypes``, ``for fn in fns``)."""
    if not isinstance(loop, cst.For):
        return False
    if literal_cases(loop.iter, model):
        return True
    names = [n for n in descendants(loop.target) if isinstance(n, cst.Name)]
    return any(case_like(n.value) for n in names)


def literal_cases(expr: cst.BaseExpression, model: SemanticModel) -> bool:
    """``expr`` is a collection of cases the code spells out: a literal, a constant
    (``DTYPES``, ``cfg.MODES``), a name bound only to non-empty literals, ``zip``/
    ``product``/``enumerate``/``reversed``/``sorted`` of them, or their ``.items()``/
    ``.keys()``/``.values()``."""
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        return True
    if isinstance(expr, cst.Attribute):
        return CONSTANT.match(expr.attr.value) is not None
    if isinstance(expr, cst.Name):
        if CONSTANT.match(expr.value):
            return True
        found = model.lookup(expr.value, model.scope_for(expr))
        if not found:
            return False
        values = [model.assigned.get(id(b.node)) for b in found[1]]
        return all(
            isinstance(v, (cst.List, cst.Tuple, cst.Set, cst.Dict)) and bool(v.elements)
            for v in values
        )
    wrapped = _wrapped(expr, model)
    if wrapped is None:
        return False
    how, parts = wrapped
    if how == "zip":
        return all(literal_cases(p, model) for p in parts)
    return literal_cases(parts[0], model)


def _wrapped(
    expr: cst.BaseExpression, model: SemanticModel
) -> tuple[str, list[cst.BaseExpression]] | None:
    """The iterables a loop over ``expr`` walks through: ``("zip", args)`` for
    ``zip``/``itertools.product``, ``("one", [arg])`` for ``enumerate``/``reversed``/
    ``sorted``, ``(method, [mapping])`` for ``.items()``/``.keys()``/``.values()``."""
    if not isinstance(expr, cst.Call):
        return None
    args = [a.value for a in expr.args if a.keyword is None and not a.star]
    qn = model.call_name(expr)
    if qn in ("builtins.zip", "itertools.product"):
        return ("zip", args) if args else None
    if qn in ("builtins.enumerate", "builtins.reversed", "builtins.sorted"):
        return ("one", args[:1]) if args else None
    if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
        "items",
        "keys",
        "values",
    ):
        return expr.func.attr.value, [expr.func.value]
    return None


CONFIG_WORDS = frozenset(
    {
        "config", "configs", "cfg", "cfgs", "case", "cases", "mode", "modes", "method",
        "methods", "preset", "presets", "setting", "settings", "variant", "variants",
        "strategy", "strategies", "fn", "fns", "func", "funcs", "function", "functions",
        "impl", "policy", "policies", "candidate", "candidates",
    }
)  # fmt: skip
"""Words of a loop target that say it holds a configuration to compare (not a shape or
a dtype: ``for shape in layer_shapes: init(key, shape)`` builds one model's layers); a
policy or a candidate evaluated on the same random draws is the common-random-numbers
comparison of decision analysis (pylimid's ``for policy in policy_space(rules)``,
fresh-2026-12s)."""


_SCALARS = (cst.Integer, cst.Float, cst.SimpleString)


def configurations(loop: cst.CSTNode, model: SemanticModel) -> bool:
    """A ``for`` over configurations to compare, narrower than :func:`sweep`: a literal
    collection spelled out in the loop (``for lr in [1e-3, 1e-2]``, through ``enumerate``,
    ``zip``...), the ``.items()``/``.values()`` of a literal dict or of a constant
    (``PRESETS.items()``), or targets that say they hold a configuration (``for name,
    cfg in CONFIGS``, :data:`CONFIG_WORDS`). A bare constant is not enough (``for batch
    in BATCHES`` may be data, one batch per step), nor a target named for a shape or a
    dtype."""
    if isinstance(loop, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        loop = loop.for_in  # ``[run(n, keys) for n in levels]``: its ``for``
    elif not isinstance(loop, cst.For):
        return False
    names = [n for n in descendants(loop.target) if isinstance(n, cst.Name)]
    for n in names:
        words = n.value.lower().strip("_").split("_")
        if n.value in ("f", "g") or any(w in CONFIG_WORDS for w in words):
            return True
    return _spelled_out(loop.iter, model)


def _spelled_out(expr: cst.BaseExpression, model: SemanticModel) -> bool:
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        return len(expr.elements) > 1
    if isinstance(expr, cst.Name):
        # ``levels = (16, 32, 64, 128)``: literal numbers or strings are settings, not data
        found = model.lookup(expr.value, model.scope_for(expr))
        values = [model.assigned.get(id(b.node)) for b in found[1]] if found else []
        return bool(values) and all(
            isinstance(v, (cst.List, cst.Tuple))
            and len(v.elements) > 1
            and all(isinstance(el.value, _SCALARS) for el in v.elements)
            for v in values
        )
    wrapped = _wrapped(expr, model)
    if wrapped is None:
        return False
    how, parts = wrapped
    if how == "zip":
        return any(_spelled_out(p, model) for p in parts)
    if how == "one":
        return _spelled_out(parts[0], model)
    return how in ("items", "values") and literal_cases(parts[0], model)
