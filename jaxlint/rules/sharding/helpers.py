"""Shared pieces of the JAX5xx sharding rules: syntax queries, the ``Speller``, the
``Facts`` mixin (what the file assigns and where names are used) and import rewrites."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import Binding
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, ReplaceNode, RequireImport, Rule

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

MESH_CONSTRUCTORS = frozenset({"jax.sharding.Mesh", "jax.make_mesh"})
MESH_ANNOTATIONS = frozenset({"jax.sharding.Mesh"})
SHARDING_CONSTRUCTORS = frozenset(
    {
        "jax.sharding.NamedSharding",
        "jax.NamedSharding",
        "jax.sharding.SingleDeviceSharding",
    }
)
PARTIAL = frozenset({"functools.partial"})


# -- small syntax helpers ------------------------------------------------------------------


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def has_star(call: cst.Call) -> bool:
    return any(a.star for a in call.args)


def walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under ``node``, trivia (comments) included."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def has_comment(node: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.Comment) for n in walk_all(node))


def is_string(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString))


def is_reference(expr: cst.BaseExpression) -> bool:
    """A name or an attribute chain: evaluating it twice is harmless."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


def bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` without its own redundant parentheses (node ranges exclude them)."""
    if getattr(expr, "lpar", None) and not isinstance(expr, (cst.Tuple, cst.GeneratorExp)):
        return expr.with_changes(lpar=[], rpar=[])
    return expr


class Speller:
    """Spells qualified names at one place and gathers the imports they need."""

    def __init__(self, rule: Rule, at: cst.CSTNode) -> None:
        self.rule = rule
        self.at = at
        self.ops: list[FixOp] = []
        self.ok = True

    def __call__(self, qualname: str, *preferred: str) -> str:
        """Spell ``qualname``; an existing import of one of ``preferred`` wins."""
        anchor = self.at if isinstance(self.at, cst.Name) else None
        if anchor is None and isinstance(self.at, cst.BaseExpression):
            anchor = self.rule.model.leftmost_name(self.at)
        for other in preferred:
            written = self.rule.model.spelling(other, anchor)
            if written is not None and written != other:  # through its own import
                return written
        result = spell(self.rule.model, qualname, self.at)
        if result is None:
            self.ok = False
            return qualname
        for op in result[1]:
            if op not in self.ops:
                self.ops.append(op)
        return result[0]

    def partition_spec(self) -> str:
        return self("jax.P", "jax.sharding.PartitionSpec")


# -- what the file says: assignments, self attributes, name uses ------------------------------


class Facts:
    """Mixin: per-file facts gathered during the walk (not a rule by itself).

    Records the value assigned to each local name and to each ``self.x`` in a
    class, the annotation of bare declarations, and every ``Name`` reference (not
    import aliases, keywords, parameters or definitions), so that a rule can ask,
    at the end of the file, whether an expression is a ``Mesh`` and where an
    imported name is used.
    """

    if TYPE_CHECKING:  # provided by ``Rule``, which every user of the mixin also is
        model: SemanticModel
        ctx: FileContext

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self.assigned: dict[int, cst.BaseExpression] = {}
        self.declared: dict[int, cst.Annotation] = {}
        self.self_attrs: dict[tuple[int, str], list[cst.BaseExpression | cst.Annotation]] = {}
        self.containers: list[cst.ClassDef | cst.FunctionDef] = []
        self.class_of: dict[int, cst.ClassDef] = {}
        self.mesh_evidence: dict[int, str] = {}
        """id of an expression -> where another module of the project says it is a mesh."""
        self.names: dict[str, list[cst.Name]] = {}
        self.in_collection: set[int] = set()
        """ids of expressions that are only named: elements of a tuple, list or set
        literal, operands of a comparison, the argument of ``functools.wraps``."""
        self._ignored: set[int] = set()
        self._import_depth = 0

    # containers
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._ignored.add(id(node.name))
        self.containers.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.containers.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._ignored.add(id(node.name))
        self.containers.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.containers.pop()

    def current_class(self) -> cst.ClassDef | None:
        for container in reversed(self.containers):
            if type(container) is cst.ClassDef:
                return container
        return None

    def visit_Element(self, node: cst.Element) -> None:
        self.in_collection.add(id(node.value))

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.in_collection.add(id(node.left))  # ``f is jax.pmap``: compared, not called
        for target in node.comparisons:
            self.in_collection.add(id(target.comparator))

    # names that are not references
    def visit_Param(self, node: cst.Param) -> None:
        self._ignored.add(id(node.name))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._ignored.add(id(node.keyword))

    def visit_Import(self, node: cst.Import) -> None:
        self._import_depth += 1

    def leave_Import(self, node: cst.Import) -> None:
        self._import_depth -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth += 1
        self.import_from(node)

    def leave_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth -= 1

    def import_from(self, node: cst.ImportFrom) -> None:
        """Hook for the rules."""

    def visit_Name(self, node: cst.Name) -> None:
        if self._import_depth or id(node) in self._ignored:
            return
        self.names.setdefault(node.value, []).append(node)

    # assignments
    def _record(
        self, target: cst.BaseExpression, value: cst.BaseExpression | cst.Annotation
    ) -> None:
        if type(target) is cst.Name:
            if type(value) is cst.Annotation:
                self.declared[id(target)] = value
            else:
                self.assigned[id(target)] = value
            if self.containers and type(self.containers[-1]) is cst.ClassDef:
                key = (id(self.containers[-1]), target.value)
                self.self_attrs.setdefault(key, []).append(value)
        elif (
            type(target) is cst.Attribute
            and isinstance(target.value, cst.Name)
            and target.value.value == "self"
        ):
            cls = self.current_class()
            if cls is not None:
                self.self_attrs.setdefault((id(cls), target.attr.value), []).append(value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._record(node.target, node.value if node.value is not None else node.annotation)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._record(node.asname.name, node.item)
        self.with_item(node)

    def with_item(self, node: cst.WithItem) -> None:
        """Hook for the rules."""

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._record(node.target, node.value)

    # questions
    def bindings_of(self, name: cst.Name) -> list[Binding]:
        model = self.model
        found = model.lookup(name.value, model.scope_for(name))
        return [] if found is None else list(found[1])

    def uses_of_import(self, node: cst.ImportFrom, local: str, qualname: str) -> list[cst.Name]:
        model = self.model
        out = []
        for name in self.names.get(local, []):
            if model.qualified_name(name) != qualname:
                continue
            if any(b.node is node for b in self.bindings_of(name)):
                out.append(name)
        return out

    def _values(self, expr: cst.BaseExpression) -> list[cst.BaseExpression | cst.Annotation] | None:
        """What a name or ``self.attr`` may hold: every value assigned to it, or None."""
        if isinstance(expr, cst.Name):
            bindings = self.bindings_of(expr)
            if not bindings:
                return None
            values: list[cst.BaseExpression | cst.Annotation] = []
            for b in bindings:
                if b.kind == "param" and isinstance(b.node, cst.Param):
                    if b.node.annotation is None:
                        return None
                    values.append(b.node.annotation)
                elif b.kind == "assign" and id(b.node) in self.assigned:
                    values.append(self.assigned[id(b.node)])
                elif b.kind == "annotation" and id(b.node) in self.declared:
                    values.append(self.declared[id(b.node)])
                else:
                    return None
            return values
        if (
            isinstance(expr, cst.Attribute)
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "self"
        ):
            cls = self.class_of.get(id(expr))
            if cls is None:
                return None
            return self.self_attrs.get((id(cls), expr.attr.value)) or None
        return None

    def is_mesh(self, expr: cst.BaseExpression | cst.Annotation, depth: int = 0) -> bool:
        """``expr`` is certainly a ``jax.sharding.Mesh`` (built or annotated as one)."""
        model = self.model
        if depth > 6:
            return False
        if isinstance(expr, cst.Annotation):
            return model.qualified_name(expr.annotation) in MESH_ANNOTATIONS
        if isinstance(expr, cst.Call):
            return model.call_name(expr) in MESH_CONSTRUCTORS or self._noted_mesh(expr)
        values = self._values(expr)
        if values is None and depth == 0:
            return self._noted_mesh(expr)
        return bool(values) and all(self.is_mesh(v, depth + 1) for v in values or [])

    def _noted_mesh(self, expr: cst.BaseExpression) -> bool:
        where = self._project_mesh(expr)
        if where is not None:
            self.mesh_evidence[id(expr)] = where
        return where is not None

    def _project_mesh(self, expr: cst.BaseExpression) -> str | None:
        """Where another module of the project says ``expr`` is a mesh: a function
        annotated ``-> Mesh``, a module-level ``MESH = jax.make_mesh(...)``, or an
        attribute or property annotated ``Mesh`` on the class of the object
        (``trainer.device_mesh`` with ``trainer = Trainer(...)``; ``self.device_mesh``
        in a subclass)."""
        project = self.ctx.project
        if project is None:
            return None
        model = self.model
        if isinstance(expr, cst.Call):
            qn = project.qualified_name(model, expr.func)
            fact = project.function(qn) if qn is not None else None
            if fact is not None and fact.get("returns") in MESH_ANNOTATIONS:
                return fact["where"]
            return None
        qn = project.qualified_name(model, expr)
        if qn is not None:
            fact = project.value(qn)
            return fact["where"] if fact is not None and fact.get("kind") == "mesh" else None
        if not isinstance(expr, cst.Attribute) or not isinstance(expr.value, cst.Name):
            return None
        attr = expr.attr.value
        classes: list[str] = []
        if expr.value.value == "self":
            cls = self.class_of.get(id(expr))
            if cls is not None:
                for arg in cls.bases:
                    base = project.qualified_name(model, arg.value) if arg.keyword is None else None
                    if base is not None:
                        classes.append(base)
        else:
            values = self._values(expr.value)
            if values and len(values) == 1 and isinstance(values[0], cst.Call):
                cls_qn = project.qualified_name(model, values[0].func)
                if cls_qn is not None:
                    classes.append(cls_qn)
        for cls_qn in classes:
            fact = project.class_(cls_qn)
            if fact is not None and fact.get("attrs", {}).get(attr) in MESH_ANNOTATIONS:
                return fact["where"]
        return None

    def is_sharding(self, expr: cst.BaseExpression | cst.Annotation, depth: int = 0) -> bool:
        """``expr`` is certainly a ``Sharding`` object (or a tuple/list of them)."""
        model = self.model
        if depth > 6 or isinstance(expr, cst.Annotation):
            return False
        if isinstance(expr, cst.Call):
            return model.call_name(expr) in SHARDING_CONSTRUCTORS
        if isinstance(expr, cst.Attribute) and expr.attr.value == "sharding":
            return True
        if isinstance(expr, (cst.Tuple, cst.List)):
            return all(
                isinstance(el, cst.Element) and self.is_sharding(el.value, depth + 1)
                for el in expr.elements
            )
        if isinstance(expr, cst.Name):
            values = self._values(expr)
            return bool(values) and all(self.is_sharding(v, depth + 1) for v in values or [])
        return False


# -- import statements ------------------------------------------------------------------------


def _alias_local(alias: cst.ImportAlias) -> str | None:
    if not isinstance(alias.name, cst.Name):
        return None
    if alias.asname is not None:
        return alias.asname.name.value if isinstance(alias.asname.name, cst.Name) else None
    return alias.name.value


def import_hits(
    rule: Rule, node: cst.ImportFrom, targets: Callable[[str], object | None]
) -> list[tuple[cst.ImportAlias, str, str]]:
    """``(alias, local name, qualified name)`` for each alias that ``targets`` knows.

    Skips a name bound twice in its scope (a ``try``/``except ImportError`` fallback).
    """
    if node.relative or isinstance(node.names, cst.ImportStar) or node.module is None:
        return []
    module = rule.ctx.code(node.module)
    hits = []
    for alias in node.names:
        local = _alias_local(alias)
        if local is None or not isinstance(alias.name, cst.Name):
            continue
        qualname = f"{module}.{alias.name.value}"
        if targets(qualname) is None:
            continue
        if rule.model.import_target(node, local) != qualname:
            continue
        hits.append((alias, local, qualname))
    return hits


def rewrite_import(
    rule: Rule,
    node: cst.ImportFrom,
    moved: Sequence[cst.ImportAlias],
    new_statements: Sequence[str],
) -> str:
    """The import statement without ``moved``, followed by ``new_statements``.

    Returns ``""`` only when nothing is left and nothing is added; callers that may
    empty the statement pass a replacement statement instead.
    """
    assert not isinstance(node.names, cst.ImportStar)
    kept = [a for a in node.names if a not in moved]
    statements: list[str] = []
    if kept:
        if node.lpar is None:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        statements.append(rule.ctx.code(node.with_changes(names=kept)))
    statements.extend(new_statements)
    if rule.ctx.line_prefix(node).strip():
        separator = "; "  # not first on its line (``if x: from jax import ...``)
    else:
        separator = rule.ctx.module.default_newline + rule.ctx.line_indent(node)
    return separator.join(statements)


@dataclass
class Rewrite:
    """Replace ``node`` by ``text`` (with the imports in ``ops``)."""

    node: cst.CSTNode
    text: str
    ops: list[FixOp] = field(default_factory=list)


@dataclass
class ArgEdits:
    """Keyword edits that turn a call of the old API into one of the new."""

    edits: list[tuple[cst.CSTNode, str]]
    safe: bool = True
    removed: list[str] = field(default_factory=list)
    """Keywords that no longer exist (``in_axis_resources``)."""


def import_and_uses_fix(
    rule: Rule, imp: cst.ImportFrom, alias: cst.ImportAlias, rewrites: Sequence[Rewrite]
) -> Callable[[], list[FixOp]]:
    """Rewrite every use and drop the alias from the import (``import jax`` if it was alone)."""

    def fix() -> list[FixOp]:
        assert not isinstance(imp.names, cst.ImportStar)
        ops: list[FixOp] = []
        for r in rewrites:
            ops.append(ReplaceNode(r.node, r.text))
            ops.extend(op for op in r.ops if op not in ops)
        if len(imp.names) == 1:
            needs_jax = RequireImport("jax") in ops
            if not needs_jax and any(
                isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and st.body[0] is imp
                for st in rule.ctx.module.body
            ):
                ops.append(ReplaceNode(imp, ""))  # a module-level line of its own: drop it
            else:
                # It becomes the import the rewrites need (a block must not end up empty).
                ops = [op for op in ops if op != RequireImport("jax")]
                ops.append(ReplaceNode(imp, "import jax"))
        else:
            ops.append(ReplaceNode(imp, rewrite_import(rule, imp, [alias], [])))
        return ops

    return fix
