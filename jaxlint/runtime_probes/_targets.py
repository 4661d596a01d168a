"""Load ``path/to/file.py:function`` or ``package.module:function`` and input factories.

Loading a target imports (runs) the user's module. An import that raises is the
user's code raising (exit 3); a file, module or attribute that does not exist is
a usage error (exit 2).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import EXIT_ERROR, EXIT_USER_CODE, ProbeFailure, fail
from jaxlint.runtime_probes._errors import describe_exception
from jaxlint.runtime_probes._phases import USER_CODE_PHASE, mark_phase

DEFAULT_FACTORY = "make_inputs"

Inputs = tuple[tuple[Any, ...], dict[str, Any]]


@dataclass
class Target:
    spec: str
    module: ModuleType
    obj: Callable[..., Any]
    attr: str

    @property
    def file(self) -> str | None:
        return getattr(self.module, "__file__", None)

    @property
    def name(self) -> str:
        return self.attr


def _looks_like_path(module_part: str) -> bool:
    return module_part.endswith(".py") or "/" in module_part or os.sep in module_part


def split_spec(spec: str) -> tuple[str, str]:
    module_part, sep, attr = spec.rpartition(":")
    if not sep or not module_part or not attr:
        fail(
            EXIT_ERROR,
            "UsageError",
            f"expected path/to/file.py:FUNCTION or package.module:FUNCTION, got {spec!r}",
        )
    if not all(part.isidentifier() for part in attr.split(".")):
        fail(EXIT_ERROR, "UsageError", f"{attr!r} in {spec!r} is not a Python name")
    return module_part, attr


class Loader:
    """Loads targets; a file loaded twice in one probe run is executed once."""

    def __init__(self) -> None:
        from jaxlint.runtime_probes import _errors

        self._files: dict[str, ModuleType] = {}
        _errors.PROBE_JITS.clear()  # a new probe run: no function is jitted by it yet
        _errors.PROBE_SCOPES.clear()

    def load(self, spec: str, role: str = "target") -> Target:
        module_part, attr = split_spec(spec)
        if _looks_like_path(module_part):
            module = self._load_file(module_part, role)
        else:
            module = self._load_module(module_part, role)
        obj = self._resolve(module, attr, spec, role)
        if role in ("target", "step function"):
            _note_scope(obj)
        return Target(spec, module, obj, attr)

    def load_factory(self, spec: str | None, target: Target, role: str = "factory") -> Target:
        """``spec`` is a full target spec or a name in the target's module."""
        if spec is not None and ":" in spec:
            return self.load(spec, role)
        name = spec or DEFAULT_FACTORY
        if not all(part.isidentifier() for part in name.split(".")):
            fail(EXIT_ERROR, "UsageError", f"--{role}: {name!r} is not a Python name")
        where = target.file or target.module.__name__
        if not has_attr_path(target.module, name):
            hint = (
                f"define `def {name}(): return (args, kwargs)` in {where} or pass --{role}"
                " FILE.py:FUNCTION"
            )
            fail(EXIT_ERROR, "FactoryNotFound", f"no {role} {name!r} in {where}", hint=hint)
        return factory_target(
            target, name, self._resolve(target.module, name, f"{where}:{name}", role)
        )

    def load_file(self, path: str, role: str) -> ModuleType:
        """Import a file of the project (once per run), as a target's file is imported."""
        return self._load_file(path, role)

    # -- internals ---------------------------------------------------------------------------

    def _load_file(self, path: str, role: str) -> ModuleType:
        full = os.path.abspath(path)
        if full in self._files:
            return self._files[full]
        if not os.path.isfile(full):
            fail(EXIT_ERROR, "TargetNotFound", f"{role} file not found: {path}")
        for root in reversed(import_roots(full)):
            if root not in sys.path:
                sys.path.insert(0, root)  # the project's own packages import as installed
        by_name = self._import_by_name(full, path, role)
        if by_name is not None:
            self._files[full] = by_name
            return by_name
        digest = hashlib.sha1(full.encode()).hexdigest()[:10]
        stem = os.path.splitext(os.path.basename(full))[0]
        mod_name = f"_jaxlint_probe_{''.join(c if c.isalnum() else '_' for c in stem)}_{digest}"
        spec = importlib.util.spec_from_file_location(mod_name, full)
        if spec is None or spec.loader is None:
            fail(EXIT_ERROR, "TargetNotFound", f"cannot import {path} as a Python module")
        module = importlib.util.module_from_spec(spec)
        folder = os.path.dirname(full)
        if folder not in sys.path:
            sys.path.insert(0, folder)  # sibling imports work as with `python file.py`
        sys.modules[mod_name] = module
        mark_phase(f"importing {role} file {path}")
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            sys.modules.pop(mod_name, None)
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            raise ProbeFailure(
                EXIT_USER_CODE, describe_exception(exc, phase=f"importing {role} file {path}")
            ) from exc
        mark_phase(USER_CODE_PHASE)
        self._files[full] = module
        return module

    def _import_by_name(self, full: str, path: str, role: str) -> ModuleType | None:
        """A file inside a package (``src/mypkg/train.py``) imported by its module name
        (``mypkg.train``), as ``check`` names it, so that its absolute and relative
        imports work; None for a file outside any package, or when that name imports
        another file (then it is imported by path)."""
        from pathlib import Path

        from jaxlint.analysis.project import module_id

        mid = module_id(Path(full))
        if mid is None or "." not in mid.name:
            return None
        root = str(mid.search_root)
        if root not in sys.path:
            sys.path.insert(0, root)
        existing = sys.modules.get(mid.name)
        if existing is not None and not _same_file(existing, full):
            return None
        mark_phase(f"importing {role} file {path}")
        try:
            module = importlib.import_module(mid.name)
        except BaseException as exc:
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            raise ProbeFailure(
                EXIT_USER_CODE,
                describe_exception(exc, phase=f"importing {role} file {path} as {mid.name}"),
            ) from exc
        mark_phase(USER_CODE_PHASE)
        return module if _same_file(module, full) else None

    def _load_module(self, name: str, role: str) -> ModuleType:
        cwd = os.getcwd()
        if cwd not in sys.path and "" not in sys.path:
            sys.path.insert(0, cwd)  # as `python -m` does
        mark_phase(f"importing {role} module {name}")
        try:
            module = importlib.import_module(name)
            mark_phase(USER_CODE_PHASE)
            return module
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if missing and (name == missing or name.startswith(missing + ".")):
                fail(EXIT_ERROR, "TargetNotFound", f"{role} module not found: {name}")
            raise ProbeFailure(
                EXIT_USER_CODE, describe_exception(exc, phase=f"importing {role} module {name}")
            ) from exc
        except Exception as exc:
            raise ProbeFailure(
                EXIT_USER_CODE, describe_exception(exc, phase=f"importing {role} module {name}")
            ) from exc

    @staticmethod
    def _resolve(module: ModuleType, attr: str, spec: str, role: str) -> Callable[..., Any]:
        obj: Any = module
        for part in attr.split("."):
            if not hasattr(obj, part):
                fail(EXIT_ERROR, "TargetNotFound", f"{role} {spec!r}: no attribute {part!r}")
            obj = getattr(obj, part)
        if not callable(obj):
            fail(EXIT_ERROR, "TargetNotCallable", f"{role} {spec!r} is not callable")
        return obj


def _same_file(module: ModuleType, full: str) -> bool:
    file = getattr(module, "__file__", None)
    return bool(file) and os.path.realpath(file) == os.path.realpath(full)


def import_roots(full: str) -> list[str]:
    """The folders the project of ``full`` imports its packages from, as ``check`` finds
    them: the project root (nearest ``pyproject.toml``, ``setup.cfg``, ``setup.py`` or
    ``.git``), its ``src`` folder, and the ``[tool.setuptools.package-dir]`` folders of its
    ``pyproject.toml``."""
    from pathlib import Path

    from jaxlint.analysis.project import find_project_root

    root = find_project_root(Path(full))
    if root is None:
        return []
    roots = [root]
    if (root / "src").is_dir():
        roots.append(root / "src")
    roots += [root / d for d in _package_dirs(root / "pyproject.toml")]
    out: list[str] = []
    for folder in roots:
        if folder.is_dir() and str(folder) not in out:
            out.append(str(folder))
    return out


def _package_dirs(pyproject: Any) -> list[str]:
    """The folders of ``[tool.setuptools.package-dir]`` (``{"" = "lib"}``: ``lib``)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(pyproject, "rb") as fh:
            data = tomllib.load(fh)
        mapping = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(mapping, dict):
        return []
    out = []
    for name, folder in mapping.items():
        if isinstance(folder, str) and isinstance(name, str) and ".." not in folder:
            # "" maps the top level; "pkg" = "lib/pkg" means lib holds pkg
            parent = folder if not name else os.path.dirname(folder.rstrip("/"))
            if parent:
                out.append(parent)
    return out


def _note_scope(obj: Any) -> None:
    """Tell ``_errors`` the lines of the target function (``PROBE_SCOPES``)."""
    from jaxlint.runtime_probes import _errors

    try:
        fn = inspect.unwrap(getattr(obj, "__wrapped__", obj))
        file = inspect.getsourcefile(fn)
        lines, first = inspect.getsourcelines(fn)
    except Exception:  # a builtin, a callable object without source: nothing to note
        return
    if file:
        _errors.PROBE_SCOPES.add((os.path.abspath(file), first, first + len(lines) - 1))


def factory_target(target: Target, name: str, obj: Callable[..., Any]) -> Target:
    """A factory named ``name`` in (or made for) ``target``'s module, spelt ``WHERE:name``."""
    where = target.file or target.module.__name__
    return Target(f"{where}:{name}", target.module, obj, name)


def has_attr_path(obj: Any, dotted: str) -> bool:
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _check_inputs(value: Any, where: str) -> Inputs:
    problem = _inputs_problem(value)
    if problem is not None:
        fail(
            EXIT_ERROR,
            "FactoryContractError",
            f"{where} must return (args, kwargs): a tuple of positional arguments and a dict of"
            f" keyword arguments; {problem}",
            hint="e.g. `return (x, y), {}`",
        )
    return tuple(value[0]), dict(value[1])


def _inputs_problem(value: Any) -> str | None:
    """What is wrong with a factory's ``(args, kwargs)``, naming the part; None if nothing."""
    if not isinstance(value, (tuple, list)):
        return f"got {type(value).__name__}"
    if len(value) != 2:
        return f"got {type(value).__name__} of length {len(value)}"
    args, kwargs = value
    if not isinstance(args, (tuple, list)):
        return f"the first item (args) is {type(args).__name__}, not a tuple or list"
    if not isinstance(kwargs, Mapping):
        return f"the second item (kwargs) is {type(kwargs).__name__}, not a dict"
    bad = [k for k in kwargs if not isinstance(k, str)]
    if bad:
        return f"the second item (kwargs) has a key that is not a string: {type(bad[0]).__name__}"
    return None


def call_factory(factory: Target, role: str = "factory") -> Inputs:
    """Call an input factory; it must return ``(args, kwargs)``."""
    try:
        value = factory.obj()
    except Exception as exc:
        raise ProbeFailure(
            EXIT_USER_CODE, describe_exception(exc, phase=f"calling {role} {factory.name}()")
        ) from exc
    return _check_inputs(value, f"{role} {factory.name}()")


def call_cases(factory: Target) -> list[Inputs]:
    """Call a cases factory; it must return a list of ``(args, kwargs)``."""
    try:
        value = factory.obj()
    except Exception as exc:
        raise ProbeFailure(
            EXIT_USER_CODE, describe_exception(exc, phase=f"calling cases {factory.name}()")
        ) from exc
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        fail(
            EXIT_ERROR,
            "FactoryContractError",
            f"cases {factory.name}() must return a list of (args, kwargs);"
            f" got {type(value).__name__}",
        )
    cases = [_check_inputs(item, f"each item of cases {factory.name}()") for item in value]
    if not cases:
        fail(EXIT_ERROR, "FactoryContractError", f"cases {factory.name}() returned no cases")
    return cases


def parameter_names(fn: Callable[..., Any]) -> list[str] | None:
    """Positional parameter names, when the signature can be read."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]


def is_jitted(fn: Any) -> bool:
    """A ``jax.jit`` object (it can ``trace`` and ``lower`` itself)."""
    return callable(getattr(fn, "trace", None)) and callable(getattr(fn, "lower", None))


def jit_target(
    jax: Any,
    fn: Callable[..., Any],
    *,
    static_argnums: list[int],
    static_argnames: list[str],
    donate_argnums: list[int],
) -> tuple[Callable[..., Any], bool]:
    """``jax.jit(fn, ...)`` with the flags, or ``fn`` itself when it is jitted and no flag is set.

    Returns the callable and whether it was wrapped here.
    """
    if is_jitted(fn) and not (static_argnums or static_argnames or donate_argnums):
        return fn, False
    kwargs: dict[str, Any] = {}
    if static_argnums:
        kwargs["static_argnums"] = tuple(static_argnums)
    if static_argnames:
        kwargs["static_argnames"] = tuple(static_argnames)
    if donate_argnums:
        kwargs["donate_argnums"] = tuple(donate_argnums)
    try:
        jitted = jax.jit(fn, **kwargs)
    except (TypeError, ValueError) as exc:  # e.g. static_argnames not in the signature
        fail(EXIT_ERROR, "UsageError", f"jax.jit rejected the flags: {exc}")
    note_probe_jit(fn, static_argnums, static_argnames)
    return jitted, True


def note_probe_jit(fn: Any, static_argnums: list[int], static_argnames: list[str]) -> None:
    """Tell ``_errors`` that the probe jitted ``fn`` itself: the static findings that name an
    error are then those ``jaxlint check`` reports with ``fn`` jitted so (``probe_view``)."""
    from jaxlint.runtime_probes import _errors

    name = getattr(fn, "__qualname__", "")
    try:
        file = inspect.getsourcefile(fn)
    except Exception:  # a builtin or a callable object: no file to read
        file = None
    if file and name.isidentifier():
        _errors.PROBE_JITS.add(
            (os.path.abspath(file), name, tuple(static_argnums), tuple(static_argnames))
        )


def static_keys(
    n_args: int, params: list[str] | None, static_argnums: list[int], static_argnames: list[str]
) -> set[int | str]:
    """Positions and keyword names that are static, mapping names and positions both ways."""
    keys: set[int | str] = set()
    for i in static_argnums:
        pos = i + n_args if i < 0 else i
        keys.add(pos)
        if params is not None and 0 <= pos < len(params):
            keys.add(params[pos])
    for name in static_argnames:
        keys.add(name)
        if params is not None and name in params:
            keys.add(params.index(name))
    return keys


def jit_settings(fn: Any) -> dict[str, list[Any]] | None:
    """The static and donated arguments of an already-jitted function, or None if unknown.

    Read from ``PjitFunction._jit_info`` (private; checked on jax 0.12.0.1, where it
    holds ``static_argnums``, ``static_argnames``, ``donate_argnums`` and
    ``donate_argnames``, names and positions already mapped both ways). On a JAX
    without it the answer is "unknown", never a guessed ``[]``.
    """
    info = getattr(fn, "_jit_info", None)
    fields = ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames")
    if info is None or not all(hasattr(info, f) for f in fields):
        return None
    try:
        return {f: list(getattr(info, f)) for f in fields}
    except TypeError:
        return None


def effective_jit(
    jax: Any,
    fn: Callable[..., Any],
    *,
    static_argnums: list[int],
    static_argnames: list[str],
    donate_argnums: list[int],
) -> tuple[Callable[..., Any], dict[str, Any]]:
    """``jit_target``, plus what the returned callable really uses: the flags when it was
    wrapped here, the jitted function's own settings when it is used as it is (or
    ``"unknown"`` for each when JAX does not say)."""
    jitted, wrapped = jit_target(
        jax,
        fn,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
        donate_argnums=donate_argnums,
    )
    info: dict[str, Any] = {"wrapped_here": wrapped}
    if wrapped:
        info.update(
            static_argnums=list(static_argnums),
            static_argnames=list(static_argnames),
            donate_argnums=list(donate_argnums),
        )
        return jitted, info
    own = jit_settings(fn)
    if own is None:
        info.update(
            static_argnums="unknown",
            static_argnames="unknown",
            donate_argnums="unknown",
            settings_source="unknown: this JAX does not expose the jitted function's settings",
        )
    else:
        info.update(
            static_argnums=own["static_argnums"],
            static_argnames=own["static_argnames"],
            donate_argnums=own["donate_argnums"],
            donate_argnames=own["donate_argnames"],
            settings_source="the jitted function's own jax.jit settings",
        )
    return jitted, info


def known_list(value: Any) -> list[Any]:
    """A settings value from ``effective_jit``: the list, or ``[]`` for ``"unknown"``."""
    return list(value) if isinstance(value, list) else []
