"""The results cache: a file already checked with the same settings is not linted again.

An entry holds the findings of one file. Its key is a SHA-256 over everything the
findings depend on: the file's text and absolute path, the effective settings
for that file (enabled rules and their options, ``target-jax``, traced
decorators and wrappers, per-file ignores), whether fixes are materialised, and
the engine: jaxlint's version, a digest of its own source files (a rule edited
in a checkout invalidates the cache without a version bump), libcst's version
and the Python version.

The cache lives in ``.jaxlint_cache/`` at the project root (the folder of the
configuration that applies to the current folder, else the current folder),
with a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG`` inside, as ruff does, and
jaxlint's own marker file, ``JAXLINT_CACHE``. ``JAXLINT_CACHE_DIR`` or
``--cache-dir`` put it elsewhere; ``--no-cache`` turns it off; ``jaxlint clean``
removes it.

A cache folder is only ever created empty or recognised by its marker: an
existing folder that holds anything else (a project, ``.``, ``src``) is refused
before anything is written into it (:class:`NotACacheError`), and ``jaxlint
clean`` removes only folders it recognises (a folder made by an older jaxlint,
holding nothing but its ``CACHEDIR.TAG``, ``.gitignore`` and entry folders, is
recognised too).

Entries are read with :func:`read_regular_file`: a regular file only (no
symlink followed, no FIFO, no device) and at most :data:`MAX_ENTRY_BYTES`;
anything else is a miss, so a shared cache folder cannot hang a run or fill
its memory.

Entries are written atomically (a temporary file and a rename) and are never
trusted blindly: an entry is used only if its header names this cache format,
its key matches the one asked for, its payload's SHA-256 matches, and every
field has the expected type. Anything else (a truncated file, a flipped bit, an
entry copied from another key, another version's file) is a miss, and the
file is linted again and the entry rewritten.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from jaxlint import __version__, signals
from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position
from jaxlint.settings import Settings
from jaxlint.source import remove_temporary

CACHE_DIR_NAME = ".jaxlint_cache"
CACHE_ENV = "JAXLINT_CACHE_DIR"
FORMAT = "jaxlint-cache-2"
"""The first line of every entry; bumped when the entry layout changes."""
GITIGNORE = "# Automatically created by jaxlint.\n*\n"
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by jaxlint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)
MARKER_NAME = "JAXLINT_CACHE"
MARKER = "jaxlint results cache: this whole folder is removed by `jaxlint clean`.\n"
"""jaxlint's own marker: a folder holding this file is a cache jaxlint made."""
MAX_ENTRY_BYTES = 32 * 1024 * 1024
"""A larger entry (or marker) is not read: it is a miss (and such an entry is never written)."""
_TMP_SUFFIX = ".tmp"
_ENGINE_DIR = re.compile(r"[0-9a-f]{16}")


class NotACacheError(Exception):
    """An existing folder that is not a jaxlint cache was named as the cache folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        super().__init__(
            f"{folder}: not a jaxlint cache folder (it is not empty and has no"
            f" {MARKER_NAME} marker); name a new or empty folder for the cache"
        )


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS |= getattr(os, "O_BINARY", 0)


def read_regular_file(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else ``None``.

    No symlink is followed (``O_NOFOLLOW``, and an ``lstat`` where that flag is
    missing), a FIFO is opened without blocking (``O_NONBLOCK``) and then
    refused by ``fstat``, as is a device; reading stops after ``limit + 1``
    bytes whatever the file claims its size is. Raises nothing but returns
    ``None`` for every problem.
    """
    try:
        if not hasattr(os, "O_NOFOLLOW") and stat.S_ISLNK(os.lstat(path).st_mode):
            return None
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


@functools.cache
def engine_fingerprint() -> str:
    """jaxlint's version, a digest of its source and data files, libcst's and Python's versions."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    digest.update(f"{__version__}\0{sys.version_info[:3]}\0".encode())
    try:
        digest.update(metadata.version("libcst").encode())
    except metadata.PackageNotFoundError:
        pass
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".toml", ".json") or "__pycache__" in path.parts:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def settings_fingerprint(settings: Settings, path: Path | None, want_fixes: bool) -> str:
    """What the findings of one file depend on, besides its text and the engine.

    The rule selection is taken as configured (``select``, ``extend-select``,
    ``ignore``, and the command line's), not as the list of enabled rules: the
    rules and their defaults are part of the engine fingerprint, and a run that
    the cache answers never has to import them.
    """
    parts: list[Any] = [
        list(settings.select) if settings.select is not None else None,
        list(settings.extend_select),
        list(settings.ignore),
        repr(settings.cli_selection),
        [[code, [[k, repr(v)] for k, v in values]] for code, values in settings.rule_options],
        list(settings.target_jax),
        list(settings.traced_decorators),
        list(settings.traced_wrappers),
        list(settings.file_ignores(path)),
        bool(want_fixes),
    ]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def entry_key(text: str, path: Path, settings_fp: str) -> str:
    digest = hashlib.sha256()
    digest.update(engine_fingerprint().encode() + b"\0")
    digest.update(settings_fp.encode() + b"\0")
    digest.update(os.path.abspath(path).encode("utf-8", "surrogateescape") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@dataclass
class CachedResult:
    """The findings of one file (file names are filled in when they are read back)."""

    diagnostics: list[Diagnostic]
    queries: dict[str, Any] | None = None
    """What the file asked of the project's other modules, with the answers it got
    (``jaxlint.analysis.project``): the entry holds only while they still hold."""


# -- encoding ----------------------------------------------------------------------------------


def _pos(p: Position) -> list[int]:
    return [p.row, p.column]


def _encode_diagnostic(d: Diagnostic) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "start": _pos(d.start),
        "end": _pos(d.end),
        "fix_applicability": d.fix_applicability.value if d.fix_applicability else None,
        "fix_message": d.fix_message,
        "probe": d.probe,
        "severity": d.severity,
        "fix": None,
    }
    if d.fix is not None:
        out["fix"] = {
            "applicability": d.fix.applicability.value,
            "message": d.fix.message,
            "edits": [[_pos(e.start), _pos(e.end), e.content] for e in d.fix.edits],
        }
    return out


class _Invalid(Exception):
    pass


def _str(value: Any, optional: bool = False) -> Any:
    if isinstance(value, str) or (optional and value is None):
        return value
    raise _Invalid


def _position(value: Any) -> Position:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(type(v) is int and v >= 1 for v in value)
    ):
        return Position(value[0], value[1])
    raise _Invalid


def _applicability(value: Any, optional: bool = False) -> Applicability | None:
    if optional and value is None:
        return None
    try:
        return Applicability(_str(value))
    except ValueError:
        raise _Invalid from None


def _decode_diagnostic(item: Any, filename: str) -> Diagnostic:
    if not isinstance(item, dict):
        raise _Invalid
    fix = None
    raw_fix = item.get("fix")
    if raw_fix is not None:
        if not isinstance(raw_fix, dict) or not isinstance(raw_fix.get("edits"), list):
            raise _Invalid
        edits = []
        for edit in raw_fix["edits"]:
            if not isinstance(edit, list) or len(edit) != 3:
                raise _Invalid
            edits.append(Edit(_position(edit[0]), _position(edit[1]), _str(edit[2])))
        applicability = _applicability(raw_fix.get("applicability"))
        assert applicability is not None
        fix = Fix(applicability, _str(raw_fix.get("message")), tuple(edits))
    return Diagnostic(
        code=_str(item.get("code")),
        name=_str(item.get("name")),
        message=_str(item.get("message")),
        filename=filename,
        start=_position(item.get("start")),
        end=_position(item.get("end")),
        fix_applicability=_applicability(item.get("fix_applicability"), optional=True),
        fix_message=_str(item.get("fix_message"), optional=True),
        fix=fix,
        probe=_str(item.get("probe"), optional=True),
        severity=_str(item.get("severity")),
    )


def encode_entry(key: str, result: CachedResult) -> bytes:
    payload = json.dumps(
        {"d": [_encode_diagnostic(d) for d in result.diagnostics], "q": result.queries or {}},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8", "surrogatepass")
    header = f"{FORMAT}\n{key}\n{hashlib.sha256(payload).hexdigest()}\n".encode()
    return header + payload


def decode_entry(data: bytes, key: str, filename: str) -> CachedResult | None:
    """The entry's findings, or ``None`` if it is not a sound entry for ``key``."""
    try:
        fmt, entry_key_, checksum, payload = data.split(b"\n", 3)
        if fmt.decode() != FORMAT or entry_key_.decode() != key:
            return None
        if hashlib.sha256(payload).hexdigest() != checksum.decode():
            return None
        data_ = json.loads(payload.decode("utf-8", "surrogatepass"))
        if not isinstance(data_, dict):
            return None
        items, queries = data_.get("d"), data_.get("q")
        if not isinstance(items, list) or not isinstance(queries, dict):
            return None
        return CachedResult([_decode_diagnostic(item, filename) for item in items], queries or None)
    except (ValueError, UnicodeError, _Invalid, RecursionError, TypeError):
        return None


# -- the cache folder ----------------------------------------------------------------------------


class Cache:
    """One cache folder; every operation fails soft (a cache problem never fails a run)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries = root / engine_fingerprint()[:16]
        self.hits = 0
        self.misses = 0
        self.write_errors = 0

    @classmethod
    def open(cls, root: Path) -> Cache | None:
        """The cache in ``root``, or ``None`` if it cannot be made (not writable, not a folder).

        ``root`` is created if missing; an existing folder is used only if it is
        empty or a jaxlint cache (:func:`is_jaxlint_cache`), else
        :class:`NotACacheError` is raised before anything is written into it.
        """
        try:
            if root.is_dir():
                if not is_jaxlint_cache(root) and not _is_empty(root):
                    raise NotACacheError(root)
            else:
                root.mkdir(parents=True)
            # the marker first: a folder left half-made holds nothing but jaxlint's files
            for name, content in (
                (MARKER_NAME, MARKER),
                (".gitignore", GITIGNORE),
                ("CACHEDIR.TAG", CACHEDIR_TAG),
            ):
                marker = root / name
                if not os.path.lexists(marker):
                    _write_atomic(marker, content.encode())
        except OSError:
            return None
        return cls(root)

    def _path(self, key: str) -> Path:
        return self.entries / key[:2] / key

    def get(self, key: str, filename: str) -> CachedResult | None:
        data = read_regular_file(self._path(key))
        if data is None:
            self.misses += 1
            return None
        result = decode_entry(data, key, filename)
        if result is None:
            self.misses += 1
        else:
            self.hits += 1
        return result

    def put(self, key: str, result: CachedResult) -> None:
        path = self._path(key)
        data = encode_entry(key, result)
        if len(data) > MAX_ENTRY_BYTES:
            return  # it would never be read back
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(path, data)
        except OSError:
            self.write_errors += 1

    def get_blob(self, key: str) -> Any:
        """A JSON value stored with :meth:`put_blob` (a module summary), or ``None``."""
        data = read_regular_file(self._path(key))
        if data is None:
            return None
        try:
            fmt, entry_key_, checksum, payload = data.split(b"\n", 3)
            if fmt.decode() != FORMAT or entry_key_.decode() != key:
                return None
            if hashlib.sha256(payload).hexdigest() != checksum.decode():
                return None
            return json.loads(payload.decode("utf-8", "surrogatepass"))
        except (ValueError, UnicodeError, RecursionError):
            return None

    def put_blob(self, key: str, value: Any) -> None:
        payload = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
            "utf-8", "surrogatepass"
        )
        data = f"{FORMAT}\n{key}\n{hashlib.sha256(payload).hexdigest()}\n".encode() + payload
        if len(data) > MAX_ENTRY_BYTES:
            return
        try:
            path = self._path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(path, data)
        except OSError:
            self.write_errors += 1


def _write_atomic(path: Path, data: bytes) -> None:
    """A temporary file in the same folder, then a rename: readers see all or nothing.

    No fsync: after a power cut an entry may be empty or torn, and such an entry
    fails its checksum and is ignored.
    """
    held = signals.hold()  # until the temporary file's name is known (see write_atomic)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=_TMP_SUFFIX, dir=path.parent)
        signals.release(held)
        held = None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        remove_temporary(tmp)
        raise
    finally:
        signals.release(held)


def _umask_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


_FILE_MODE = _umask_mode()
"""Entries get the mode of any new file (``mkstemp`` would make them owner-only)."""


def default_cache_dir(project_root: Path | None) -> Path:
    """``$JAXLINT_CACHE_DIR``, else ``.jaxlint_cache`` in the project root or the current folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    return (project_root if project_root is not None else Path.cwd()) / CACHE_DIR_NAME


def is_jaxlint_cache(folder: Path) -> bool:
    """Whether ``folder`` is a cache jaxlint made (so ``jaxlint clean`` may delete it).

    It is if it holds jaxlint's marker file (a regular file with the marker's
    text), or if it is a cache made by a jaxlint from before the marker: jaxlint's
    ``CACHEDIR.TAG`` and nothing else but its ``.gitignore`` and entry folders
    (named by 16 hex digits). A folder an older jaxlint wrote its tag into by
    mistake (a project, ``.``) holds other things, and is not recognised.
    """
    try:
        if os.path.islink(folder) or not folder.is_dir():
            return False
    except (OSError, ValueError):
        return False
    if read_regular_file(folder / MARKER_NAME, 4096) == MARKER.encode():
        return True
    if read_regular_file(folder / "CACHEDIR.TAG", 4096) != CACHEDIR_TAG.encode():
        return False
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if entry.name in ("CACHEDIR.TAG", ".gitignore"):
                    if not entry.is_file(follow_symlinks=False):
                        return False
                elif not (
                    _ENGINE_DIR.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)
                ):
                    return False
    except OSError:
        return False
    gitignore = read_regular_file(folder / ".gitignore", 4096)
    return gitignore is None or gitignore == GITIGNORE.encode()


_CLEAN_SKIP = frozenset({".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__"})


def find_caches(roots: Iterable[Path]) -> list[Path]:
    """Every jaxlint cache folder under ``roots`` (not looking inside VCS or virtualenv folders)."""
    found: list[Path] = []
    for root in roots:
        if root.name == CACHE_DIR_NAME or is_jaxlint_cache(root):
            if is_jaxlint_cache(root):
                found.append(root)
            continue
        for dirpath, dirnames, _ in os.walk(root):
            keep = []
            for name in dirnames:
                if name in _CLEAN_SKIP:
                    continue
                candidate = Path(dirpath) / name
                if name == CACHE_DIR_NAME:
                    if is_jaxlint_cache(candidate):
                        found.append(candidate)
                    continue
                keep.append(name)
            dirnames[:] = keep
    return sorted(set(found))


def _is_empty(folder: Path) -> bool:
    with os.scandir(folder) as it:
        return next(it, None) is None


def remove_cache(folder: Path) -> None:
    """Delete ``folder``, checked once more to be a jaxlint cache (else :class:`NotACacheError`)."""
    if not is_jaxlint_cache(folder):
        raise NotACacheError(folder)
    shutil.rmtree(folder)
