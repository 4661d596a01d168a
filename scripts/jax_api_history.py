#!/usr/bin/env python3
"""JAX's public API across its releases, diffed mechanically: where the drift table
(``jaxlint/data/api_drift.toml``) comes from.

    python scripts/jax_api_history.py fetch              # download the releases (once)
    python scripts/jax_api_history.py diff               # names removed by the target release
    python scripts/jax_api_history.py diff --json out.json
    python scripts/jax_api_history.py missing            # removed names the table lacks
    python scripts/jax_api_history.py changelog WORD     # the CHANGELOG lines that mention WORD

``fetch`` downloads each ``jax`` release from 0.2.0 on (the wheel, or the sdist where
there is none) with ``pip download --no-deps`` into ``$JAXLINT_UPGRADE/jax-releases``
(default ``~/.cache/jaxlint-upgrade``), outside the repository, and keeps only its
``jax/`` Python sources and ``CHANGELOG.md``.

``diff`` parses every release statically (``ast``, nothing is imported): the public
names of each public module (``jax``, ``jax.numpy``, ``jax.lax``, ``jax.random``,
``jax.tree_util``, ``jax.core``, ``jax.interpreters.*``, ``jax.lib``,
``jax.experimental.*``, ...): its top-level definitions, assignments and imports
(also inside top-level ``if``/``try``), its submodules, and the names of its
``_deprecations`` table (with a message: deprecated; with ``None`` as the object:
removed, kept only for the error message). For each name present in some release
and absent from the last one it prints the last release that had it, the first that
did not (the removal) and the first that listed it as deprecated. The table is
curated from this list and from the CHANGELOG: a replacement is never inferred from
the diff alone.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxlint.versions import parse_version  # noqa: E402

FIRST = (0, 2, 0)


def cache_dir() -> Path:
    base = Path(os.environ.get("JAXLINT_UPGRADE", Path.home() / ".cache" / "jaxlint-upgrade"))
    return base / "jax-releases"


def versions() -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", "jax"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = next((ln for ln in proc.stdout.splitlines() if "versions:" in ln), "")
    found = [v.strip() for v in line.partition(":")[2].split(",") if v.strip()]
    if not found:
        raise RuntimeError(f"pip index versions jax printed no versions:\n{proc.stderr[-500:]}")
    return sorted((v for v in found if parse_version(v) >= FIRST), key=parse_version)


def _keep(name: str) -> bool:
    parts = name.split("/")
    if len(parts) < 2:
        return False
    if parts[-1] == "CHANGELOG.md" and len(parts) <= 2:
        return True
    return "jax" in parts[:2] and name.endswith(".py")


def _unpack(archive: Path, dest: Path) -> None:
    """Only ``jax/**.py`` and ``CHANGELOG.md``, from a wheel or an sdist."""
    dest.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                if name.startswith("jax/") and name.endswith(".py"):
                    target = dest / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(name))
        return
    with tarfile.open(archive) as tf:
        for member in tf.getmembers():
            if not member.isfile():
                continue
            rel = member.name.split("/", 1)[1] if "/" in member.name else member.name
            if rel == "CHANGELOG.md" or (rel.startswith("jax/") and rel.endswith(".py")):
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                fh = tf.extractfile(member)
                if fh is not None:
                    target.write_bytes(fh.read())


def fetch(only: list[str] | None = None) -> None:
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    for version in only or versions():
        dest = cache / version
        if (dest / ".complete").exists():
            continue
        tmp = cache / f".dl-{version}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        base = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet",
                "download", "--no-deps", "-d", str(tmp), f"jax=={version}"]  # fmt: skip
        ok = False
        for extra in (["--only-binary", ":all:"], ["--no-binary", ":all:"]):
            proc = subprocess.run([*base, *extra], capture_output=True, text=True, timeout=600)
            if proc.returncode == 0 and any(tmp.iterdir()):
                ok = True
                break
        if not ok:
            print(f"jax=={version}: download failed", file=sys.stderr)
            continue
        archive = next(tmp.iterdir())
        shutil.rmtree(dest, ignore_errors=True)
        _unpack(archive, dest)
        shutil.rmtree(tmp, ignore_errors=True)
        (dest / ".complete").write_text(archive.name)
        print(f"jax=={version}: {archive.name}")
    fetch_changelog(cache)


def fetch_changelog(cache: Path) -> None:
    """Wheels carry no CHANGELOG.md: take it from the newest release's sdist."""
    done = sorted((p for p in cache.iterdir() if (p / ".complete").exists()),
                  key=lambda p: parse_version(p.name))  # fmt: skip
    if not done or (cache / "CHANGELOG.md").exists():
        return
    tmp = cache / ".dl-changelog"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", "download",
         "--no-deps", "--no-binary", ":all:", "-d", str(tmp), f"jax=={done[-1].name}"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    for archive in tmp.iterdir():
        with tarfile.open(archive) as tf:
            for member in tf.getmembers():
                if member.name.endswith("/CHANGELOG.md") and member.name.count("/") == 1:
                    fh = tf.extractfile(member)
                    if fh is not None:
                        (cache / "CHANGELOG.md").write_bytes(fh.read())
    shutil.rmtree(tmp, ignore_errors=True)


# -- the public namespace of one release -----------------------------------------------


def _module_name(rel: Path) -> str | None:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if any(p.startswith("_") for p in parts[1:]) or any("test" in p for p in parts):
        return None
    return ".".join(parts)


def _deprecations(tree: ast.Module) -> dict[str, bool]:
    """``_deprecations = {"name": (message, obj), ...}``: name -> still present (obj not None)."""
    out: dict[str, bool] = {}
    for node in tree.body:
        value = None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_deprecations" for t in node.targets
        ):
            value = node.value
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "_deprecations"
        ):
            value = node.value
        if isinstance(value, ast.Dict):
            for key, val in zip(value.keys, value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    present = True
                    if isinstance(val, ast.Tuple) and len(val.elts) >= 2:
                        obj = val.elts[-1]
                        present = not (isinstance(obj, ast.Constant) and obj.value is None)
                    out[key.value] = present
    return out


def _top_names(body: list[ast.stmt], names: set[str]) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(
            node.target, ast.Name
        ):
            names.add(node.target.id)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names.add(a.asname)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name != "*":
                    names.add(a.asname or a.name)
        elif isinstance(node, ast.If):
            _top_names(node.body, names)
            _top_names(node.orelse, names)
        elif isinstance(node, ast.Try):
            _top_names(node.body, names)
            for h in node.handlers:
                _top_names(h.body, names)
            _top_names(node.orelse, names)


def namespace(release: Path) -> dict[str, dict[str, str]]:
    """module -> name -> ``"ok"`` / ``"deprecated"`` (public names only)."""
    out: dict[str, dict[str, str]] = {}
    root = release / "jax"
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(release)
        module = _module_name(rel)
        if module is None:
            continue
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        names: set[str] = set()
        _top_names(tree.body, names)
        entry = {n: "ok" for n in names if not n.startswith("_")}
        for name, present in _deprecations(tree).items():
            if present:
                entry[name] = "deprecated"
            else:
                entry.pop(name, None)
        out.setdefault(module, {}).update(entry)
        parent, _, child = module.rpartition(".")
        if parent:
            out.setdefault(parent, {}).setdefault(child, "ok")
    return out


def history(cache: Path) -> tuple[list[str], dict[str, dict]]:
    """Per qualified name: first/last release seen, first deprecated, removal release."""
    releases = sorted(
        (p.name for p in cache.iterdir() if p.is_dir() and (p / ".complete").exists()),
        key=parse_version,
    )
    seen: dict[str, dict] = {}
    last = releases[-1]
    for version in releases:
        ns = namespace(cache / version)
        present = set()
        for module, names in ns.items():
            for name, state in names.items():
                q = f"{module}.{name}"
                present.add(q)
                rec = seen.setdefault(q, {"first": version, "deprecated": None, "last": None})
                rec["last"] = version
                if state == "deprecated" and rec["deprecated"] is None:
                    rec["deprecated"] = version
    out: dict[str, dict] = {}
    for q, rec in seen.items():
        if rec["last"] == last:
            continue
        i = releases.index(rec["last"])
        rec["removed"] = releases[i + 1]
        out[q] = rec
    return releases, out


def changelog(cache: Path) -> str:
    """The newest release's CHANGELOG.md (else the newest among the sdists)."""
    if (cache / "CHANGELOG.md").exists():
        return (cache / "CHANGELOG.md").read_text(encoding="utf-8", errors="replace")
    best = None
    dirs = [p for p in cache.iterdir() if p.is_dir() and (p / ".complete").exists()]
    for p in sorted(dirs, key=lambda p: parse_version(p.name)):
        if (p / "CHANGELOG.md").exists():
            best = p / "CHANGELOG.md"
    return best.read_text(encoding="utf-8", errors="replace") if best else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch")
    f.add_argument("versions", nargs="*")
    d = sub.add_parser("diff")
    d.add_argument("--json", type=Path)
    d.add_argument("--prefix", default="jax")
    sub.add_parser("missing")
    c = sub.add_parser("changelog")
    c.add_argument("word")
    args = parser.parse_args(argv)
    cache = cache_dir()
    if args.cmd == "fetch":
        try:
            fetch(args.versions or None)
        except (RuntimeError, subprocess.SubprocessError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if not cache.exists() or not any(cache.iterdir()):
        print("error: no releases downloaded: run `jax_api_history.py fetch` first", file=sys.stderr)
        return 2
    if args.cmd == "changelog":
        pattern = re.compile(re.escape(args.word))
        for line in changelog(cache).splitlines():
            if pattern.search(line):
                print(line.strip())
        return 0
    releases, removed = history(cache)
    if args.cmd == "diff":
        rows = {q: r for q, r in sorted(removed.items()) if q.startswith(args.prefix)}
        if args.json:
            args.json.write_text(json.dumps({"releases": releases, "removed": rows}, indent=1))
        print(f"{len(releases)} releases ({releases[0]} ... {releases[-1]}); "
              f"{len(rows)} public names removed")  # fmt: skip
        for q, r in rows.items():
            print(f"{q}\tfirst {r['first']}\tdeprecated {r['deprecated'] or '-'}"
                  f"\tremoved {r['removed']}")  # fmt: skip
        return 0
    from jaxlint.rules.api_drift.table import load_table

    table = load_table()
    known = set(table.names) | set(table.imports)
    n = 0
    for q, r in sorted(removed.items()):
        if q not in known and table.module_entry(q) is None:
            n += 1
            print(f"{q}\tdeprecated {r['deprecated'] or '-'}\tremoved {r['removed']}")
    print(f"{n} removed names are not in the table", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
