"""Output formats: text, concise, json (ruff's schema), sarif (2.1.0), github."""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jaxlint import __version__
from jaxlint.diagnostics import Applicability, Diagnostic
from jaxlint.notebook import cell_of, display_name
from jaxlint.output.style import PLAIN, Style
from jaxlint.output.urls import repository_url, rule_url

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule

FORMATS = ("text", "concise", "json", "sarif", "github")
STATISTICS_FORMATS = ("text", "concise", "json")


@dataclass
class RenderOptions:
    unsafe_fixes: bool = False
    """Unsafe fixes are enabled for every file (``--unsafe-fixes``)."""
    sources: dict[str, str] | None = None
    """filename -> text, for showing the offending line."""
    unsafe_files: frozenset[str] = frozenset()
    """Files whose config enables unsafe fixes (``unsafe-fixes = true``)."""
    style: Style = PLAIN
    """Colours for ``text`` and ``concise`` (off unless on a terminal or asked for)."""
    docs_url: str | None = None
    """The configuration's ``docs-url``, for the links of ``json`` and ``sarif``
    (``$JAXLINT_DOCS_URL`` wins over it: ``urls.py``)."""

    def unsafe_for(self, filename: str) -> bool:
        return self.unsafe_fixes or filename in self.unsafe_files


def fix_marker(d: Diagnostic, unsafe: bool) -> str:
    """``"[*] "`` when ``--fix`` (with ``unsafe`` meaning ``--unsafe-fixes``) would fix ``d``."""
    if d.fix_applicability is Applicability.SAFE or (
        unsafe and d.fix_applicability is Applicability.UNSAFE
    ):
        return "[*] "
    return ""


def sort_key(d: Diagnostic) -> tuple[str, int, int, int, str]:
    """File, notebook cell (0 for a Python file), row, column, code."""
    return (d.filename, cell_of(d) or 0, d.start.row, d.start.column, d.code)


def render(fmt: str, diags: Sequence[Diagnostic], opts: RenderOptions) -> str:
    if fmt == "json":
        return render_json(diags, opts.docs_url)
    if fmt == "sarif":
        return render_sarif(diags, opts.docs_url)
    if fmt == "github":
        return render_github(diags)
    if fmt == "concise":
        return "".join(f"{_head(d, opts)}\n" for d in diags)
    return render_text(diags, opts)


def _head(d: Diagnostic, opts: RenderOptions) -> str:
    """``file:row:col: CODE [*] message``, coloured as ruff colours it when asked for."""
    st = opts.style
    marker = fix_marker(d, opts.unsafe_for(d.filename))
    shown = display_name(d)  # nb.ipynb:cell 3 for a notebook
    if not st.enabled:
        return f"{shown}:{d.start.row}:{d.start.column}: {d.code} {marker}{d.message}"
    colon = st.paint(":", "cyan")
    marker = f"{st.paint(marker.rstrip(), 'bold', 'cyan')} " if marker else ""
    return (
        f"{st.paint(shown, 'bold')}{colon}{d.start.row}{colon}{d.start.column}{colon}"
        f" {st.paint(d.code, 'bold', 'red')} {marker}{d.message}"
    )


def render_text(diags: Sequence[Diagnostic], opts: RenderOptions) -> str:
    from jaxlint.engine import split_lines

    out: list[str] = []
    line_cache: dict[str, list[str]] = {}
    st = opts.style
    for d in diags:
        out.append(_head(d, opts))
        shown = display_name(d)
        text = (opts.sources or {}).get(shown)
        if text is not None:
            lines = line_cache.get(shown)
            if lines is None:  # once per file (``setdefault`` would split it per finding)
                lines = line_cache[shown] = split_lines(text)
            if 0 < d.start.row <= len(lines):
                line = lines[d.start.row - 1].expandtabs(1)
                num = str(d.start.row)
                pad = " " * len(num)
                end_col = d.end.column if d.end.row == d.start.row else len(line) + 1
                width = max(1, end_col - d.start.column)
                bar = st.paint(f"{pad} |", "bold", "blue")
                out.append(bar)
                out.append(f"{st.paint(f'{num} |', 'bold', 'blue')} {line}")
                carets = st.paint(f"{'^' * width} {d.code}", "bold", "red")
                out.append(f"{bar} {' ' * (d.start.column - 1)}{carets}")
                out.append(bar)
        if d.fix_message and d.fix_applicability is not None:
            kind = {
                Applicability.SAFE: "safe fix",
                Applicability.UNSAFE: "unsafe fix"
                if opts.unsafe_for(d.filename)
                else "unsafe fix: needs --unsafe-fixes",
                Applicability.DISPLAY_ONLY: "suggestion, not applied automatically",
            }[d.fix_applicability]
            out.append(f"  {st.paint('= help', 'bold', 'cyan')}: {d.fix_message} ({kind})")
        if d.probe:
            out.append(f"  {st.paint('= verify', 'bold', 'cyan')}: {d.probe}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _json_fix(d: Diagnostic) -> dict[str, object] | None:
    if d.fix is not None:
        return d.fix.to_json()
    if d.fix_applicability is not None and d.fix_message is not None:
        # A fix was found but not materialised (or it turned out to need no edit).
        return {"applicability": d.fix_applicability.value, "edits": [], "message": d.fix_message}
    return None


def _json_item(d: Diagnostic, docs_url: str | None = None) -> dict[str, object]:
    """One diagnostic in ruff's ``--output-format json`` shape (same keys, same order), plus
    ``probe``: the finding's filled-in verify command (readers of ruff's schema ignore it)."""
    return {
        "cell": cell_of(d),
        "code": d.code,
        "end_location": {"column": d.end.column, "row": d.end.row},
        "filename": os.path.abspath(d.filename) if d.filename != "-" else "-",
        "fix": _json_fix(d),
        "location": {"column": d.start.column, "row": d.start.row},
        "message": d.message,
        "name": d.name,
        "noqa_row": d.start.row,
        "probe": d.probe,  # jaxlint's addition: the filled-in verify command (or null)
        "severity": d.severity,
        "url": rule_url(d.code, docs_url),
    }


def render_json(diags: Sequence[Diagnostic], docs_url: str | None = None) -> str:
    """``docs_url``: the configuration's ``docs-url`` (see ``urls.py``)."""
    return json.dumps([_json_item(d, docs_url) for d in diags], indent=2) + "\n"


# -- SARIF 2.1.0 -------------------------------------------------------------------------------

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"


def _sarif_uri(filename: str) -> str:
    """A relative URI for files under the current folder (what GitHub code scanning wants),
    an absolute ``file://`` URI otherwise; percent-encoded either way.

    The name's bytes are encoded, as the OS gives them: a name that is not UTF-8
    (held as surrogate escapes) becomes its own bytes, ``caf%E9.py``, not an error."""
    if filename == "-":
        return "stdin"
    path = os.path.abspath(filename)
    rel = os.path.relpath(path)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return Path(path).as_uri()
    return urllib.parse.quote(os.fsencode(rel.replace(os.sep, "/")), safe="/")


def _doc_section(docs: str, title: str) -> str:
    """The text of the ``## title`` section of a rule's markdown docs."""
    match = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", docs, re.M | re.S)
    return match.group(1).strip() if match else ""


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    match = re.match(r"(.+?\.)(\s|$)", flat)
    return match.group(1) if match else flat


def _sarif_rule(rule: type[Rule], docs_url: str | None = None) -> dict[str, object]:
    what = _doc_section(rule.docs, "What it does")
    why = _doc_section(rule.docs, "Why is this bad")
    full = "\n\n".join(part for part in (what, why) if part) or rule.name
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _first_sentence(what) if what else rule.name},
        "fullDescription": {"text": full},
        **({"helpUri": url} if (url := rule_url(rule.code, docs_url)) else {}),
        "help": {"text": rule.docs.strip(), "markdown": rule.docs.strip()},
        "defaultConfiguration": {"enabled": rule.default_enabled, "level": "error"},
        "properties": {
            "tags": ["jax"],
            "fix": rule.fix_availability,
            "probe": rule.probe,
        },
    }


def _sarif_region(start_row: int, start_col: int, end_row: int, end_col: int) -> dict[str, int]:
    start_row, start_col = max(start_row, 1), max(start_col, 1)
    if end_row < start_row or (end_row == start_row and end_col < start_col):
        end_row, end_col = start_row, start_col
    return {
        "startLine": start_row,
        "startColumn": start_col,
        "endLine": end_row,
        "endColumn": max(end_col, 1),
    }


def _sarif_result(d: Diagnostic, index: dict[str, int]) -> dict[str, object]:
    uri = _sarif_uri(d.filename)
    result: dict[str, object] = {
        "ruleId": d.code,
        "level": "error" if d.severity == "error" else "warning",
        "message": {"text": f"{d.code} {d.message}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": _sarif_region(d.start.row, d.start.column, d.end.row, d.end.column),
                }
            }
        ],
    }
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    properties: dict[str, object] = {}
    if d.probe:
        properties["probe"] = d.probe  # the filled-in verify command
    cell = cell_of(d)
    if cell is not None:  # rows count from the top of that notebook cell
        properties["cell"] = cell
    if properties:
        result["properties"] = properties
    if d.fix is not None and d.fix.edits:
        result["fixes"] = [
            {
                "description": {"text": d.fix.message},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": uri},
                        "replacements": [
                            {
                                "deletedRegion": _sarif_region(
                                    e.start.row, e.start.column, e.end.row, e.end.column
                                ),
                                "insertedContent": {"text": e.content},
                            }
                            for e in d.fix.edits
                        ],
                    }
                ],
            }
        ]
    return result


def render_sarif(diags: Sequence[Diagnostic], docs_url: str | None = None) -> str:
    """``docs_url``: the configuration's ``docs-url`` (see ``urls.py``)."""
    from jaxlint.rules import all_rules

    rules = list(all_rules())
    index = {r.code: i for i, r in enumerate(rules)}
    doc = {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": __version__,
                        **({"informationUri": info} if (info := repository_url(docs_url)) else {}),
                        "rules": [_sarif_rule(r, docs_url) for r in rules],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_sarif_result(d, index) for d in diags],
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


# -- GitHub Actions workflow commands ------------------------------------------------------------


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(diags: Sequence[Diagnostic]) -> str:
    """``::error title=...,file=...,line=...,col=...,endLine=...,endColumn=...::message``."""
    lines = []
    for d in diags:
        props = (
            f"title={_gh_escape(f'jaxlint ({d.code})', True)},"
            f"file={_gh_escape(d.filename.replace(os.sep, '/'), True)},"
            f"line={d.start.row},col={d.start.column},"
            f"endLine={d.end.row},endColumn={d.end.column}"
        )
        msg = f"{display_name(d)}:{d.start.row}:{d.start.column}: {d.code} {d.message}"
        if d.fix_message and d.fix_applicability is not None:
            msg += f"\n  help: {d.fix_message}"
        level = "error" if d.severity == "error" else "warning"
        lines.append(f"::{level} {props}::{_gh_escape(msg)}")
    return "\n".join(lines) + ("\n" if lines else "")


# -- --statistics ---------------------------------------------------------------------------------


def render_statistics(fmt: str, diags: Sequence[Diagnostic], opts: RenderOptions) -> str:
    """ruff's ``--statistics``: a count per code, most frequent first (``json``: a list)."""
    counts = Counter(d.code for d in diags)
    names = {d.code: d.name for d in diags}
    fixable_count = Counter(d.code for d in diags if fix_marker(d, opts.unsafe_for(d.filename)))
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if fmt == "json":
        items = [
            {
                "code": code,
                "name": names[code],
                "count": n,
                "fixable": fixable_count[code] > 0,
                "fixable_count": fixable_count[code],
            }
            for code, n in order
        ]
        return json.dumps(items, indent=2) + "\n"
    any_fixable = bool(fixable_count)
    width = max((len(str(n)) for n in counts.values()), default=1)
    code_width = max((len(code) for code in counts), default=1)
    lines = []
    for code, n in order:
        marker = ("[*] " if fixable_count[code] else "[ ] ") if any_fixable else ""
        lines.append(f"{n:>{width}}\t{code:<{code_width}}\t{marker}{names[code]}")
    return "\n".join(lines) + ("\n" if lines else "")
