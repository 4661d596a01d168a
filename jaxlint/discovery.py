"""Which files a run checks: walking folders, excludes, ``.gitignore``."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jaxlint.config import ConfigResolver

PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")
"""What a folder walk checks: Python files, stubs and Jupyter notebooks (as ruff does;
``extend-exclude = ["*.ipynb"]`` leaves notebooks out)."""


@dataclass
class Discovery:
    files: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def discover(
    paths: Iterable[str], resolver: ConfigResolver, *, force_exclude: bool = False
) -> Discovery:
    """Expand ``paths`` into the Python files (and notebooks) to check, sorted and without duplicates.

    Files named on the command line are checked whatever their suffix (as ruff
    does) unless ``force_exclude`` applies the excludes to them too (pre-commit
    passes every staged file explicitly).
    """
    out = Discovery()
    walked: list[Path] = []
    explicit: list[Path] = []
    for raw in paths:
        path = Path(raw)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            if os.path.islink(path):
                out.errors.append(f"{raw}: broken symbolic link")
            else:
                out.errors.append(f"{raw}: no such file or directory")
            continue
        except OSError as exc:
            out.errors.append(f"{raw}: {exc.strerror or exc}")
            continue
        del st
        if force_exclude and resolver.for_path(path).is_excluded(path, parents=True):
            continue
        if os.path.isdir(path):
            walked.extend(_walk(path, resolver, out))
        else:
            explicit.append(path)
    walked = _drop_gitignored(walked, resolver)
    seen: set[str] = set()
    for path in [*explicit, *walked]:
        key = os.path.normcase(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            out.files.append(path)
    out.files.sort(key=lambda p: p.as_posix())
    return out


def _walk(root: Path, resolver: ConfigResolver, out: Discovery) -> list[Path]:
    found: list[Path] = []

    def onerror(exc: OSError) -> None:
        out.errors.append(f"{exc.filename}: {exc.strerror or exc}")

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror, followlinks=False):
        base = Path(dirpath)
        try:
            settings = resolver.for_path(base)
        except OSError as exc:
            # A folder that can be listed but not entered (read but no execute
            # permission): whether it holds a jaxlint.toml cannot be told, so its files
            # are not checked. Reported for this folder; the rest of the run goes on.
            reason = exc.strerror or str(exc)
            out.errors.append(
                f"{dirpath}: cannot enter folder ({reason}); its files are not checked"
            )
            dirnames[:] = []
            continue
        dirnames[:] = sorted(d for d in dirnames if not settings.is_excluded(base / d))
        for name in sorted(filenames):
            if not name.endswith(PYTHON_SUFFIXES):
                continue
            path = base / name
            if settings.is_excluded(path):
                continue
            found.append(path)
    return found


_GIT_SAFE_CONFIG = (
    # the index is read (a tracked file is never ignored), and reading it runs the
    # fsmonitor program a repository's own .git/config names (or starts git's daemon):
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    # neither command runs hooks, pages or connects anywhere; these make sure that a
    # repository's config (or a file it includes) cannot name a program that they run
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "protocol.allow=never",
)


def _git(args: list[str], **kwargs) -> subprocess.CompletedProcess[bytes]:
    """Run ``git`` on a checked tree without anything that tree's config could make it run.

    A checked tree is not trusted (an unpacked archive, a shared folder): its
    ``.git/config`` may set ``core.fsmonitor`` to a program, and ``git
    check-ignore`` reads the index, which runs it (issue 28). Options given with
    ``-c`` win over every config file, ``include.path`` and ``includeIf`` ones too.
    """
    command = ["git", "--no-optional-locks"]
    for item in _GIT_SAFE_CONFIG:
        command += ["-c", item]
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PAGER": "cat",
        "GIT_ASKPASS": "",
        "SSH_ASKPASS": "",
    }
    return subprocess.run(command + args, env=env, check=False, **kwargs)


def _drop_gitignored(paths: list[Path], resolver: ConfigResolver) -> list[Path]:
    """Remove files that git ignores, when ``respect-gitignore`` is on (the default)."""
    if not paths or shutil.which("git") is None:
        return paths
    candidates = [p for p in paths if resolver.for_path(p).respect_gitignore]
    if not candidates:
        return paths
    ignored: set[str] = set()
    toplevels: dict[str, str | None] = {}
    by_dir: dict[str, list[Path]] = {}
    for p in candidates:
        by_dir.setdefault(os.path.abspath(p.parent), []).append(p)
    # One ``git check-ignore`` per repository top level.
    by_top: dict[str, list[Path]] = {}
    for directory, files in by_dir.items():
        top = _git_toplevel(directory, toplevels)
        if top is not None:
            by_top.setdefault(top, []).extend(files)
    for top, files in by_top.items():
        # Paths relative to the top level: git rejects absolute paths that reach the
        # repository through a symbolic link as "outside repository".
        real_top = os.path.realpath(top)
        rel_to_path: dict[str, Path] = {}
        for f in files:
            real = os.path.join(os.path.realpath(f.parent), f.name)
            rel = os.path.relpath(real, real_top)
            if not rel.startswith(os.pardir):
                rel_to_path[rel.replace(os.sep, "/")] = f
        if not rel_to_path:
            continue
        # File names are bytes to the OS and to git: a name that is not UTF-8 is a str
        # with surrogate escapes here, and goes back to git as its original bytes.
        payload = b"\0".join(os.fsencode(rel) for rel in rel_to_path) + b"\0"
        try:
            proc = _git(
                ["-C", top, "check-ignore", "--stdin", "-z"],
                input=payload,
                capture_output=True,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode in (0, 1):
            for raw in proc.stdout.split(b"\0"):
                item = os.fsdecode(raw)
                if item in rel_to_path:
                    ignored.add(os.path.normcase(os.path.abspath(rel_to_path[item])))
    return [p for p in paths if os.path.normcase(os.path.abspath(p)) not in ignored]


def _git_toplevel(directory: str, cache: dict[str, str | None]) -> str | None:
    """The work tree that holds ``directory`` (cached for one run: repositories come and go).

    A folder without a ``.git`` entry of its own (a repository, worktree or submodule
    root has one) belongs to the same work tree as its parent, so ``git rev-parse``
    runs once per repository root (and once at the top), not once per folder.
    """
    if directory in cache:
        return cache[directory]
    parent = os.path.dirname(directory)
    if parent != directory and not os.path.lexists(os.path.join(directory, ".git")):
        top = _git_toplevel(parent, cache)
        cache[directory] = top
        return top
    try:
        proc = _git(
            ["-C", directory, "rev-parse", "--show-toplevel"], capture_output=True, timeout=30
        )
        # the top level's own name may not be UTF-8 either: keep its bytes (surrogate escapes)
        top = os.fsdecode(proc.stdout.rstrip(b"\n")) if proc.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        top = None
    cache[directory] = top or None
    return top or None
