#!/usr/bin/env python3
"""The real-bug corpus (``make bugs``): jaxlint on bug-fix commits of the tuning projects.

    python scripts/bugs.py                       # every bug of tests/bugs/bugs.toml
    python scripts/bugs.py --only google/flax    # one repository (or several, comma-separated)
    python scripts/bugs.py --update-docs         # also rewrite the table in docs/precision/bugs.md
    python scripts/bugs.py --verify-default      # also run the default rules separately, and
                                                 # check they equal the ALL run filtered to them

``tests/bugs/bugs.toml`` holds metadata only (repository, fix commit, parent commit,
path, the parent's lines that hold the bug, the codes that should report it, and why).
The projects' code is never in this repository: each repository's git history must be
on this machine as a git directory (a bare clone, or the fetched mirrors), found under
``--git-root`` (or ``$JAXLINT_BUGS_GIT``) as ``OWNER+NAME/repo``, ``OWNER+NAME`` or
``OWNER+NAME.git``. A missing one is reported with the ``git clone --bare`` line that
would bring it, and its bugs count as not run.

For each bug, the Python files of the repository at the parent and at the fix are
written (``git ls-tree`` + ``git cat-file``, nothing of the repository is run: no
checkout, no hooks, no filters) into ``--cache`` (default ``~/.cache/jaxlint-bugs``),
outside this repository, and ``python -m jaxlint check --no-cache --select ALL
--output-format json`` runs on the whole tree. For jax-ml/jax only the folder that
holds the bug's file is checked (``examples/``, ``jax/_src/numpy/``, ...): the whole
repository (1,000+ files) is too slow on a small machine. An empty ``jaxlint.toml`` at the tree's
root keeps any configuration above the cache folder out.

The default rules' findings are the ALL run's findings of the codes that are on by
default (rules do not read each other's findings, and what a rule does in test code
does not depend on the selection; ``--verify-default`` checks it by running the
default rules too).

Scoring, per bug, on the bug's lines with one line of tolerance either side (a finding
on the first line of a multi-line statement, or its last):

- caught (expected): a finding of one of the bug's expected codes, before the fix;
- caught (family): a finding of any code of an expected code's family (JAX1xx, ...);
- still (expected/family): the same, after the fix, on the fix side's lines that
  correspond to the bug's lines (the hunk that replaced them, from ``git diff -U0``,
  or the same line moved by the hunks above it when it did not change).

Both for the default rules and for ``--select ALL``. Results are cached per repository,
commit, checked folder and jaxlint source (a hash of ``jaxlint/**/*.py``), so a rerun
only checks what changed. Exit status: 0 when every bug was scored, 1 when some could
not be (missing repository, missing file, jaxlint error), 2 for a bad metadata file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
BUGS = ROOT / "tests" / "bugs" / "bugs.toml"
DOC = ROOT / "docs" / "precision" / "bugs.md"
TABLE_START = "<!-- bugs-table:start -->"
TABLE_END = "<!-- bugs-table:end -->"
KINDS = ("semantic", "api_drift")
FIELDS = ("repo", "commit", "parent", "path", "lines", "kind", "family", "expected", "why")
TOLERANCE = 1
# Repositories checked by the folder that holds the bug's file, not as a whole.
BY_FOLDER = {"jax-ml/jax"}
# Other names a repository's git directory may have.
ALIASES = {"google-deepmind/dm-haiku": ("deepmind/dm-haiku",)}


class MetadataError(Exception):
    pass


@dataclass
class Bug:
    repo: str
    commit: str
    parent: str
    path: str
    lines: list[int]
    kind: str
    family: str
    expected: list[str]
    why: str

    @property
    def key(self) -> str:
        return f"{self.repo}@{self.commit[:10]}:{self.path}"


@dataclass
class Score:
    bug: Bug
    error: str | None = None
    fix_path: str | None = None
    fix_lines: list[int] = field(default_factory=list)
    before: dict[str, list[str]] = field(default_factory=dict)
    """mode ('default'/'all') -> codes reported on the bug's lines before the fix."""
    after: dict[str, list[str]] = field(default_factory=dict)
    scope: str = "."


def load_bugs(path: Path = BUGS) -> list[Bug]:
    if tomllib is None:
        raise MetadataError("reading the metadata needs Python 3.11+ (tomllib)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MetadataError(f"{path}: {exc}") from None
    out = []
    for i, raw in enumerate(data.get("bug", []), 1):
        missing = [f for f in FIELDS if f not in raw]
        if missing:
            raise MetadataError(f"{path}: bug {i} lacks {', '.join(missing)}")
        if raw["family"] not in FAMILY_PREFIX:
            raise MetadataError(
                f"{path}: bug {i}: family {raw['family']!r} not in {sorted(FAMILY_PREFIX)}"
            )
        if raw["kind"] not in KINDS:
            raise MetadataError(f"{path}: bug {i}: kind {raw['kind']!r} not in {KINDS}")
        out.append(Bug(**{f: raw[f] for f in FIELDS}))
    return out


def code_family(code: str) -> str:
    return code[:4]  # JAX3 for JAX301


# The rule family of a bug's family, for bugs whose pattern no rule documents (expected
# codes empty): a finding of that family on the bug's lines still counts as "family".
FAMILY_PREFIX = {
    "prng": ("JAX3",),
    "control_flow": ("JAX2",),
    "host_conversion": ("JAX1",),
    "host_sync": ("JAX1",),
    "recompilation": ("JAX4",),
    "donation": ("JAX4",),
    "sharding": ("JAX5",),
    "in_place": ("JAX6",),
    "removed_api": ("JAX7",),
}


def source_hash() -> str:
    h = hashlib.sha256()
    for p in sorted((ROOT / "jaxlint").rglob("*.py")):
        h.update(p.relative_to(ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def default_codes() -> set[str]:
    sys.path.insert(0, str(ROOT))
    from jaxlint.rules import all_rules

    return {r.code for r in all_rules() if r.default_enabled}


# -- git, read-only -------------------------------------------------------------------

GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
}


def git(gitdir: Path, *args: str, data: bytes | None = None) -> bytes:
    cmd = ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"]
    cmd += ["--git-dir", str(gitdir), *args]
    run = subprocess.run(cmd, input=data, capture_output=True, env=GIT_ENV, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])}: {run.stderr.decode(errors='replace')}")
    return run.stdout


def find_gitdir(root: Path, repo: str) -> Path | None:
    for name in (repo, *ALIASES.get(repo, ())):
        flat = name.replace("/", "+")
        for cand in (root / flat / "repo", root / flat, root / f"{flat}.git"):
            if (cand / "HEAD").is_file() and (cand / "objects").is_dir():
                return cand
    return None


def export_py(gitdir: Path, sha: str, scope: str, dest: Path) -> tuple[int, int]:
    """Write the commit's ``*.py`` files under ``scope`` to ``dest``; (written, missing)."""
    listing = git(gitdir, "ls-tree", "-r", "-z", "--full-tree", sha)
    entries = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, _, name = item.partition(b"\t")
        mode, kind, blob = meta.split()
        path = name.decode("utf-8", errors="surrogateescape")
        if kind != b"blob" or mode == b"120000" or not path.endswith(".py"):
            continue
        if scope != "." and not path.startswith(scope.rstrip("/") + "/"):
            continue
        parts = Path(path).parts
        if ".." in parts or Path(path).is_absolute():
            continue
        entries.append((blob.decode(), path))
    out = git(gitdir, "cat-file", "--batch", data="".join(f"{b}\n" for b, _ in entries).encode())
    written = missing = 0
    pos = 0
    for _blob, path in entries:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) < 3 or header[1] != b"blob":
            missing += 1
            continue
        size = int(header[2])
        body = out[pos : pos + size]
        pos += size + 1
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        written += 1
    (dest / "jaxlint.toml").write_text("# empty: jaxlint's defaults, no config from above\n")
    return written, missing


def line_map(gitdir: Path, bug: Bug) -> tuple[str | None, list[int]]:
    """The fix side's path and the lines there that correspond to the bug's lines."""
    raw = git(gitdir, "diff", "-M", "--name-status", bug.parent, bug.commit, "--", bug.path)
    new_path = bug.path
    for row in raw.decode().splitlines():
        cols = row.split("\t")
        if cols[0] == "D":
            return None, []
        if cols[0].startswith("R") and len(cols) == 3:
            new_path = cols[2]
    diff = git(gitdir, "diff", "-M", "-U0", bug.parent, bug.commit, "--", bug.path, new_path)
    hunks = []
    for m in re.finditer(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", diff, re.M):
        old_start, old_len = int(m[1]), int(m[2]) if m[2] is not None else 1
        new_start, new_len = int(m[3]), int(m[4]) if m[4] is not None else 1
        hunks.append((old_start, old_len, new_start, new_len))
    out: set[int] = set()
    for line in bug.lines:
        shift = 0
        mapped = None
        for old_start, old_len, new_start, new_len in hunks:
            old_end = old_start + old_len - 1
            if old_len and old_start <= line <= old_end:
                # a changed line: it corresponds to the hunk's new lines (none if deleted)
                mapped = list(range(new_start, new_start + new_len)) or [max(new_start, 1)]
                break
            if (old_end if old_len else old_start) < line:
                shift += new_len - old_len
        if mapped is None:
            mapped = [line + shift]
        out.update(mapped)
    return new_path, sorted(out)


# -- jaxlint ---------------------------------------------------------------------------


def run_jaxlint(tree: Path, select: str | None, jobs: int) -> list[tuple[str, int, str]]:
    cmd = [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--exit-zero"]
    cmd += ["--output-format", "json", "-j", str(jobs)]
    if select:
        cmd += ["--select", select]
    cmd.append(".")
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "PYTHONPATH": str(ROOT)}
    run = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=env, check=False)
    if run.returncode != 0:
        tail = (run.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"jaxlint exited {run.returncode}: {tail}")
    found = []
    for f in json.loads(run.stdout or "[]"):
        name = Path(f["filename"])
        rel = name.relative_to(tree) if name.is_absolute() else name
        found.append((rel.as_posix(), int(f["location"]["row"]), f["code"]))
    return found


class Runner:
    def __init__(
        self, cache: Path, git_root: Path, jobs: int, keep_trees: bool, cached_only: bool = False
    ):
        self.cached_only = cached_only
        self.cache = cache
        self.git_root = git_root
        self.jobs = jobs
        self.keep_trees = keep_trees
        self.src = source_hash()

    def findings(self, gitdir: Path, repo: str, sha: str, scope: str, select: str | None):
        flat = repo.replace("/", "+")
        tag = "all" if select == "ALL" else "default"
        scope_tag = "root" if scope == "." else scope.replace("/", "_")
        result = self.cache / "results" / flat / f"{sha}-{scope_tag}-{tag}-{self.src}.json"
        if result.is_file():
            data = json.loads(result.read_text())
            return [tuple(x) for x in data["findings"]]
        if self.cached_only:
            raise RuntimeError(f"not checked yet ({sha[:10]}); run without --cached-only")
        tree = self.cache / "trees" / flat / f"{sha}-{scope_tag}"
        if tree.exists():
            shutil.rmtree(tree)
        tree.mkdir(parents=True)
        try:
            written, missing = export_py(gitdir, sha, scope, tree)
            found = run_jaxlint(tree, select, self.jobs)
        finally:
            if not self.keep_trees:
                shutil.rmtree(tree, ignore_errors=True)
        result.parent.mkdir(parents=True, exist_ok=True)
        tmp = result.with_suffix(".tmp")
        payload = {"files": written, "missing_blobs": missing, "findings": found}
        tmp.write_text(json.dumps(payload))
        tmp.replace(result)
        print(
            f"  checked {repo}@{sha[:10]} {scope}: {written} files, {len(found)} findings"
            + (f", {missing} blobs absent" if missing else ""),
            file=sys.stderr,
        )
        return found

    def score(self, bug: Bug, defaults: set[str], verify: bool) -> Score:
        s = Score(bug)
        gitdir = find_gitdir(self.git_root, bug.repo)
        if gitdir is None:
            flat = bug.repo.replace("/", "+")
            s.error = (
                f"no git directory for {bug.repo} under {self.git_root} (git clone --bare "
                f"https://github.com/{bug.repo} {self.git_root / (flat + '.git')})"
            )
            return s
        s.scope = "."
        if bug.repo in BY_FOLDER and "/" in bug.path:
            s.scope = bug.path.rsplit("/", 1)[0]
        try:
            s.fix_path, s.fix_lines = line_map(gitdir, bug)
            sides = [(bug.parent, bug.path, bug.lines, s.before)]
            if s.fix_path is not None:
                sides.append((bug.commit, s.fix_path, s.fix_lines, s.after))
            for sha, path, lines, into in sides:
                found = self.findings(gitdir, bug.repo, sha, s.scope, "ALL")
                near = {n + d for n in lines for d in range(-TOLERANCE, TOLERANCE + 1)}
                hit = sorted({c for p, row, c in found if p == path and row in near})
                into["all"] = hit
                into["default"] = [c for c in hit if c in defaults]
                if verify:
                    only = self.findings(gitdir, bug.repo, sha, s.scope, None)
                    if sorted(only) != sorted(f for f in found if f[2] in defaults):
                        raise RuntimeError(f"default run differs from ALL filtered at {sha[:10]}")
        except (RuntimeError, ValueError, OSError) as exc:
            s.error = str(exc)
        return s


def verdicts(s: Score) -> dict[str, bool]:
    exp = set(s.bug.expected)
    fams = {code_family(c) for c in exp} | set(FAMILY_PREFIX.get(s.bug.family, ()))
    out = {}
    for when, got in (("before", s.before), ("after", s.after)):
        for mode in ("default", "all"):
            codes = set(got.get(mode, []))
            out[f"{when}_{mode}_expected"] = bool(codes & exp)
            out[f"{when}_{mode}_family"] = any(code_family(c) in fams for c in codes)
    return out


def pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "0/0"


def render(scores: list[Score]) -> str:
    rows = [
        "| # | repo | commit | file:line | kind | expected | before, default | before, ALL |"
        " still after, default | still after, ALL |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    def cell(codes: list[str], exp: bool, fam: bool) -> str:
        mark = "yes" if exp else ("family" if fam else "no")
        return f"{mark} ({', '.join(codes)})" if codes else mark

    for i, s in enumerate(scores, 1):
        b = s.bug
        where = f"`{b.path}:{','.join(map(str, b.lines))}`"
        head = (
            f"| {i} | {b.repo} | `{b.commit[:8]}` | {where} | {b.kind} | {', '.join(b.expected)} |"
        )
        if s.error:
            rows.append(head + f" not run: {s.error.splitlines()[0][:80]} | | | |")
            continue
        v = verdicts(s)
        cells = [
            cell(
                s.before.get("default", []),
                v["before_default_expected"],
                v["before_default_family"],
            ),
            cell(s.before.get("all", []), v["before_all_expected"], v["before_all_family"]),
        ]
        if s.fix_path is None:
            cells += ["(file deleted)", "(file deleted)"]
        else:
            cells += [
                cell(
                    s.after.get("default", []),
                    v["after_default_expected"],
                    v["after_default_family"],
                ),
                cell(s.after.get("all", []), v["after_all_expected"], v["after_all_family"]),
            ]
        rows.append(head + " " + " | ".join(cells) + " |")
    rows.append("")
    rows.append(totals(scores))
    return "\n".join(rows)


def totals(scores: list[Score]) -> str:
    lines = [
        "| kind | bugs scored | caught before, default (expected code / family) |"
        " caught before, ALL (expected / family) |"
        " still after, default (of caught [of all]; expected / family) |"
        " still after, ALL (of caught [of all]; expected / family) |",
        "|---|---|---|---|---|---|",
    ]
    for kind in (*KINDS, "all"):
        group = [s for s in scores if not s.error and (kind == "all" or s.bug.kind == kind)]
        vs = [verdicts(s) for s in group]
        n = len(group)

        def both(key: str, vs=vs, n=n) -> str:
            e = sum(v[f"{key}_expected"] for v in vs)
            f = sum(v[f"{key}_family"] for v in vs)
            return f"{pct(e, n)} / {pct(f, n)}"

        # still-after: among the bugs caught before (same mode, same criterion), and in
        # brackets among all the bugs scored
        def still(mode: str, vs=vs, n=n) -> str:
            out = []
            for crit in ("expected", "family"):
                caught = [v for v in vs if v[f"before_{mode}_{crit}"]]
                among = pct(sum(v[f"after_{mode}_{crit}"] for v in caught), len(caught))
                every = sum(v[f"after_{mode}_{crit}"] for v in vs)
                out.append(f"{among} [{every}/{n}]")
            return " / ".join(out)

        lines.append(
            f"| {kind} | {n} | {both('before_default')} | {both('before_all')} |"
            f" {still('default')} | {still('all')} |"
        )
    not_run = [s for s in scores if s.error]
    if not_run:
        lines.append("")
        lines.append(f"Not scored: {len(not_run)} (" + "; ".join(s.bug.key for s in not_run) + ").")
    return "\n".join(lines)


def update_docs(text: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    if TABLE_START not in doc or TABLE_END not in doc:
        raise SystemExit(f"error: {DOC} lacks the {TABLE_START} / {TABLE_END} markers")
    head, rest = doc.split(TABLE_START, 1)
    _, tail = rest.split(TABLE_END, 1)
    DOC.write_text(f"{head}{TABLE_START}\n{text}\n{TABLE_END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bugs", type=Path, default=BUGS, help="the metadata file")
    ap.add_argument(
        "--only", default="", help="repositories to score (owner/name, comma-separated)"
    )
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("JAXLINT_BUGS_CACHE", Path.home() / ".cache" / "jaxlint-bugs")),
    )
    ap.add_argument(
        "--git-root",
        type=Path,
        default=Path(
            os.environ.get("JAXLINT_BUGS_GIT", Path.home() / ".cache" / "jaxlint-bugs" / "git")
        ),
        help="where the repositories' git directories are",
    )
    ap.add_argument("-j", "--jobs", type=int, default=1, help="jaxlint worker processes")
    ap.add_argument("--keep-trees", action="store_true", help="keep the exported trees")
    ap.add_argument(
        "--verify-default",
        action="store_true",
        help="also run the default rules, and check them against the ALL run",
    )
    ap.add_argument(
        "--cached-only", action="store_true", help="score only what earlier runs checked"
    )
    ap.add_argument("--update-docs", action="store_true", help=f"rewrite the table in {DOC}")
    ap.add_argument("--json", type=Path, help="also write the per-bug results as JSON")
    args = ap.parse_args(argv)
    try:
        bugs = load_bugs(args.bugs)
    except MetadataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    only = {r.strip() for r in args.only.split(",") if r.strip()}
    if only:
        bugs = [b for b in bugs if b.repo in only]
    if args.cache.resolve().is_relative_to(ROOT):
        print("error: --cache must be outside the repository", file=sys.stderr)
        return 2
    runner = Runner(args.cache, args.git_root, args.jobs, args.keep_trees, args.cached_only)
    defaults = default_codes()
    scores = []
    for i, bug in enumerate(bugs, 1):
        print(f"[{i}/{len(bugs)}] {bug.key}", file=sys.stderr)
        scores.append(runner.score(bug, defaults, args.verify_default))
    text = render(scores)
    print(text)
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "bug": s.bug.key,
                        "kind": s.bug.kind,
                        "expected": s.bug.expected,
                        "error": s.error,
                        "before": s.before,
                        "after": s.after,
                        "fix_path": s.fix_path,
                        "fix_lines": s.fix_lines,
                        "scope": s.scope,
                        **({} if s.error else verdicts(s)),
                    }
                    for s in scores
                ],
                indent=1,
            )
        )
    if args.update_docs:
        if only:
            print("error: --update-docs needs every bug (no --only)", file=sys.stderr)
            return 2
        update_docs(text)
    return 1 if any(s.error for s in scores) else 0


if __name__ == "__main__":
    sys.exit(main())
