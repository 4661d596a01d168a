#!/usr/bin/env python3
"""JAX's public API across its releases, diffed mechanically: where the drift table
(``jaxlint/data/api_drift.toml``) comes from.

    python scripts/jax_api_history.py fetch              # download the releases (once)
    python scripts/jax_api_history.py diff               # names removed by the target release
    python scripts/jax_api_history.py diff --json out.json
    python scripts/jax_api_history.py missing            # removed names the table lacks
    python scripts/jax_api_history.py generate --output jaxlint/data/api_drift_history.json
    python scripts/jax_api_history.py public-map --output jaxlint/data/jax_public_names.json
    python scripts/jax_api_history.py deprecated WORD    # first/last release warning WORD is deprecated

``fetch`` downloads each ``jax`` release from 0.2.0 on (the wheel, or the sdist where
there is none) with ``pip download --no-deps`` into ``$JAXLINT_UPGRADE/jax-releases``
(default ``~/.cache/jaxlint-upgrade``), outside the repository, and keeps only its
``jax/`` Python sources (the sdists ship no CHANGELOG.md: ``deprecated`` finds the
release whose sources first warn about a name instead).

``diff`` parses every release statically (``ast``, nothing is imported): the public
names of each public module (``jax``, ``jax.numpy``, ``jax.lax``, ``jax.random``,
``jax.tree_util``, ``jax.core``, ``jax.interpreters.*``, ``jax.lib``,
``jax.experimental.*``, ...): its top-level definitions, assignments and imports
(also inside top-level ``if``/``try``), its submodules, and the names of its
``_deprecations`` table (with a message: deprecated; with ``None`` as the object:
removed, kept only for the error message). For each name present in some release
and absent from the last one it prints the last release that had it, the first that
did not (the removal) and the first that listed it as deprecated. The table is
curated from this list and from the deprecation warnings in the sources
(``deprecated``): a replacement is never inferred from the diff alone.
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


# -- the public namespace of one release -----------------------------------------------


def _module_name(rel: Path, private: bool = False) -> str | None:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if any("test" in p for p in parts):
        return None
    if not private and any(p.startswith("_") for p in parts[1:]):
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


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` in ``module`` (a package's ``__init__`` counts as
    the package) reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if module in _PACKAGES else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


_PACKAGES: set[str] = set()


def _top_names(
    body: list[ast.stmt],
    module: str,
    modules: set[str],
    names: dict[str, str | None],
    stars: list[str] | None = None,
) -> None:
    """API names bound at the top of ``module`` -> the private object they re-export
    (``"jax._src.numpy.lax_numpy.isin"``) or None. Imports of other libraries (``np``,
    ``partial``, ``Any``) and of JAX modules (``from jax import core``) are not API."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = None
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        names[sub.id] = None
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names[node.target.id] = None
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            if not (source == "jax" or source.startswith("jax.")):
                continue
            for a in node.names:
                if a.name == "*":
                    if stars is not None:
                        stars.append(source)
                    continue
                if f"{source}.{a.name}" in modules:
                    continue
                origin = f"{source}.{a.name}" if "._src" in f".{source}" else None
                names[a.asname or a.name] = origin
        elif isinstance(node, ast.If):
            _top_names(node.body, module, modules, names, stars)
            _top_names(node.orelse, module, modules, names, stars)
        elif isinstance(node, ast.Try):
            _top_names(node.body, module, modules, names, stars)
            for h in node.handlers:
                _top_names(h.body, module, modules, names, stars)
            _top_names(node.orelse, module, modules, names, stars)


def namespace(release: Path, private: bool = False) -> dict[str, dict[str, tuple[str, str | None]]]:
    """module -> name -> (``"ok"``/``"deprecated"``, the private object re-exported);
    public modules only unless ``private``."""
    out: dict[str, dict[str, tuple[str, str | None]]] = {}
    root = release / "jax"
    files: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path.relative_to(release), private=True)
        if module is not None:
            files[module] = path
            if path.name == "__init__.py":
                _PACKAGES.add(module)
    modules = set(files)
    parsed: dict[str, tuple[dict[str, str | None], list[str], dict[str, bool]]] = {}

    def names_of(module: str) -> tuple[dict[str, str | None], list[str], dict[str, bool]]:
        if module not in parsed:
            parsed[module] = ({}, [], {})
            try:
                tree = ast.parse(files[module].read_bytes())
            except (SyntaxError, ValueError):
                return parsed[module]
            names: dict[str, str | None] = {}
            stars: list[str] = []
            _top_names(tree.body, module, modules, names, stars)
            parsed[module] = (names, stars, _deprecations(tree))
        return parsed[module]

    def with_stars(module: str, seen: frozenset[str] = frozenset()) -> dict[str, str | None]:
        names, stars, _dep = names_of(module)
        out = dict(names)
        for source in stars:
            if source in files and source not in seen:
                for n, o in with_stars(source, seen | {module}).items():
                    if not n.startswith("_"):
                        out.setdefault(
                            n, o or (f"{source}.{n}" if "._src" in f".{source}" else None)
                        )
        return out

    for module in files:
        if not private and any(p.startswith("_") for p in module.split(".")[1:]):
            continue
        names = with_stars(module)
        entry = {n: ("ok", o) for n, o in names.items() if not n.startswith("_")}
        for name, present in names_of(module)[2].items():
            if present:
                entry[name] = ("deprecated", entry.get(name, ("ok", None))[1])
            else:
                entry.pop(name, None)
        out.setdefault(module, {}).update(entry)
        parent, _, child = module.rpartition(".")
        if parent and not child.startswith("_"):
            out.setdefault(parent, {})[child] = ("module", None)
    return out


def releases_in(cache: Path) -> list[str]:
    return sorted(
        (p.name for p in cache.iterdir() if p.is_dir() and (p / ".complete").exists()),
        key=parse_version,
    )


def history(cache: Path) -> tuple[list[str], dict[str, dict]]:
    """Per public qualified name gone from the last release: first/last release seen,
    first deprecated, the removal release, the private object it re-exported."""
    releases = releases_in(cache)
    seen: dict[str, dict] = {}
    last = releases[-1]
    for version in releases:
        for module, names in namespace(cache / version).items():
            for name, (state, origin) in names.items():
                q = f"{module}.{name}"
                rec = seen.setdefault(
                    q, {"first": version, "deprecated": None, "last": None, "origins": []}
                )
                rec["last"] = version
                rec["module"] = state == "module"
                if state == "deprecated" and rec["deprecated"] is None:
                    rec["deprecated"] = version
                if origin and origin not in rec["origins"]:
                    rec["origins"].append(origin)
    out: dict[str, dict] = {}
    for q, rec in seen.items():
        if rec["last"] == last:
            continue
        rec["removed"] = releases[releases.index(rec["last"]) + 1]
        out[q] = rec
    return releases, out


def public_reexports(cache: Path) -> dict[str, tuple[str, str]]:
    """Private object (``jax._src.x.name``) -> (a public name that re-exported it, the
    last release that did), over every release."""
    out: dict[str, tuple[str, str]] = {}
    for version in releases_in(cache):
        for module, names in namespace(cache / version).items():
            for name, (_state, origin) in names.items():
                if origin:
                    out[origin] = (f"{module}.{name}", version)
    return out


_FAMILY_JAX5XX = {
    "pmap", "pjit", "shard_map", "Mesh", "mesh_utils", "use_mesh", "set_mesh", "make_mesh",
    "PositionalSharding", "xmap", "maps", "device_put_replicated", "device_put_sharded",
}  # fmt: skip
"""Names the sharding rules (JAX5xx) own: never table entries."""

_NOISY = (
    "jax.experimental.mosaic", "jax.experimental.pallas", "jax.experimental.jax2tf",
    "jax.experimental.checkify", "jax.experimental.sparse", "jax.experimental.scheduling_groups",
    "jax.experimental.hijax", "jax.experimental.compilation_cache",
    "jax.experimental.array_serialization", "jax.experimental.custom_partitioning",
    "jax.experimental.layout", "jax.experimental.topologies", "jax.experimental.key_reuse",
    "jax.experimental.serialize_executable", "jax.experimental.jet", "jax.experimental.ode",
    "jax.experimental.multihost_utils", "jax.experimental.colocated_python",
    "jax.experimental.array_api", "jax.experimental.export", "jax.experimental.attrs",
    "jax._src.pallas", "jax._src.third_party", "jax._src.interpreters", "jax._src.lib",
    "jax.tools",
)  # fmt: skip
"""Fast-moving experimental or tooling internals: their removed members are left out of the
table (a removed module there still gets its module entry)."""

_SUCCESSORS = ("jax.extend.core", "jax.core", "jax.extend", "jax.lax", "jax.numpy", "jax",
               "jax.tree_util", "jax.sharding", "jax.errors", "jax.typing", "jax.dtypes")  # fmt: skip
"""Where a removed name most often lives on under the same name (a hint, never a fix)."""

PROBE = r"""
import importlib, json, sys, warnings
warnings.simplefilter("ignore")
out = {}
for q in json.load(open(sys.argv[1])):
    if q.startswith("import:"):
        try:
            importlib.import_module(q[7:])
            out[q] = "present"
        except Exception as exc:
            out[q] = [c.__name__ for c in type(exc).__mro__]
        continue
    parts = q.split(".")
    obj, err = None, None
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
        except Exception as exc:
            err = exc
            continue
        try:
            for p in parts[n:]:
                obj = getattr(obj, p)
            err = None
        except Exception as exc:
            err = exc
        break
    out[q] = "present" if err is None else [c.__name__ for c in type(err).__mro__]
print(json.dumps(out))
"""


def probe(names: list[str]) -> dict[str, object]:
    """Each dotted name on the installed JAX: ``"present"`` or its exception's classes."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(names, fh)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run([sys.executable, "-c", PROBE, fh.name], capture_output=True,
                          text=True, env=env, timeout=900)  # fmt: skip
    os.unlink(fh.name)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def generate(cache: Path) -> list[dict[str, str]]:
    """Entries for the removed names the curated table lacks, each checked on the
    installed JAX (``jaxlint/data/api_drift_history.json``)."""
    from jaxlint.rules.api_drift.table import load_table

    table = load_table(history=False)
    releases, removed = history(cache)
    last = releases[-1]
    known = set(table.names) | set(table.imports)

    def wanted(q: str) -> bool:
        if q in known or table.module_entry(q) is not None:
            return False
        if _FAMILY_JAX5XX & set(q.split(".")):
            return False
        parent = q.rpartition(".")[0]
        if parent in removed and removed[parent].get("module"):
            return False
        noisy = any(q.startswith(n + ".") for n in _NOISY)
        return not noisy or bool(removed[q].get("module"))

    public = [q for q in sorted(removed) if wanted(q)]
    reexports = public_reexports(cache)
    private = sorted(
        o for o, (pub, _v) in reexports.items() if o not in known and pub not in removed
        and not (_FAMILY_JAX5XX & set(pub.split(".")))
        and not any(o.startswith(n + ".") or pub.startswith(n + ".") for n in _NOISY)
        and not pub.startswith("jax.experimental.")
    )  # fmt: skip
    hints = {q: [f"{m}.{q.rpartition('.')[2]}" for m in _SUCCESSORS] for q in public}
    asked = sorted({*public, *private, *(h for hs in hints.values() for h in hs),
                    *(reexports[o][0] for o in private),
                    *(f"import:{q.rpartition('.')[0]}" for q in public)})  # fmt: skip
    state = probe(asked)
    rows: list[dict[str, str]] = []
    for q in public:
        rec = removed[q]
        if state.get(q) == "present":
            continue  # still there (a star import the static parse missed, a lazy module)
        mro = state.get(q) or []
        error = "ImportError" if "ImportError" in mro else "AttributeError"
        module, _, name = q.rpartition(".")
        hint = next((h for h in hints[q] if h != q and state.get(h) == "present"), None)
        kind = "module" if rec.get("module") else "name"
        if kind == "module":
            example = f"import {q}"
            error = "ImportError"
        elif module == "jax":
            example = f"import jax\nx = jax.{name}"
        else:
            example = f"import jax\nimport {module}\nx = {q}"
            if state.get(f"import:{module}") != "present":
                continue  # the module path is gone (a module entry covers it, or the name
                # now means something else: `jax.config` is an object, not a module)
        note = f"last in JAX {rec['last']} (release diff)"
        if hint:
            note += f"; `{hint}` has the same name in JAX {last}: check that it fits"
        else:
            note += "; internal, no public replacement"
        row = {"old": q}
        if kind == "module":
            row["kind"] = "module"
        if rec["deprecated"]:
            row["deprecated"] = rec["deprecated"]
        row.update(removed=rec["removed"], fix="none", note=note, example=example, error=error)
        rows.append(row)
    for o in private:
        pub, version = reexports[o]
        if state.get(o) == "present" or state.get(pub) != "present" or version == last:
            continue
        module, _, name = o.rpartition(".")
        rows.append(
            {
                "old": o,
                "removed": releases[releases.index(version) + 1],
                "replacement": pub,
                "fix": "unsafe",
                "note": f"`jax._src` is private and changes without notice; `{pub}` was its "
                f"public name (in JAX {version})",
                "example": f"from {module} import {name}",
                "error": "ImportError",
            }
        )
    return rows


_API_MODULES = frozenset(
    {
        "jax", "jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax", "jax.lax.linalg",
        "jax.random", "jax.nn", "jax.tree_util", "jax.tree", "jax.core", "jax.dtypes",
        "jax.errors", "jax.sharding", "jax.typing", "jax.debug", "jax.image", "jax.ops",
        "jax.scipy", "jax.stages", "jax.profiler", "jax.ffi", "jax.dlpack", "jax.monitoring",
        "jax.export", "jax.ref",
    }
)  # fmt: skip
"""The API modules that ``import jax`` loads: where a private object's public name may be
(a name that another module merely imports for its own use is no re-export)."""


def public_map(cache: Path) -> dict:
    """The newest release's ``jax._src`` objects that a public module re-exports, with the
    public name (the shortest, when several): what JAX704 fixes a private import to."""
    last = releases_in(cache)[-1]
    best: dict[str, str] = {}
    for module, names in namespace(cache / last).items():
        for name, (state, origin) in names.items():
            if (
                module in _API_MODULES
                and state != "deprecated"
                and origin
                and not (_FAMILY_JAX5XX & set(f"{module}.{name}".split(".")))
            ):
                q = f"{module}.{name}"
                if origin not in best or (len(q), q) < (len(best[origin]), best[origin]):
                    best[origin] = q
    present = probe(sorted({*best, *best.values()}))
    ok = {o: q for o, q in best.items() if present.get(o) == present.get(q) == "present"}
    return {"generated_by": "scripts/jax_api_history.py public-map", "jax": last,
            "public": dict(sorted(ok.items()))}  # fmt: skip


def deprecation_lines(cache: Path, word: str) -> list[tuple[str, str]]:
    """(release, line) for the first and the last release whose sources warn that
    ``word`` is deprecated: the deprecation version of a name from before JAX listed
    its deprecations in ``_deprecations`` tables (the sdists ship no CHANGELOG.md)."""
    pattern = re.compile(rf"\b{re.escape(word)}\b")
    hits: list[tuple[str, str]] = []
    for version in releases_in(cache):
        for path in sorted((cache / version / "jax").rglob("*.py")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if word not in text:
                continue
            found = next(
                (ln.strip() for ln in text.splitlines()
                 if pattern.search(ln) and "deprecat" in ln.lower()),
                None,
            )  # fmt: skip
            if found:
                hits.append((version, f"{path.relative_to(cache / version)}: {found}"))
                break
    return hits[:1] + hits[-1:] if len(hits) > 1 else hits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch")
    f.add_argument("versions", nargs="*")
    d = sub.add_parser("diff")
    d.add_argument("--json", type=Path)
    d.add_argument("--prefix", default="jax")
    sub.add_parser("missing")
    pm = sub.add_parser("public-map")
    pm.add_argument("--output", type=Path, required=True)
    g = sub.add_parser("generate")
    g.add_argument("--output", type=Path, required=True)
    c = sub.add_parser("deprecated")
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
        print(
            "error: no releases downloaded: run `jax_api_history.py fetch` first", file=sys.stderr
        )
        return 2
    if args.cmd == "deprecated":
        hits = deprecation_lines(cache, args.word)
        for version, line in hits:
            print(f"{version}\t{line}")
        if not hits:
            print(f"no release warns that {args.word} is deprecated", file=sys.stderr)
        return 0
    if args.cmd == "public-map":
        data = public_map(cache)
        args.output.write_text(json.dumps(data, indent=0) + "\n")
        print(f"{len(data['public'])} private objects with a public name in JAX {data['jax']}")
        return 0
    if args.cmd == "generate":
        rows = generate(cache)
        text = json.dumps({"generated_by": "scripts/jax_api_history.py generate", "api": rows},
                          indent=0)  # fmt: skip
        args.output.write_text(text + "\n")
        print(f"{len(rows)} entries written to {args.output}")
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
