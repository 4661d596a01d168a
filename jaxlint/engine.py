"""Lint one file's text: parse once, build the semantic model, run every rule in one pass."""

from __future__ import annotations

import contextlib
import functools
import re
import symtable
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst
from libcst import CSTNode
from libcst.metadata import CodeRange

from jaxlint import deep_stack
from jaxlint.analysis.keys import KeyAnalysis
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.project import ModuleId, ProjectFacts
from jaxlint.analysis.tracing import TraceAnalysis
from jaxlint.diagnostics import (
    FIX_WITHHELD,
    PARSE_ERROR_CODE,
    Diagnostic,
    Edit,
    Fix,
    Position,
)
from jaxlint.node_factories import node_factories
from jaxlint.noqa import file_noqa_codes, noqa_codes, suppresses
from jaxlint.positions import compute_positions
from jaxlint.prefilter import PREFILTER_WORDS as PREFILTER_WORDS
from jaxlint.prefilter import mentions_jax
from jaxlint.rules.base import ReplaceNode, RequireImport, Rule, Violation
from jaxlint.settings import Settings
from jaxlint.timings import RULE_PREFIX, Timings
from jaxlint.verify import commands as verify_commands

_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Physical lines as Python counts them (``str.splitlines`` also splits on \\f etc.)."""
    return _LINE_BREAK_RE.split(text)


@dataclass
class InternalError:
    """A rule crashed on a file. The run reports it and exits 2."""

    filename: str
    rule_code: str
    rule_name: str
    error: str
    traceback: str

    def describe(self) -> str:
        """One line: the file, the rule's code and name, and the exception."""
        return (
            f"{self.filename}: internal error in rule {self.rule_code} ({self.rule_name}): "
            f"{one_line(self.error)}"
        )


def one_line(message: str) -> str:
    """``message`` with its line breaks and runs of whitespace folded to single spaces."""
    return " ".join(message.split())


@dataclass
class FileResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    internal_errors: list[InternalError] = field(default_factory=list)
    parsed: bool = True


class FileContext:
    """What a rule sees of the file it is checking."""

    def __init__(
        self,
        module: cst.Module,
        text: str,
        filename: str,
        settings: Settings,
        project: ProjectFacts | None = None,
    ) -> None:
        self.module = module
        self.project = project
        """What the project's other modules say about imported names (``None``: this
        file alone); see ``jaxlint.analysis.project``."""
        self.text = text
        self.filename = filename
        self.settings = settings
        self.model = SemanticModel(module)
        self.violations: list[Violation] = []
        self._positions = None
        self._trace: TraceAnalysis | None = None
        self._keys: KeyAnalysis | None = None
        self.timings: Timings | None = None
        """Set by ``lint_text`` when the run is timed (``--timings``)."""

    @property
    def positions(self):
        """libcst positions, computed on first use only (most files have no findings)."""
        if self._positions is None:
            with _timed(self.timings, "positions"):
                self._positions = compute_positions(self.module, self.text)
        return self._positions

    @property
    def trace(self) -> TraceAnalysis:
        """Traced functions and values (computed on first use, by the rules that need it)."""
        if self._trace is None:
            with _timed(self.timings, "trace analysis"):
                self._trace = TraceAnalysis(
                    self.model,
                    lambda node: self.positions[node].start.line,
                    traced_decorators=self.settings.traced_decorators,
                    traced_wrappers=self.settings.traced_wrappers,
                    project=self.project,
                    contracts=not self.is_test_file,
                )
        return self._trace

    @property
    def keys(self) -> KeyAnalysis:
        """PRNG keys, their consumptions and reuses (computed on first use)."""
        if self._keys is None:
            with _timed(self.timings, "key analysis"):
                self._keys = KeyAnalysis(
                    self.model, lambda node: self.positions[node].start.line, self.project
                )
        return self._keys

    def code(self, node: cst.CSTNode) -> str:
        """The source text of ``node`` as the user wrote it.

        libcst's code generation recurses through context managers, which Python
        3.12 limits to about 1,500 levels whatever the recursion limit; a node nested
        deeper is cut from the file's text instead (:meth:`source`)."""
        try:
            return self.module.code_for_node(node)
        except RecursionError:
            return self.source(node)

    def source(self, node: cst.CSTNode) -> str:
        """The text of ``node`` exactly as it stands in the file. Unlike :meth:`code`, the
        continuation lines of a statement inside a block keep their indentation."""
        span = self.positions[node]
        pieces = _LINE_BREAK_RE.split(self.text)
        breaks = _LINE_BREAK_RE.findall(self.text)
        first, last = span.start.line - 1, span.end.line - 1
        if first == last:
            return pieces[first][span.start.column : span.end.column]
        out = [pieces[first][span.start.column :], breaks[first]]
        for row in range(first + 1, last):
            out += [pieces[row], breaks[row]]
        out.append(pieces[last][: span.end.column])
        return "".join(out)

    def source_with(self, outer: cst.CSTNode, inner: cst.CSTNode, text: str) -> str:
        """:meth:`source` of ``outer`` with the part that is ``inner`` (a node inside it)
        replaced by ``text``: the rest keeps its exact formatting."""
        src = self.source(outer)
        start = self.positions[outer].start
        starts = [0] + [m.end() for m in _LINE_BREAK_RE.finditer(src)]

        def offset(line: int, column: int) -> int:
            if line == start.line:
                return column - start.column
            return starts[line - start.line] + column

        span = self.positions[inner]
        return (
            src[: offset(span.start.line, span.start.column)]
            + text
            + src[offset(span.end.line, span.end.column) :]
        )

    def line_prefix(self, node: cst.CSTNode) -> str:
        """The text of the line on which ``node`` starts, up to ``node``."""
        pos = self.positions[node].start
        return split_lines(self.text)[pos.line - 1][: pos.column]

    def line_indent(self, node: cst.CSTNode) -> str:
        """The leading whitespace of the line on which ``node`` starts."""
        row = self.positions[node].start.line
        line = split_lines(self.text)[row - 1]
        return line[: len(line) - len(line.lstrip(" \t"))]

    @property
    def is_test_file(self) -> bool:
        """The file is test code by its path (``tests/``, ``test_*.py``, ``*_test.py``,
        ``conftest.py``): see ``jaxlint.analysis.testcode`` and docs/precision/test-code.md."""
        from jaxlint.analysis.testcode import is_test_path

        return is_test_path(self.filename)

    @property
    def target_jax(self) -> tuple[int, int, int]:
        return self.settings.target_jax

    def add_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


def _timed(timings: Timings | None, phase: str) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext() if timings is None else timings.measure(phase)


class _HandlerTable(dict):
    """Node class -> the handlers for it, filled on first sight of each class."""

    def __init__(
        self, by_name: dict[tuple[str, bool], list[tuple[Rule, Callable]]], entering: bool
    ):
        super().__init__()
        self.by_name = by_name
        self.entering = entering

    def __missing__(self, cls: type) -> list[tuple[Rule, Callable]] | None:
        found = self.by_name.get((cls.__name__, self.entering)) or None
        self[cls] = found
        return found


@functools.cache
def _handler_names(cls: type[Rule]) -> tuple[tuple[str, tuple[str, bool]], ...]:
    """``(attribute, (node class name, entering))`` for each ``visit_X``/``leave_X`` of
    ``cls`` (``dir()`` of a class is slow: once per class, not once per file)."""
    found = []
    for attr in dir(cls):
        if attr.startswith("visit_"):
            found.append((attr, (attr[6:], True)))
        elif attr.startswith("leave_"):
            found.append((attr, (attr[6:], False)))
    return tuple(found)


class _Dispatcher:
    """Calls every rule's ``visit_X``/``leave_X`` handler over the model's event stream.

    Handlers are looked up by node class (one dict lookup per event); a rule that
    raises is taken out of the tables, so the loop never checks for dead rules.
    """

    def __init__(self, rules: Sequence[Rule], on_error: Callable[[Rule, BaseException], None]):
        self.on_error = on_error
        self.handlers: dict[tuple[str, bool], list[tuple[Rule, Callable]]] = {}
        for rule in rules:
            for attr, key in _handler_names(type(rule)):
                self.handlers.setdefault(key, []).append((rule, getattr(rule, attr)))
        self.dead: set[int] = set()
        self._enter = _HandlerTable(self.handlers, True)
        self._leave = _HandlerTable(self.handlers, False)

    def run(
        self, events: Iterable[tuple[cst.CSTNode, int]], timings: Timings | None = None
    ) -> None:
        if not self.handlers:
            return
        if timings is not None:
            self._run_timed(events, timings)
            return
        enter, leave = self._enter, self._leave
        for node, entering in events:
            found = enter[type(node)] if entering else leave[type(node)]
            if found:
                for rule, handler in found:
                    try:
                        handler(node)
                    except Exception as exc:  # a broken rule must not take the others down
                        self._crash(rule, exc)

    def _run_timed(self, events: Iterable[tuple[cst.CSTNode, int]], timings: Timings) -> None:
        spent: dict[int, float] = {}
        calls: dict[int, int] = {}
        rules: dict[int, Rule] = {}
        enter, leave = self._enter, self._leave
        clock = time.perf_counter
        for node, entering in events:
            found = enter[type(node)] if entering else leave[type(node)]
            if found:
                for rule, handler in found:
                    inner = timings.inner
                    start = clock()
                    try:
                        handler(node)
                    except Exception as exc:
                        self._crash(rule, exc)
                    key = id(rule)
                    elapsed = clock() - start
                    spent[key] = spent.get(key, 0.0) + elapsed - (timings.inner - inner)
                    timings.inner = inner + elapsed
                    calls[key] = calls.get(key, 0) + 1
                    rules[key] = rule
        for key, seconds in spent.items():
            timings.add(rule_label(rules[key]), seconds, calls[key])

    def _crash(self, rule: Rule, exc: BaseException) -> None:
        self.dead.add(id(rule))
        for key, found in list(self.handlers.items()):
            kept = [(r, h) for r, h in found if r is not rule]
            if kept:
                self.handlers[key] = kept  # a new list: a loop over the old one is unaffected
            else:
                del self.handlers[key]
        self._enter.clear()
        self._leave.clear()
        self.on_error(rule, exc)


def rule_label(rule: Rule | type[Rule]) -> str:
    """How ``--timings`` names a rule: ``rule: JAX602 empty-not-zeros``."""
    return f"{RULE_PREFIX}{rule.code} {rule.name}"


def parse_error_diagnostic(filename: str, message: str, row: int, column: int) -> Diagnostic:
    pos = Position(max(row, 1), max(column, 1))
    return Diagnostic(
        code=PARSE_ERROR_CODE,
        name="parse-error",
        message=message,
        filename=filename,
        start=pos,
        end=pos,
    )


NESTED_TOO_DEEPLY = "cannot parse: the code is nested too deeply"
TOO_DEEP_TO_ANALYSE = "cannot analyse: the code is nested too deeply (Python's recursion limit)"

_PYTHON_NESTING_ERRORS = ("too many nested parentheses", "too many levels of indentation")


def _python_parse_error(text: str) -> BaseException | None:
    """Python's own verdict on ``text``: ``None`` if it parses, else the exception.

    CPython's parser reports accurate rows and columns and refuses code nested
    deeper than it can handle; libcst's native parser reports positions poorly
    and overflows the C stack (a segfault, not an exception) on such code, so
    Python's parser goes first.

    ``symtable`` runs that parser without building Python objects for its tree (only
    one per scope): 0.50 s against 0.82 s for ``ast`` on the bench's 554 files. Beyond
    the parser's errors it also raises the symbol table's (a duplicate parameter,
    ``nonlocal`` at module level), which code Python refuses to compile has; libcst
    still gets the text, as for any error of this Python, and decides.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(text, "<jaxlint>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return exc
    return None


_VALIDATING_POST_INIT = CSTNode.__post_init__


def _skip_validation(self: CSTNode) -> None:
    pass


def _parse_unvalidated(text: str) -> cst.Module:
    """``libcst.parse_module`` without re-validating every node it builds.

    Every libcst node checks its own fields when it is constructed
    (``CSTNode.__post_init__`` calls ``_validate``): about 15% of a parse, spent
    re-checking a tree that a parser produced from code Python's own parser has
    just accepted (libcst's source says as much: "It might make more sense to
    move validation work into the visitor ... to avoid validating the tree when
    parsing a file"). Validation is switched off for this call only and always
    switched back on, so nodes built anywhere else (fixes, tests, other flake8
    plugins in the same process) are validated as usual. jaxlint is single-threaded.

    The whitespace nodes the parser builds (:data:`_SHARED_TRIVIA`) are also made once
    per distinct value and shared within the tree (see :func:`_shared_trivia`).
    """
    CSTNode.__post_init__ = _skip_validation  # type: ignore[method-assign]
    try:
        with _shared_trivia(len(text)):
            return cst.parse_module(text)
    finally:
        CSTNode.__post_init__ = _VALIDATING_POST_INIT  # type: ignore[method-assign]


_SHARED_TRIVIA = ("SimpleWhitespace", "Newline", "TrailingWhitespace")
"""Node classes whose equal instances one parse shares: 52% of the nodes libcst builds on
the bench's files (``SimpleWhitespace`` alone 41%). A ``TrailingWhitespace`` is shared
only when it has no comment (each ``Comment`` is its own object, and nodes are looked up
by identity). Measured on the bench's 553 files, collector paused, parse CPU time (three
runs each): none shared 7.42 s, the two leaf classes 7.02 s, with ``TrailingWhitespace``
6.83 s, with ``Comma``, ``Dot`` and ``AssignEqual`` too 6.98 s (a node holding nodes is
hashed by libcst's ``CSTNode.__hash__``, in Python)."""


@contextlib.contextmanager
def _shared_trivia(chars: int = 0) -> Iterator[None]:
    """While parsing, build each node with a plain function, and each distinct whitespace
    node once, shared.

    libcst's native parser looks each node class up on the ``libcst`` module when it
    builds a node (``libcst.SimpleWhitespace(value=" ")``), so what is put there for the
    parse is called instead of the class:

    - for every concrete node class, a function that builds the same node without going
      through the dataclass's ``__init__`` (:mod:`jaxlint.node_factories`: 8% of the parse),
      once the process has parsed enough to pay for making them (``chars``: the size of
      the text to parse);
    - for the whitespace classes, a cache of that function that returns the node already
      built for the same field values. libcst nodes are immutable, and jaxlint never asks
      about whitespace by identity: its walk skips trivia (``analysis.walk.TRIVIA``), and
      positions, fixes and messages are asked for the nodes the walk gives. Sharing saves
      the construction of about half of the nodes (about 8% of the parse) and their memory.

    The classes are put back whatever happens; a pure-Python parse
    (``LIBCST_PARSER_TYPE=pure``) imports the classes directly and is unaffected.
    """
    factories: dict[str, Callable[..., CSTNode]] = {
        name: getattr(cst, name) for name in _SHARED_TRIVIA
    }
    factories.update(node_factories(chars))
    saved = [(name, getattr(cst, name)) for name in factories]
    if not all(isinstance(cls, type) for _, cls in saved):
        yield  # already inside a parse that builds nodes so
        return
    for name, make in factories.items():
        setattr(cst, name, functools.lru_cache(maxsize=None)(make) if name in _SHARED else make)
    try:
        yield
    finally:
        for name, cls in saved:
            setattr(cst, name, cls)


_SHARED = frozenset(_SHARED_TRIVIA)


def parse_module(
    text: str, filename: str, timings: Timings | None = None
) -> cst.Module | Diagnostic:
    """Parse ``text`` with libcst, or return the JAX000 diagnostic that says why not."""
    if timings is None:
        py_error = _python_parse_error(text)
    else:
        with timings.measure("parse: python (symtable)"):
            py_error = _python_parse_error(text)
    if isinstance(py_error, (RecursionError, MemoryError)) or (
        isinstance(py_error, SyntaxError) and str(py_error.msg) in _PYTHON_NESTING_ERRORS
    ):
        row = getattr(py_error, "lineno", None) or 1
        return parse_error_diagnostic(
            filename, f"{NESTED_TOO_DEEPLY} ({_describe(py_error)})", row, 1
        )
    if isinstance(py_error, UnicodeEncodeError):
        # a lone surrogate ("\ud800" in a notebook's JSON or an editor's buffer, or from a
        # ``unicode_escape`` coding line): no parser takes it (libcst raises too)
        return _surrogate_diagnostic(filename, text, py_error)
    try:
        # Code this Python rejects may still be newer syntax that libcst knows; libcst's
        # own node validation then stays on, as a second opinion on what it accepted.
        parse = cst.parse_module if py_error is not None else _parse_unvalidated
        if timings is None:
            return parse(text)
        with timings.measure("parse: libcst"):
            return parse(text)
    except cst.ParserSyntaxError as exc:
        if isinstance(py_error, (SyntaxError, ValueError)):
            return _python_error_diagnostic(filename, text, py_error)
        message = one_line(f"SyntaxError: {exc.message}")
        return parse_error_diagnostic(filename, message, exc.editor_line, exc.editor_column)
    except RecursionError:
        return parse_error_diagnostic(filename, NESTED_TOO_DEEPLY, 1, 1)
    except MemoryError:
        return parse_error_diagnostic(filename, "cannot parse: out of memory", 1, 1)


def _python_error_diagnostic(filename: str, text: str, exc: SyntaxError | ValueError) -> Diagnostic:
    """JAX000 at the place CPython's parser gives (for NUL, which it does not place: the NUL)."""
    if isinstance(exc, SyntaxError):
        row, column = exc.lineno or 1, exc.offset or 1
        message = f"{type(exc).__name__}: {exc.msg}"
        located = exc.lineno is not None
    else:  # Python 3.10 and 3.11 reject NUL bytes with a ValueError
        row, column, message, located = 1, 1, f"SyntaxError: {exc}", False
    if not located and "\0" in text:
        nul = text.index("\0")
        row = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
    return parse_error_diagnostic(filename, one_line(message), row, column)


def _surrogate_diagnostic(filename: str, text: str, exc: UnicodeEncodeError) -> Diagnostic:
    """JAX000 at the first character that has no UTF-8 form (a lone surrogate)."""
    at = exc.start if 0 <= exc.start < len(text) else 0
    row = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    what = f"U+{ord(text[at]):04X}" if text else "a character"
    return parse_error_diagnostic(
        filename,
        f"cannot parse: {what} is a lone surrogate, not text (it has no UTF-8 form)",
        row,
        column,
    )


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return str(exc.msg)
    return one_line(f"{type(exc).__name__}: {exc}")


def lint_text(
    text: str,
    filename: str,
    settings: Settings,
    rules: Sequence[type[Rule]],
    *,
    want_fixes: bool = False,
    path: Path | None = None,
    apply_noqa: bool = True,
    timings: Timings | None = None,
    project: ProjectFacts | None = None,
    tree: cst.Module | None = None,
    keep_tree: Callable[[cst.Module], None] | None = None,
) -> FileResult:
    """Lint ``text`` with ``rules`` (the caller's choice, usually
    ``settings.enabled_rules(all_rules())``: the engine never imports the rule registry,
    which sits above it).

    With ``timings``, the time of each phase and each rule is added to it. With
    ``project``, the analyses ask it about names imported from the project's other
    modules, and the module's summary is published to it. Code nested deeper than
    Python's recursion limit allows jaxlint's walks to go is linted again with a deep
    stack (:mod:`jaxlint.deep_stack`).

    ``tree`` is libcst's tree of this very ``text``, kept from an earlier lint of it
    (the parse is skipped: it would build the same tree); ``keep_tree`` is given the
    tree once the lint is done, when the caller may lint the same text again.
    """
    args = (text, filename, settings, rules)
    options = dict(
        want_fixes=want_fixes,
        path=path,
        apply_noqa=apply_noqa,
        timings=timings,
        project=project,
        tree=tree,
        keep_tree=keep_tree,
    )
    result = _lint_text(*args, **options)
    if _hit_recursion_limit(result) and not deep_stack.active():
        result = deep_stack.call(_lint_text, *args, **options)
        if _hit_recursion_limit(result) and result.parsed:
            # deeper than even the deep stack: the file cannot be analysed (not a bug in
            # a rule), as when the walks of the first run gave up
            result = FileResult(parsed=False)
            result.diagnostics.append(parse_error_diagnostic(filename, TOO_DEEP_TO_ANALYSE, 1, 1))
    return result


def _hit_recursion_limit(result: FileResult) -> bool:
    """A walk of jaxlint's (or libcst's) ran into Python's recursion limit on this file."""
    return any(
        d.message in (TOO_DEEP_TO_ANALYSE, NESTED_TOO_DEEPLY) for d in result.diagnostics
    ) or any(e.error.startswith("RecursionError") for e in result.internal_errors)


def _lint_text(
    text: str,
    filename: str,
    settings: Settings,
    rules: Sequence[type[Rule]],
    *,
    want_fixes: bool = False,
    path: Path | None = None,
    apply_noqa: bool = True,
    timings: Timings | None = None,
    project: ProjectFacts | None = None,
    tree: cst.Module | None = None,
    keep_tree: Callable[[cst.Module], None] | None = None,
) -> FileResult:
    result = FileResult()
    if timings is not None:
        with timings.measure("prefilter"):
            skip = not rules or not _involves_jax(text, settings, project)
        if skip:
            return result
    elif not rules or not _involves_jax(text, settings, project):
        return result
    file_codes = file_noqa_codes(text) if apply_noqa else None
    if file_codes is not None and "*" in file_codes:
        return result
    parsed = tree if tree is not None else parse_module(text, filename, timings)
    if isinstance(parsed, Diagnostic):
        result.parsed = False
        result.diagnostics.append(parsed)
        return result
    try:
        _lint_module(
            parsed,
            text,
            filename,
            settings,
            rules,
            result,
            file_codes,
            want_fixes,
            path,
            apply_noqa,
            timings,
            project,
        )
    except RecursionError:
        # Valid but very deeply nested code: libcst's tree walks are recursive.
        result.parsed = False
        result.diagnostics = [parse_error_diagnostic(filename, TOO_DEEP_TO_ANALYSE, 1, 1)]
        return result
    if keep_tree is not None:
        keep_tree(parsed)
    return result


def _involves_jax(text: str, settings: Settings, project: ProjectFacts | None) -> bool:
    """The prefilter: the text mentions JAX, or traced functions of other modules of its
    project call its functions (a helper module that never names JAX, called from jitted
    code: its ``np.asarray`` runs on a tracer). The second question is recorded like
    every project question, so the end of the run lints the file again when its answer
    changes (the modules that call it are linted after it, in dependency order)."""
    if mentions_jax(text, settings.prefilter_words):
        return True
    if project is None:
        return False
    if project.traced_calls():
        return True
    # what an earlier lint published while traced code called it no longer holds
    project.project.store.retract(project.path, text, project.module)
    return False


def _lint_module(
    module: cst.Module,
    text: str,
    filename: str,
    settings: Settings,
    rules: Sequence[type[Rule]],
    result: FileResult,
    file_codes: tuple[str, ...] | None,
    want_fixes: bool,
    path: Path | None,
    apply_noqa: bool,
    timings: Timings | None = None,
    project: ProjectFacts | None = None,
) -> None:
    if timings is None:
        ctx = FileContext(module, text, filename, settings, project)
    else:
        with timings.measure("semantic model (one walk)"):
            ctx = FileContext(module, text, filename, settings, project)
        ctx.timings = timings
    crashed: set[int] = set()

    def on_error(rule: Rule, exc: BaseException) -> None:
        crashed.add(id(rule))
        result.internal_errors.append(
            InternalError(
                filename=filename,
                rule_code=rule.code,
                rule_name=rule.name,
                error=f"{type(exc).__name__}: {exc}",
                traceback="".join(traceback.format_exception(exc)),
            )
        )

    instances: list[Rule] = []
    identifiers = ctx.model.identifiers
    for cls in rules:
        needs = cls.required_names
        if needs is not None and needs.isdisjoint(identifiers):
            if not (
                cls.project_names is not None
                and project is not None
                and re.search(cls.project_names, text, re.MULTILINE) is not None
                and project.imports_project(ctx.model)
            ):
                continue  # the file never spells what the rule looks for
        if timings is not None:
            inner, start = timings.inner, time.perf_counter()
        try:
            instances.append(cls(ctx))
        except Exception as exc:
            on_error(cls.__new__(cls), exc)
        if timings is not None:
            elapsed = time.perf_counter() - start
            timings.add(rule_label(cls), elapsed - (timings.inner - inner), 0)
            timings.inner = inner + elapsed
    try:
        _Dispatcher(instances, on_error).run(ctx.model.events, timings)
        if project is not None and not crashed:
            if timings is None:
                _publish_summary(ctx, project)
            else:
                with timings.measure("module summary"):
                    _publish_summary(ctx, project)
        violations = [v for v in ctx.violations if id(v.rule) not in crashed]
        if not violations:
            return
        if timings is None:
            _report(ctx, violations, result, file_codes, want_fixes, path, apply_noqa, on_error)
        else:
            with timings.measure("report (noqa, fixes)"):
                _report(ctx, violations, result, file_codes, want_fixes, path, apply_noqa, on_error)
    finally:
        _release(ctx, instances)


def _publish_summary(ctx: FileContext, project: ProjectFacts) -> None:
    """The module's summary, from this lint's model and analyses (see analysis/summary.py)."""
    from jaxlint.analysis.summary import build_summary

    summary = build_summary(ctx, project.module)
    project.project.store.publish(project.path, ctx.text, project.module, summary)


def summarize_module(
    text: str, path: Path, module: ModuleId, settings: Settings, facts: ProjectFacts | None
) -> dict[str, Any] | None:
    """The summary of a module the run does not lint (a parse and the analyses, no
    rules): the ``summarize`` that :class:`~jaxlint.analysis.project.SummaryStore` is
    given, since the analysis layer never imports the engine."""
    from jaxlint.analysis.summary import build_summary

    parsed = parse_module(text, str(path))
    if not isinstance(parsed, cst.Module):
        return None
    try:
        ctx = FileContext(parsed, text, str(path), settings, facts)
        return build_summary(ctx, module)
    except RecursionError:
        return None


def _release(ctx: FileContext, instances: list[Rule]) -> None:
    """Drop what the file's rules and analyses hold, once its diagnostics are made.

    Rules and analyses point back at the file context (a rule's findings, the
    closures of its fixes, the analyses' line lookups), and those reference cycles
    kept the whole tree alive until the garbage collector traced every node of it.
    Cutting them lets reference counting free the tree as soon as ``lint_text``
    returns. Nothing reads a rule or the context after this.
    """
    for rule in instances:
        rule.__dict__.clear()
    ctx.violations = []
    ctx._trace = None
    ctx._keys = None
    ctx._positions = None


def _report(
    ctx: FileContext,
    violations: list[Violation],
    result: FileResult,
    file_codes: tuple[str, ...] | None,
    want_fixes: bool,
    path: Path | None,
    apply_noqa: bool,
    on_error: Callable[[Rule, BaseException], None],
) -> None:
    """Turn the violations into diagnostics: positions, noqa, fixes."""
    module, text, filename, settings = ctx.module, ctx.text, ctx.filename, ctx.settings
    positions = ctx.positions
    lines = split_lines(text)
    ignored_here = settings.file_ignores(path)
    importer = _ImportPlacer(module, ctx.model, positions, text)
    probes = verify_commands(ctx, violations)  # each finding's filled-in verify command
    # positions that are not the text's cannot place a fix: no finding is marked fixable;
    # in a text with blanks libcst leaves out, whether a fix can be placed is known only
    # from its edits, so they are made even where the output does not show them
    exact = getattr(positions, "exact", True)
    place = want_fixes or getattr(positions, "has_drops", False)
    for v, probe in zip(violations, probes, strict=True):
        code_range: CodeRange = positions[v.node]
        start = Position(code_range.start.line, code_range.start.column + 1)
        end = Position(code_range.end.line, code_range.end.column + 1)
        if apply_noqa:
            if suppresses(file_codes, v.rule.code) or suppresses(ignored_here, v.rule.code):
                continue
            line = lines[start.row - 1] if start.row - 1 < len(lines) else ""
            if suppresses(noqa_codes(line), v.rule.code):
                continue
        diag = Diagnostic(
            code=v.rule.code,
            name=v.rule.name,
            message=v.message,
            filename=filename,
            start=start,
            end=end,
            fix_applicability=v.applicability if v.fix_factory is not None and exact else None,
            fix_message=v.fix_message,
            probe=probe,
            severity=v.severity,
        )
        if v.fix_factory is not None and v.applicability is not None:
            if not exact:
                diag.extra[FIX_WITHHELD] = (v.applicability, _INEXACT)
            elif place:
                try:
                    fix = _materialize(v, positions, importer)
                except Exception as exc:
                    on_error(v.rule, exc)
                    continue
                if isinstance(fix, str):
                    diag.extra[FIX_WITHHELD] = (v.applicability, fix)
                    diag.fix_applicability = None  # nothing to apply: not fixable
                elif want_fixes:
                    diag.fix = fix
        result.diagnostics.append(diag)
    result.diagnostics.sort(key=Diagnostic.sort_key)


_INEXACT = "libcst does not give this file's text back, so the fix cannot be placed in it"
_NO_EDITS = "the rule found no edits to make here"
_DROPS = (
    "the text it replaces holds blanks that libcst leaves out (a form feed that starts a line)"
    ", which the new text would lose"
)


def _materialize(v: Violation, positions, importer: _ImportPlacer) -> Fix | str:
    """The fix as edits, or why it cannot be applied to this text."""
    assert v.fix_factory is not None and v.applicability is not None
    ops = v.fix_factory()
    if not ops:
        return _NO_EDITS
    if not getattr(positions, "exact", True):
        return _INEXACT  # positions not in the text's units (see jaxlint.positions)
    edits: list[Edit] = []
    for op in ops:
        if isinstance(op, ReplaceNode):
            drops_within = getattr(positions, "drops_within", None)
            if drops_within is not None and drops_within(op.node):
                # the replaced text holds blanks libcst's tree leaves out (a form feed
                # that starts a line): the new text, made from the tree, would lose them
                return _DROPS
            rng: CodeRange = positions[op.node]
            start = Position(rng.start.line, rng.start.column + 1)
            end = Position(rng.end.line, rng.end.column + 1)
            if not op.text and isinstance(op.node, cst.SimpleStatementLine):
                # a whole line deleted: its indentation (all that comes before a line of
                # statements on its row) and its newline too
                start, end = Position(rng.start.line, 1), Position(rng.end.line + 1, 1)
            edits.append(Edit(start, end, op.text))
        elif isinstance(op, RequireImport):
            edit = importer.edit_for(op.module)
            if edit is not None:
                edits.append(edit)
        else:  # pragma: no cover - defensive
            raise TypeError(f"unknown fix operation {op!r}")
    edits.sort(key=lambda e: (e.start, e.end))
    return Fix(v.applicability, v.fix_message or "Apply fix", tuple(edits))


class _ImportPlacer:
    """Where to add ``import X`` so that it comes once, after the file's top imports."""

    def __init__(self, module: cst.Module, model: SemanticModel, positions, text: str) -> None:
        self.module = module
        self.model = model
        self.positions = positions
        self.text = text
        self._anchor: Position | None = None
        self._after_last_line = False

    def _find_anchor(self) -> tuple[Position, bool]:
        body = list(self.module.body)
        idx = 0
        # skip the docstring and __future__ imports
        if body and _is_docstring(body[0]):
            idx = 1
        while idx < len(body) and _is_future_import(body[idx]):
            idx += 1
        last_import = None
        j = idx
        while j < len(body) and _is_import_line(body[j]):
            last_import = body[j]
            j += 1
        if last_import is not None:
            rng = self.positions[last_import]
            return Position(rng.end.line + 1, 1), True
        if idx < len(body):
            rng = self.positions[body[idx]]
            return Position(rng.start.line, 1), False
        if idx > 0:
            rng = self.positions[body[idx - 1]]
            return Position(rng.end.line + 1, 1), True
        return Position(1, 1), False

    def edit_for(self, module_name: str) -> Edit | None:
        top = module_name.split(".")[0]
        if self.model.resolve_name(top, self.model.module_scope) == top:
            return None  # already imported under its own name
        pos, after = self._find_anchor()
        newline = self.module.default_newline
        content = f"import {module_name}{newline}"
        # lines as positions count them (a lone "\r" too: issue 28)
        n_lines = len(_LINE_BREAK_RE.findall(self.text))
        n_lines += 0 if self.text.endswith(("\n", "\r")) else 1
        if after and pos.row > n_lines and self.text and not self.text.endswith(("\n", "\r")):
            content = newline + content
        return Edit(pos, pos, content)


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_future_import(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) >= 1
        and isinstance(stmt.body[0], cst.ImportFrom)
        and isinstance(stmt.body[0].module, cst.Name)
        and stmt.body[0].module.value == "__future__"
    )


def _is_import_line(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
    )
