"""Reading Python source files faithfully, and writing them back atomically.

The text keeps its line endings (CRLF stays CRLF); the encoding comes from the
BOM or the PEP 263 coding line, and writing back re-encodes with the same
encoding and BOM and keeps the file's mode.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

from jaxlint import signals


class SourceError(Exception):
    """The file cannot be read (missing, unreadable, not a file): exit code 2."""


class NotFixedError(Exception):
    """Fixed text was not written, on purpose: the message says why (exit code 2)."""


class FileChangedError(NotFixedError):
    """The file is no longer the one that was read (edited, replaced, or a symlink put in
    its place) between the read and the rename."""


class ReadOnlyError(NotFixedError):
    """The file is write-protected (no write bit in its mode, or ``os.access`` says no)."""


class HardLinkedError(NotFixedError):
    """The file has more than one name (hard links): it is not rewritten.

    A fix is written to a new file that replaces the old one by a rename, the only
    way that a kill at any moment leaves the old text or the new one, never a mix.
    A rename gives the new text to this one name only: the file's other names would
    silently keep the old text (issue 28). Writing into the file itself would keep
    every name, but a kill in the middle would leave it half-written. So a
    hard-linked file is refused, as a read-only one is: its findings are still
    reported, and ``--diff`` shows the fix to apply by hand."""


@dataclass(frozen=True)
class FileIdentity:
    """What a file was when it was read; checked again just before a fix replaces it."""

    realpath: str
    """Where the given path led (through symbolic links) when it was read."""
    link: bool
    """The given path itself was a symbolic link."""
    dev: int
    ino: int
    size: int
    mtime_ns: int
    digest: bytes
    """SHA-256 of the bytes that were read."""

    @classmethod
    def of(cls, path: str | os.PathLike[str], st: os.stat_result, data: bytes) -> FileIdentity:
        return cls(
            realpath=os.path.realpath(path),
            link=os.path.islink(path),
            dev=st.st_dev,
            ino=st.st_ino,
            size=st.st_size,
            mtime_ns=st.st_mtime_ns,
            digest=hashlib.sha256(data).digest(),
        )


def read_with_identity(path: str | os.PathLike[str]) -> tuple[bytes, FileIdentity]:
    """The file's bytes and its identity, both from the one open file (OSError on failure)."""
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        data = fh.read()
    return data, FileIdentity.of(path, st, data)


class DecodeError(Exception):
    """The file's bytes are not text in its declared encoding (reported as JAX000)."""

    def __init__(self, message: str, row: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.row = row
        self.column = column


@dataclass
class SourceFile:
    path: Path | None
    text: str
    encoding: str
    """A Python codec name (``utf-8``, ``latin-1``, ...); ``utf-8-sig`` when a BOM was present."""
    mode: int | None = None
    identity: FileIdentity | None = None
    """Set by :func:`read_source`: a fix is written only if the file still matches it."""


BINARY_SNIFF_BYTES = 8000
"""How far :func:`decode_source` looks for a NUL byte (as git does)."""


def decode_source(data: bytes) -> tuple[str, str]:
    """Return ``(text, encoding)``; raise :class:`DecodeError` with a row on failure."""
    nul = data.find(b"\0", 0, BINARY_SNIFF_BYTES)
    if nul >= 0:  # git's test for a binary file; no Python source holds a NUL byte
        row = data.count(b"\n", 0, nul) + 1
        column = nul - (data.rfind(b"\n", 0, nul) + 1) + 1
        raise DecodeError("binary file (a null byte): not Python source", row, column)
    try:
        encoding, first_lines = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise DecodeError(f"bad encoding declaration: {exc.msg}", exc.lineno or 1) from None
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise DecodeError(f"unknown encoding {encoding!r}") from None
    if not getattr(info, "_is_text_encoding", True):
        # hex, rot13, base64, zlib...: ``bytes.decode`` refuses them (LookupError), and so
        # does Python (SyntaxError)
        raise DecodeError(
            f"bad encoding declaration: {encoding!r} is not a text encoding", _cookie_row(data)
        )
    _check_ascii_compatible(first_lines, encoding)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        row = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        raise DecodeError(
            f"cannot decode byte {data[exc.start : exc.start + 1]!r} as {encoding}"
            f" (declare the file's encoding with a PEP 263 coding line, or save it as UTF-8)",
            row,
            exc.start - line_start + 1,
        ) from None
    except Exception as exc:  # a codec's own failure (``undefined``, ``punycode``...)
        message = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise DecodeError(f"cannot decode the file as {encoding}: {message}") from None
    if encoding == "utf-8-sig" and text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding


def _cookie_row(data: bytes) -> int:
    """The line of the PEP 263 coding line (1 or 2; 1 when there is none)."""
    lines = data.split(b"\n", 2)[:2]
    for row, line in enumerate(lines, 1):
        if _COOKIE_RE.match(line):
            return row
    return 1


_COOKIE_RE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def _check_ascii_compatible(first_lines: list[bytes], encoding: str) -> None:
    """A coding line is read as ASCII: an encoding that does not read it back as the same
    text (``utf-16``, ``utf-32``, EBCDIC ``cp037``) cannot be the file's, as Python finds
    too; say so, not a misleading decode error later on or a parse of garbage."""
    if encoding in ("utf-8", "utf-8-sig"):
        return
    for row, line in enumerate(first_lines, 1):
        match = _COOKIE_RE.match(line)
        if match is None:
            continue
        cookie = match.group()  # ASCII: the pattern matched it
        try:
            same = cookie.decode(encoding) == cookie.decode("ascii")
        except Exception:
            same = False
        if not same:
            raise DecodeError(
                f"bad encoding declaration: {encoding!r} does not read the coding line itself"
                " (not an ASCII-compatible encoding); save the file as UTF-8",
                row,
            )


def read_regular(path: Path) -> tuple[bytes, FileIdentity, int]:
    """The bytes, identity and permission bits of the regular file ``path``
    (:class:`SourceError` if it is missing, a folder, not a regular file or unreadable)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise SourceError(f"{path}: broken symbolic link") from None
        raise SourceError(f"{path}: no such file or directory") from None
    except OSError as exc:
        raise SourceError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise SourceError(f"{path}: is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(f"{path}: not a regular file")
    try:
        data, identity = read_with_identity(path)
    except OSError as exc:
        raise SourceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return data, identity, stat.S_IMODE(st.st_mode)


def read_source(path: Path) -> SourceFile:
    """Read ``path``; :class:`SourceError` for IO problems, :class:`DecodeError` for bytes."""
    data, identity, mode = read_regular(path)
    text, encoding = decode_source(data)
    return SourceFile(path=path, text=text, encoding=encoding, mode=mode, identity=identity)


def encode_source(text: str, encoding: str) -> bytes:
    if encoding == "utf-8-sig":
        return codecs.BOM_UTF8 + text.encode("utf-8")
    return text.encode(encoding)


def round_trips(text: str, encoding: str, digest: bytes) -> bool:
    """Whether ``text`` written back in ``encoding`` gives the bytes it was read from
    (``digest``: their SHA-256). Not so for a ``unicode_escape`` or ``raw_unicode_escape``
    coding line (every line break read from ``\\n`` would be written as ``\\n``, the
    whole file on one line) or for bytes a codec reads in more than one way: a fix is not
    written then."""
    if encoding in ("utf-8", "utf-8-sig"):
        return True  # strict UTF-8 reads each text from one sequence of bytes only
    try:
        data = encode_source(text, encoding)
    except Exception:
        return False
    return hashlib.sha256(data).digest() == digest


NOT_ROUND_TRIP = (
    "not fixed: its encoding ({encoding}) would not write the unchanged text back as the"
    " bytes it was read from (save the file as UTF-8 to fix it)"
)


def write_atomic(
    path: Path, data: bytes, mode: int | None = None, expect: FileIdentity | None = None
) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    An interruption leaves either the old file or the new one, never a mix, and
    no temporary file. A symbolic link is kept: its target is replaced. ``mode``
    defaults to the existing file's mode (or the umask's default for a new file);
    the owner and group are kept where the OS allows.

    An existing file that is write-protected (no write bit in its mode, or
    ``os.access`` says no; root passes ``os.access``, so the mode is checked too)
    raises :class:`ReadOnlyError`, as an in-place writer would fail; a file with
    more than one hard link raises :class:`HardLinkedError`. With
    ``expect``, the file must still be the one that was read just before the
    rename (same place, no symlink swapped in, same inode, size, mtime and content
    hash), else :class:`FileChangedError`; either way the file is left untouched.
    """
    given = path
    path = Path(os.path.realpath(path))
    if expect is not None:
        _check_unchanged(given, expect)
    try:
        old: os.stat_result | None = os.stat(path)
    except OSError:
        old = None
    if old is not None and (not stat.S_IMODE(old.st_mode) & 0o222 or not os.access(path, os.W_OK)):
        raise ReadOnlyError(f"{given}: file is read-only: not fixed")
    if old is not None and old.st_nlink > 1:
        raise _hard_linked(given, old.st_nlink)
    if mode is None:
        mode = stat.S_IMODE(old.st_mode) if old is not None else _default_mode()
    # A signal is held until the temporary file's name is known: raised inside
    # ``mkstemp``, after the file was made, it would leave the file behind.
    held = signals.hold()
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".jaxlint-tmp", dir=path.parent)
        signals.release(held)
        held = None
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if old is not None and hasattr(os, "chown"):
            try:
                os.chown(tmp, old.st_uid, old.st_gid)
            except OSError:
                pass  # not allowed to give the file away: it stays ours
        _before_rename(path)
        if expect is not None:
            _check_unchanged(given, expect)
        if old is not None:
            links = os.stat(path).st_nlink
            if links > 1:  # a link made while jaxlint ran
                raise _hard_linked(given, links)
        os.replace(tmp, path)
    except BaseException:
        remove_temporary(tmp)
        raise
    finally:
        signals.release(held)
    _fsync_dir(path.parent)


def _hard_linked(given: Path, links: int) -> HardLinkedError:
    return HardLinkedError(
        f"{given}: file has {links} hard links (names); rewriting it would leave the"
        " others with the old text: not fixed (see the fix with --diff)"
    )


def remove_temporary(tmp: str | None) -> None:
    """Remove a temporary file after a failed write, with signals held meanwhile (one
    arriving during the cleanup raises just after it, not instead of it)."""
    if tmp is None:
        return
    held = signals.hold()
    try:
        os.unlink(tmp)
    except OSError:
        pass
    finally:
        signals.release(held)


def _before_rename(path: Path) -> None:
    """Called just before the final check and the rename (tests replace it to edit the file)."""


def _check_unchanged(given: Path, expect: FileIdentity) -> None:
    """:class:`FileChangedError` unless ``given`` still leads to the file that was read.

    A small window between this check and the rename remains (no portable
    compare-and-rename exists); it is microseconds, not the length of the run."""
    changed = FileChangedError(f"{given}: changed while jaxlint ran: not fixed")
    try:
        if os.path.realpath(given) != expect.realpath:
            raise changed  # moved, or a symlink to somewhere else put in its place
        if not expect.link and os.path.islink(given):
            raise changed  # a symlink swapped in for the file that was read
        st = os.lstat(expect.realpath)
        if not stat.S_ISREG(st.st_mode) or (
            st.st_dev,
            st.st_ino,
            st.st_size,
            st.st_mtime_ns,
        ) != (expect.dev, expect.ino, expect.size, expect.mtime_ns):
            raise changed
        fd = os.open(expect.realpath, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            now = _read_fd(fd, expect.size + 1)
        finally:
            os.close(fd)
    except OSError:
        raise changed from None
    if hashlib.sha256(now).digest() != expect.digest:
        raise changed


def _read_fd(fd: int, limit: int) -> bytes:
    chunks = []
    while limit > 0:
        chunk = os.read(fd, min(limit, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
    return b"".join(chunks)


def _default_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable (best effort: not every OS can open a folder)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
