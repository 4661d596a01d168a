"""Where a project switches 64-bit mode on outside the module being linted (JAX603).

x64 is a process-wide JAX setting. A test may get it from a ``conftest.py`` or the pytest
configuration, and any module from a package whose ``__init__.py`` switches it on when
imported. This module reads those files (text only, with :mod:`ast`, :mod:`configparser`
and ``tomllib``; the project's code is never imported or run) and says where x64 is
switched on for a file, with the scope that is honest for each source:

- a ``conftest.py`` applies to the tests in its folder and below: pytest imports it
  before them. It counts when it switches x64 on at import (a top-level statement; setting
  ``JAX_ENABLE_X64`` only before the module imports JAX, which reads it once), in
  ``pytest_configure``/``pytest_sessionstart``, or in an autouse fixture; a fixture that a
  test must request by name enables it only for the tests that do. The value must be a
  literal true one (a fixture that restores a saved value does not switch x64 on);
- the pytest configuration (``pytest.ini``, ``pyproject.toml``'s ``[tool.pytest.ini_options]``
  or ``[tool.pytest_env]``, ``setup.cfg``'s ``[tool:pytest]``, ``tox.ini``'s ``[pytest]``
  and ``[testenv]`` sections) applies to the tests in its folder and below when it sets
  ``JAX_ENABLE_X64`` (pytest-env's ``env = JAX_ENABLE_X64=1``, tox's ``setenv``) or passes
  ``--jax_enable_x64``;
- a package's ``__init__.py`` that switches x64 on at import applies to every module of
  the package (its submodules are imported after it), tests or not, and to every module
  that imports the package at its top level; so does any module of the project that the
  file imports at its top level (``from pkg.gpu import f`` runs ``pkg/gpu.py``). At a
  module's top level a computed value counts (``update("jax_enable_x64",
  _resolve_x64_env())`` may switch it on), and so does a function or class of the module
  called there, whose body (a class: its constructor, and the methods it calls) switches
  it on;
- a function of the project that the file calls and that switches x64 on, with any
  value but a literal false (``configure(double_precision=True)``, whose body runs
  ``update("jax_enable_x64", double_precision)``), applies to the file, also when the
  file calls it through a package that re-exports it (``gv.enable_float64()``).

Only folders between the file and the project root are read (the file's own folder when
there is no project root), each once per run.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.testcode import TEST_FOLDERS, is_main_guard_ast

if TYPE_CHECKING:
    from jaxlint.analysis.project import ModuleId, ProjectContext

_FLAG = "jax_enable_x64"
_FALSE = frozenset({"0", "false", "no", "off", "", "none"})
_HOOKS = frozenset({"pytest_configure", "pytest_sessionstart", "pytest_load_initial_conftests"})
PYTEST_CONFIG_FILES = ("pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini")
_MAX_CONFIG = 1024 * 1024
# ``JAX_ENABLE_X64=1`` (pytest-env, tox setenv), ``"JAX_ENABLE_X64": "1"`` (a TOML table as
# JSON), ``--jax_enable_x64`` / ``--jax_enable_x64=true`` (absl flags in ``addopts``)
_SETTING = re.compile(
    r"""(?:--)?\bjax_enable_x64\b["']?\s*(?:[=:]\s*["']?([^"'\s,\]\}]*)|(?=[\s"',\]]|$))""",
    re.IGNORECASE,
)


def _false(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Constant):
        return value.value is None or str(value.value).strip().lower() in _FALSE
    return False


def _literal_true(value: ast.expr) -> bool:
    """A literal that switches the flag on: another file must show it, not compute it (a
    fixture that restores the flag it saved, ``update("jax_enable_x64", saved)``, does
    not switch it on)."""
    return isinstance(value, ast.Constant) and value.value is not None and not _false(value)


def _maybe_true(value: ast.expr) -> bool:
    """Anything but a literal false (or ``None``)."""
    return not _false(value)


def _flag_name(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and str(node.value).lower() == _FLAG


def _enables(node: ast.AST, env: bool, computed: bool = False) -> bool:
    """One statement or expression switches x64 on (a literal false does not). ``env``:
    setting ``JAX_ENABLE_X64`` counts here (JAX reads it once, when it is imported).
    ``computed``: a value that is not a literal counts too (it may be true): at a
    module's top level (``update("jax_enable_x64", _resolve_x64_env())``) and in a
    function that a file calls (``configure(double_precision=True)``), but not in a
    fixture, which may restore a value it saved."""
    _true = _maybe_true if computed else _literal_true
    if isinstance(node, ast.Call):
        func = node.func
        args = node.args
        if not isinstance(func, ast.Attribute):
            return False
        if not args:  # ``jax.experimental.enable_x64()``: on by default
            return func.attr == "enable_x64"
        if func.attr == "update" and _flag_name(args[0]):
            return len(args) > 1 and _true(args[1])  # jax.config.update(name, value)
        if env and func.attr in ("setdefault", "putenv") and _flag_name(args[0]):
            return len(args) > 1 and _true(args[1])  # os.environ.setdefault
        if func.attr == "enable_x64":  # ``with jax.enable_x64(True):`` in a fixture
            return _true(args[0])
        return False
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if (  # os.environ["JAX_ENABLE_X64"] = "1"
                env
                and isinstance(target, ast.Subscript)
                and _flag_name(target.slice)
                and _true(node.value)
            ):
                return True
            if (  # jax.config.jax_enable_x64 = True
                isinstance(target, ast.Attribute) and target.attr == _FLAG and _true(node.value)
            ):
                return True
    return False


def _walk_code(body: Iterable[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of ``body`` that run with it: not those of nested functions or classes."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    stack: list[ast.AST] = [node for node in body if not isinstance(node, nested)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, nested))


def _autouse_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg == "autouse" and not _false(kw.value):
                    return True
    return False


def _runs(tree: ast.Module, conftest: bool) -> Iterator[tuple[list[ast.stmt], bool]]:
    """The code that runs for every test, and whether it is the module's top level: the
    module's top level and, in a ``conftest.py``, pytest's start-up hooks and autouse
    fixtures (also as methods of a class)."""
    yield tree.body, True
    if not conftest:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in _HOOKS or _autouse_fixture(node):
                yield node.body, False


def _imports_jax(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "jax" or a.name.startswith("jax.") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        return node.level == 0 and (module == "jax" or module.startswith("jax."))
    return False


def scan_python(text: str, conftest: bool) -> int | None:
    """The line where this module switches x64 on for its importers (see the module's
    docstring), or ``None``. Setting ``JAX_ENABLE_X64`` counts at the top level before
    the module imports JAX (later, JAX has already read it)."""
    tree = _parse(text)
    if tree is None:
        return None
    defs: dict[str, ast.AST] | None = None
    for body, top in _runs(tree, conftest):
        jax_seen = not top
        for stmt in body:
            nodes = list(_walk_code([stmt]))
            for node in nodes:
                if _enables(node, env=not jax_seen, computed=top):
                    return getattr(node, "lineno", 1)
            if top and not is_main_guard_ast(stmt):  # ``if __name__ == "__main__": main()``
                for node in nodes:
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                        if defs is None:
                            defs = _definitions(tree.body)
                        line = _switch_when_called(defs, node.func.id)
                        if line is not None:
                            return line
            jax_seen = jax_seen or any(_imports_jax(node) for node in nodes)
    return None


def _definitions(body: list[ast.stmt]) -> dict[str, ast.AST]:
    return {
        stmt.name: stmt
        for stmt in body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }


_MAX_CALL_DEPTH = 4
"""How many calls deep :func:`_switch_when_called` follows a call made at the top level."""


def _switch_when_called(defs: dict[str, ast.AST], name: str) -> int | None:
    """The line where calling the module's function or class ``name`` at its top level
    switches x64 on: in the function, or in the class's ``__new__``/``__init__``/
    ``__post_init__``, and in the module's functions and the class's methods (``self.x()``)
    they call, up to :data:`_MAX_CALL_DEPTH` calls deep (nlsq's ``_config = JAXConfig()``,
    whose ``__init__`` calls ``self._initialize_jax()``, which calls
    ``config.update("jax_enable_x64", True)``: fresh-2026-12r)."""
    target = defs.get(name)
    if target is None:
        return None
    methods: dict[str, ast.AST] = {}
    if isinstance(target, ast.ClassDef):
        methods = _definitions(target.body)
        todo = [methods[m] for m in ("__new__", "__init__", "__post_init__") if m in methods]
    else:
        todo = [target]
    seen: set[int] = set()
    for _ in range(_MAX_CALL_DEPTH):
        calls: list[ast.AST] = []
        for fn in todo:
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            for node in _walk_code(fn.body):  # type: ignore[attr-defined]
                if _enables(node, env=False, computed=True):
                    return getattr(node, "lineno", 1)
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Name) and func.id in defs:
                    callee = defs[func.id]
                elif (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id in ("self", "cls")
                ):
                    callee = methods.get(func.attr)
                else:
                    continue
                if isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    calls.append(callee)
        todo = calls
    return None


_MAX_REEXPORTS = 4
"""How many re-exports (``from .core.config import enable_float64``) a call is followed."""


def _reexported(tree: ast.Module, name: str, module: str, path: Path) -> str | None:
    """The qualified name that a top-level ``from ... import name`` of the module
    ``module`` (the file ``path``) binds ``name`` to, or ``None``."""
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom):
            continue
        for alias in stmt.names:
            if (alias.asname or alias.name) != name:
                continue
            if stmt.level:  # as ``project.absolute_module`` (which imports this module)
                parts = module.split(".")
                if path.name != "__init__.py":
                    parts = parts[:-1]
                if stmt.level - 1 > len(parts):
                    return None
                parts = parts[: len(parts) - (stmt.level - 1)]
                base = ".".join([*parts, *([stmt.module] if stmt.module else [])])
            else:
                base = stmt.module
            return f"{base}.{alias.name}" if base else None
    return None


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when the module is imported: the top level, and the blocks
    of ``try``/``if``/``with`` there (not ``if TYPE_CHECKING:``)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            if "TYPE_CHECKING" in ast.dump(stmt.test):
                continue
            yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                yield from _top_level(block)
            for handler in stmt.handlers:
                yield from _top_level(handler.body)
        elif isinstance(stmt, ast.With):
            yield from _top_level(stmt.body)


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def scan_function(tree: ast.Module, name: str) -> int | None:
    """The line where the module-level function ``name`` of ``tree`` switches x64 on when
    called (a computed value counts: ``update("jax_enable_x64", double_precision)``), or
    ``None``."""
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            nodes = list(_walk_code(stmt.body))
            aliases = _context_aliases(nodes)
            for node in nodes:
                if _enables(node, env=False, computed=True):
                    return getattr(node, "lineno", 1)
                if (  # ``ctx = getattr(jax, "enable_x64", None)``, then ``with ctx(True):``
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in aliases
                    and not (node.args and _false(node.args[0]))
                ):
                    return node.lineno
    return None


def _context_aliases(nodes: list[ast.AST]) -> set[str]:
    """The names a function binds to ``jax.enable_x64``: ``ctx = getattr(jax,
    "enable_x64", None)``, ``from jax.experimental import enable_x64 as ctx`` (rema-jax's
    ``_float64`` context manager, fresh-2026-12s)."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            out |= {a.asname or a.name for a in node.names if a.name == "enable_x64"}
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "getattr"
            and len(node.value.args) >= 2
            and isinstance(node.value.args[1], ast.Constant)
            and node.value.args[1].value == "enable_x64"
        ):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out


def _setting_on(text: str) -> bool:
    for match in _SETTING.finditer(text):
        value = match.group(1)
        if value is None or value.strip().lower() not in _FALSE:
            return True
    return False


def scan_config(name: str, text: str) -> bool:
    """The pytest (or tox) configuration in ``text`` (a file named ``name``) sets x64 on
    for the tests it runs."""
    if name == "pyproject.toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError):
            return False
        tool = data.get("tool", {}) if isinstance(data, dict) else {}
        if not isinstance(tool, dict):
            return False
        pytest = tool.get("pytest", {})
        tables = [tool.get("pytest_env"), pytest if isinstance(pytest, dict) else None]
        return any(t and _setting_on(json.dumps(t)) for t in tables)
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except (configparser.Error, ValueError):
        return False
    for section in parser.sections():
        wanted = (
            section == "pytest"
            if name == "pytest.ini"
            else section == "tool:pytest"
            if name == "setup.cfg"
            else section == "pytest" or section.startswith("testenv")
        )
        if not wanted:
            continue
        if any(_setting_on(f"{key}={value}") for key, value in parser.items(section)):
            return True
    return False


class X64Sources:
    """The answers for one run, cached per folder and per ``__init__.py``."""

    def __init__(self, project: ProjectContext) -> None:
        self.project = project
        self._folders: dict[str, str | None] = {}
        self._inits: dict[str, str | None] = {}
        self._trees: dict[str, ast.Module | None] = {}

    def enabled_for(
        self,
        path: Path,
        module: ModuleId,
        tests: bool,
        imports: Iterable[str],
        calls: Iterable[str] = (),
    ) -> str | None:
        """Where x64 is switched on for the file ``path`` (``file:line``), or ``None``;
        ``tests``: the file is a test module (conftest and pytest configuration apply);
        ``imports``: what the file imports at its top level (qualified names: the project
        modules among them, and the packages above them, run when it is imported);
        ``calls``: the project functions it calls (``pkg.setup.configure``)."""
        if tests:
            for folder in self._folders_up(Path(os.path.abspath(path)).parent):
                found = self._folder(folder)
                if found is not None:
                    return found
        for init in self._package_inits(module, imports):
            found = self._init(init)
            if found is not None:
                return found
        for qualname in sorted(set(calls)):
            found = self._function(qualname)
            if found is not None:
                return found
        return None

    def _function(self, qualname: str) -> str | None:
        """Where the project function ``qualname`` switches x64 on, following the
        re-exports of packages (``gv.enable_float64``, imported into
        ``gridvoting_jax/__init__.py`` from ``.core.config``) a few steps."""
        key = "call:" + qualname
        if key not in self._inits:
            found = None
            current: str | None = qualname
            for _ in range(_MAX_REEXPORTS):
                located = self.project.index.locate(current) if current else None
                if located is None or len(located[1]) != 1:
                    break
                path = self.project.index.find_module(located[0])
                tree = self._tree(path) if path is not None else None
                if path is None or tree is None:
                    break
                line = scan_function(tree, located[1][0])
                if line is not None:
                    found = self._where(path, line)
                    break
                current = _reexported(tree, located[1][0], located[0], path)
            self._inits[key] = found
        return self._inits[key]

    def _folders_up(self, start: Path) -> Iterator[Path]:
        root = self.project.index.root
        if root is None:
            # no project marker: up through the packages the file is in, and the folder
            # that holds the top one (where pytest is run from, and its rootdir); for a
            # file under a ``tests`` folder (``tests/jax/test_x.py``), at least up to the
            # folder that holds ``tests`` (pytest run there loads ``tests/conftest.py``)
            stop = next(
                (p.parent for p in [start, *start.parents][:8] if p.name in TEST_FOLDERS),
                None,
            )
            folder = start
            for _ in range(64):
                yield folder
                if folder.parent == folder or folder == stop:
                    return
                if not os.path.isfile(folder / "__init__.py") and (
                    stop is None or stop not in folder.parents
                ):
                    return
                folder = folder.parent
            return
        root = Path(os.path.abspath(root))
        folder = start
        for _ in range(64):
            yield folder
            if folder == root or folder.parent == folder:
                return
            folder = folder.parent

    def _tree(self, path: Path) -> ast.Module | None:
        """The module's syntax tree, parsed once per run (several of its functions may be
        asked about)."""
        key = os.path.abspath(path)
        if key not in self._trees:
            text = self.project.store.text_of(Path(key))
            self._trees[key] = _parse(text) if text else None
        return self._trees[key]

    def _package_inits(self, module: ModuleId, imports: Iterable[str]) -> Iterator[Path]:
        """The ``__init__.py`` of each package above the module (not its own: a package's
        ``__init__.py`` is the file being linted), then the project's modules that the file
        imports at its top level, each after the packages above it."""
        parts = module.name.split(".")
        above = parts if module.package else parts[:-1]
        for i in range(1, len(above) + (0 if module.package else 1)):
            yield Path(module.search_root, *above[:i], "__init__.py")
        yield from self._modules_along(sorted(set(imports)), {module.name})

    def _where(self, path: Path, line: int) -> str:
        return f"{self.project.display(path)}:{line}"

    def _init(self, path: Path) -> str | None:
        """Where importing the module ``path`` switches x64 on: at its own top level, or
        in a module of the project it imports at its top level, and so on
        (``chronax/utils/__init__.py`` imports ``.utils``, whose line 57 switches it on:
        chronax, fresh-2026-12q). A walk of the imports from ``path``, each module read
        once per run: when it finds nothing, no module it reached can (their imports are
        among those walked), and all are remembered as such; the answer never depends on
        which file asked first (an import cycle included)."""
        root = os.path.abspath(path)
        if root in self._inits:
            return self._inits[root]
        seen = {root}
        queue = [Path(root)]
        found = None
        for module in queue:  # grows while it is read: breadth first
            key = os.path.abspath(module)
            if key in self._inits and key != root:
                found = self._inits[key]  # a whole walk already ran from here
                if found is not None:
                    break
                continue
            found = self._own_switch(module)
            if found is not None:
                break
            for imported in self._imported_modules(module):
                other = os.path.abspath(imported)
                if other not in seen:
                    seen.add(other)
                    queue.append(imported)
        if found is None:
            for key in seen:
                self._inits[key] = None
        self._inits[root] = found
        return found

    def _own_switch(self, path: Path) -> str | None:
        """Where the module ``path`` itself switches x64 on at its top level."""
        if not os.path.isfile(path):
            return None
        text = self.project.store.text_of(path)
        line = scan_python(text, conftest=False) if text else None
        return self._where(path, line) if line is not None else None

    def _imported_modules(self, path: Path) -> Iterator[Path]:
        """The project's modules that ``path`` imports when it runs (its top level, also
        inside ``try``/``if``/``with`` but not under ``if TYPE_CHECKING:``), each after the
        packages above it."""
        if not os.path.isfile(path):
            return
        tree = self._tree(path)
        mid = self.project.module_of(path)
        if tree is None or mid is None:
            return
        names: list[str] = []
        for stmt in _top_level(tree.body):
            if isinstance(stmt, ast.Import):
                names.extend(a.name for a in stmt.names)
            elif isinstance(stmt, ast.ImportFrom):
                base = self.project.absolute(mid, stmt.level, stmt.module)
                if base is None:
                    continue
                names.append(base)
                names.extend(f"{base}.{a.name}" for a in stmt.names if a.name != "*")
        yield from self._modules_along(names, {mid.name})

    def _modules_along(self, names: Iterable[str], seen: set[str]) -> Iterator[Path]:
        """The files of the project's modules that importing each of ``names`` runs: the
        packages above it, then the module (``pkg.gpu``: ``pkg/__init__.py``, then
        ``pkg/gpu.py``), each once (``seen`` holds those already given)."""
        for name in names:
            parts = name.split(".")
            if not all(p.isidentifier() for p in parts):
                continue
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in seen:
                    continue
                seen.add(prefix)
                found = self.project.index.find_module(prefix)
                if found is None:
                    break
                yield found

    def _folder(self, folder: Path) -> str | None:
        key = str(folder)
        if key in self._folders:
            return self._folders[key]
        found = None
        conftest = folder / "conftest.py"
        if os.path.isfile(conftest):
            text = self.project.store.text_of(conftest)
            line = scan_python(text, conftest=True) if text else None
            if line is not None:
                found = self._where(conftest, line)
        for name in PYTEST_CONFIG_FILES if found is None else ():
            config = folder / name
            text = _read_config(config)
            if text is not None and "x64" in text.lower() and scan_config(name, text):
                found = self._where(config, _line_of(text))
                break
        self._folders[key] = found
        return found


def _read_config(path: Path) -> str | None:
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_CONFIG:
            return None
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def _line_of(text: str) -> int:
    index = text.lower().find(_FLAG)
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def sources(project: ProjectContext) -> X64Sources:
    """The run's :class:`X64Sources` (one per project context)."""
    held: Any = project.x64_sources
    if held is None:
        held = project.x64_sources = X64Sources(project)
    return held
