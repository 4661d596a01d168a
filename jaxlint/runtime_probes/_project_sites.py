"""Call sites of a probe's target in the other files of its project.

When the target's own file has no call of it whose arguments evaluate, the probe looks
in the project (the folders ``check`` reads: ``import_roots``) for a module that
imports the target's module and calls the function: ``from mypkg.model import apply``
then ``apply(params, x)``, or ``from mypkg import model`` then ``model.apply(params,
x)`` (relative imports too). Only calls that do not run on import are used (in a
function or an ``if __name__ == "__main__":`` block), after the simple statements
before them, as for a call in the file; that module is imported (it runs its top-level
code, as any import does) to evaluate them.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

MAX_FILES = 5000  # a project's Python files read at most, so a huge tree cannot stall a probe
MAX_BYTES = 2_000_000


def project_files(target_file: str, roots: list[str]) -> list[str]:
    """The project's Python files other than ``target_file`` (sorted, skipping virtual
    environments, caches and build folders)."""
    from jaxlint.analysis.project import _SKIP_DIRS

    out: list[str] = []
    seen: set[str] = set()
    for root in roots[:1]:  # the project root holds src/ and the package dirs
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(
                d
                for d in dirs
                if d not in _SKIP_DIRS and not d.startswith(".") and not d.endswith(".egg-info")
            )
            for name in sorted(names):
                path = os.path.join(folder, name)
                if name.endswith(".py") and path != target_file and path not in seen:
                    seen.add(path)
                    out.append(path)
                    if len(out) >= MAX_FILES:
                        return out
    return out


def _absolute(module_name: str, is_package: bool, level: int, target: str | None) -> str | None:
    from jaxlint.analysis.project import ModuleId, absolute_module

    return absolute_module(ModuleId(module_name, Path("."), is_package), level, target)


def aliases(tree: ast.Module, here: str | None, here_package: bool, target_module: str, attr: str):
    """(names bound to the function, names bound to its module) by the imports of ``tree``
    (module ``here``)."""
    parent, _, leaf = target_module.rpartition(".")
    fn_names: set[str] = set()
    mod_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level and here is None:
                continue
            source = (
                _absolute(here, here_package, node.level, node.module)
                if node.level and here is not None
                else node.module
            )
            for alias in node.names:
                bound = alias.asname or alias.name
                if source == target_module and alias.name == attr:
                    fn_names.add(bound)
                elif source == parent and alias.name == leaf:
                    mod_names.add(bound)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == target_module and alias.asname:
                    mod_names.add(alias.asname)
                elif alias.name == target_module and "." not in target_module:
                    mod_names.add(target_module)
    return fn_names, mod_names


def candidates(target_file: str, target_module: str, attr: str, roots: list[str]):
    """(path, module name, tree, text, function names, module names) of each project file
    that imports the target and mentions it, in path order."""
    from jaxlint.analysis.project import module_id

    leaf = target_module.rpartition(".")[2]
    for path in project_files(target_file, roots):
        try:
            if os.path.getsize(path) > MAX_BYTES:
                continue
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            continue
        if attr not in text or leaf not in text:
            continue
        try:
            tree = ast.parse(text, filename=path)
        except (SyntaxError, ValueError):
            continue
        mid = module_id(Path(path))
        here = mid.name if mid is not None else None
        fn_names, mod_names = aliases(tree, here, bool(mid and mid.package), target_module, attr)
        if fn_names or mod_names:
            yield path, tree, text, fn_names, mod_names
