"""Inputs from a call site of the function: in its file, or in another module of the project.

A call's arguments are evaluated in its module's namespace after the simple statements
before the call in its block (a module-level call, or one in an ``if __name__ ==
"__main__":`` block or a function). When the call is in a function and its arguments
(or those statements) use that function's parameters (``def train(params, batch):
step(params, batch)``), the parameters get the values a call of that function passes:
its callers are found the same way (in the file, then in the project), up to
``MAX_LEVELS`` callers up, never through a function already being resolved (a cycle);
a parameter no caller gives takes its default, or the module-level value of its name.
When nothing concrete is found, the reason names the parameters, the function and why
(called nowhere, a cycle, too far up, its callers' own errors).
"""

from __future__ import annotations

import ast
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jaxlint.runtime_probes._targets import Inputs, Loader

MAX_LEVELS = 4
"""How many callers up the parameters of a call site's function are followed."""
MAX_SITES = 64
"""Call sites evaluated at most in one search (each level may fan out)."""

_SIMPLE = (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


@dataclass
class CallSite:
    line: int
    text: str
    setup: list[ast.stmt]
    """Simple statements run before the call's arguments are evaluated (not run on import)."""
    call: ast.Call
    function: str | None = None
    """The module-level function the call is in (its callers can give its parameters)."""
    enclosing: str | None = None
    """The innermost function around the call, in words (``train``, ``a lambda``)."""
    params: tuple[str, ...] = ()
    """That function's parameters."""
    uses: frozenset[str] = frozenset()
    """The names the call's arguments and the statements before it read."""


def _is_main_guard(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def function_node(tree: ast.Module, attr: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    parts = attr.split(".")
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for i, part in enumerate(parts):
        node = None
        for stmt in body:
            last = i == len(parts) - 1
            kinds = (ast.FunctionDef, ast.AsyncFunctionDef) if last else (ast.ClassDef,)
            if isinstance(stmt, kinds) and stmt.name == part:
                node = stmt
        if node is None:
            return None
        body = getattr(node, "body", [])
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _names(tree: ast.Module, attr: str) -> set[str]:
    """The function's name and module-level names bound to a wrapper of it
    (``g_jit = jax.jit(g, ...)``)."""
    names = {attr}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            first = stmt.value.args[0] if stmt.value.args else None
            if isinstance(first, ast.Name) and first.id == attr:
                names |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    return names


def _calls_target(node: ast.AST, names: set[str], module_names: set[str], attr: str) -> bool:
    """``f(...)`` for a name of the function, or ``mod.f(...)`` for a name of its module."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in names
    return (
        isinstance(func, ast.Attribute)
        and func.attr == attr
        and isinstance(func.value, ast.Name)
        and func.value.id in module_names
    )


def _parameters(fn: ast.AST) -> tuple[str, ...]:
    a = getattr(fn, "args", None)
    if a is None:
        return ()
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return tuple(names)


def _reads(nodes: list[ast.AST]) -> frozenset[str]:
    return frozenset(
        n.id
        for node in nodes
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )


def call_sites(
    tree: ast.Module,
    source: str,
    attr: str,
    *,
    names: set[str] | None = None,
    module_names: set[str] | None = None,
    deferred_only: bool = False,
) -> list[CallSite]:
    """The calls of ``attr`` in ``tree`` (by its own name and wrappers of it, or by
    ``names``/``module_names`` bound by imports in another file); ``deferred_only``: only
    the calls in a function or a ``__main__`` block."""
    if "." in attr:
        return []
    names = _names(tree, attr) if names is None else names
    module_names = module_names or set()
    parents: dict[int, tuple[ast.AST, str]] = {}
    for node in ast.walk(tree):
        for fld, value in ast.iter_fields(node):
            if isinstance(value, list):
                for child in value:
                    if isinstance(child, ast.AST):
                        parents[id(child)] = (node, fld)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (node, fld)
    own = function_node(tree, attr)
    sites = []
    for node in ast.walk(tree):
        if not _calls_target(node, names, module_names, attr):
            continue
        assert isinstance(node, ast.Call)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            continue
        setup: list[ast.stmt] = []
        child: ast.AST = node
        inside_own = False
        deferred = False  # the enclosing blocks do not run on import
        innermost: ast.AST | None = None
        chain: list[tuple[ast.AST, str, ast.AST]] = []
        while id(child) in parents:
            parent, fld = parents[id(child)]
            chain.append((parent, fld, child))
            if parent is own:
                inside_own = True
            if isinstance(parent, _FUNCS) or _is_main_guard(parent):
                deferred = True
            if isinstance(parent, _FUNCS) and innermost is None:
                innermost = parent
            child = parent
        if inside_own or (deferred_only and not deferred):
            continue
        if deferred:
            # the simple statements before the call in each enclosing block, outermost first,
            # from the function or __main__ block down
            for parent, fld, child in reversed(chain):
                if isinstance(parent, _FUNCS) or _is_main_guard(parent):
                    setup = []
                block = getattr(parent, fld, None)
                if isinstance(block, list) and isinstance(child, ast.stmt):
                    index = next(i for i, s in enumerate(block) if s is child)
                    setup += [s for s in block[:index] if isinstance(s, _SIMPLE)]
        text = ast.get_source_segment(source, node) or ast.unparse(node)
        site = CallSite(node.lineno, " ".join(text.split()), setup, node)
        if innermost is not None:
            name = getattr(innermost, "name", None)
            site.enclosing = name if name else "a lambda"
            site.function = name if name and any(s is innermost for s in tree.body) else None
            if name and site.function is None:
                site.enclosing = f"{name} (a nested function or a method)"
            site.params = _parameters(innermost)
            site.uses = _reads([*node.args, *(k.value for k in node.keywords), *setup])
        sites.append(site)
    sites.sort(key=lambda s: s.line)
    return sites


# -- evaluating a call site ------------------------------------------------------------------


@dataclass
class Walk:
    """One search for call sites: the functions being resolved (outermost first), the
    loader that imports the project's other modules, and the evaluations left."""

    loader: Loader | None
    chain: tuple[tuple[str, str], ...] = ()
    budget: list[int] = field(default_factory=lambda: [MAX_SITES])

    def deeper(self, file: str, function: str) -> Walk:
        return Walk(self.loader, (*self.chain, (os.path.realpath(file), function)), self.budget)

    def names(self) -> list[str]:
        return [name for _, name in self.chain]


@dataclass
class Found:
    site: CallSite
    factory: Callable[[], Inputs]
    file: str
    via: list[dict[str, Any]]
    """The calls that gave the site's function its parameters, innermost first."""
    given: dict[str, str] = field(default_factory=dict)
    """Parameters no call gave, and where their values came from instead."""

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "line": self.site.line, "call": self.site.text}
        if self.via:
            out["via"] = self.via
        if self.given:
            out["parameters"] = self.given
        return out


@dataclass
class Skipped:
    """A call site whose arguments did not evaluate, and why (``text``)."""

    text: str
    site: CallSite | None = None
    file: str | None = None
    missing: tuple[str, ...] = ()
    """Parameters of the site's function that no caller gave (the site passes them)."""

    def __str__(self) -> str:
        return self.text


def _site_factory(
    module: Any, filename: str, site: CallSite, bind: Callable[[], dict[str, Any]] | None
) -> Callable[[], Inputs]:
    setup = compile(ast.Module(body=site.setup, type_ignores=[]), filename, "exec")
    args = [compile(ast.Expression(a), filename, "eval") for a in site.call.args]
    kwargs = [
        (k.arg, compile(ast.Expression(k.value), filename, "eval")) for k in site.call.keywords
    ]

    def factory() -> Inputs:
        ns = dict(vars(module))
        if bind is not None:
            ns.update(bind())  # the parameters of the function the call is in
        exec(setup, ns)
        return tuple(eval(a, ns) for a in args), {k: eval(v, ns) for k, v in kwargs}

    return factory


def _signature(module: Any, name: str) -> inspect.Signature | None:
    try:
        return inspect.signature(inspect.unwrap(getattr(module, name)))
    except (AttributeError, TypeError, ValueError):
        return None


def _caller_values(
    module: Any, filename: str, site: CallSite, walk: Walk
) -> tuple[Callable[[], dict[str, Any]], list[dict[str, Any]]] | str:
    """A binder of the parameters of the function ``site`` is in, from a call of that
    function, and that call (and its own ``via``); or why there is none."""
    name = site.function
    if name is None:
        return f"{site.enclosing}: its callers are not followed"
    key = (os.path.realpath(filename), name)
    if key in walk.chain:
        return f"a cycle: {' -> '.join([*walk.names()[walk.chain.index(key) :], name])}"
    if len(walk.chain) > MAX_LEVELS:
        return f"the search stops {MAX_LEVELS} callers up ({' -> '.join(walk.names())})"
    signature = _signature(module, name)
    if signature is None:
        return f"the signature of {name} cannot be read"
    found, skipped = find_sites(module, filename, name, walk.deeper(filename, name), many=False)
    if not found:
        if not skipped:
            return f"{name} is called nowhere in the project (in a function or a __main__ block)"
        return f"no call of {name} gives them ({'; '.join(map(str, skipped))})"
    caller = found[0]

    def bind() -> dict[str, Any]:
        args, kwargs = caller.factory()
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    return bind, [caller.describe()]


def _defaults(module: Any, site: CallSite) -> Callable[[], dict[str, Any]] | None:
    signature = _signature(module, site.function) if site.function else None
    if signature is None:
        return None

    def bind() -> dict[str, Any]:
        bound = signature.bind_partial()
        bound.apply_defaults()
        return dict(bound.arguments)

    return bind


def try_site(module: Any, filename: str, site: CallSite, walk: Walk) -> Found | Skipped:
    """The site's inputs, evaluated once to check them; or why they do not evaluate."""
    where = f"{os.path.basename(filename)} line {site.line}"
    if walk.budget[0] <= 0:
        return Skipped(f"{where}: not tried (more than {MAX_SITES} call sites were evaluated)")
    walk.budget[0] -= 1
    needed = [p for p in site.params if p in site.uses]
    bind, via, missing = None, [], None
    if needed:
        got = _caller_values(module, filename, site, walk)
        if isinstance(got, str):
            missing, bind = got, _defaults(module, site)
        else:
            bind, via = got
    factory = _site_factory(module, filename, site, bind)
    try:
        factory()
    except Exception as exc:  # the site's arguments need what only a run has
        if missing is not None and isinstance(exc, NameError) and exc.name in needed:
            text = (
                f"{where}: {site.text} passes parameter(s) {', '.join(needed)} of"
                f" {site.enclosing}, and {missing}"
            )
            return Skipped(text, site, filename, tuple(needed))
        message = str(exc).splitlines()[0] if str(exc) else ""
        return Skipped(f"{where}: {type(exc).__name__}: {message}", site, filename)
    given: dict[str, str] = {}
    if missing is not None:  # no caller: defaults, or the module's names
        signature = _signature(module, site.function) if site.function else None
        for p in needed:
            param = signature.parameters.get(p) if signature else None
            has_default = param is not None and param.default is not inspect.Parameter.empty
            given[p] = (
                f"the default of {site.function}" if has_default else "the module-level value"
            )
    return Found(site, factory, filename, via, given)


def _parse(path: str) -> tuple[ast.Module, str] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        return ast.parse(text, filename=path), text
    except (OSError, SyntaxError, ValueError):
        return None


def find_sites(
    module: Any, path: str, attr: str, walk: Walk, *, many: bool
) -> tuple[list[Found], list[Skipped]]:
    """Usable call sites of ``module.attr``: in its file first, then in the project's other
    files that import it; and why the others were not used. One is enough unless ``many``."""
    parsed = _parse(path)
    found: list[Found] = []
    skipped: list[Skipped] = []
    sites = call_sites(*parsed, attr) if parsed else []
    for site in sites:
        made = try_site(module, path, site, walk)
        if isinstance(made, Skipped):
            skipped.append(made)
            continue
        found.append(made)
        if not many:
            return found, skipped
    if found:
        return found, skipped
    elsewhere, looked = project_sites(module, path, attr, walk, many)
    return elsewhere, skipped + looked


def project_sites(
    module: Any, path: str, attr: str, walk: Walk, many: bool
) -> tuple[list[Found], list[Skipped]]:
    """Usable call sites of ``attr`` in the project's other files (``_project_sites``),
    and why the others were skipped."""
    from jaxlint.runtime_probes import _project_sites as project
    from jaxlint.runtime_probes._targets import import_roots

    module_name = getattr(module, "__name__", "")
    roots = import_roots(os.path.abspath(path))
    loader = walk.loader
    if loader is None or not roots or module_name.startswith("_jaxlint_probe_"):
        # a file imported by path (outside a package) is imported by no other module by name,
        # unless it is a top-level module of the project
        stem = os.path.splitext(os.path.basename(path))[0]
        if loader is None or not roots or not stem.isidentifier():
            return [], []
        module_name = stem
    found: list[Found] = []
    skipped: list[Skipped] = []
    for other, tree, text, fn_names, mod_names in project.candidates(
        os.path.abspath(path), module_name, attr, roots
    ):
        sites = call_sites(
            tree, text, attr, names=fn_names, module_names=mod_names, deferred_only=True
        )
        if not sites:
            continue
        try:
            other_module = loader.load_file(other, "call site")
        except Exception as exc:  # its import failed: say so, try the next file
            message = getattr(exc, "error", {}).get("message", str(exc))
            skipped.append(Skipped(f"{os.path.basename(other)}: import failed: {message}"))
            continue
        for site in sites:
            made = try_site(other_module, other, site, walk)
            if isinstance(made, Skipped):
                skipped.append(made)
                continue
            found.append(made)
            if not many:
                return found, skipped
    return found, skipped
