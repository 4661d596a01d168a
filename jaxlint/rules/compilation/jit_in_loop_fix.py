"""The fix of JAX401 jit-in-loop: when the wrapper may move, and the wrapper built once
above the loop (the statement moved, or a new name bound to it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import Scope
from jaxlint.analysis.transforms import PARTIAL
from jaxlint.rules.base import FixFactory, FixOp, ReplaceNode
from jaxlint.rules.compilation.helpers import positional

if TYPE_CHECKING:
    from jaxlint.engine import FileContext
    from jaxlint.rules.compilation.jit_in_loop import JitInLoop


def clear_path(rule: JitInLoop, node: cst.CSTNode, hoist_to: cst.CSTNode) -> bool:
    """Between ``node`` and the loop it moves above, only blocks, loops and ``if``s:
    no ``try`` (an error would escape it) and no ``with`` (a context would be left)."""
    for _, parent in rule.index.ancestors(node):
        if parent is hoist_to:
            return True
        if isinstance(parent, (cst.Try, cst.TryStar, cst.With, cst.Match)):
            return False
    return False


def pure(rule: JitInLoop, wrapper: cst.Call) -> bool:
    """Evaluating the wrapper calls nothing but transforms and ``functools.partial``
    (lambda bodies are not evaluated)."""
    trace = rule.ctx.trace
    if trace.transform_of(wrapper.func) is None:
        return False  # a jit wrapper of the project (``maybe_jit(f)``): its body may do more
    lambdas = [n for n in rule.index.nodes_in(wrapper) if isinstance(n, cst.Lambda)]
    for node in rule.index.nodes_in(wrapper):
        if not isinstance(node, cst.Call):
            continue
        if any(rule.index.inside(node, lam) for lam in lambdas):
            continue
        if rule.ctx.model.call_name(node) in PARTIAL:
            continue
        if trace.transform_of(node.func) is not None and positional(node):
            continue
        return False
    return True


# -- source text helpers for fixes ---------------------------------------------------------


_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
_PHYSICAL_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _reindented(statement: str, old: str, new: str) -> str:
    """A statement's continuation lines moved from indentation ``old`` to ``new``.

    Inside brackets indentation means nothing to Python, so this is cosmetic; it is
    skipped where a line's leading space could be string content (a triple-quoted
    string, or a backslash continuation, which may be inside a string).
    """
    # physical lines as Python counts them: ``str.splitlines`` also breaks at a form
    # feed, U+2028 and other characters that may sit inside a string literal
    lines = [m.group() for m in _PHYSICAL_LINE_RE.finditer(statement) if m.group()]
    if len(lines) < 2 or '"""' in statement or "'''" in statement:
        return statement
    if any(line.rstrip("\r\n").endswith("\\") for line in lines[:-1]):
        return statement
    if not all(line.startswith(old) or not line.strip() for line in lines[1:]):
        return statement
    rest = [new + line[len(old) :] if line.strip() else line for line in lines[1:]]
    return lines[0] + "".join(rest)


class _Text:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.text = ctx.text
        # the line breaks positions count (``\r`` alone too: issue 28)
        self.starts = [0] + [m.end() for m in _LINE_BREAK_RE.finditer(self.text)]

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column

    def range(self, node: cst.CSTNode) -> tuple[int, int]:
        rng = self.ctx.positions[node]
        return (
            self.offset(rng.start.line, rng.start.column),
            self.offset(rng.end.line, rng.end.column),
        )

    def line_end(self, offset: int) -> int:
        """The offset of the end of the physical line containing ``offset`` (before its
        line break: ``\\n``, ``\\r\\n`` or ``\\r``)."""
        found = _LINE_BREAK_RE.search(self.text, offset)
        return len(self.text) if found is None else found.start()


def hoist_fix(
    rule: JitInLoop,
    wrapper: cst.Call,
    transform: str,
    fexpr: cst.BaseExpression,
    hoist_to: cst.For | cst.While,
    scope: Scope,
) -> FixFactory:
    ctx = rule.ctx
    src = _Text(ctx)
    loop_start, loop_end = src.range(hoist_to)
    indent = ctx.line_indent(hoist_to)
    newline = ctx.module.default_newline
    moved = _movable_statement(rule, wrapper, hoist_to, scope, src, loop_end)
    if moved is not None:
        remove_start, remove_end, replacement, hoisted = moved
        body = src.text[loop_start:remove_start] + replacement + src.text[remove_end:loop_end]
        new_text = f"{hoisted}{newline}{indent}{body}"
    else:
        name = _fresh_name(rule, fexpr, transform)
        w_start, w_end = src.range(wrapper)
        body = src.text[loop_start:w_start] + name + src.text[w_end:loop_end]
        new_text = f"{name} = {src.text[w_start:w_end]}{newline}{indent}{body}"

    def fix() -> list[FixOp]:
        return [ReplaceNode(hoist_to, new_text)]

    return fix


def _movable_statement(
    rule: JitInLoop,
    wrapper: cst.Call,
    hoist_to: cst.CSTNode,
    scope: Scope,
    src: _Text,
    loop_end: int,
) -> tuple[int, int, str, str] | None:
    """``name = jax.jit(f)`` alone on its line, ``name`` bound only there: the text to
    remove from the loop, what to leave there, and the text to put above the loop."""
    assign = rule.index.parent.get(id(wrapper))
    if not isinstance(assign, cst.Assign) or assign.value is not wrapper:
        return None
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    target = assign.targets[0].target
    line = rule.index.parent.get(id(assign))
    block = rule.index.parent.get(id(line))
    if (
        not isinstance(line, cst.SimpleStatementLine)
        or len(line.body) != 1
        or not isinstance(block, cst.IndentedBlock)
    ):
        return None
    if target.value in scope.global_names or target.value in scope.nonlocal_names:
        return None
    if len(scope.bindings.get(target.value, ())) != 1:
        return None
    start, _ = src.range(line)
    # the end of the statement's last line: ``name = jax.jit(\n    f,\n)`` spans several
    _, value_end = src.range(assign)
    end = src.line_end(value_end)
    if end >= loop_end:
        return None  # the last line of the loop: its comment lies outside the loop's text
    # comment lines directly above the statement move with it
    comments: list[str] = []
    for empty in reversed(line.leading_lines):
        if empty.comment is None:
            break
        comments.insert(0, empty.comment.value)
    line_no = rule.ctx.positions[line].start.line
    first_line = line_no - len(comments)
    remove_start = src.starts[first_line - 1]
    remove_end = end
    text = src.text
    if text.startswith("\r\n", remove_end):
        remove_end += 2
    elif remove_end < len(text) and text[remove_end] in "\r\n":
        remove_end += 1
    indent = rule.ctx.line_indent(hoist_to)
    newline = rule.ctx.module.default_newline
    statement = _reindented(text[start:end], rule.ctx.line_indent(line), indent)
    hoisted = "".join(f"{c}{newline}{indent}" for c in comments) + statement
    replacement = ""
    if len(block.body) == 1:
        replacement = f"{rule.ctx.line_indent(line)}pass{newline}"
    return remove_start, remove_end, replacement, hoisted


def _fresh_name(rule: JitInLoop, fexpr: cst.BaseExpression, transform: str) -> str:
    suffix = "pmap" if transform.endswith("pmap") else "jit"
    if isinstance(fexpr, cst.Call) and rule.ctx.model.call_name(fexpr) in PARTIAL:
        inner = positional(fexpr)
        fexpr = inner[0].value if inner else fexpr
    if isinstance(fexpr, cst.Name):
        base = fexpr.value.lstrip("_") or "fn"
    elif isinstance(fexpr, cst.Attribute):
        base = fexpr.attr.value.lstrip("_") or "fn"
    else:
        base = "fn"
    stem = f"{base}_{suffix}"
    taken: set[str] = rule.__dict__.setdefault("_taken_names", set())
    candidate = stem
    n = 2
    while candidate in rule.index.names or candidate in taken:
        candidate = f"{stem}_{n}"
        n += 1
    taken.add(candidate)
    return candidate
