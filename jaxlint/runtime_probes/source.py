"""``jaxlint probe source TOPIC``: where the installed JAX says something about TOPIC.

It searches the source files of the installed ``jax`` package (code, comments and
docstrings) and the documentation the wheel ships (its ``METADATA``: the README), or
a checkout given with ``--jax-root DIR`` (``.py``, ``.md``, ``.rst``, ``.txt`` and
``.ipynb`` files), and prints the best matching files with their best lines. JAX is
located, never imported: none of your code and none of JAX's runs.

Ranking: a file scores by how many of the topic's words it contains (each counted
once), with more for the whole topic as one phrase, for a word in the file's path,
and for a ``def``/``class`` line that names a word; lines rank the same way.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_EXPECTATION,
    EXIT_OK,
    Report,
    count,
    error_text,
    fail,
    make_parser,
    run_probe,
    status_line,
    usage_error,
)

SUMMARY = "Search the installed JAX's source, docstrings and docs for a topic."
DETAILS = """\
TOPIC is one or more words (`donate_argnums`, `explain cache misses`, `KeyReuseError`).
The files of the installed jax package (.py: code, comments and docstrings) and its
wheel's METADATA (the README) are searched, or a JAX checkout with --jax-root DIR
(.py, .md, .rst, .txt, .ipynb). A file ranks by how many of the topic's words it holds
(each once), plus the whole topic as one phrase (`_` read as a space), a word in its path, and a def/class
line that names a word. The report lists the best files (--limit) and, for each, its
best lines with their numbers (--lines). Words are matched case-insensitively, as
whole identifiers or their parts (`donate` matches `donate_argnums`). JAX is found,
not imported: nothing is executed. Exit code 1 when nothing matches."""
EXAMPLES = """\
  jaxlint probe source donate_argnums
  jaxlint probe source "explain cache misses" --format text
  jaxlint probe source KeyReuseError --jax-root ~/src/jax --limit 5"""
TRUST = "This probe reads files only; it runs no code."

DOC_EXTENSIONS = (".md", ".rst", ".txt", ".ipynb")
SKIP_DIRS = {"__pycache__", ".git", "node_modules", "build", "dist", ".venv"}
MAX_FILE_BYTES = 2_000_000


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("source", SUMMARY, DETAILS, EXAMPLES, trust=TRUST)
    parser.add_argument("topic", nargs="+", help="the words to look for")
    parser.add_argument(
        "--jax-root",
        metavar="DIR",
        help="search this JAX checkout instead of the installed jax package",
    )
    parser.add_argument(
        "--limit", type=count(1), default=10, metavar="N", help="files to list (default 10)"
    )
    parser.add_argument(
        "--lines", type=count(1), default=5, metavar="N", help="best lines per file (default 5)"
    )
    return parser


def installed_jax() -> tuple[str, list[str]]:
    """The installed jax package folder and its wheel's METADATA, without importing it."""
    try:
        spec = importlib.util.find_spec("jax")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        fail(
            EXIT_ERROR,
            "JaxNotInstalled",
            f"no jax package is importable in this Python ({sys.executable})",
            hint="install jax, or pass --jax-root DIR (a JAX checkout)",
        )
    root = os.path.dirname(spec.origin)
    site = os.path.dirname(root)
    docs = sorted(glob.glob(os.path.join(site, "jax-*.dist-info", "METADATA")))
    return root, docs


def files_to_search(root: str, checkout: bool) -> list[str]:
    exts = (".py", *DOC_EXTENSIONS) if checkout else (".py",)
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(exts)]
    return found


def words_of(topic: Sequence[str]) -> list[str]:
    words: list[str] = []
    for part in topic:
        for w in re.findall(r"[A-Za-z0-9_]+", part):
            w = w.lower()
            if len(w) >= 2 and w not in words:
                words.append(w)
    return words


_DEF = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+(\w+)")


def _line_score(lower: str, line: str, words: list[str], phrase: str) -> int:
    score = sum(10 for w in words if w in lower)
    if not score:
        return 0
    if phrase and phrase in lower.replace("_", " "):
        score += 15
    m = _DEF.match(line)
    if m and any(w in m.group(1).lower() for w in words):
        score += 8
    return score


def search_file(
    path: str, label: str, words: list[str], phrase: str, n_lines: int
) -> dict[str, Any] | None:
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    lower = text.lower()
    present = [w for w in words if w in lower]
    if not present:
        return None
    score = 100 * len(present)
    if phrase and phrase in lower.replace("_", " "):
        score += 60
    label_lower = label.lower()
    score += sum(30 for w in words if w in label_lower)
    scored = []
    for number, line in enumerate(text.splitlines(), 1):
        s = _line_score(line.lower(), line, words, phrase)
        if s:
            scored.append((s, number, line))
    if not scored:
        return None
    best_line = max(s for s, _, _ in scored)
    score += best_line
    top = sorted(scored, key=lambda t: (-t[0], t[1]))[:n_lines]
    return {
        "file": label,
        "path": path,
        "score": score,
        "words_found": present,
        "matching_lines": len(scored),
        "lines": [
            {"line": number, "text": line.strip()[:200]}
            for _, number, line in sorted(top, key=lambda t: t[1])
        ],
    }


def run(args: argparse.Namespace, report: Report) -> int:
    if args.limit < 1 or args.lines < 1:
        usage_error("--limit and --lines must be at least 1")
    words = words_of(args.topic)
    if not words:
        usage_error(f"no word of two or more letters in the topic {' '.join(args.topic)!r}")
    report["topic"] = " ".join(args.topic)
    report["words"] = words
    if args.jax_root:
        root = os.path.abspath(os.path.expanduser(args.jax_root))
        if not os.path.isdir(root):
            fail(EXIT_ERROR, "UsageError", f"--jax-root {args.jax_root}: not a folder")
        files, base, extra = files_to_search(root, True), root, []
        report["searched"] = {"root": root, "kind": "checkout (--jax-root)"}
    else:
        root, extra = installed_jax()
        base = os.path.dirname(root)
        files = files_to_search(root, False)
        report["searched"] = {
            "root": root,
            "kind": "installed jax package",
            "docs": extra,
        }
    phrase = " ".join(w for w in words) if len(words) > 1 else ""
    results = []
    for path in [*files, *extra]:
        label = os.path.relpath(path, base) if path.startswith(base) else path
        found = search_file(path, label, words, phrase, args.lines)
        if found is not None:
            results.append(found)
    report["searched"]["files"] = len(files) + len(extra)
    results.sort(key=lambda r: (-r["score"], r["file"]))
    report["matching_files"] = len(results)
    report["results"] = results[: args.limit]
    if not results:
        report["error"] = {
            "class": "NoMatches",
            "message": f"no file under {root} mentions {', '.join(words)}",
        }
        return EXIT_EXPECTATION
    return EXIT_OK


def render_text(report: Report) -> str:
    lines = [f"jaxlint probe source {report.get('topic', '')}".rstrip(), status_line(report)]
    searched = report.get("searched")
    if searched:
        lines.append(
            f"searched {searched.get('files', 0)} files of the {searched['kind']}: {searched['root']}"
        )
    if "matching_files" in report:
        lines.append(f"files that mention a word of the topic: {report['matching_files']}")
    for r in report.get("results", []):
        lines.append(f"{r['file']}  (score {r['score']}; words: {', '.join(r['words_found'])})")
        for item in r["lines"]:
            lines.append(f"  {item['line']:>6}: {item['text']}")
    if report.get("error"):
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("source", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("source", None, main))
