"""JAX104's assignments in traced code: globals, nonlocals, outside containers and ``self``
attributes (a mixin of the rule, ``SideEffectInTraced``)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.decided import is_none
from jaxlint.analysis.names import Scope, SemanticModel
from jaxlint.analysis.trace_values import Level
from jaxlint.analysis.tracing import TracedFunction
from jaxlint.rules.host_device.helpers import walk

# Classes whose methods legitimately assign ``self.x`` under a transform (Flax NNX
# propagates the new state; linen/Equinox/Haiku modules have their own rules).
_MODULE_BASES = (
    "flax.",
    "equinox.",
    "haiku.",
    "penzai.",
)
_JIT_LIKE = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})


class AssignmentChecks:
    """What ``self.x = ...``, ``global``/``nonlocal`` and container stores report (the rule
    gives ``_emit``, ``_owner``, ``_outside_container``, ``_traced_inside`` and ``_classes``)."""

    def _assignment(
        self, stmt: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression
    ) -> None:
        owner = self._owner(stmt)
        if owner is None:
            return
        fn = owner.node
        if type(target) in (cst.Tuple, cst.List):
            for el in target.elements:
                self._assignment(stmt, el.value, value)
            return
        if type(target) is cst.StarredElement:
            target = target.value
        if isinstance(target, cst.Name):
            scope = self.model.scope_of_node.get(id(fn))
            if scope is None:
                return
            if target.value in scope.global_names or target.value in scope.nonlocal_names:
                kind = "global" if target.value in scope.global_names else "nonlocal"
                if kind == "nonlocal" and self._trace_local(owner, scope, target.value):
                    return
                if self._traced_inside(value) is not None:
                    self._emit(
                        target,
                        owner,
                        f"assigning {kind} `{target.value}`",
                        "return the value from the traced function instead",
                        extra=", and the stored tracer escapes the trace",
                    )
                elif (
                    _read_elsewhere(fn, target)
                    and not _once_flag(fn, target, value)
                    and not self._lazy_global(target, value)
                ):
                    self._emit(
                        target,
                        owner,
                        f"assigning {kind} `{target.value}`",
                        "pass the value as an argument (or return it) instead",
                        extra=f", and `{owner.name}` uses the value it had then",
                    )
            return
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            if self._outside_container(target.value, owner) is None:
                return
            if self._traced_inside(value) is None:
                return
            self._emit(
                target,
                owner,
                f"storing into `{target.value.value}` (defined outside `{owner.name}`)",
                "return the values instead",
                extra=", and the stored tracer escapes the trace",
            )
            return
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if self._once_setup(target, value):
                return
            self._self_attribute(target, owner)

    def _trace_local(self, owner: TracedFunction, scope: Scope, name: str) -> bool:
        """``nonlocal name`` in a helper traced only because traced code calls it, where
        the function that binds ``name`` is traced too: the name is a local of that trace,
        made again on every trace, so setting it in the helper and reading it in the
        enclosing function happen in the same trace (megalodon-jax's ``bind_batch``)."""
        if owner.own or owner.bodies:
            return False
        outer = scope.parent
        while outer is not None and name not in outer.bindings:
            outer = outer.parent
        if outer is None or outer.kind != "function":
            return False
        return self.ctx.trace.functions.get(id(outer.node)) is not None

    def _lazy_global(self, target: cst.Name, value: cst.BaseExpression) -> bool:
        """``if _svd is None: from sklearn... import randomized_svd; _svd = randomized_svd``:
        a global cache filled once, under an ``if`` that tests that it is still empty
        (``G is None``, ``not G``), with a static value (an imported function, a table):
        that it is filled at the first trace is what the cache is for (zlynx's optional
        scikit-learn import, fresh-2026-12v). A traced value would escape the trace."""
        found = self.ctx.trace.value(value)
        if found is not None and found.level is not Level.STATIC:
            return False
        if self._traced_inside(value) is not None:
            return False
        node = self.model.parents.get(id(target))
        while node is not None and type(node) not in (cst.FunctionDef, cst.Lambda):
            if type(node) is cst.If and _tests_empty(node.test, target.value):
                return True
            node = self.model.parents.get(id(node))
        return False

    def _once_setup(self, target: cst.Attribute, value: cst.BaseExpression) -> bool:
        """``if not self.ready: self.table = np.arange(n); self.ready = True``: an
        ``if`` that tests an attribute its own body sets is a setup that runs once per
        object, on the first trace, on purpose. Only for a value that is static (a
        literal, NumPy on static values): a traced one would escape the trace."""
        found = self.ctx.trace.value(value)
        if found is not None and found.level is not Level.STATIC:
            return False
        if self._traced_inside(value) is not None:
            return False
        base = target.value.value  # type: ignore[attr-defined]
        parents = self.model.parents
        node = parents.get(id(target))
        while node is not None and type(node) not in (cst.FunctionDef, cst.Lambda):
            if type(node) is cst.If and _guards_itself(node, base):
                return True
            node = parents.get(id(node))
        return False

    def _self_attribute(self, target: cst.Attribute, owner: TracedFunction) -> None:
        fn = owner.node
        if not isinstance(fn, cst.FunctionDef) or not self._classes:
            return
        cls = self._classes[-1]
        if not any(stmt is fn for stmt in cls.body.body):
            return
        params = [*fn.params.posonly_params, *fn.params.params]
        if not params or params[0].name.value != target.value.value:  # type: ignore[attr-defined]
            return
        if not owner.transforms & _JIT_LIKE:
            return
        if fn.name.value in ("__init__", "__post_init__", "setup"):
            return
        if not _plain_class(self.model, cls, set()):
            return
        self._emit(
            target,
            owner,
            f"`{self.ctx.code(target)} = ...` in jitted method `{fn.name.value}`",
            "return the new state from the method instead",
        )


def _guards_itself(stmt: cst.If, base: str) -> bool:
    """The ``if`` tests an attribute of ``base`` (``self.ready``) that its body assigns."""
    tested = {
        n.attr.value
        for n in walk(stmt.test)
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == base
    }
    if not tested:
        return False
    for node in walk(stmt.body):
        if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = (
                [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            )
            for t in targets:
                if (
                    isinstance(t, cst.Attribute)
                    and isinstance(t.value, cst.Name)
                    and t.value.value == base
                    and t.attr.value in tested
                ):
                    return True
    return False


def _tests_empty(test: cst.BaseExpression, name: str) -> bool:
    """``name is None`` or ``not name``."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        inner = test.expression
        return type(inner) is cst.Name and inner.value == name
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return False
    comp = test.comparisons[0]
    return (
        type(test.left) is cst.Name
        and test.left.value == name
        and type(comp.operator) is cst.Is
        and is_none(comp.comparator)
    )


def _once_flag(
    fn: cst.FunctionDef | cst.Lambda, target: cst.Name, value: cst.BaseExpression
) -> bool:
    """``if _WARNED: return`` ... ``_WARNED = True``: a flag set to a constant and read only
    in ``if`` tests, to do something once per process (a one-time warning). Under a trace
    it is set when the function is first traced, which is what "once" asks for."""
    if type(value) not in (cst.Name, cst.Integer, cst.SimpleString) or (
        type(value) is cst.Name and value.value not in ("True", "False", "None")
    ):
        return False
    in_tests: set[int] = set()
    stored: set[int] = set()
    named: list[cst.Name] = []
    for node in walk(fn.body):
        kind = type(node)
        if kind in (cst.If, cst.IfExp, cst.While):
            in_tests.update(id(n) for n in walk(node.test) if type(n) is cst.Name)  # type: ignore[attr-defined]
        elif kind is cst.Assign:
            stored.update(id(n) for t in node.targets for n in walk(t.target))  # type: ignore[attr-defined]
        elif kind in (cst.AugAssign, cst.AnnAssign):
            stored.add(id(node.target))  # type: ignore[attr-defined]
        elif kind in (cst.Global, cst.Nonlocal):
            stored.update(id(item.name) for item in node.names)  # type: ignore[attr-defined]
        elif kind is cst.Name and node.value == target.value:  # type: ignore[attr-defined]
            named.append(node)  # type: ignore[arg-type]
    reads = [n for n in named if id(n) not in stored]
    return bool(reads) and all(id(n) in in_tests for n in reads)


def _read_elsewhere(fn: cst.FunctionDef | cst.Lambda, target: cst.Name) -> bool:
    """``fn`` reads the global/nonlocal ``target`` outside its own assignments
    (``lr = base / step``); a write-only counter (``n += 1``) only counts traces."""
    stores: set[int] = set()
    loads: list[cst.Name] = []
    for node in walk(fn.body):
        if isinstance(node, cst.Assign):
            names = [n for t in node.targets for n in walk(t.target) if isinstance(n, cst.Name)]
            stores.update(id(n) for n in names)
            if any(n.value == target.value for n in names):
                # ``n = n + 1`` updates the counter like ``n += 1``
                stores.update(id(n) for n in walk(node.value) if isinstance(n, cst.Name))
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
            if isinstance(node.target, cst.Name):
                stores.add(id(node.target))
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            stores.update(id(item.name) for item in node.names)
        elif isinstance(node, cst.Name) and node.value == target.value:
            loads.append(node)
    return any(id(n) not in stores for n in loads)


def _plain_class(model: SemanticModel, cls: cst.ClassDef, seen: set[int]) -> bool:
    """No bases, or only ``object`` and plain classes of this module: no framework
    (Flax, Equinox, Haiku) gives ``self.x = ...`` a meaning under a transform."""
    if id(cls) in seen:
        return False
    seen.add(id(cls))
    if cls.keywords:
        return False
    for base in cls.bases:
        value = base.value
        qn = model.qualified_name(value)
        if qn == "builtins.object":
            continue
        if qn is not None and qn.startswith(_MODULE_BASES):
            return False
        if not isinstance(value, cst.Name):
            return False
        found = model.lookup(value.value, model.scope_for(value))
        if found is None:
            return False
        bindings = found[1]
        if len(bindings) != 1 or not isinstance(bindings[0].node, cst.ClassDef):
            return False
        if not _plain_class(model, bindings[0].node, seen):
            return False
    return True
