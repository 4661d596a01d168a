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

A cache folder is only ever created empty or recognised by its marker, and the
marker proves more than a name anyone can write (issue 28): it names the folder
it was written into by its inode number, so a copied or committed
``.jaxlint_cache/`` is not trusted (a folder that holds nothing but jaxlint's
names is emptied of its entries and marked anew; any other existing folder is
refused before anything is written into it, :class:`NotACacheError`). ``jaxlint
clean`` removes a folder only if it holds nothing but what jaxlint writes (no
``.git``, no user's file, no link; never the folder it runs in or one holding
it), and then only those names, one at a time; a folder with jaxlint's marker
and anything else is refused with an error. A folder made by an older jaxlint,
holding nothing but its ``CACHEDIR.TAG``, ``.gitignore`` and entry folders, is
recognised too.

Entries are reached from the cache folder one component at a time, never
following a link (``O_NOFOLLOW`` and folder descriptors), so a link planted in
the cache cannot make jaxlint read or write elsewhere.

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

import contextlib
import functools
import hashlib
import json
import os
import re
import secrets
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

    def __init__(self, folder: Path, reason: str | None = None) -> None:
        self.folder = folder
        self.reason = reason
        why = reason or f"it is not empty and has no {MARKER_NAME} marker"
        super().__init__(
            f"{folder}: not a jaxlint cache folder ({why}); name a new or empty folder"
            " for the cache"
        )


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_OPEN_FLAGS |= getattr(os, "O_BINARY", 0)


def read_regular_file(
    path: Path, limit: int = MAX_ENTRY_BYTES, dir_fd: int | None = None
) -> bytes | None:
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
        fd = os.open(path, _OPEN_FLAGS, dir_fd=dir_fd)
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
    """jaxlint's version, a digest of its source and data files, libcst's and Python's versions.

    Every cached run computes it, so the package's 1,250 files are listed with
    ``os.scandir`` and named by strings: ``Path.rglob`` and ``Path.relative_to`` took 60 of
    the 80 ms it cost (a warm run of the bench's files takes about 0.7 s)."""
    package = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    digest.update(f"{__version__}\0{sys.version_info[:3]}\0".encode())
    try:
        digest.update(metadata.version("libcst").encode())
    except metadata.PackageNotFoundError:
        pass
    files: list[tuple[list[str], str]] = []
    _package_files(package, [], files)
    for parts, path in sorted(files):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        digest.update("/".join(parts).encode() + b"\0")
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def _package_files(folder: str, parts: list[str], out: list[tuple[list[str], str]]) -> None:
    """The ``.py``, ``.toml`` and ``.json`` files under ``folder`` (``__pycache__`` left
    out), each as (its path's parts below the package, its path)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                _package_files(entry.path, [*parts, entry.name], out)
        elif entry.name.endswith((".py", ".toml", ".json")):
            out.append(([*parts, entry.name], entry.path))


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
    """One cache folder; every operation fails soft (a cache problem never fails a run).

    Entries are reached from the cache folder one component at a time, each opened
    without following a link (``O_NOFOLLOW`` with a folder descriptor): a link
    planted inside the cache (a committed ``.jaxlint_cache/`` whose engine folder
    is a link) is a miss to read and a failed write, never a write elsewhere."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries = root / engine_fingerprint()[:16]
        self.hits = 0
        self.misses = 0
        self.write_errors = 0

    @classmethod
    def open(cls, root: Path) -> Cache | None:
        """The cache in ``root``, or ``None`` if it cannot be made (not writable, not a folder).

        ``root`` is created if missing. An existing folder is used if jaxlint made
        it there (:func:`is_jaxlint_cache`: its marker names this very folder), or
        if it is empty. A folder that holds nothing but what jaxlint writes (a
        copied or committed cache, one from an older jaxlint) is emptied of its
        entries and used; any other folder raises :class:`NotACacheError` before
        anything is written into it.
        """
        try:
            try:
                info = os.lstat(root)
            except FileNotFoundError:
                info = None
            if info is not None and stat.S_ISLNK(info.st_mode):
                raise NotACacheError(root, "it is a symbolic link")
            if info is not None and stat.S_ISDIR(info.st_mode):
                if not is_jaxlint_cache(root) and not _is_empty(root):
                    problem = foreign_entry(root)
                    if problem is not None:
                        raise NotACacheError(root, problem)
                    # only jaxlint's names, but not made here: its entries are not trusted
                    _remove_entries(root, keep_root=True)
                    _write_atomic(root / MARKER_NAME, _marker(root))
            else:
                root.mkdir(parents=True)
            # the marker first: a folder left half-made holds nothing but jaxlint's files
            for name, content in (
                (MARKER_NAME, None),
                (".gitignore", GITIGNORE.encode()),
                ("CACHEDIR.TAG", CACHEDIR_TAG.encode()),
            ):
                marker = root / name
                if not os.path.lexists(marker):
                    _write_atomic(marker, content if content is not None else _marker(root))
        except OSError:
            return None
        return cls(root)

    def _path(self, key: str) -> Path:
        return self.entries / key[:2] / key

    def _folder(self, key: str, create: bool) -> int:
        """A descriptor of the folder of ``key``'s entry, every component opened without
        following a link (created when ``create``). Raises ``OSError``."""
        fd = os.open(self.root, _DIR_FLAGS)
        try:
            for name in (self.entries.name, key[:2]):
                try:
                    sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(name, 0o777, dir_fd=fd)
                    sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = sub
            return fd
        except BaseException:
            os.close(fd)
            raise

    def _read(self, key: str) -> bytes | None:
        if not _FD_WALK:
            if _links_on_the_way(self.root, self._path(key)):
                return None
            return read_regular_file(self._path(key))
        try:
            fd = self._folder(key, create=False)
        except (OSError, ValueError):
            return None
        try:
            return read_regular_file(Path(key), dir_fd=fd)
        finally:
            os.close(fd)

    def _write(self, key: str, data: bytes) -> None:
        if not _FD_WALK:
            path = self._path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            if _links_on_the_way(self.root, path):
                raise OSError(f"{path}: a link inside the cache folder")
            _write_atomic(path, data)
            return
        fd = self._folder(key, create=True)
        try:
            _write_atomic_at(fd, key, data)
        finally:
            os.close(fd)

    def get(self, key: str, filename: str) -> CachedResult | None:
        data = self._read(key)
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
        data = encode_entry(key, result)
        if len(data) > MAX_ENTRY_BYTES:
            return  # it would never be read back
        try:
            self._write(key, data)
        except OSError:
            self.write_errors += 1

    def get_blob(self, key: str) -> Any:
        """A JSON value stored with :meth:`put_blob` (a module summary), or ``None``."""
        data = self._read(key)
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
            self._write(key, data)
        except OSError:
            self.write_errors += 1


_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_FD_WALK = (
    hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
    and os.open in os.supports_dir_fd
    and os.mkdir in os.supports_dir_fd
    and os.unlink in os.supports_dir_fd
    and os.rename in os.supports_dir_fd
)
"""Whether entries are reached through folder descriptors (POSIX); elsewhere every
component is checked with ``lstat`` first."""


def _links_on_the_way(root: Path, path: Path) -> bool:
    """Whether a component of ``path`` below ``root`` is a link (or cannot be checked)."""
    here = root
    try:
        for part in path.relative_to(root).parts:
            here = here / part
            if os.path.lexists(here) and stat.S_ISLNK(os.lstat(here).st_mode):
                return True
    except (OSError, ValueError):
        return True
    return False


def _write_atomic_at(dir_fd: int, name: str, data: bytes) -> None:
    """:func:`_write_atomic` inside the folder ``dir_fd``: a new temporary file (never a
    link followed), then a rename within that folder."""
    tmp = f".{name}.{secrets.token_hex(6)}{_TMP_SUFFIX}"
    held = signals.hold()  # the name is known before the file exists: cleaned up below
    try:
        fd = os.open(
            tmp,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
            _FILE_MODE,
            dir_fd=dir_fd,
        )
        signals.release(held)
        held = None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        held = signals.hold() if held is None else held
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    finally:
        signals.release(held)


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


def _marker(folder: Path) -> bytes:
    """The marker jaxlint writes into ``folder``: its text and the folder's identity.

    A marker file anyone can write proves nothing (a checkout whose root holds one
    was deleted by ``jaxlint clean``, issue 28), so the marker names the folder it
    was written into by its inode number: a copy of the folder (a committed
    ``.jaxlint_cache/``, an unpacked archive, ``cp -r``) is a new folder with
    another number, and its marker does not match."""
    info = os.lstat(folder)
    return (MARKER + f"folder: {info.st_ino}\n").encode()


def is_jaxlint_cache(folder: Path) -> bool:
    """Whether jaxlint made ``folder`` as a cache, there, and may use what it holds.

    Its marker must name this very folder (:func:`_marker`) and it must hold
    nothing but jaxlint's files and entry folders, none of them a link (a folder
    once named by ``--cache-dir`` that a user later put a file into is not used,
    nor cleaned). Cheap: only the folder itself is listed."""
    try:
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode):
            return False
    except (OSError, ValueError):
        return False
    if read_regular_file(folder / MARKER_NAME, 4096) != _marker(folder):
        return False
    return _foreign_here(folder, 0) is None


_TOP_FILES = frozenset({MARKER_NAME, ".gitignore", "CACHEDIR.TAG"})
_TOP_TMP = re.compile(r"\.(?:JAXLINT_CACHE|\.gitignore|CACHEDIR\.TAG)\.[A-Za-z0-9_]+\.tmp")
_SHARD_DIR = re.compile(r"[sp]?[0-9a-f]{1,2}")
_ENTRY = re.compile(r"[sp]?[0-9a-f]{64}")
_ENTRY_TMP = re.compile(r"\.[sp]?[0-9a-f]{64}\.[A-Za-z0-9_]+\.tmp")


def _kind_of(name: str, depth: int) -> str | None:
    """What jaxlint makes under this name at this depth: ``"file"``, ``"dir"`` or ``None``."""
    if depth == 0:
        if name in _TOP_FILES or _TOP_TMP.fullmatch(name):
            return "file"
        return "dir" if _ENGINE_DIR.fullmatch(name) else None
    if depth == 1:
        return "dir" if len(name) == 2 and _SHARD_DIR.fullmatch(name) else None
    return "file" if _ENTRY.fullmatch(name) or _ENTRY_TMP.fullmatch(name) else None


def _foreign_here(folder: Path, depth: int) -> str | None:
    """The first entry of ``folder`` jaxlint does not make there, described, or ``None``."""
    try:
        with os.scandir(folder) as it:
            for entry in it:
                kind = _kind_of(entry.name, depth)
                if entry.is_symlink():
                    return f"{entry.path} is a symbolic link"
                if kind == "dir" and entry.is_dir(follow_symlinks=False):
                    continue
                if kind == "file" and entry.is_file(follow_symlinks=False):
                    continue
                return f"{entry.path} is not something jaxlint made"
    except OSError as exc:
        return f"{folder}: cannot be listed ({exc.strerror or exc})"
    return None


def foreign_entry(folder: Path) -> str | None:
    """``None`` if ``folder`` holds nothing but what jaxlint writes into a cache (its
    three files, engine folders of 16 hex digits, shard folders, entries named by their
    key, jaxlint's temporary files), no link anywhere; else what is foreign, described."""
    pending = [(folder, 0)]
    while pending:
        here, depth = pending.pop()
        problem = _foreign_here(here, depth)
        if problem is not None:
            return problem
        if depth < 2:
            try:
                with os.scandir(here) as it:
                    pending += [
                        (Path(e.path), depth + 1) for e in it if _kind_of(e.name, depth) == "dir"
                    ]
            except OSError as exc:
                return f"{here}: cannot be listed ({exc.strerror or exc})"
    return None


def cache_problem(folder: Path) -> str | None:
    """Why ``jaxlint clean`` must not remove ``folder`` (``None``: it may).

    It may if it holds jaxlint's marker, or (a cache from before the marker) jaxlint's
    ``CACHEDIR.TAG``, and nothing but what jaxlint writes into a cache
    (:func:`foreign_entry`): a project root holding a file named like the marker, a
    ``.git`` folder or a user's file is refused, whatever its marker says."""
    try:
        info = os.lstat(folder)
    except (OSError, ValueError) as exc:
        return f"{folder}: {getattr(exc, 'strerror', None) or exc}"
    if stat.S_ISLNK(info.st_mode):
        return f"{folder} is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return f"{folder} is not a folder"
    if not os.path.lexists(folder / MARKER_NAME):
        if read_regular_file(folder / "CACHEDIR.TAG", 4096) != CACHEDIR_TAG.encode():
            return f"{folder} has no {MARKER_NAME} marker"
        gitignore = read_regular_file(folder / ".gitignore", 4096)
        if gitignore is not None and gitignore != GITIGNORE.encode():
            return f"{folder}/.gitignore is not the one jaxlint writes"
    if _holds_the_current_folder(folder):
        return f"{folder} is the current folder or holds it"
    return foreign_entry(folder)


def claims_to_be_a_cache(folder: Path) -> bool:
    """Whether ``folder`` holds an entry named like jaxlint's marker (whatever it is)."""
    try:
        return os.path.lexists(folder / MARKER_NAME)
    except (OSError, ValueError):
        return False


def _holds_the_current_folder(folder: Path) -> bool:
    try:
        target = os.stat(folder)
        here = Path.cwd().resolve()
    except OSError:
        return True
    for candidate in (here, *here.parents):
        try:
            info = os.stat(candidate)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) == (target.st_dev, target.st_ino):
            return True
    return False


_CLEAN_SKIP = frozenset({".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__"})


def find_caches(roots: Iterable[Path], folders: Iterable[Path] = ()) -> list[Path]:
    """The folders named ``.jaxlint_cache`` under ``roots`` (not looking inside VCS or
    virtualenv folders), and those of ``folders`` that exist: the candidates for
    ``jaxlint clean``, which checks each with :func:`cache_problem`. A root itself is
    never one (``jaxlint clean`` is started in a project, never to delete it), unless
    it is named ``.jaxlint_cache``."""
    found: list[Path] = []
    for root in roots:
        if root.name == CACHE_DIR_NAME:
            if os.path.lexists(root):
                found.append(root)
            continue
        for dirpath, dirnames, _ in os.walk(root):
            keep = []
            for name in dirnames:
                if name in _CLEAN_SKIP:
                    continue
                candidate = Path(dirpath) / name
                if name == CACHE_DIR_NAME:
                    found.append(candidate)
                    continue
                keep.append(name)
            dirnames[:] = keep
    found += [f for f in folders if os.path.lexists(f)]
    return sorted(set(found))


def _is_empty(folder: Path) -> bool:
    with os.scandir(folder) as it:
        return next(it, None) is None


def _remove_entries(folder: Path, keep_root: bool) -> None:
    """Remove what jaxlint made in ``folder`` (checked just before with
    :func:`foreign_entry`): each file by its name and each folder with ``rmdir``, so
    anything that appeared meanwhile stays (and its folder with it: ``OSError``)."""
    for depth_dir in sorted(
        (p for p in folder.iterdir() if _kind_of(p.name, 0) == "dir"), key=lambda p: p.name
    ):
        for shard in depth_dir.iterdir():
            if _kind_of(shard.name, 1) != "dir" or shard.is_symlink():
                continue
            for entry in shard.iterdir():
                if _kind_of(entry.name, 2) == "file" and not entry.is_symlink():
                    entry.unlink()
            shard.rmdir()
        depth_dir.rmdir()
    for entry in folder.iterdir():
        if _TOP_TMP.fullmatch(entry.name) and not entry.is_symlink():
            entry.unlink()
    if not keep_root:
        for name in _TOP_FILES:
            with contextlib.suppress(FileNotFoundError):
                (folder / name).unlink()
        folder.rmdir()


def remove_cache(folder: Path) -> None:
    """Delete ``folder``, checked once more (:func:`cache_problem`, else
    :class:`NotACacheError`); only what jaxlint made is removed, one name at a time."""
    problem = cache_problem(folder)
    if problem is not None:
        raise NotACacheError(folder, problem)
    _remove_entries(folder, keep_root=False)
