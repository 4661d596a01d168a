"""Output formats: text, concise, json (ruff's schema), sarif (2.1.0), github."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from jaxlint import __version__
from jaxlint.diagnostics import Applicability, Diagnostic

FORMATS = ("text", "concise", "json", "sarif", "github")


@dataclass
class RenderOptions:
    unsafe_fixes: bool = False
    sources: dict[str, str] | None = None
    """filename -> text, for showing the offending line."""


def fix_marker(d: Diagnostic, unsafe: bool) -> str:
    if d.fix_applicability is Applicability.SAFE or (
        unsafe and d.fix_applicability is Applicability.UNSAFE
    ):
        return "[*] "
    return ""


def render(fmt: str, diags: Sequence[Diagnostic], opts: RenderOptions) -> str:
    if fmt == "json":
        return render_json(diags)
    if fmt == "sarif":
        return render_sarif(diags)
    if fmt == "github":
        return render_github(diags)
    if fmt == "concise":
        return "".join(
            f"{d.filename}:{d.start.row}:{d.start.column}: {d.code} "
            f"{fix_marker(d, opts.unsafe_fixes)}{d.message}\n"
            for d in diags
        )
    return render_text(diags, opts)


def render_text(diags: Sequence[Diagnostic], opts: RenderOptions) -> str:
    from jaxlint.engine import split_lines

    out: list[str] = []
    line_cache: dict[str, list[str]] = {}
    for d in diags:
        out.append(
            f"{d.filename}:{d.start.row}:{d.start.column}: {d.code} "
            f"{fix_marker(d, opts.unsafe_fixes)}{d.message}"
        )
        text = (opts.sources or {}).get(d.filename)
        if text is not None:
            lines = line_cache.setdefault(d.filename, split_lines(text))
            if 0 < d.start.row <= len(lines):
                line = lines[d.start.row - 1].expandtabs(1)
                num = str(d.start.row)
                pad = " " * len(num)
                end_col = d.end.column if d.end.row == d.start.row else len(line) + 1
                width = max(1, end_col - d.start.column)
                out.append(f"{pad} |")
                out.append(f"{num} | {line}")
                out.append(f"{pad} | {' ' * (d.start.column - 1)}{'^' * width} {d.code}")
                out.append(f"{pad} |")
        if d.fix_message and d.fix_applicability is not None:
            kind = {
                Applicability.SAFE: "safe fix",
                Applicability.UNSAFE: "unsafe fix: needs --unsafe-fixes",
                Applicability.DISPLAY_ONLY: "suggestion, not applied automatically",
            }[d.fix_applicability]
            out.append(f"  = help: {d.fix_message} ({kind})")
        if d.probe:
            out.append(f"  = verify: {d.probe}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _json_item(d: Diagnostic) -> dict[str, object]:
    fix = None
    if d.fix is not None:
        fix = d.fix.to_json()
    elif d.fix_applicability is not None and d.fix_message is not None:
        fix = {"applicability": d.fix_applicability.value, "message": d.fix_message, "edits": []}
    return {
        "cell": None,
        "code": d.code,
        "end_location": {"column": d.end.column, "row": d.end.row},
        "filename": os.path.abspath(d.filename) if d.filename != "-" else "-",
        "fix": fix,
        "location": {"column": d.start.column, "row": d.start.row},
        "message": d.message,
        "noqa_row": d.start.row,
        "url": None,
    }


def render_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([_json_item(d) for d in diags], indent=2) + "\n"


def _sarif_uri(filename: str) -> str:
    if filename == "-":
        return "stdin"
    rel = os.path.relpath(os.path.abspath(filename))
    return (
        rel.replace(os.sep, "/")
        if not rel.startswith("..")
        else "file://" + os.path.abspath(filename)
    )


def render_sarif(diags: Sequence[Diagnostic]) -> str:
    from jaxlint.rules import all_rules

    rules = list(all_rules())
    index = {r.code: i for i, r in enumerate(rules)}
    rule_objs = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.message.split(";")[0].replace("`", "")},
            "fullDescription": {
                "text": r.docs.split("## Why is this bad")[0].replace("## What it does", "").strip()
            },
            "help": {"text": r.docs, "markdown": r.docs},
            "defaultConfiguration": {"level": "error" if r.default_enabled else "none"},
            "properties": {"fix": r.fix_availability, "probe": r.probe},
        }
        for r in rules
    ]
    results = []
    for d in diags:
        region = {
            "startLine": d.start.row,
            "startColumn": d.start.column,
            "endLine": d.end.row,
            "endColumn": max(d.end.column, d.start.column)
            if d.end.row == d.start.row
            else d.end.column,
        }
        result: dict[str, object] = {
            "ruleId": d.code,
            "level": "error",
            "message": {"text": f"{d.code} {d.message}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _sarif_uri(d.filename)},
                        "region": region,
                    }
                }
            ],
        }
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        if d.fix is not None and d.fix.edits:
            result["fixes"] = [
                {
                    "description": {"text": d.fix.message},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": _sarif_uri(d.filename)},
                            "replacements": [
                                {
                                    "deletedRegion": {
                                        "startLine": e.start.row,
                                        "startColumn": e.start.column,
                                        "endLine": e.end.row,
                                        "endColumn": e.end.column,
                                    },
                                    "insertedContent": {"text": e.content},
                                }
                                for e in d.fix.edits
                            ],
                        }
                    ],
                }
            ]
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/jaxlint/",
                        "rules": rule_objs,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(diags: Sequence[Diagnostic]) -> str:
    lines = []
    for d in diags:
        props = (
            f"title={_gh_escape(f'jaxlint ({d.code})', True)},"
            f"file={_gh_escape(d.filename, True)},"
            f"line={d.start.row},col={d.start.column},"
            f"endLine={d.end.row},endColumn={d.end.column}"
        )
        msg = _gh_escape(f"{d.filename}:{d.start.row}:{d.start.column}: {d.code} {d.message}")
        lines.append(f"::error {props}::{msg}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_statistics(diags: Sequence[Diagnostic], unsafe: bool) -> str:
    counts = Counter(d.code for d in diags)
    names = {d.code: d.name for d in diags}
    fixable = {d.code for d in diags if fix_marker(d, unsafe)}
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = [
        f"{n:>{width}}\t{code}\t{'[*] ' if code in fixable else ''}{names[code]}"
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    return "\n".join(lines) + ("\n" if lines else "")
