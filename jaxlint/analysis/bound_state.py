"""What a bound method jitted by its own object reads from ``self``, and where the class
assigns those attributes again (JAX406).

``jax.jit(self.step)`` wraps a bound method: ``self`` is not an argument of the jitted
function but a closed-over object. Tracing reads ``self.params`` as a constant of the
compiled program, and the jit's cache (keyed on the bound method, the static arguments
and the shapes and dtypes of the traced ones) hits again on the next call whatever
``self.params`` holds by then (checked on JAX 0.12: an array or a Python number
assigned after the first call is not seen; an ``nnx.Module`` updated in place is not
seen either). Rebuilding the jit after the assignment (``self.step_fn =
jax.jit(self.step)``, which drops the old one) traces again.

This module answers, for one class of the file:

* :func:`reads` -- the attributes of ``self`` a method reads, following the methods and
  properties of the class it calls or passes on (``lax.while_loop(cond,
  self._body, s)``) and the functions and lambdas nested in them;
* :func:`assignments` -- where each method of the class assigns ``self.<attr>``;
* :func:`setup_only` -- private helpers that only the constructors call (their
  assignments happen while the object is built, before any call of the jitted method);
* :func:`module_framework` -- whether an attribute holds a Flax NNX or Equinox module
  (its arrays are the model's parameters), from the constructor that assigns it: a
  parameter annotated with such a class, or such a class called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.key_attrs import CONSTRUCTORS
from jaxlint.analysis.methods import STATICMETHOD, assigned_targets, decorated, self_name
from jaxlint.analysis.project import FRAMEWORK_BASES
from jaxlint.analysis.trace_values import annotation_parts
from jaxlint.analysis.walk import descendants

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel

ARRAY_FRAMEWORKS = frozenset({"flax.nnx", "equinox"})
"""Module frameworks whose module objects hold their parameters as array attributes
(a Linen or Haiku module object holds none: its parameters live in a separate dict)."""

_LAYERS = {
    "flax.nnx": frozenset(
        "Linear LinearGeneral Einsum Conv ConvTranspose Embed LayerNorm RMSNorm BatchNorm"
        " GroupNorm MultiHeadAttention LSTMCell GRUCell OptimizedLSTMCell SimpleCell RNN"
        " Bidirectional Sequential Optimizer".split()
    ),
    "equinox": frozenset(
        "Linear MLP Conv Conv1d Conv2d Conv3d ConvTranspose ConvTranspose1d ConvTranspose2d"
        " ConvTranspose3d Embedding LayerNorm RMSNorm GroupNorm BatchNorm MultiheadAttention"
        " GRUCell LSTMCell Sequential PReLU RotaryPositionalEmbedding".split()
    ),
}
"""The layers these libraries ship (flax 0.12 ``flax.nnx``, equinox 0.13 ``equinox.nn``):
module classes that hold arrays, known by name since installed packages are never
imported."""
_LAYER_MODULES = {"flax.nnx": ("flax.nnx.",), "equinox": ("equinox.nn.", "equinox.")}


def methods_of(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {s.name.value: s for s in body if type(s) is cst.FunctionDef}


def reads(
    model: SemanticModel, cls: cst.ClassDef, method: cst.FunctionDef
) -> dict[str, list[tuple[cst.Attribute, cst.FunctionDef]]]:
    """``attr -> [(read, method)]`` for the attributes of ``self`` that ``method`` reads,
    with the methods and properties of ``cls`` it reaches through ``self`` (the method
    each read is in; in no set order)."""
    methods = methods_of(cls)
    out: dict[str, list[tuple[cst.Attribute, cst.FunctionDef]]] = {}
    seen = {method.name.value}
    queue = [method]
    while queue:
        fn = queue.pop(0)
        me = self_name(fn)
        if me is None or decorated(model, fn, (STATICMETHOD,)):
            continue
        stores = {id(t) for t in assigned_targets(fn)}
        for node in descendants(fn.body):
            if (
                type(node) is not cst.Attribute
                or type(node.value) is not cst.Name
                or node.value.value != me
                or id(node) in stores
            ):
                continue
            name = node.attr.value
            called = methods.get(name)
            if called is not None:
                if name not in seen:
                    seen.add(name)
                    queue.append(called)
                continue
            out.setdefault(name, []).append((node, fn))
    return out


def assignments(cls: cst.ClassDef) -> dict[str, list[tuple[cst.FunctionDef, cst.CSTNode]]]:
    """``attr -> [(method, target)]`` for every ``self.<attr> = ...`` (augmented and
    annotated ones too) in the methods of ``cls``, nested functions included."""
    out: dict[str, list[tuple[cst.FunctionDef, cst.CSTNode]]] = {}
    for fn in methods_of(cls).values():
        me = self_name(fn)
        if me is None:
            continue
        for t in assigned_targets(fn.body):
            if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == me:
                out.setdefault(t.attr.value, []).append((fn, t))
    return out


def setup_only(cls: cst.ClassDef) -> frozenset[str]:
    """Private methods (``_build``, not dunders) that only the constructors, or other such
    methods, mention through ``self``: they run while the object is built."""
    methods = methods_of(cls)
    users: dict[str, set[str]] = {}
    for name, fn in methods.items():
        me = self_name(fn)
        for node in descendants(fn.body):
            if (
                type(node) is cst.Attribute
                and type(node.value) is cst.Name
                and node.value.value == me
                and node.attr.value in methods
            ):
                users.setdefault(node.attr.value, set()).add(name)
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name in methods:
            if name in found or not name.startswith("_") or name.startswith("__"):
                continue
            who = users.get(name)
            if who and all(u in CONSTRUCTORS or u in found for u in who):
                found.add(name)
                changed = True
    return frozenset(found)


def module_framework(
    model: SemanticModel,
    cls: cst.ClassDef,
    attr: str,
    assigned: dict[str, list[tuple[cst.FunctionDef, cst.CSTNode]]],
    class_of: Any,
    qualify: Any,
) -> tuple[str, str] | None:
    """``(class name, framework)`` when a constructor of ``cls`` assigns ``self.<attr>``
    a Flax NNX or Equinox module: a parameter annotated with such a class, or a call of
    one. ``class_of(qualname)`` is the project's answer for a class of another module;
    ``qualify(expr)`` a qualified name."""
    for fn, target in assigned.get(attr, ()):
        if fn.name.value not in CONSTRUCTORS:
            continue
        value = _assigned_value(fn, target)
        if value is None:
            continue
        exprs: list[cst.BaseExpression] = []
        if type(value) is cst.Call:
            exprs.append(value.func)
        elif type(value) is cst.Name:
            exprs.extend(_annotation_exprs(fn, value.value))
        for expr in exprs:
            found = _framework_of(model, expr, class_of, qualify, 0)
            if found is not None:
                return found
    return None


def _assigned_value(fn: cst.FunctionDef, target: cst.CSTNode) -> cst.BaseExpression | None:
    for node in descendants(fn.body):
        if type(node) is cst.Assign and len(node.targets) == 1:
            if node.targets[0].target is target:
                return node.value
        elif type(node) is cst.AnnAssign and node.target is target:
            return node.value
    return None


def _annotation_exprs(fn: cst.FunctionDef, name: str) -> list[cst.BaseExpression]:
    params = [*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params]
    for param in params:
        if param.name.value != name or param.annotation is None:
            continue
        ann = param.annotation.annotation
        if type(ann) is cst.SimpleString:  # "Transformer" (a forward reference)
            text = ann.evaluated_value
            if not isinstance(text, str) or len(annotation_parts(text)) != 1:
                return []
            try:
                ann = cst.parse_expression(annotation_parts(text)[0])
            except cst.ParserSyntaxError:
                return []
            return [ann] if type(ann) is cst.Name else []
        if type(ann) is cst.BinaryOperation and type(ann.operator) is cst.BitOr:
            parts = [ann.left, ann.right]
            return [p for p in parts if not (type(p) is cst.Name and p.value == "None")]
        if (
            type(ann) is cst.Subscript
            and type(ann.value) is cst.Name
            and ann.value.value == "Optional"
        ):
            return [e.slice.value for e in ann.slice if type(e.slice) is cst.Index]
        return [ann]
    return []


def _framework_of(
    model: SemanticModel, expr: cst.BaseExpression, class_of: Any, qualify: Any, depth: int
) -> tuple[str, str] | None:
    if depth > 4:
        return None
    qn = qualify(expr)
    if qn is not None:
        for framework, prefixes in _LAYER_MODULES.items():
            last = qn.rsplit(".", 1)[-1]
            if qn.rsplit(".", 1)[0] + "." in prefixes and last in _LAYERS[framework]:
                return last, framework
    if qn in FRAMEWORK_BASES:
        framework = FRAMEWORK_BASES[qn]
        return (qn.rsplit(".", 1)[-1], framework) if framework in ARRAY_FRAMEWORKS else None
    if type(expr) is cst.Name:
        found = model.lookup(expr.value, model.scope_for(expr))
        if found is not None and len(found[1]) == 1 and found[1][0].kind == "class":
            local = found[1][0].node
            if type(local) is cst.ClassDef:
                for base in local.bases:
                    if base.keyword is None and not base.star:
                        got = _framework_of(model, base.value, class_of, qualify, depth + 1)
                        if got is not None:
                            return local.name.value, got[1]
            return None
    if qn is None or class_of is None:
        return None
    fact = class_of(qn)
    if fact is None or fact.get("framework") not in ARRAY_FRAMEWORKS:
        return None
    return str(fact.get("name") or qn.rsplit(".", 1)[-1]), str(fact["framework"])
