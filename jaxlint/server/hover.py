"""Hover on a finding: the message, the rule's short docs, its fix and the filled-in
verify command (``Diagnostic.probe``, filled by the engine: ``jaxlint/verify.py``)."""

from __future__ import annotations

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


def hover_markdown(diagnostics: list[Diagnostic], url_for) -> str | None:
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
            lines += ["", f"Verify at runtime: `{diag.probe}`"]
        url = url_for(diag.code) if rule is not None else None
        if url:
            lines += ["", f"[{diag.code} documentation]({url})"]
        parts.append("\n".join(lines))
    return "\n\n---\n\n".join(parts) if parts else None
