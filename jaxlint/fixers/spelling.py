"""How a fix should write a qualified name at a given place in the file."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import SemanticModel

if TYPE_CHECKING:
    from jaxlint.rules.base import FixOp

ATOMS = (
    cst.Name,
    cst.Attribute,
    cst.Call,
    cst.Subscript,
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.List,
    cst.Dict,
    cst.Set,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
)
"""Expressions that bind tighter than any operator: text that parses to one of these can
replace an expression anywhere (or be an operand) without parentheses."""


def spell(model: SemanticModel, qualname: str, at: cst.CSTNode) -> tuple[str, list[FixOp]] | None:
    """Text for ``qualname`` at ``at``, plus any import it needs.

    Uses an existing import when one reaches it (``jnp.zeros`` for
    ``jax.numpy.zeros`` under ``import jax.numpy as jnp``); otherwise spells it in
    full from its top package and asks for ``import <top>``. Returns ``None``
    when the top package's name is taken by something else at ``at``, since the
    fix would then refer to the wrong object.
    """
    anchor = at if isinstance(at, cst.Name) else None
    if anchor is None and isinstance(at, cst.BaseExpression):
        anchor = model.leftmost_name(at)
    written = model.spelling(qualname, anchor)
    if written is not None:
        return written, []
    top = qualname.split(".")[0]
    scope = model.scope_for(anchor) if anchor is not None else model.module_scope
    found = model.lookup(top, scope)
    if found is not None:
        # ``top`` is bound here to something that is not the package itself.
        return None
    if top in model.module_scope.bindings:
        return None
    # imported here: jaxlint.rules imports this module (rule families spell their fixes)
    from jaxlint.rules.base import RequireImport

    return qualname, [RequireImport(top)]
