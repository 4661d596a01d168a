#!/usr/bin/env python3
"""The real-world gate (``make realworld``): jaxlint on a copy of the whole pinned corpus.

    python scripts/realworld.py                    # every pinned project (downloads once)
    python scripts/realworld.py flax optax         # chosen projects
    python scripts/realworld.py --update-docs      # also rewrite the table in docs/precision.md

Steps, each on a fresh copy of the projects' Python files in a temporary folder:

1. ``jaxlint check --select ALL --no-cache`` (JSON): the findings per code per
   1,000 lines. Then the same check filling a fresh cache, and once more from
   the cache: all three outputs must be identical.
2. ``jaxlint check --fix --unsafe-fixes --select ALL --no-cache``.
3. Every file the fixes changed must still byte-compile (``compile()`` on this
   Python), if it compiled before.
4. The same fix run again must change no file.

The gate fails (exit 1) on any crash: an exit code of 2, an ``error:`` line on
stderr (internal errors, a rule that raised, a worker that died), a fixed file
that no longer compiles, a second fix run that changes something, or cached
output that differs from uncached output. Fix warnings (a fix dropped because
its output would not parse, a fix loop that did not converge) are listed but do
not fail the gate: they are jaxlint protecting the code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from fetch_corpus import PINNED, cache_dir, fetch  # noqa: E402

DOCS = ROOT / "docs" / "precision.md"
START = "<!-- realworld:start (written by scripts/realworld.py --update-docs) -->"
END = "<!-- realworld:end -->"


def copy_python_files(src: Path, dest: Path) -> int:
    count = 0
    for path in sorted(src.rglob("*.py")):
        if not path.is_file() or path.is_symlink():
            continue
        target = dest / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        count += 1
    return count


def digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*.py"))
        if p.is_file()
    }


def compiles(path: Path) -> str | None:
    """``None`` if the file byte-compiles, else the error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def run_jaxlint(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "jaxlint", "check", *args]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, check=False)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


def rule_names() -> dict[str, tuple[str, bool]]:
    from jaxlint.rules import all_rules

    return {r.code: (r.name, r.default_enabled) for r in all_rules()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", help=f"names from: {', '.join(PINNED)}")
    parser.add_argument("--jobs", default="0", help="jaxlint -j (default 0: all cores)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument(
        "--update-docs", action="store_true", help="rewrite the table in docs/precision.md"
    )
    args = parser.parse_args(argv)
    names = args.projects or list(PINNED)
    unknown = [n for n in names if n not in PINNED]
    if unknown:
        parser.error(f"unknown project(s): {', '.join(unknown)}")

    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="jaxlint-realworld-"))
    failures: list[str] = []
    try:
        corpus = work / "corpus"
        files_per_project: dict[str, int] = {}
        lines_per_project: dict[str, int] = {}
        for name in names:
            src = fetch(name, PINNED[name], cache_dir())
            dest = corpus / f"{name}-{PINNED[name]}"
            files_per_project[name] = copy_python_files(src, dest)
            lines_per_project[name] = sum(
                p.read_bytes().count(b"\n") for p in dest.rglob("*.py") if p.is_file()
            )
        total_lines = sum(lines_per_project.values())
        total_files = sum(files_per_project.values())
        print(f"corpus: {total_files} files, {total_lines} lines, {len(names)} projects in {work}")
        jobs = ["-j", str(args.jobs)]
        common = ["--select", "ALL", "--output-format", "json", "--exit-zero", *jobs, "corpus"]

        # 1. check, and the cache gives the same answer
        step = time.perf_counter()
        check = run_jaxlint(["--no-cache", *common], work)
        print(f"check: exit {check.returncode} in {time.perf_counter() - step:.0f} s")
        if check.returncode == 2 or error_lines(check.stderr):
            failures.append("check: " + "; ".join(error_lines(check.stderr)[:20]))
        findings = json.loads(check.stdout or "[]")
        cache = ["--cache-dir", str(work / "cache")]
        cold = run_jaxlint([*cache, *common], work)
        warm = run_jaxlint([*cache, *common], work)
        for label, run in (("cold cache", cold), ("warm cache", warm)):
            if run.stdout != check.stdout:
                failures.append(f"{label}: output differs from the uncached check")
            if run.returncode == 2 or error_lines(run.stderr):
                failures.append(f"{label}: " + "; ".join(error_lines(run.stderr)[:20]))
        same = cold.stdout == check.stdout and warm.stdout == check.stdout
        print(
            f"cache: cold and warm outputs {'identical to' if same else 'DIFFER from'} --no-cache"
        )

        # 2. fix
        before = digests(corpus)
        compiled_before = {rel: compiles(corpus / rel) is None for rel in before}
        fix_args = ["--fix", "--unsafe-fixes", "--select", "ALL", "--no-cache", "--exit-zero"]
        step = time.perf_counter()
        fix = run_jaxlint([*fix_args, "--output-format", "concise", *jobs, "corpus"], work)
        print(f"fix: exit {fix.returncode} in {time.perf_counter() - step:.0f} s")
        if fix.returncode == 2 or error_lines(fix.stderr):
            failures.append("fix: " + "; ".join(error_lines(fix.stderr)[:20]))
        after = digests(corpus)
        changed = sorted(rel for rel in after if before.get(rel) != after[rel])
        print(f"fix: {len(changed)} files changed")

        # 3. every fixed file still compiles
        broken = []
        for rel in changed:
            error = compiles(corpus / rel)
            if error is not None and compiled_before.get(rel, False):
                broken.append(f"{rel}: {error}")
        if broken:
            failures.append(
                f"{len(broken)} fixed file(s) no longer compile: " + "; ".join(broken[:10])
            )
        print(f"compile: {len(changed) - len(broken)}/{len(changed)} fixed files compile")

        # 4. a second fix run changes nothing
        again = run_jaxlint([*fix_args, "--output-format", "concise", *jobs, "corpus"], work)
        if again.returncode == 2 or error_lines(again.stderr):
            failures.append("second fix: " + "; ".join(error_lines(again.stderr)[:20]))
        second = digests(corpus)
        moved = sorted(rel for rel in second if after.get(rel) != second[rel])
        if moved:
            failures.append(f"second fix run changed {len(moved)} file(s): {', '.join(moved[:10])}")
        print(f"idempotence: second fix run changed {len(moved)} files")

        fix_warnings = warning_lines(fix.stderr)
        table = findings_table(findings, total_lines, names, lines_per_project)
        summary = {
            "projects": {n: PINNED[n] for n in names},
            "files": total_files,
            "lines": total_lines,
            "findings": len(findings),
            "fixed_files": len(changed),
            "fix_warnings": len(fix_warnings),
            "failures": failures,
            "seconds": round(time.perf_counter() - started),
        }
        print()
        print(table)
        if fix_warnings:
            print(f"fix warnings ({len(fix_warnings)}; not failures):")
            for line in fix_warnings[:30]:
                print("  " + line)
        print(json.dumps(summary, indent=2))
        if args.update_docs:
            update_docs(table, summary, names)
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("REAL-WORLD GATE FAILED:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    print("real-world gate passed: 0 crashes, 0 internal errors, fixed files compile, idempotent")
    return 0


def findings_table(
    findings: list[dict], total_lines: int, names: list[str], lines_per_project: dict[str, int]
) -> str:
    known = rule_names()
    per_code = Counter(f["code"] for f in findings)
    per_code_project: dict[str, Counter[str]] = {}
    for f in findings:
        parts = Path(f["filename"]).parts
        project = parts[parts.index("corpus") + 1] if "corpus" in parts[:-1] else "?"
        per_code_project.setdefault(f["code"], Counter())[project] += 1
    rows = [
        "| Code | Name | Default | Findings | Per 1,000 lines | Projects (most findings first) |",
        "|---|---|---|---|---|---|",
    ]
    for code in sorted(set(per_code) | set(known)):
        name, default = known.get(code, ("parse-error" if code == "JAX000" else "?", True))
        count = per_code.get(code, 0)
        projects = per_code_project.get(code, Counter())
        spread = ", ".join(f"{p.rsplit('-', 1)[0]} {n}" for p, n in projects.most_common(4))
        if len(projects) > 4:
            spread += f", +{len(projects) - 4} more"
        rows.append(
            f"| {code} | {name} | {'on' if default else 'off'} | {count} |"
            f" {count * 1000 / total_lines:.3f} | {spread} |"
        )
    rows.append(f"| all | | | {len(findings)} | {len(findings) * 1000 / total_lines:.3f} | |")
    return "\n".join(rows)


def update_docs(table: str, summary: dict, names: list[str]) -> None:
    versions = ", ".join(f"{n} {summary['projects'][n]}" for n in names)
    section = "\n".join(
        [
            START,
            "## Findings per 1,000 lines on the whole corpus (the real-world gate)",
            "",
            f"`make realworld` (`scripts/realworld.py --update-docs`): {summary['files']} files,"
            f" {summary['lines']} lines of {versions}; every rule (`--select ALL`), target"
            " JAX from the installed jax. The per-family verdict tables are in"
            " [docs/precision/](precision/).",
            "",
            table,
            "",
            f"Gate: {len(summary['failures'])} failures; the unsafe fix run changed"
            f" {summary['fixed_files']} files, all of which still compile, and a second run"
            f" changed none; {summary['fix_warnings']} fix warnings (fixes dropped because"
            " their output would not parse, or loops that did not converge).",
            END,
        ]
    )
    text = DOCS.read_text() if DOCS.exists() else "# Precision on real code\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        text = head + section + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    DOCS.write_text(text)
    print(f"updated {DOCS}")


if __name__ == "__main__":
    sys.exit(main())
