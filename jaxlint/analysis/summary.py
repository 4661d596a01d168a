"""A module's summary: what other modules of its project may ask about its names.

Built from the file's lint (the same parse, walk, semantic model and trace analysis;
no positions, which cost a code-generation pass: lines come from the text), as plain
JSON so that it can be cached and sent between processes:

- ``imports``: module-level names bound by one import (re-exports), as absolute
  qualified names (relative imports resolved);
- ``functions``: module-level ``def``s and names bound to a transformed function
  (``step = jax.jit(f)``): the transform, static parameters, whether the function
  runs a loop of steps itself (``lax.scan``, ``fori_loop``, a ``for`` over
  ``range``), its parameters and return annotation, the parameters it jits
  (``jits``: ``maybe_jit(fn)`` returns ``jax.jit(fn)``; see ``analysis/jit_params.py``)
  and the parameters it hands on unchanged to a static parameter of a jitted function
  (``static_via``; see ``analysis/static_params.py``);
- ``classes``: bases (qualified) and annotated attributes and properties, whether
  its constructor runs code of its own (``init``) and the fields its ``__post_init__``
  reads (``post_init_reads``);
- ``values``: module-level meshes and keys;
- ``calls``: calls from traced functions to names imported from elsewhere, with how
  traced each argument is, so that the callee's module knows its function is traced.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import libcst as cst

from jaxlint.analysis.decided import is_none, literal_truth
from jaxlint.analysis.jit_params import module_jit_params
from jaxlint.analysis.methods import properties
from jaxlint.analysis.names import Binding
from jaxlint.analysis.project import ModuleId, empty_summary
from jaxlint.analysis.records import defines, post_init_reads
from jaxlint.analysis.static_params import module_static_forwards
from jaxlint.analysis.trace_values import passed_as_is, passed_level
from jaxlint.analysis.transforms import COMPILING, DEVICE_LOOPS, TRANSFORMS
from jaxlint.analysis.walk import descendants

if TYPE_CHECKING:
    from jaxlint.analysis.keys import KeyAnalysis
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.analysis.tracing import TraceAnalysis


class SummaryContext(Protocol):
    """What :func:`build_summary` reads of a file's context: the engine's ``FileContext``
    has these (the analysis layer never imports the engine, not even for a type)."""

    model: SemanticModel
    text: str
    project: Any

    @property
    def trace(self) -> TraceAnalysis: ...

    @property
    def keys(self) -> KeyAnalysis: ...


_MESH_CONSTRUCTORS = frozenset({"jax.sharding.Mesh", "jax.make_mesh"})
_KEY_CONSTRUCTORS = frozenset({"jax.random.key", "jax.random.PRNGKey"})
_LIBRARIES = (
    "jax.", "numpy.", "builtins.", "flax.", "equinox.", "optax.", "haiku.", "numpyro.",
    "chex.", "functools.", "math.", "typing.", "collections.", "os.", "sys.", "time.",
)  # fmt: skip
"""Calls into these are never calls into the project."""
_TRANSFORM_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in TRANSFORMS)


def build_summary(ctx: SummaryContext, module: ModuleId) -> dict[str, Any]:
    from jaxlint.analysis.project import ProjectFacts

    model = ctx.model
    facts = ctx.project if isinstance(ctx.project, ProjectFacts) else None
    summary = empty_summary(module)
    lines = _LineFinder(ctx.text)

    def qualify(expr: cst.BaseExpression) -> str | None:
        if facts is not None:
            return facts.qualified_name(model, expr)
        return model.qualified_name(expr)

    wraps = not _TRANSFORM_NAMES.isdisjoint(model.identifiers)  # ``step = jax.jit(f)``
    trace = ctx.trace if wraps or _has_functions(model) else None
    imports: dict[str, str] = summary["imports"]
    jits: dict[str, list[dict[str, Any]]] = {}
    forwards: dict[str, dict[str, list[str]]] = {}
    if trace is not None and (wraps or (facts is not None and facts.imports_project(model))):
        jits = module_jit_params(model, trace.transform_of, trace.imported_function)
        forwards = module_static_forwards(model, trace)
    for name, bindings in model.module_scope.bindings.items():
        if len(bindings) != 1:
            continue
        binding = bindings[0]
        if binding.kind == "import":
            target = _import_target(binding, qualify)
            if target is not None:
                imports[name] = target
        elif binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            entry = _function(binding.node, trace, qualify, lines, model)
            keys = _key_params(ctx, binding.node)
            if keys:
                entry["keys"] = keys
                entry["draws"] = _unconditional_draws(binding.node, model, keys)
            if name in jits:
                entry["jits"] = jits[name]
            if name in forwards:
                entry["static_via"] = forwards[name]
            summary["functions"][name] = entry
        elif binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            summary["classes"][name] = _class(binding.node, qualify, lines, module, model)
        elif binding.kind == "assign":
            _assigned(name, binding, summary, trace, qualify, lines, model)
    if trace is not None and facts is not None:
        summary["calls"] = _foreign_calls(trace, facts, model, lines)
    if facts is not None:  # also a script without functions: all of it runs on the host
        host, local = _host_calls(trace, facts, model, imports)
        if host:
            summary["host_calls"] = host
        if local:
            summary["host_local"] = local
    return summary


def _host_calls(
    trace: Any, facts: Any, model: Any, imports: dict[str, str]
) -> tuple[list[str], list[str]]:
    """The project functions this module names outside every staged trace (imported:
    their targets; its own top-level functions: their names): calls from module-level code
    or from functions no transform stages (or only a framework's contract presumes
    traced), and names passed on from there (a callback may run on the host). Not the
    function given to a compiling transform (``jax.jit(f)``). A function whose every use
    in the project is inside staged traces never runs on the host
    (``ProjectFacts.host_reached``)."""
    own = {
        name
        for name, bindings in model.module_scope.bindings.items()
        if len(bindings) == 1 and bindings[0].kind == "def"
    }
    wanted = (set(imports) | own) & model.identifiers
    if not wanted:
        return [], []
    parents = model.parents
    out: set[str] = set()
    local: set[str] = set()
    staged: dict[int, bool] = {}
    name_cls, attr_cls = cst.Name, cst.Attribute
    for node, entering in model.events:
        if not entering or type(node) is not name_cls:
            continue
        value = node.value
        if value not in wanted:
            continue
        expr: cst.CSTNode = node
        parent = parents.get(id(expr))
        if type(parent) is cst.FunctionDef and parent.name is node:
            continue  # the definition itself
        while type(parent) is attr_cls and parent.value is expr:  # ``gravity.get_k``
            expr, parent = parent, parents.get(id(parent))
        if type(parent) in (cst.ImportAlias, cst.ImportFrom) or _compiled_there(
            trace, model, expr, parent
        ):
            continue  # the import itself, or the function a compiling transform is given
        fn = model.function_of_name(node)
        if fn is not None and trace is not None:
            inside = staged.get(id(fn))
            if inside is None:
                info = trace.info(fn)
                inside = staged[id(fn)] = bool(
                    info is not None and info.staging and not info.presumed()
                )
            if inside:
                continue
        if expr is node and value in own:
            found = model.lookup(value, model.scope_for(node))
            if found is not None and found[0] is model.module_scope:
                local.add(value)
            continue
        target = facts.qualified_name(model, expr)
        if target is None or target.startswith(_LIBRARIES) or target in out:
            continue
        if facts.project.index.locate(target) is not None:
            out.add(target)
    return sorted(out), sorted(local)


def host_local(trace: Any, facts: Any, model: Any) -> list[str]:
    """The module's own top-level functions it names outside every staged trace (the
    summary's ``host_local``, for the module being linted)."""
    return _host_calls(trace, facts, model, {})[1]


def _compiled_there(trace: Any, model: Any, expr: cst.CSTNode, parent: Any) -> bool:
    """``expr`` is the function a compiling transform is given (``jax.jit(f, ...)``): it
    runs inside that trace."""
    if type(parent) is not cst.Arg or parent.keyword is not None:
        return False
    call = model.parents.get(id(parent))
    if type(call) is not cst.Call or not call.args or call.args[0] is not parent:
        return False
    if trace is None:
        return model.qualified_name(call.func) in COMPILING
    found = trace.transform_of(call.func)
    return found is not None and found[0].qualname in COMPILING


def _has_functions(model: Any) -> bool:
    return any(
        b.kind == "def" or b.kind == "class"
        for bindings in model.module_scope.bindings.values()
        for b in bindings
    )


def _import_target(binding: Binding, qualify: Any) -> str | None:
    if binding.qualname is not None:
        return binding.qualname
    node = binding.node
    if (
        type(node) is cst.ImportFrom
        and node.relative
        and not isinstance(node.names, cst.ImportStar)
    ):
        for alias in node.names:
            local = alias.asname.name if alias.asname is not None else alias.name
            if isinstance(local, cst.Name) and local.value == binding.name:
                return qualify(local)
    return None


_DEFINITION_RE = re.compile(
    r"^([ \t]*)(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+))|^(\w+)[ \t]*[:=]",
    re.MULTILINE,
)


class _LineFinder:
    """Lines of definitions, found in the text in one pass (positions cost a pass)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._defs: dict[str, int] = {}
        self._nested: dict[str, int] = {}
        self._classes: dict[str, int] = {}
        self._assigns: dict[str, int] = {}
        line, last = 1, 0
        for match in _DEFINITION_RE.finditer(text):
            line += text.count("\n", last, match.start())
            last = match.start()
            indent, fn, cls, assigned = match.groups()
            if fn is not None:
                table = self._nested if indent else self._defs
                table.setdefault(fn, line)
            elif cls is not None and not indent:
                self._classes.setdefault(cls, line)
            elif assigned is not None:
                self._assigns.setdefault(assigned, line)

    def of_def(self, name: str) -> int:
        """A module-level ``def``, else the first method or nested function of that name."""
        return self._defs.get(name) or self._nested.get(name) or 1

    def of_class(self, name: str) -> int:
        return self._classes.get(name, 1)

    def of_wrap(self, func: str) -> int:
        """The line of ``jax.jit(func ...`` (any transform spelled ``name(``)."""
        match = re.search(rf"\w\(\s*{re.escape(func)}\s*[,)]", self.text)
        return 1 if match is None else self.text.count("\n", 0, match.start()) + 1

    def of_assign(self, name: str) -> int:
        return self._assigns.get(name, 1)


def _function(
    fn: cst.FunctionDef, trace: Any, qualify: Any, lines: _LineFinder, model: Any
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "line": lines.of_def(fn.name.value),
        "params": [p.name.value for p in fn.params.params],
        "transform": None,
        "static": [],
        "loops": _loops(fn, model),
        "returns": qualify(fn.returns.annotation) if fn.returns is not None else None,
    }
    if fn.params.posonly_params:
        entry["posonly"] = len(fn.params.posonly_params)  # not in ``params``: positions move
    if trace is not None and fn.decorators:
        found = trace.transform_of(fn.decorators[0].decorator)  # the outermost decides
        if found is not None:
            entry["transform"] = found[0].qualname
            info = trace.info(fn)
            if info is not None:
                entry["static"] = sorted(info.static_params)
                entry["unknown_static"] = info.unknown_statics
    return entry


def _key_params(ctx: SummaryContext, fn: cst.FunctionDef) -> dict[str, str]:
    """Parameters the function consumes as PRNG keys, with how (``random``: passed to a
    ``jax.random`` sampler; ``local``: to a function of its module that does), from the
    key analysis of its module. Only for modules that spell ``random``."""
    if "random" not in ctx.model.identifiers:
        return {}
    found = ctx.keys.summary(fn)
    return dict(found.params) if found is not None else {}


def _unconditional_draws(fn: cst.FunctionDef, model: Any, keys: dict[str, str]) -> list[str]:
    """The key parameters the function passes to a ``jax.random`` function that consumes
    it (a sampler or ``split``) in a statement that runs on every call: not inside an
    ``if``, ``try``, ``match``, loop or nested function, and before any ``return`` or
    ``raise`` of its body. Only such a call surely draws, whatever its arguments."""
    from jaxlint.analysis.keys import DERIVERS, READERS

    out: set[str] = set()
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            if isinstance(stmt, (cst.With,)):
                continue  # its body may still run; not counted (conservative)
            continue
        for node in descendants(stmt):
            if type(node) is not cst.Call:
                continue
            qn = model.call_name(node)
            if qn is None or not qn.startswith("jax.random.") or qn in DERIVERS | READERS:
                continue
            first = next((a.value for a in node.args if a.keyword is None), None)
            named = next(
                (a.value for a in node.args if a.keyword is not None and a.keyword.value == "key"),
                None,
            )
            for arg in (first, named):
                if type(arg) is cst.Name and arg.value in keys:
                    out.add(arg.value)
        if any(isinstance(small, (cst.Return, cst.Raise)) for small in stmt.body):
            break
    return sorted(out)


def _loops(fn: cst.FunctionDef, model: Any) -> bool:
    """The function runs many steps itself: a lax loop or a ``for`` over ``range``."""
    for node in model.body_nodes(fn):
        kind = type(node)
        if kind is cst.For:
            it = node.iter  # type: ignore[attr-defined]
            if type(it) is cst.Call and model.call_name(it) == "builtins.range":
                return True
        elif kind is cst.Call and model.call_name(node) in DEVICE_LOOPS:
            return True
    return False


def _class(
    cls: cst.ClassDef, qualify: Any, lines: _LineFinder, module: ModuleId, model: Any
) -> dict[str, Any]:
    bases = []
    for arg in cls.bases:
        if arg.keyword is None and not arg.star:
            qn = qualify(arg.value)
            if qn is None and type(arg.value) is cst.Name:  # a class of this module
                local = model.module_scope.bindings.get(arg.value.value, [])
                if len(local) == 1 and local[0].kind == "class":
                    qn = f"{module.name}.{arg.value.value}"
            if qn is not None:
                bases.append(qn)
    attrs: dict[str, str] = {}
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for stmt in body:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    qn = qualify(small.annotation.annotation)
                    if qn is not None:
                        attrs[small.target.value] = qn
        elif isinstance(stmt, cst.FunctionDef) and stmt.returns is not None:
            if any(_is_property(d.decorator, qualify) for d in stmt.decorators):
                qn = qualify(stmt.returns.annotation)
                if qn is not None:
                    attrs[stmt.name.value] = qn
    out: dict[str, Any] = {"line": lines.of_class(cls.name.value), "bases": bases, "attrs": attrs}
    read_by_code = properties(cls, qualify)
    if read_by_code:
        out["properties"] = read_by_code  # a read runs code: maybe a new value every read
    reads = post_init_reads(cls)
    if defines(cls, "__init__") or reads is None:
        out["init"] = True  # its constructor runs code of its own (not a plain record)
    elif reads:
        out["post_init_reads"] = sorted(reads)  # the fields its ``__post_init__`` reads
    return out


def _is_property(decorator: cst.BaseExpression, qualify: Any) -> bool:
    return qualify(decorator) in ("builtins.property", "functools.cached_property")


def _assigned(
    name: str,
    binding: Binding,
    summary: dict[str, Any],
    trace: Any,
    qualify: Any,
    lines: _LineFinder,
    model: Any,
) -> None:
    node = binding.node
    value = model.assigned.get(id(node)) if isinstance(node, cst.Name) else None
    if type(value) is not cst.Call:
        return
    qn = model.call_name(value)
    if qn in _MESH_CONSTRUCTORS:
        summary["values"][name] = {"line": lines.of_assign(name), "kind": "mesh"}
    elif qn in _KEY_CONSTRUCTORS:
        summary["values"][name] = {"line": lines.of_assign(name), "kind": "key"}
    elif trace is not None:
        wrapped = trace.transform_of(value.func)
        if wrapped is not None and any(a.keyword is None and not a.star for a in value.args):
            fn = trace.resolve_callable(value.args[0].value)
            entry: dict[str, Any] = {
                "line": lines.of_assign(name),
                "params": [],
                "transform": wrapped[0].qualname,
                "static": [],
                "loops": False,
                "returns": None,
            }
            if fn is not None and isinstance(fn[0], cst.FunctionDef):
                entry["params"] = [p.name.value for p in fn[0].params.params]
                if fn[1] or fn[2]:
                    entry["partial"] = True  # ``jax.jit(partial(h, a))``: positions move
                entry["loops"] = _loops(fn[0], model)
                info = trace.info(fn[0])
                if info is not None:
                    entry["static"] = sorted(info.static_params)
                    entry["unknown_static"] = info.unknown_statics
            summary["functions"][name] = entry


def _foreign_calls(trace: Any, facts: Any, model: Any, lines: _LineFinder) -> list[dict[str, Any]]:
    """Calls from this module's traced functions to functions imported from the project."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for caller, call, args in trace.foreign_calls:
        if trace.never_traced(call, caller):  # after ``if isinstance(x, Tracer): return``
            continue
        target = facts.qualified_name(model, call.func)
        if target is None or target.startswith(_LIBRARIES):
            continue
        if facts.project.index.locate(target) is None:
            continue
        name = caller.name
        if (target, name) in seen:
            continue
        seen.add((target, name))
        node = caller.node
        # ``MLP.__call__`` (a method traced by contract): the line of a method of that name
        line = lines.of_def(node.name.value) if isinstance(node, cst.FunctionDef) else 1
        how = caller.own[0].verb if caller.own else caller.verb
        out.append(
            {
                "target": target,
                "caller": name,
                "caller_how": how,
                "line": line,
                "staging": caller.staging,
                "abstract": caller.abstract,
                "args": [[key, int(passed_level(val))] for key, val in args],
            }
        )
        if caller.presumed():
            out[-1]["presumed"] = True
        nones = [i for i, a in enumerate(call.args) if is_none(a.value)]
        if nones:  # ``turbulence(x, grid=None)``: given, but as ``None``
            out[-1]["none_args"] = nones
        literals = [
            [i, int(truth)]
            for i, a in enumerate(call.args)
            if i not in nones and (truth := literal_truth(a.value)) is not None
        ]
        if literals:  # ``linear_operator(..., check=False)``: the branch it decides
            out[-1]["literal_args"] = literals
    for wrap, call in trace.foreign_seeds:
        func = next(a.value for a in call.args if a.keyword is None and not a.star)
        target = facts.qualified_name(model, func)
        if target is None or target.startswith(_LIBRARIES):
            continue
        if facts.project.index.locate(target) is None:
            continue
        entry: dict[str, Any] = {
            "target": target,
            "caller": None,
            "transform": wrap.transform.qualname,
            "line": lines.of_wrap(ctx_code(func)),
        }
        for key in ("static_argnums", "static_argnames", "argnums", "in_axes"):
            value = wrap.kwargs.get(key)
            if value is None:
                continue
            literal = _literal(value)
            if literal is _UNKNOWN:
                entry[key] = None  # not a literal: no parameter is surely traced
            else:
                entry[key] = literal
        if any(entry.get(k, 0) is None for k in ("static_argnums", "static_argnames")):
            continue  # unknown statics: nothing can be said
        as_is = passed_as_is(wrap)
        if as_is:  # ``shard_map``'s ``None`` in_specs: those arguments keep their value
            entry["passed_as_is"] = sorted(as_is)
        out.append(entry)
    return out


_UNKNOWN = object()


def _literal(expr: cst.BaseExpression) -> Any:
    import ast

    try:
        return ast.literal_eval(cst.Module([]).code_for_node(expr))
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return _UNKNOWN


def ctx_code(expr: cst.BaseExpression) -> str:
    return cst.Module([]).code_for_node(expr)
