"""The ``verify:`` command of a finding, filled in so that it can be pasted and run.

A rule declares only which probe confirms it and what that probe needs, in its
``probe`` attribute: a ``jaxlint probe ...`` command line with placeholders, and
any environment it needs in front (``JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile
FILE.py:FUNC``). This module fills the placeholders for one finding:

* ``FILE.py`` becomes the file of the finding, as it was named to jaxlint;
* ``FUNC`` becomes the function the finding is in (``name`` or ``Class.method``:
  the outermost one the probe can import), or, for a ``compile`` probe in a traced
  helper, the jitted function that traces it;
* ``CALLEE`` becomes the jitted function that the call holding the finding calls (or the
  call the rule points the probe at, ``Violation.probe_node``: JAX105's timed call);
* ``LINE`` (a word of its own) becomes the finding's line (JAX102's ``syncs --line``);
* ``--rule CODE`` is added at the end, so the report says whether the run confirmed
  the finding's rule (``rule_check``), or plainly why not;
* the ``jax.jit`` settings the code itself uses are added as flags when the probe
  wraps a plain function (``g = jax.jit(f, static_argnums=1)``: ``--static-argnums
  1``; for ``bench`` also ``--jit``). A function decorated with ``jax.jit`` is used
  as it is, and the probe reads its own settings, so no flag is added.

No command is given (``None``) when no probe can run the code: a finding in
module-level code, in code read from standard input, or a ``jax.jit`` whose
settings are not literals. Commands without a placeholder (``jaxlint probe env``)
are returned as they are.

The probes build inputs themselves when the file has no factory (from annotations
or a call site in the file, see ``jaxlint/runtime_probes/_inputs.py``), so the
command needs no ``--factory``. This module never imports JAX.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from jaxlint.engine import FileContext
    from jaxlint.rules.base import Violation

FILE = "FILE.py"
FUNC = "FUNC"
CALLEE = "CALLEE"
LINE = "LINE"
JIT_PROBES = frozenset({"bench", "compile", "recompile"})
"""The probes that take the code's ``jax.jit`` settings as flags."""
JIT_TRANSFORMS = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})


@dataclass(frozen=True)
class Declaration:
    """A rule's ``probe`` attribute, read: environment, the words, and what they need."""

    env: tuple[tuple[str, str], ...]
    words: tuple[str, ...]

    @property
    def probe(self) -> str | None:
        """``compile``, ``bench``, ``recompile`` or ``env`` (the word after ``probe``)."""
        for i, word in enumerate(self.words[:-1]):
            if word == "probe":
                return self.words[i + 1]
        return None

    @property
    def placeholder(self) -> str | None:
        for word in self.words:
            if word.startswith(FILE + ":"):
                return word.split(":", 1)[1]
        return None


@functools.lru_cache(maxsize=256)
def parse_declaration(template: str) -> Declaration:
    words = shlex.split(template)
    env = []
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, value = words.pop(0).split("=", 1)
        env.append((name, value))
    return Declaration(tuple(env), tuple(words))


def render(env: Sequence[tuple[str, str]], words: Sequence[str]) -> str:
    return " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env), *map(shlex.quote, words)])


def commands(ctx: FileContext, violations: Sequence[Violation]) -> list[str | None]:
    """The filled-in verify command of each violation (in order), or ``None``."""
    needed = [
        _where(v) for v in violations if parse_declaration(v.rule.probe).placeholder is not None
    ]
    stacks = _stacks(ctx, needed) if needed else {}
    out: list[str | None] = []
    for v in violations:
        try:
            out.append(_command(ctx, v, stacks.get(id(_where(v)), ())))
        except Exception:  # a command is a convenience: never lose the finding over it
            out.append(None)
    return out


# -- where a finding is ------------------------------------------------------------------------


def _where(v: Violation) -> cst.CSTNode:
    """The node the command is built from: the rule's ``probe_node`` if it gave one."""
    return v.probe_node if v.probe_node is not None else v.node


_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_AROUND = frozenset((*_SCOPES, cst.Call))
"""The kinds of node a probe's command is built from (concrete classes: no subclasses)."""
Stack = tuple[cst.CSTNode, ...]


def _stacks(ctx: FileContext, wanted: Sequence[cst.CSTNode]) -> dict[int, Stack]:
    """For each wanted node: the functions, classes, lambdas and calls around it (outermost
    first), from the parents the model's walk recorded (a node it did not walk has none)."""
    parents = ctx.model.parents
    kinds = _AROUND
    out: dict[int, Stack] = {}
    for node in wanted:
        around: list[cst.CSTNode] = []
        parent = parents.get(id(node))
        while parent is not None:
            if type(parent) in kinds:
                around.append(parent)
            parent = parents.get(id(parent))
        around.reverse()
        out[id(node)] = tuple(around)
    return out


def _importable(stack: Stack) -> tuple[str, cst.FunctionDef] | None:
    """The outermost function around the node that a probe can import: a module-level
    ``def`` (``name``) or a method of a module-level class (``Class.method``)."""
    scopes = [n for n in stack if isinstance(n, _SCOPES)]
    if not scopes:
        return None
    first = scopes[0]
    if isinstance(first, cst.FunctionDef):
        return first.name.value, first
    if (
        isinstance(first, cst.ClassDef)
        and len(scopes) > 1
        and isinstance(scopes[1], cst.FunctionDef)
    ):
        return f"{first.name.value}.{scopes[1].name.value}", scopes[1]
    return None


def _module_level_def(ctx: FileContext, fn: cst.CSTNode) -> bool:
    return any(stmt is fn for stmt in ctx.module.body)


def _jit_flags(ctx: FileContext, fn: cst.FunctionDef) -> tuple[bool, dict[str, list]] | None:
    """``(wrapped_by_a_call, settings)`` of the ``jax.jit`` the analysis resolves for ``fn``;
    ``(False, {})`` when it has none or is decorated (the probe reads a decorated
    function's own settings); ``None`` when the settings are not literals."""
    from jaxlint.analysis.tracing import _literal_ints, _literal_strs

    info = ctx.trace.info(fn)
    if info is None:
        return False, {}
    for reason in info.own:
        site = reason.site
        if isinstance(site, cst.Decorator):
            wrap = ctx.trace.transform_of(site.decorator)
            if wrap is not None and wrap[0].qualname in JIT_TRANSFORMS:
                return False, {}
            continue
        if not isinstance(site, cst.Call):
            continue
        wrap = ctx.trace.transform_of(site.func)
        if wrap is None or wrap[0].qualname not in JIT_TRANSFORMS:
            continue
        options = dict(wrap[1])
        options.update({a.keyword.value: a.value for a in site.args if a.keyword is not None})
        settings: dict[str, list] = {}
        for key, read in (
            ("static_argnums", _literal_ints),
            ("static_argnames", _literal_strs),
            ("donate_argnums", _literal_ints),
        ):
            got = read(options.get(key))
            if got is None:
                return None  # not a literal: the command would guess
            if got:
                settings[key] = got
        if "donate_argnames" in options:
            return None  # the probes take donated positions only
        return True, settings
    return False, {}


def _jitted_root(ctx: FileContext, fn: cst.FunctionDef) -> cst.FunctionDef:
    """For a traced helper without a transform of its own, the jitted module-level function
    whose trace reaches it (through the first callers); else ``fn``."""
    info = ctx.trace.info(fn)
    seen = 0
    while info is not None and not info.transforms and info.caller is not None and seen < 20:
        info = info.caller
        seen += 1
    if (
        info is not None
        and info.transforms
        and isinstance(info.node, cst.FunctionDef)
        and _module_level_def(ctx, info.node)
    ):
        return info.node
    return fn


def _callee(
    ctx: FileContext, stack: Stack, node: cst.CSTNode
) -> tuple[str, cst.FunctionDef | None] | None:
    """The jitted function the call at the finding calls: a module-level name (``f(x)``
    for ``@jax.jit def f`` or ``f = jax.jit(g)``), or the function in ``jax.jit(g)(x)``."""
    calls = [n for n in (*stack, node) if isinstance(n, cst.Call)]
    if not calls:
        return None
    call = calls[-1]
    func = call.func
    if isinstance(func, cst.Name):
        for stmt in ctx.module.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == func.value:
                return func.value, None  # decorated or plain: used as it is
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == func.value
                        for t in small.targets
                    ):
                        return func.value, None  # the module attribute is the jitted object
        return None
    if isinstance(func, cst.Call):
        positional = [a for a in func.args if a.keyword is None and not a.star]
        if positional and isinstance(positional[0].value, cst.Name):
            name = positional[0].value.value
            for stmt in ctx.module.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
                    return name, stmt
    return None


def _flag_words(settings: dict[str, list]) -> list[str]:
    words = []
    for key in ("static_argnums", "static_argnames", "donate_argnums"):
        if settings.get(key):
            words += ["--" + key.replace("_", "-"), ",".join(map(str, settings[key]))]
    return words


def _command(ctx: FileContext, v: Violation, stack: Stack) -> str | None:
    decl = parse_declaration(v.rule.probe)
    placeholder = decl.placeholder
    rule_words = ["--rule", v.rule.code] if decl.probe is not None else []
    if placeholder is None:
        return render(decl.env, [*decl.words, *rule_words])
    if ctx.filename in ("-", "") or ctx.filename.startswith("<"):
        return None
    probe = decl.probe
    loop = "--loop" in decl.words
    fn: cst.FunctionDef | None = None
    if placeholder == CALLEE:
        found = _callee(ctx, stack, _where(v))
        if found is None:
            return None
        name, fn = found
    else:
        found_fn = _importable(stack)
        if found_fn is None:
            return None  # module-level code: no probe runs it
        name, fn = found_fn
        if probe == "compile" and _module_level_def(ctx, fn):
            root = _jitted_root(ctx, fn)
            if root is not fn:
                name, fn = root.name.value, root
    flags: list[str] = []
    if fn is not None and not loop and probe in JIT_PROBES:
        got = _jit_flags(ctx, fn)
        if got is None:
            return None
        wrapped, settings = got
        if wrapped:
            if probe == "recompile":
                settings.pop("donate_argnums", None)  # recompile takes no donation flags
            flags = _flag_words(settings)
            if probe == "bench" and "--jit" not in decl.words:
                flags = ["--jit", *flags]
    words: list[str] = []
    for word in decl.words:
        if word.startswith(FILE + ":"):
            words.append(f"{ctx.filename}:{name}")
            words.extend(flags)
        elif word == LINE:
            words.append(str(ctx.positions[v.node].start.line))
        else:
            words.append(word)
    return render(decl.env, [*words, *rule_words])
