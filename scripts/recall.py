#!/usr/bin/env python3
"""Recall and precision of jaxlint on the labelled corpus in ``tests/recall/cases``.

    python scripts/recall.py                    # table per family and overall
    python scripts/recall.py --misses           # also list every miss and false alarm
    python scripts/recall.py --json out.json    # also write the counts as JSON
    python scripts/recall.py --cases DIR        # another corpus in the same format

The corpus format (docs/precision/recall.md): ``<cases>/<family>/<name>.py``, where
family is one of ``FAMILIES``. Each file is a small self-contained program. A line
where a finding is expected ends with a comment ``# expect: JAX101`` (several codes:
``# expect: JAX101,JAX103``). A file with no expect comment is a negative case.

jaxlint runs once, ``--select ALL`` with no configuration, on a temporary copy of the
corpus (so that the files are not test code by their path, and no project config
applies). Scoring, on distinct (file, line, code) triples:

- TP: an expected (file, line, code) that jaxlint reports;
- FN: an expected (file, line, code) that jaxlint does not report;
- FP: a reported (file, line, code) whose line does not expect that code.

Exit status: 0 when the run and the scoring worked (whatever the numbers), 2 when
jaxlint or the corpus could not be read.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "recall" / "cases"
FAMILIES = (
    "host_device",
    "control_flow",
    "prng",
    "compilation",
    "sharding",
    "array_semantics",
    "api_drift",
)
_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>[A-Za-z0-9_ ,]+?)\s*$")
_CODE = re.compile(r"^[A-Z]+[0-9]+$")

Triple = tuple[str, int, str]


class CorpusError(Exception):
    """The corpus or the jaxlint run could not be read."""


def expected_codes(text: str, name: str = "<case>") -> dict[int, set[str]]:
    """``{line: {codes}}`` from the ``# expect: CODE[,CODE]`` comments of one file.

    Comments are read with ``tokenize``, so a ``# expect:`` inside a string is not one.
    """
    out: dict[int, set[str]] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        raise CorpusError(f"{name}: cannot tokenize: {exc}") from exc
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        m = _EXPECT.search(tok.string)
        if not m:
            if "expect:" in tok.string:
                raise CorpusError(f"{name}:{tok.start[0]}: malformed expect comment {tok.string!r}")
            continue
        codes = {c.strip() for c in m.group("codes").split(",") if c.strip()}
        bad = sorted(c for c in codes if not _CODE.match(c))
        if bad or not codes:
            raise CorpusError(f"{name}:{tok.start[0]}: bad code(s) in {tok.string!r}")
        out.setdefault(tok.start[0], set()).update(codes)
    return out


def load_corpus(cases: Path) -> dict[str, dict[int, set[str]]]:
    """``{relative path: {line: codes}}`` for every case file (family checked)."""
    if not cases.is_dir():
        raise CorpusError(f"{cases}: not a folder")
    corpus: dict[str, dict[int, set[str]]] = {}
    for path in sorted(cases.rglob("*.py")):
        rel = path.relative_to(cases).as_posix()
        family = rel.split("/", 1)[0]
        if "/" not in rel or family not in FAMILIES:
            raise CorpusError(f"{rel}: a case must be in one of {', '.join(FAMILIES)}")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CorpusError(f"{rel}: cannot read: {exc}") from exc
        corpus[rel] = expected_codes(text, rel)
    if not corpus:
        raise CorpusError(f"{cases}: no case files")
    return corpus


def run_jaxlint(cases: Path, extra: list[str] | None = None) -> set[Triple]:
    """Distinct (relative path, line, code) findings of ``--select ALL`` on a copy."""
    with tempfile.TemporaryDirectory(prefix="jaxlint-recall-") as tmp:
        copy = Path(tmp) / "corpus"
        shutil.copytree(cases, copy, ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        cmd = [sys.executable, "-m", "jaxlint", "check", "--select", "ALL", "--no-cache"]
        cmd += ["-j", "1", "--exit-zero", "--output-format", "json", *(extra or []), "."]
        run = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise CorpusError(f"jaxlint exited {run.returncode}: {run.stderr.strip()[-2000:]}")
        try:
            findings = json.loads(run.stdout)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"jaxlint printed no JSON: {exc}") from exc
        found: set[Triple] = set()
        for f in findings:
            rel = Path(f["filename"]).resolve().relative_to(copy.resolve()).as_posix()
            found.add((rel, int(f["location"]["row"]), f["code"]))
        return found


@dataclass
class Score:
    tp: int = 0
    fn: int = 0
    fp: int = 0
    misses: list[Triple] = field(default_factory=list)
    false_alarms: list[Triple] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def as_dict(self) -> dict:
        return {
            "tp": self.tp,
            "fn": self.fn,
            "fp": self.fp,
            "precision": self.precision,
            "recall": self.recall,
        }


def score(corpus: dict[str, dict[int, set[str]]], found: set[Triple]) -> dict[str, Score]:
    """Per family and ``"overall"``."""
    scores = {family: Score() for family in FAMILIES}
    scores["overall"] = Score()
    expected = {
        (rel, line, code)
        for rel, lines in corpus.items()
        for line, codes in lines.items()
        for code in codes
    }
    for triple in sorted(expected | found):
        rel = triple[0]
        if rel not in corpus:
            continue  # a file jaxlint saw that is not a case (none: the copy is the corpus)
        family = rel.split("/", 1)[0]
        for s in (scores[family], scores["overall"]):
            if triple in expected and triple in found:
                s.tp += 1
            elif triple in expected:
                s.fn += 1
                s.misses.append(triple)
            else:
                s.fp += 1
                s.false_alarms.append(triple)
    return scores


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def table(scores: dict[str, Score], files: dict[str, int]) -> str:
    rows = ["| family | files | expected | TP | FN | FP | precision | recall |"]
    rows.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for family, s in scores.items():
        n = files.get(family, sum(files.values()) if family == "overall" else 0)
        rows.append(
            f"| {family} | {n} | {s.tp + s.fn} | {s.tp} | {s.fn} | {s.fp} | "
            f"{_ratio(s.precision)} | {_ratio(s.recall)} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES, help="the corpus folder")
    parser.add_argument("--json", type=Path, help="write the counts (and misses) as JSON here")
    parser.add_argument("--misses", action="store_true", help="list every FN and FP")
    args = parser.parse_args(argv)
    try:
        corpus = load_corpus(args.cases)
        found = run_jaxlint(args.cases)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    scores = score(corpus, found)
    files: dict[str, int] = {}
    for rel in corpus:
        family = rel.split("/", 1)[0]
        files[family] = files.get(family, 0) + 1
    print(table(scores, files))
    if args.misses:
        for label, attr in (("missed (FN)", "misses"), ("false alarm (FP)", "false_alarms")):
            for rel, line, code in getattr(scores["overall"], attr):
                print(f"{label}: {rel}:{line}: {code}")
    if args.json:
        data = {
            name: {**s.as_dict(), "files": files.get(name, len(corpus) if name == "overall" else 0)}
            for name, s in scores.items()
        }
        data["overall"]["misses"] = [list(t) for t in scores["overall"].misses]
        data["overall"]["false_alarms"] = [list(t) for t in scores["overall"].false_alarms]
        args.json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
