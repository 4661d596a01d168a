"""Keys held on attributes (``self.rng``, ``state.key``): which attributes of a class are
keys, where a class assigns them, and which calls may assign them (see
:mod:`jaxlint.analysis.keys`).

The key walk tracks an attribute path (``self.rng``, ``self.env.key``, ``state.rng``)
like a variable once it is *clearly* a key: passed as the key of a ``jax.random``
function in the same function, or, for ``self.<attr>``, anywhere in the class, or
assigned there from ``jax.random.key``/``PRNGKey``/``split``/``fold_in``. A path
stops being tracked (the next read is a new key) when it may have been reassigned:

* an assignment to the path, or to any prefix of it (``state = ...``);
* a call that receives a prefix of it (``update(self)``, ``reset(state)``), or a
  method called on a prefix (``self.env.reset()``), unless it is a method of the
  same class that, with every method of the class it calls, never assigns the
  attribute (``self.helper()``); ``super().m()`` and methods this file does not show
  may assign anything;
* ``yield`` and ``await`` (other code runs in between).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.key_values import DERIVERS, MAKERS, SPLIT
from jaxlint.analysis.methods import module_class, properties, self_attr
from jaxlint.analysis.methods import targets as bound_targets
from jaxlint.analysis.names import SemanticModel

if TYPE_CHECKING:
    from collections.abc import Callable

CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__", "setup"})
"""Methods that give an object its initial attributes (Flax's ``setup`` included)."""
_KEY_MAKERS = MAKERS | DERIVERS | {SPLIT}
_INERT_BASES = frozenset(
    {
        "builtins.object",
        "typing.NamedTuple",
        "typing.Generic",
        "typing.Protocol",
        "abc.ABC",
        "equinox.Module",
        "flax.linen.Module",
        "flax.nnx.Module",
        "flax.struct.PyTreeNode",
    }
)


def dotted(expr: cst.CSTNode) -> str | None:
    """``a.b.c`` for an attribute chain over a name (at least one dot), else ``None``."""
    if type(expr) is not cst.Attribute:
        return None
    parts = []
    node: cst.CSTNode = expr
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)  # type: ignore[attr-defined]
    return ".".join(reversed(parts))


def name_or_dotted(expr: cst.CSTNode) -> str | None:
    if type(expr) is cst.Name:
        return expr.value  # type: ignore[attr-defined]
    return dotted(expr)


class ClassAttrs:
    """What one class says about its ``self.<attr>`` keys."""

    def __init__(
        self,
        cls: cst.ClassDef,
        model: SemanticModel,
        class_of: Callable[[str], dict[str, Any] | None] | None = None,
    ) -> None:
        self.cls = cls
        self.model = model
        self._class_of = class_of
        """What the project says of a class of another module (its ``properties``)."""
        self._inherited: set[str] | None = None
        self.keys: set[str] = set()
        """Attributes that are keys: given as the key of a ``jax.random`` function, or
        assigned from a key maker."""
        self.assigned_in: dict[str, set[str]] = {}
        """Attribute -> the methods that assign it."""
        self.methods: dict[str, cst.FunctionDef] = {}
        self._assigns: dict[str, set[str]] = {}
        self._calls: dict[str, set[str]] = {}
        self._opaque: set[str] = set()
        """Methods that pass ``self`` on, call ``super()`` or a method this class does not
        define, or ``setattr``: they may assign any attribute."""
        for stmt in cls.body.body:
            if type(stmt) is cst.FunctionDef:
                self.methods[stmt.name.value] = stmt
        for name, fn in self.methods.items():
            self._scan(name, fn)
        self._may: dict[tuple[str, str], bool] = {}

    def _scan(self, method: str, fn: cst.FunctionDef) -> None:
        assigns = self._assigns.setdefault(method, set())
        calls = self._calls.setdefault(method, set())
        call_name = self.model.call_name
        for node in self.model.body_nodes(fn):
            kind = type(node)
            if kind is cst.Assign or kind is cst.AnnAssign or kind is cst.AugAssign:
                targets = (
                    [t.target for t in node.targets]  # type: ignore[attr-defined]
                    if kind is cst.Assign
                    else [node.target]  # type: ignore[attr-defined]
                )
                value = node.value  # type: ignore[attr-defined]
                maker = type(value) is cst.Call and call_name(value) in _KEY_MAKERS
                if type(value) is cst.Subscript and type(value.value) is cst.Call:
                    maker = call_name(value.value) == SPLIT
                for target in targets:
                    for t in bound_targets(target):
                        attr = self_attr(t)
                        if attr is not None:
                            assigns.add(attr)
                            self.assigned_in.setdefault(attr, set()).add(method)
                            if maker:
                                self.keys.add(attr)
            elif kind is cst.Call:
                qn = call_name(node)  # type: ignore[arg-type]
                if qn is not None and qn.startswith("jax.random."):
                    args = node.args  # type: ignore[attr-defined]
                    first = args[0].value if args and args[0].keyword is None else None
                    for a in args:
                        if a.keyword is not None and a.keyword.value in ("key", "keys"):
                            first = a.value
                    attr = self_attr(first) if first is not None else None
                    if attr is not None:
                        self.keys.add(attr)
                func = node.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute:
                    attr = self_attr(func)
                    if attr is not None:
                        if attr in self.methods:
                            calls.add(attr)
                        else:
                            self._opaque.add(method)
                    elif type(func.value) is cst.Call:  # ``super().m()``
                        self._opaque.add(method)
                elif type(func) is cst.Name and func.value in ("setattr", "vars"):
                    self._opaque.add(method)
                for a in node.args:  # type: ignore[attr-defined]
                    if type(a.value) is cst.Name and a.value.value == "self":
                        self._opaque.add(method)

    def may_assign(self, method: str, attr: str) -> bool:
        """Calling ``self.<method>()`` may assign ``self.<attr>``."""
        got = self._may.get((method, attr))
        if got is not None:
            return got
        seen: set[str] = set()
        pending = [method]
        result = False
        while pending:
            m = pending.pop()
            if m in seen:
                continue
            seen.add(m)
            if m not in self.methods or m in self._opaque or attr in self._assigns.get(m, ()):
                result = True
                break
            pending.extend(self._calls.get(m, ()))
        self._may[(method, attr)] = result
        return result

    def opaque_outside_constructors(self) -> bool:
        """A method other than a constructor may assign any attribute (it calls a method
        this class does not define, ``super()``, ``setattr``, or passes ``self`` on)."""
        return bool(self._opaque - CONSTRUCTORS)

    def is_property(self, attr: str) -> bool:
        """``self.<attr>`` runs code when read: a method of this class (a ``@property``
        such as ``def rng(self)``) or a ``@property`` of a base class, of this file or
        of another module of the project (a mixin whose ``rng_key`` splits a key kept
        on the class and returns the new half on every read)."""
        if attr in self.methods:
            return True
        if self._inherited is None:
            self._inherited = _base_properties(self.cls, self.model, self._class_of, 0)
        return attr in self._inherited

    def bases_known(self) -> bool:
        """Every base is a class of this file or a base that assigns no key attribute
        (``object``, ``NamedTuple``, ``eqx.Module``, Flax modules): no inherited method
        this file does not show may reassign one."""
        for arg in self.cls.bases:
            base = arg.value
            if type(base) is cst.Name:
                found = self.model.lookup(base.value, self.model.scope_for(base))
                if found is not None and any(b.kind == "class" for b in found[1]):
                    continue
            if self.model.qualified_name(base) not in _INERT_BASES:
                return False
        return True

    def refreshed_outside_constructors(self, attr: str) -> bool:
        """A method other than a constructor assigns ``self.<attr>``."""
        methods = self.assigned_in.get(attr, set())
        return bool(methods - CONSTRUCTORS)


def _base_properties(
    cls: cst.ClassDef,
    model: SemanticModel,
    class_of: Callable[[str], dict[str, Any] | None] | None,
    depth: int,
) -> set[str]:
    """The ``@property`` names ``cls`` inherits: from base classes of this file (their
    own bases followed too) and, through ``class_of``, from the project's other modules."""
    found: set[str] = set()
    if depth > 4:
        return found
    for arg in cls.bases:
        if arg.keyword is not None or arg.star:
            continue
        base = arg.value
        local = module_class(model, base) if type(base) is cst.Name else None
        if local is not None:
            found.update(properties(local, model.qualified_name))
            found |= _base_properties(local, model, class_of, depth + 1)
            continue
        qualname = model.qualified_name(base)
        if qualname is not None and class_of is not None:
            info = class_of(qualname)
            if info is not None:
                found.update(info.get("properties", ()))
    return found
