"""What a record class's constructor does with its arguments: a dataclass (a Flax
``struct``, a ``NamedTuple``) stores each argument in its field, and then runs its
``__post_init__``, which sees only the fields it reads. A key given for a field that
``__post_init__`` never reads is only stored (navix's ``State(key=key, ...)``, whose
``__post_init__`` fills ``events`` from ``entities``). The key analysis asks this of a
class of the same module, the class summaries (:mod:`jaxlint.analysis.summary`) of
another module's."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.methods import own_method
from jaxlint.analysis.walk import descendants


def defines(cls: cst.ClassDef, name: str) -> bool:
    """``cls`` defines the method ``name`` in its own body."""
    return own_method(cls, name) is not None


def post_init_reads(cls: cst.ClassDef) -> frozenset[str] | None:
    """The fields that ``cls``'s own ``__post_init__`` reads (``self.entities``), empty
    when it has none; ``None`` when it may read any: ``self`` given whole to a call
    (``vars(self)``, ``check(self)``, ``dataclasses.replace(self)``), returned or
    stored. ``object.__setattr__(self, "events", ...)``, the way a frozen dataclass
    sets a field, writes one and reads none."""
    method = own_method(cls, "__post_init__")
    if method is None:
        return frozenset()
    params = method.params.params
    if not params:
        return None
    me = params[0].name.value
    fields: set[str] = set()
    allowed: set[int] = set()  # the ``self`` of ``self.x`` and of ``object.__setattr__``
    for node in descendants(method.body):
        if isinstance(node, cst.Attribute) and _is(node.value, me):
            fields.add(node.attr.value)
            allowed.add(id(node.value))
        elif isinstance(node, cst.Call) and _object_setattr(node) and node.args:
            first = node.args[0].value
            if _is(first, me):
                allowed.add(id(first))
    for node in descendants(method.body):
        if _is(node, me) and id(node) not in allowed:
            return None
    return frozenset(fields)


def _is(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _object_setattr(call: cst.Call) -> bool:
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__setattr__"
        and _is(func.value, "object")
    )
