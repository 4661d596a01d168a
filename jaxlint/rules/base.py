"""The rule API: one class per rule, with its code, docs, options and examples.

A rule subclasses :class:`Rule`, sets its class attributes, and defines
``visit_<Node>`` / ``leave_<Node>`` methods for the libcst node types it wants.
The engine calls them during one shared traversal. A rule asks the shared
semantic model (``self.model``) what names mean; it never re-derives imports.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import libcst as cst

from jaxlint.diagnostics import Applicability

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext


@dataclass(frozen=True)
class Valid:
    """Code on which the rule must stay silent."""

    code: str
    note: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    target_jax: str | None = None
    runs: bool = False
    """Runtime truth: the code is a complete program that runs on CPU JAX without error."""
    filename: str = "example.py"
    """The path the code is linted under (``tests/test_model.py`` for test-code examples)."""
    file: str | None = field(default=None, compare=False)
    """Where ``code`` was read from (``jit_in_loop.examples/valid_hoisted.py``), if a file."""


@dataclass(frozen=True)
class Invalid:
    """Code on which the rule must fire.

    ``line``/``column`` (1-based) pin the first report; ``expected_fix`` is the
    whole file after applying every applicable fix (unsafe ones included when
    ``unsafe_fix`` is true); ``message_contains`` checks the wording.

    ``raises`` is runtime truth: the code is a complete program and running it on
    CPU JAX raises this exception class (its ``__name__``, e.g.
    ``"TracerBoolConversionError"``); after the fix it must run without it.
    """

    code: str
    line: int | None = None
    column: int | None = None
    expected_fix: str | None = None
    unsafe_fix: bool = False
    message_contains: str | None = None
    count: int | None = None
    note: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    target_jax: str | None = None
    raises: str | None = None
    fixed_runs: bool = True
    """With ``raises`` and a fix: the fixed program runs without error (False when
    the fix is only a step, e.g. it leaves another finding)."""
    filename: str = "example.py"
    """The path the code is linted under (``tests/test_model.py`` for test-code examples)."""
    file: str | None = field(default=None, compare=False)
    """Where ``code`` was read from (``jit_in_loop.examples/invalid_in_loop.py``), if a file;
    ``expected_fix`` then comes from the ``.fixed.py`` file beside it, when there is one."""


class Examples:
    """A rule's example files: the folder ``<module>.examples/`` beside the rule's module.

    ``EXAMPLES = Examples(__file__)`` in ``compilation/jit_in_loop.py`` reads
    ``compilation/jit_in_loop.examples/``. ``EXAMPLES.valid("valid_x.py", note=...)``
    is a :class:`Valid` whose code is that file's text, byte for byte (CRLF kept);
    ``EXAMPLES.invalid("invalid_y.py", line=3)`` is an :class:`Invalid` whose
    ``expected_fix`` is ``invalid_y.fixed.py`` when that file exists. The files are
    real Python: open, run and edit them as code.
    """

    SUFFIX = ".examples"

    def __init__(self, module_file: str | Path) -> None:
        module = Path(module_file)
        self.folder = module.with_name(module.stem + self.SUFFIX)
        self._names: frozenset[str] | None = None

    def _read(self, name: str) -> str:
        with open(os.path.join(self.folder, name), "rb") as f:
            return f.read().decode("utf-8")

    def _where(self, name: str) -> str:
        return f"{self.folder.name}/{name}"

    def valid(self, file: str, **fields: Any) -> Valid:
        return Valid(self._read(file), file=self._where(file), **fields)

    def invalid(self, file: str, **fields: Any) -> Invalid:
        if "expected_fix" in fields:
            raise TypeError(f"{file}: the expected fix is the file {fixed_name(file)}")
        if self._names is None:
            self._names = frozenset(os.listdir(self.folder))
        fixed = fixed_name(file)
        expected = self._read(fixed) if fixed in self._names else None
        return Invalid(self._read(file), expected_fix=expected, file=self._where(file), **fields)


def short(text: str, limit: int = 40) -> str:
    """``text`` on one line, cut to ``limit`` characters with ``...``: code quoted in a
    message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def fixed_name(file: str) -> str:
    """``invalid_y.py`` -> ``invalid_y.fixed.py``: the whole file after the fix."""
    return file.removesuffix(".py") + ".fixed.py"


@dataclass(frozen=True)
class Option:
    """A per-rule setting read from ``[tool.jaxlint.rules.<code-or-name>]``."""

    type: type
    default: Any
    help: str


# -- what confirms a finding at runtime: read by the probes (one source of truth) ---------


@dataclass(frozen=True)
class Raises:
    """Running the code raises ``exception`` (a class ``__name__``).

    A JAX exception class (``TracerBoolConversionError``) is matched by name anywhere in
    the raised exception's MRO, among JAX's own classes; the first JAX class in the MRO
    that any rule declares decides. A builtin class (``TypeError``) is matched with
    ``isinstance`` after that. The optional conditions narrow a broad class down to
    this rule's cause: ``details_any`` (one of these texts in the message after its
    first line), ``message_startswith``, ``message_contains``, and ``raised_in_jax``
    (the exception came from a JAX frame, not from the user's own code).
    """

    exception: str
    details_any: tuple[str, ...] = ()
    message_startswith: str | None = None
    message_contains: str | None = None
    raised_in_jax: bool = False


@dataclass(frozen=True)
class Event:
    """The ``jax.monitoring`` event a probe counts to confirm the rule (e.g. one XLA
    compilation per loop iteration: ``/jax/core/compile/backend_compile_duration``)."""

    name: str


@dataclass(frozen=True)
class HostSyncEveryRun:
    """Every run of the finding's line, in a loop, reads a device array to the host (a
    blocking sync): what ``jaxlint probe syncs FILE.py:FUNC --line LINE`` counts."""


Confirmation = Raises | Event | HostSyncEveryRun


# -- fix plans: what a rule wants changed, turned into text edits by the fixer ------------


@dataclass(frozen=True)
class ReplaceNode:
    node: cst.CSTNode
    text: str


@dataclass(frozen=True)
class RequireImport:
    """Make ``module`` importable under its own name (``import jax``)."""

    module: str


FixOp = ReplaceNode | RequireImport
FixFactory = Callable[[], Sequence[FixOp]]


@dataclass
class Violation:
    rule: Rule
    node: cst.CSTNode
    message: str
    applicability: Applicability | None
    fix_message: str | None
    fix_factory: FixFactory | None
    probe_node: cst.CSTNode | None = None
    """Where the verify command looks for its function, when not at ``node`` (JAX105: the
    timed call, not the clock read)."""
    severity: str = "error"
    """``error``, or ``warning`` for a finding whose cost the rule knows to be small (JAX401:
    a wrapper rebuilt around the same function, which JAX does not compile again)."""


_CODE_RE = re.compile(r"^JAX\d{3}$")
_NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DOC_SECTIONS = (
    "What it does",
    "Why is this bad",
    "Example",
    "Use instead",
    "Fix safety",
    "Verify at runtime",
)


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    """One-line template, formatted with the keyword arguments given to ``report``."""
    docs: ClassVar[str]
    """Markdown with the sections in ``DOC_SECTIONS``, each as a ``## `` heading."""
    probe: ClassVar[str]
    """The ``jaxlint probe ...`` command that confirms a finding at runtime."""
    confirmed_by: ClassVar[tuple[Confirmation, ...]] = ()
    """What the probes see when the finding is real: the exceptions running the code
    raises (:class:`Raises`) or the ``jax.monitoring`` events it emits (:class:`Event`).
    ``jaxlint.runtime_probes`` reads these instead of keeping a table of its own."""
    default_enabled: ClassVar[bool] = True
    fix_availability: ClassVar[str] = "none"
    """``always``, ``sometimes`` or ``none``."""
    options: ClassVar[dict[str, Option]] = {}
    required_names: ClassVar[frozenset[str] | None] = None
    """Identifiers the rule cannot fire without: a file whose code spells none of them
    (as a name, an attribute or in an import; ``SemanticModel.identifiers``) skips
    the rule. Only for rules that look for particular APIs, whose qualified names
    can only come from code that spells their last component; ``None``: every file."""
    project_names: ClassVar[str | None] = None
    """A regular expression: the rule also runs on a file that spells none of
    ``required_names`` but imports from another module of its project (whose summary may
    say a name is what the rule looks for: ``with trainer.device_mesh:`` where
    ``Trainer`` is defined elsewhere) and whose text matches it (a ``with`` statement)."""
    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.model: SemanticModel = ctx.model
        """``ctx.model``, the file's semantic model (an attribute: rules read it for
        nearly every node, and a property cost a call each time)."""
        self.settings: dict[str, Any] = {
            key: ctx.settings.rule_option(self, key) for key in self.options
        }

    def report(
        self,
        node: cst.CSTNode,
        *,
        fix: FixFactory | None = None,
        applicability: Applicability | None = None,
        fix_message: str | None = None,
        probe_node: cst.CSTNode | None = None,
        severity: str = "error",
        **fmt: object,
    ) -> None:
        if fix is not None and applicability is None:
            raise ValueError(f"{self.code}: a fix needs an applicability")
        if severity not in ("error", "warning"):
            raise ValueError(f"{self.code}: severity must be 'error' or 'warning'")
        self.ctx.add_violation(
            Violation(
                rule=self,
                node=node,
                message=self.message.format(**fmt),
                applicability=applicability,
                fix_message=fix_message,
                fix_factory=fix,
                probe_node=probe_node,
                severity=severity,
            )
        )

    @classmethod
    def check_definition(cls) -> list[str]:
        """Problems with the class itself (used by the test suite and the registry)."""
        problems = []
        if not _CODE_RE.match(getattr(cls, "code", "")):
            problems.append(f"{cls.__name__}: code must be JAX + 3 digits")
        if not _NAME_RE.match(getattr(cls, "name", "")):
            problems.append(f"{cls.__name__}: name must be kebab-case")
        docs = getattr(cls, "docs", "")
        for section in DOC_SECTIONS:
            if f"## {section}" not in docs:
                problems.append(f"{cls.__name__}: docs lack the '## {section}' section")
        if "jaxlint probe " not in getattr(cls, "probe", ""):
            problems.append(f"{cls.__name__}: probe must be a `jaxlint probe ...` command")
        if cls.fix_availability not in ("always", "sometimes", "none"):
            problems.append(f"{cls.__name__}: bad fix_availability")
        if not cls.VALID or not cls.INVALID:
            problems.append(f"{cls.__name__}: needs VALID and INVALID examples")
        return problems
