"""Hover on a finding: the message, the rule's short docs, its fix and the verify command
with the file and the enclosing function filled in."""

from __future__ import annotations

import ast
import os
import warnings
from pathlib import Path

from jaxlint.diagnostics import Applicability, Diagnostic

_SHORT_DOCS_LIMIT = 900


def short_docs(docs: str) -> str:
    """The rule's "What it does" section, without its heading, cut at a paragraph."""
    marker = "## What it does"
    body = docs.split(marker, 1)[1] if marker in docs else docs
    body = body.split("\n## ", 1)[0].strip()
    if len(body) <= _SHORT_DOCS_LIMIT:
        return body
    cut = body.rfind("\n\n", 0, _SHORT_DOCS_LIMIT)
    return body[: cut if cut > 0 else _SHORT_DOCS_LIMIT].rstrip() + "\n\n..."


def enclosing_function(text: str, row: int) -> str | None:
    """``Class.method`` or ``function``: the outermost function around ``row`` that a
    probe can load (a function nested in a function is not reachable by name)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: list[str] = []
    body = tree.body
    while True:
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if start <= row <= (node.end_lineno or node.lineno):
                names.append(node.name)
                if isinstance(node, ast.ClassDef):
                    body = node.body
                    break
                return ".".join(names)
        else:
            return None


def verify_command(probe: str, path: Path | None, function: str | None) -> str:
    """``jaxlint probe compile FILE.py:FUNC`` with this file and function filled in."""
    command = probe
    if path is not None:
        shown = os.path.relpath(path) if path.is_absolute() else str(path)
        if shown.startswith(".." + os.sep):
            shown = str(path)
        command = command.replace("FILE.py", shown)
    if function is not None:
        command = command.replace("FUNC", function)
    return command


def hover_markdown(
    diagnostics: list[Diagnostic], text: str, path: Path | None, url_for
) -> str | None:
    """Markdown for the findings under the cursor, or None."""
    from jaxlint.rules import find_rule

    parts = []
    for diag in diagnostics:
        rule = find_rule(diag.code)
        lines = [f"**{diag.code}** `{diag.name}`: {diag.message}"]
        if rule is not None:
            lines += ["", short_docs(rule.docs)]
        if diag.fix_message and diag.fix_applicability is not None:
            kind = {
                Applicability.SAFE: "safe fix",
                Applicability.UNSAFE: "unsafe fix",
                Applicability.DISPLAY_ONLY: "suggestion, not applied automatically",
            }[diag.fix_applicability]
            lines += ["", f"Fix: {diag.fix_message} ({kind})"]
        if diag.probe:
            function = enclosing_function(text, diag.start.row)
            lines += ["", f"Verify at runtime: `{verify_command(diag.probe, path, function)}`"]
        url = url_for(diag.code) if rule is not None else None
        if url:
            lines += ["", f"[{diag.code} documentation]({url})"]
        parts.append("\n".join(lines))
    return "\n\n---\n\n".join(parts) if parts else None
