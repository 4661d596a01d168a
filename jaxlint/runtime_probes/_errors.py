"""Describe an exception from the user's code: class, message, user line, predicting rule.

Which rule predicts an exception comes from the rules themselves: each declares the
exceptions (and warnings) that confirm it (``Rule.confirmed_by``: JAX's public error
classes such as ``jax.errors.TracerBoolConversionError``, builtin classes with their
message, verified on jax 0.12.0.1), and from jaxlint's own findings on the line that
failed (``static_rules_at`` lints the user's file). Classes are matched by name and
module, so this module never imports JAX.
"""

from __future__ import annotations

import builtins
import linecache
import os
import sys
import sysconfig
import traceback
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxlint.rules.base import Raises


def _is_jax_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] in ("jax", "jaxlib")


def class_name(exc: BaseException) -> str:
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def _declarations() -> list[tuple[str, Raises]]:
    """(rule code, what it raises) for every rule, in code order: each rule declares
    what confirms it (``Rule.confirmed_by``); this module keeps no table of its own."""
    from jaxlint.rules import all_rules
    from jaxlint.rules.base import Raises

    return [
        (rule.code, sign)
        for rule in all_rules()
        for sign in rule.confirmed_by
        if isinstance(sign, Raises)
    ]


def _matches(sign: Raises, exc: BaseException, message: str, detail: str) -> bool:
    if sign.details_any and not any(h in detail for h in sign.details_any):
        return False
    if sign.message_startswith is not None and not message.startswith(sign.message_startswith):
        return False
    if sign.message_contains is not None and sign.message_contains not in message:
        return False
    return not sign.raised_in_jax or _raised_in_jax(exc)


def matching_rules(exc: BaseException) -> list[str]:
    """The rules whose declarations match this exception (or warning), in code order.

    The first JAX class in the exception's MRO that a rule declares decides: the rules
    whose declarations of that class hold; else the declarations of builtin classes
    (``TypeError`` with a given message, a ``UserWarning`` with a given text, ...).
    """
    message = str(exc)
    detail = "\n".join(message.splitlines()[1:])
    declared = _declarations()
    found: list[str] = []
    for cls in type(exc).__mro__:
        if not _is_jax_class(cls):
            continue
        candidates = [(code, sign) for code, sign in declared if sign.exception == cls.__name__]
        if candidates:
            for code, sign in candidates:
                if _matches(sign, exc, message, detail) and code not in found:
                    found.append(code)
            return found
    for code, sign in declared:
        builtin = getattr(builtins, sign.exception, None)
        if (
            isinstance(builtin, type)
            and isinstance(exc, builtin)
            and _matches(sign, exc, message, detail)
            and code not in found
        ):
            found.append(code)
    return found


def predicted_rule(exc: BaseException) -> str | None:
    """The jaxlint rule that predicts this exception from the declarations alone, or None."""
    found = matching_rules(exc)
    return found[0] if found else None


_STATIC_CACHE: dict[tuple[str, str, float, str], dict[int, list[str]]] = {}

PROBE_JITS: set[tuple[str, str, tuple[int, ...], tuple[str, ...]]] = set()
"""(file, function, static_argnums, static_argnames) of each module-level function that the
probe wrapped in ``jax.jit`` itself (``_targets.jit_target``)."""


def probe_view(filename: str, text: str) -> str:
    """The file as the probe runs it: ``text`` plus, at its end (no line moves), a
    ``jax.jit`` of each of its functions that the probe jitted, with the same static
    arguments, so that ``jaxlint check`` sees those functions traced as they were."""
    full = os.path.abspath(filename)
    lines = []
    for i, (file, name, nums, names) in enumerate(sorted(PROBE_JITS)):
        if file != full:
            continue
        flags = ""
        if nums:
            flags += f", static_argnums={tuple(nums)!r}"
        if names:
            flags += f", static_argnames={tuple(names)!r}"
        lines.append(f"_jaxlint_probe_jit_{i} = _jaxlint_probe_jax.jit({name}{flags})")
    if not lines:
        return text
    return "\n".join([text.rstrip("\n"), "", "import jax as _jaxlint_probe_jax", *lines, ""])


def reported_in_probe_scopes() -> set[str]:
    """The codes ``jaxlint check`` reports in the code the probe ran (``PROBE_SCOPES``)."""
    found: set[str] = set()
    for region_file, row in _probe_scope_lines():
        found.update(static_rules_at(region_file, row))
    return found


def static_rules_at(filename: str, line: int, view: bool = False) -> list[str]:
    """The codes of jaxlint's findings (every rule, noqa ignored) on ``line`` of ``filename``.

    The file is linted with the settings of its project (the nearest config); with
    ``view``, as the probe ran it (``probe_view``: the functions the probe jitted, jitted).
    A file that cannot be read or linted gives no findings.
    """
    try:
        stamp = os.path.getmtime(filename)
    except OSError:
        return []
    jits = repr(sorted(j for j in PROBE_JITS if j[0] == os.path.abspath(filename))) if view else ""
    # the name it is linted under is part of the key: check treats files under tests/ as
    # test code, so the same file named from another folder may have other findings
    key = (os.path.abspath(filename), _as_named(filename), stamp, jits)
    by_line = _STATIC_CACHE.get(key)
    if by_line is None:
        by_line = {}
        try:
            from pathlib import Path

            from jaxlint.config import ConfigResolver
            from jaxlint.engine import lint_text
            from jaxlint.rules import all_rules

            with open(filename, encoding="utf-8") as fh:
                text = fh.read()
            if view:
                text = probe_view(filename, text)
            path = Path(_as_named(filename))
            settings = ConfigResolver().for_path(path)
            result = lint_text(text, str(path), settings, all_rules(), path=path, apply_noqa=False)
            for d in result.diagnostics:
                for row in range(d.start.row, max(d.start.row, d.end.row) + 1):
                    codes = by_line.setdefault(row, [])
                    if d.code not in codes:
                        codes.append(d.code)
        except Exception:  # the probe reports the runtime error whatever the linter says
            by_line = {}
        _STATIC_CACHE[key] = by_line
    return sorted(by_line.get(line, []))


def choose_rule(
    exc: BaseException,
    filename: str | None,
    line: int | None,
    callers: tuple[tuple[str, int], ...] = (),
) -> tuple[str | None, str | None, list[str]]:
    """(rule, why, static findings at the line) for an exception raised at filename:line.

    Only a rule that ``jaxlint check`` reports names the error, never one it did not
    report. The failing line decides first: a static finding there whose rule also
    declares this exception; else such a finding at a line of the user's code that
    called it (``callers``, innermost first); else such a finding in the code the probe
    ran (``PROBE_SCOPES``: the target function, the call sites of its inputs); else any
    static finding at the failing line (a rule that does not declare the exception:
    ``why`` then lacks "and its confirmed_by"). The exception class alone
    (``matching_rules``) names no rule: ``describe_exception`` lists the rules that
    declare it as ``declared_by``, with why none is named.
    """
    declared = matching_rules(exc)
    static = static_rules_at(filename, line) if _user_file(filename) and line else []
    both = [code for code in static if code in declared]
    if both:
        return both[0], "static finding at the failing line, and its confirmed_by", static
    calling = [place for place in callers if _user_file(place[0]) and place != (filename, line)]
    found = _declared_finding(calling, declared)
    if found:
        code, where = found
        return code, f"static finding at the calling line {where}, and its confirmed_by", static
    found = _declared_finding(_probe_scope_lines(), declared)
    if found:
        code, where = found
        return (
            code,
            f"static finding at {where} in the code the probe ran, and its confirmed_by",
            static,
        )
    if static:
        return static[0], "static finding at the failing line", static
    return None, None, static


def _declared_finding(
    places: Iterable[tuple[str, int]], declared: list[str]
) -> tuple[str, str] | None:
    """The first static finding at ``places`` whose rule is in ``declared``: (its code,
    ``file:line`` with the file's base name)."""
    for file, row in places:
        there = [code for code in static_rules_at(file, row) if code in declared]
        if there:
            return there[0], f"{os.path.basename(file)}:{row}"
    return None


def _probe_scope_lines() -> Iterator[tuple[str, int]]:
    """Each (file, line) of the code the probe ran (``PROBE_SCOPES``), in order."""
    for region_file, first, last in sorted(PROBE_SCOPES):
        for row in range(first, last + 1):
            yield region_file, row


PROBE_SCOPES: set[tuple[str, int, int]] = set()
"""(file, first line, last line) of the code the probe ran for the user: the target
function and the call sites its inputs came from. When the traceback has no line of the
user's (JAX filtered its frames away, or the error came from the inputs), a finding there
that declares the exception names it."""


def _as_named(filename: str) -> str:
    """The file as a verify line names it: relative to the current folder when it is
    below it (``check`` run there named it so, and some rules read the path: a file
    under ``tests/`` is a test file), else as it is."""
    try:
        rel = os.path.relpath(filename)
    except ValueError:  # another drive (Windows)
        return filename
    return filename if rel.startswith(os.pardir) else rel


def _user_file(filename: str | None) -> bool:
    """A file of the user's (not JAX's, NumPy's, jaxlint's or the standard library's)."""
    if not filename:
        return False
    stdlib = os.path.abspath(sysconfig.get_paths().get("stdlib", "")) + os.sep
    return not _is_library_frame(filename, _package_dirs(), stdlib)


def warning_rules(caught: list[Any]) -> list[dict[str, Any]]:
    """For warnings caught with ``warnings.catch_warnings(record=True)``: the ones that a
    rule declares (``Raises("UserWarning", ...)``), with that rule."""
    out: list[dict[str, Any]] = []
    for w in caught:
        message = w.message if isinstance(w.message, Warning) else w.category(str(w.message))
        declared = matching_rules(message)
        if not declared:
            continue  # only a declared warning names a rule
        filename = getattr(w, "filename", None)
        lineno = getattr(w, "lineno", None)
        rule, _, _ = choose_rule(message, filename, lineno)
        if rule not in declared:
            # none, or choose_rule's fallback: a finding at the line whose rule does not
            # declare this warning (JAX201 at the line of a float64 truncation warning)
            continue
        entry = {
            "warning": str(message).splitlines()[0] if str(message).strip() else "",
            "category": class_name(message),
            "rule": rule,
        }
        if filename:
            entry.update(file=filename, line=lineno)
        if entry not in out:
            out.append(entry)
    return out


def _package_dirs() -> tuple[str, ...]:
    dirs: list[str] = []
    for name in ("jax", "jaxlib", "numpy", "ml_dtypes", "scipy", "opt_einsum", "jaxlint"):
        module = sys.modules.get(name)  # a frame of a package means it was imported
        file = getattr(module, "__file__", None)
        if file:
            dirs.append(os.path.dirname(os.path.abspath(file)) + os.sep)
    return tuple(dirs)


def jax_dirs() -> tuple[str, ...]:
    return tuple(
        d for d in _package_dirs() if os.path.basename(d.rstrip(os.sep)) in ("jax", "jaxlib")
    )


def _is_library_frame(filename: str, package_dirs: tuple[str, ...], stdlib: str) -> bool:
    if filename.startswith("<frozen") or filename.startswith("<string>"):
        return filename.startswith("<frozen")
    full = os.path.abspath(filename)
    if full.startswith(package_dirs):
        return True
    in_site = "site-packages" in full or "dist-packages" in full
    return bool(stdlib) and full.startswith(stdlib) and not in_site


def _raised_in_jax(exc: BaseException) -> bool:
    """Raised by a JAX frame: the last frame is JAX's, or JAX filtered its frames away."""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames and os.path.abspath(frames[-1].filename).startswith(jax_dirs()):
        return True
    notes = getattr(exc, "__notes__", None) or []
    return any("JAX has removed its internal frames" in str(n) for n in notes)


def user_frame(exc: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame of the traceback that is the user's code, not a library's."""
    package_dirs = _package_dirs()
    stdlib = os.path.abspath(sysconfig.get_paths().get("stdlib", "")) + os.sep
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        if not _is_library_frame(frame.filename, package_dirs, stdlib):
            return frame
    return None


def _traced_function(message: str) -> dict[str, Any] | None:
    """Parse JAX's 'The error occurred while tracing the function f at file:line for jit.'"""
    marker = "The error occurred while tracing the function "
    start = message.find(marker)
    if start < 0:
        return None
    rest = message[start + len(marker) :].split(" for ", 1)[0]
    name, sep, where = rest.rpartition(" at ")
    if not sep:
        return None
    file, _, line = where.rpartition(":")
    return {"function": name, "file": file, "line": int(line) if line.isdigit() else None}


def describe_exception(exc: BaseException, phase: str | None = None) -> dict[str, Any]:
    """The JSON ``error`` object for an exception raised by the user's code."""
    message = str(exc)
    error: dict[str, Any] = {
        "class": class_name(exc),
        "message": message.splitlines()[0] if message.strip() else "",
    }
    if len(message.splitlines()) > 1:
        error["details"] = message[:4000]
    if phase:
        error["phase"] = phase
    frame = user_frame(exc)
    if frame is not None:
        error["file"] = frame.filename
        error["line"] = frame.lineno
        error["function"] = frame.name
        code = frame.line or linecache.getline(frame.filename, frame.lineno or 0).strip()
        if code:
            error["code"] = code
    traced = _traced_function(message)
    if traced is not None:
        error["traced_function"] = traced
    rule, why, static = choose_rule(exc, error.get("file"), error.get("line"), _callers(exc))
    error["rule"] = rule
    if why is not None:
        error["rule_source"] = why
    if static:
        error["static_findings_at_line"] = static
    declared = matching_rules(exc)
    if rule is None and _user_file(error.get("file")) and error.get("line"):
        # the probe jitted a function the code does not: what check reports at the line
        # when it is jitted so, said as such (never as the finding's rule)
        jitted = [
            c
            for c in static_rules_at(error["file"], error["line"], view=True)
            if c in declared or not declared
        ]
        if jitted:
            error["rule_if_jitted"] = jitted[0]
            error["rule_if_jitted_note"] = (
                f"`jaxlint check` reports {jitted[0]} at this line when the function is"
                " jitted as the probe jitted it; your code does not jit it, so no rule is named"
            )
    if rule is None and declared:
        # the class alone is no finding: say which rules declare it, and why none is named
        error["declared_by"] = declared
        error["rule_note"] = (
            f"no rule named: {', '.join(declared)} declare(s) {error['class']}, but "
            "`jaxlint check` reports none of them at the failing line or a line that called it"
        )
    return error


def _callers(exc: BaseException) -> tuple[tuple[str, int], ...]:
    """The (file, line) of each user frame of the traceback, innermost first."""
    package_dirs = _package_dirs()
    stdlib = os.path.abspath(sysconfig.get_paths().get("stdlib", "")) + os.sep
    out = []
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.lineno and not _is_library_frame(frame.filename, package_dirs, stdlib):
            out.append((frame.filename, frame.lineno))
    return tuple(out)
