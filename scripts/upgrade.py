#!/usr/bin/env python3
"""The legacy-upgrade gate (``make upgrade``): old releases of real JAX libraries
(2021-2023) imported on the installed JAX before and after jaxlint fixes them.

    python scripts/upgrade.py                      # every pinned project
    python scripts/upgrade.py --update-docs        # also rewrite the table in
                                                   # docs/precision/api_drift.md
    python scripts/upgrade.py --json out.json      # the per-module results

Steps:

1. Fetch the pinned releases (pure-Python wheels, ``pip download --no-deps``) and
   their small non-JAX dependencies (``pip install --no-deps --target``) into
   ``$JAXLINT_UPGRADE`` or ``~/.cache/jaxlint-upgrade``: outside the repository,
   never committed. The releases are stacked in one folder, so a library that
   imports another one (optax imports chex) gets the old release of it, as it
   would have in its day.
2. Import every module of every project (tests excluded) on the installed JAX,
   each in a fresh process (forked from one that has imported ``jax`` and
   ``numpy`` only, at most two at a time, each with a timeout), and classify each
   failure from its exception: JAX API / other dependency / Python or NumPy
   change / other.
3. Copy the stack and run ``jaxlint check --fix --unsafe-fixes --select ALL
   --no-cache`` on the copy; every changed file must still compile and a second
   fix run must change nothing.
4. Import every module of the fixed copy the same way.

Printed: per project, the modules that import before and after, the failures by
class, the JAX-API failures the fixes repaired, and the commonest remaining
JAX-API messages. The gate fails (exit 1) when a module that imported before no
longer imports, a fixed file does not compile, the second fix run changes a file,
or jaxlint crashes (exit 2); exit 2 when the releases cannot be fetched.
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
import tempfile
import textwrap
import time
import warnings
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "precision" / "api_drift.md"
START = "<!-- upgrade:start (written by scripts/upgrade.py --update-docs) -->"
END = "<!-- upgrade:end -->"

# distribution -> (version, release date): pure-Python releases of 2021-2023
PINNED: dict[str, tuple[str, str]] = {
    "flax": ("0.3.6", "2021-10"),
    "optax": ("0.1.0", "2021-11"),
    "chex": ("0.1.0", "2021-11"),
    "dm-haiku": ("0.0.5", "2021-10"),
    "equinox": ("0.5.0", "2022-06"),
    "jax-md": ("0.1.20", "2021-10"),
    "jaxopt": ("0.2", "2022-01"),
    "jraph": ("0.0.6.dev0", "2022-06"),
    "neural-tangents": ("0.3.9", "2021-12"),
    "numpyro": ("0.8.0", "2021-10"),
    "mctx": ("0.0.2", "2022-05"),
    "dm-pix": ("0.2.1", "2022-02"),
    # added by the widened gate (docs/precision/api_drift.md: declared before measuring)
    "rlax": ("0.1.4", "2022-08"),
    "distrax": ("0.1.2", "2022-03"),
    "objax": ("1.6.0", "2022-02"),
    "evojax": ("0.2.7", "2022-06"),
    "jaxline": ("0.0.5", "2021-11"),
    "jax-cosmo": ("0.1.0", "2023-02"),
}
# releases published as an sdist only: built into a wheel (``pip wheel --no-deps``) with
# a setuptools that still has ``pkg_resources`` (objax's setup.py imports it)
SDIST_ONLY = frozenset({"objax", "jaxline", "jax-cosmo"})
BUILD_CONSTRAINTS = "setuptools<70\n"
# what the releases import besides JAX, NumPy, SciPy and each other
DEPENDENCIES = {
    "absl-py": "2.5.1",
    "dm-tree": "0.1.10",
    "wrapt": None,
    "toolz": "1.2.0",
    "msgpack": "1.2.4",
    "jmp": "0.0.4",
    "tabulate": "0.10.0",
    "frozendict": "2.5.1",
    "tqdm": "4.70.1",
    # for the widened gate: current releases (a user upgrading an old code base
    # upgrades its maintained dependencies too)
    "dm-env": "1.6",
    "tensorflow-probability": "0.25.0",
    "six": None,
    "cloudpickle": None,
    "gast": None,
    "decorator": None,
    "ml-collections": "1.1.0",
    "tensorboard": "2.21.0",
    "protobuf": None,
    "parameterized": "0.9.0",
    "cma": None,
    # `pkg_resources` (jax-cosmo reads its version with it), part of every environment
    # of its day; setuptools 81 dropped it
    "setuptools": "80.9.0",
}
CLASSES = ("JAX API", "other dependency", "Python or NumPy change", "other")
TIMEOUT_S = 60
PARALLEL = 2


def cache_dir() -> Path:
    return Path(os.environ.get("JAXLINT_UPGRADE", Path.home() / ".cache" / "jaxlint-upgrade"))


def _pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"pip {' '.join(args[:3])} ... failed:\n{tail}")


def fetch(cache: Path) -> dict[str, Path]:
    """Each pinned release unpacked in ``cache/unpacked/<dist>-<version>``."""
    dists = cache / "dists"
    dists.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    for dist, (version, _date) in PINNED.items():
        target = cache / "unpacked" / f"{dist}-{version}"
        if not (target / ".complete").exists():
            stem = dist.replace("-", "_")
            wheels = [w for w in dists.glob(f"{stem}-{version}-*.whl")]
            if not wheels and dist in SDIST_ONLY:
                constraints = cache / "build-constraints.txt"
                constraints.write_text(BUILD_CONSTRAINTS)
                _pip("wheel", "--no-deps", "--build-constraint", str(constraints),
                     f"{dist}=={version}", "-w", str(dists))  # fmt: skip
                wheels = list(dists.glob(f"{stem}-{version}-*.whl"))
            elif not wheels:
                _pip("download", "--no-deps", "--only-binary", ":all:", f"{dist}=={version}",
                     "-d", str(dists))  # fmt: skip
                wheels = list(dists.glob(f"{stem}-{version}-*.whl"))
            if not wheels:
                raise RuntimeError(f"{dist}=={version}: no wheel downloaded")
            shutil.rmtree(target, ignore_errors=True)
            with zipfile.ZipFile(wheels[0]) as zf:
                zf.extractall(target)
            (target / ".complete").write_text("")
        out[dist] = target
    deps = cache / "deps"
    stamp = deps / ".complete"
    wanted = json.dumps(DEPENDENCIES, sort_keys=True)
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.rmtree(deps, ignore_errors=True)
        specs = [f"{d}=={v}" if v else d for d, v in DEPENDENCIES.items()]
        _pip("install", "--no-deps", "--target", str(deps), *specs)
        stamp.write_text(wanted)
    return out


def top_levels(unpacked: Path) -> list[str]:
    return sorted(
        p.name
        for p in unpacked.iterdir()
        if not p.name.startswith(".")
        and not p.name.endswith((".dist-info", ".data"))
        and (p.is_dir() and (p / "__init__.py").exists() or p.suffix == ".py")
    )


def is_test(rel: Path) -> bool:
    name = rel.name
    return (
        name.endswith("_test.py")
        or name.startswith("test_")
        or name == "conftest.py"
        or any(part in ("tests", "test", "testing_data") for part in rel.parts[:-1])
    )


def build_stack(releases: dict[str, Path], dest: Path) -> dict[str, list[str]]:
    """Copy every release's packages into ``dest``; the importable modules per project."""
    modules: dict[str, list[str]] = {}
    for dist, unpacked in releases.items():
        mods: list[str] = []
        for top in top_levels(unpacked):
            src = unpacked / top
            if (dest / top).exists():
                # two wheels ship the same stray top-level package (neural-tangents and
                # rlax an ``examples`` package): the first release's copy is kept
                print(
                    f"note: {dist}: top-level `{top}` already comes from another release; left out"
                )
                continue
            if src.is_dir():
                shutil.copytree(src, dest / top, dirs_exist_ok=False)
                files = sorted(src.rglob("*.py"))
            else:
                shutil.copy2(src, dest / top)
                files = [src]
            for f in files:
                rel = f.relative_to(unpacked)
                if is_test(rel) or f.name == "__main__.py":
                    continue
                parts = list(rel.with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                mods.append(".".join(parts))
        modules[dist] = mods
    return modules


IMPORTER = textwrap.dedent(
    r"""
    import json, os, signal, sys, traceback, warnings
    warnings.simplefilter("ignore")
    site, deps, spec_path, out_path, timeout, parallel = sys.argv[1:7]
    timeout, parallel = float(timeout), int(parallel)
    sys.path[:0] = [site, deps]
    import numpy, jax, jax.numpy  # the parent's imports: each child starts from here
    import time
    names = json.load(open(spec_path))
    results = {}
    running = {}  # pid -> (name, start, result file)
    tmp = out_path + ".d"
    os.makedirs(tmp, exist_ok=True)

    def child(name, path):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            __import__("importlib").import_module(name)
            res = {"ok": True}
        except BaseException as exc:
            tb = traceback.extract_tb(exc.__traceback__)
            res = {
                "ok": False,
                "type": type(exc).__name__,
                "mro": [c.__name__ for c in type(exc).__mro__],
                "message": (str(exc).splitlines() or [""])[0][:400],
                "missing": getattr(exc, "name", None) if isinstance(exc, ImportError) else None,
                "frames": [f.filename for f in tb][-6:],
            }
        with open(path, "w") as fh:
            json.dump(res, fh)
        os._exit(0)

    def reap(block):
        for pid, (name, start, path) in list(running.items()):
            done, _status = os.waitpid(pid, 0 if block and len(running) == 1 else os.WNOHANG)
            if done == 0:
                if time.monotonic() - start > timeout:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    results[name] = {"ok": False, "type": "Timeout", "mro": ["Timeout"],
                                     "message": f"import took over {timeout:.0f} s",
                                     "missing": None, "frames": []}
                    del running[pid]
                continue
            try:
                with open(path) as fh:
                    results[name] = json.load(fh)
            except (OSError, ValueError):
                results[name] = {"ok": False, "type": "Crash", "mro": ["Crash"],
                                 "message": f"the import process died (status {_status})",
                                 "missing": None, "frames": []}
            del running[pid]

    for i, name in enumerate(names):
        while len(running) >= parallel:
            reap(True)
            time.sleep(0.01)
        path = os.path.join(tmp, f"{i}.json")
        pid = os.fork()
        if pid == 0:
            child(name, path)
        running[pid] = (name, time.monotonic(), path)
    while running:
        reap(True)
        time.sleep(0.01)
    with open(out_path, "w") as fh:
        json.dump(results, fh)
    """
)


def import_all(site: Path, deps: Path, names: list[str], work: Path, label: str) -> dict:
    spec = work / f"{label}.spec.json"
    out = work / f"{label}.results.json"
    spec.write_text(json.dumps(names))
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            IMPORTER,
            str(site),
            str(deps),
            str(spec),
            str(out),
            str(TIMEOUT_S),
            str(PARALLEL),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
    )
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"the importer failed ({label}):\n{proc.stderr[-2000:]}")
    return json.loads(out.read_text())


_JAX_MODULE = re.compile(r"""['"]jax(lib)?(\.[\w.]+)?['"]""")
_PY_OR_NUMPY = re.compile(
    r"""['"](numpy|collections|typing|inspect|abc|distutils|imp)(\.[\w.]+)?['"]|np\.\w+"""
)


def classify(res: dict, tops: set[str], deps: Path) -> str:
    """One failure's class, from its exception and where it was raised."""
    kind, message, frames = res["type"], res["message"], res.get("frames") or []
    missing = (res.get("missing") or "").split(".")[0]
    last = frames[-1] if frames else ""
    in_jax = "/site-packages/jax/" in last or "/site-packages/jaxlib/" in last
    if last.startswith(str(deps)):
        # raised inside a non-JAX-library dependency (TensorFlow Probability's JAX
        # substrate on a JAX it does not support): the projects' fixes cannot reach it
        return "other dependency"
    if kind == "ModuleNotFoundError" and missing:
        if missing in ("jax", "jaxlib"):
            return "JAX API"
        if missing not in tops:
            return "other dependency"
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        return "Python or NumPy change"
    if "AttributeError" in res["mro"] or "ImportError" in res["mro"]:
        if _JAX_MODULE.search(message):
            return "JAX API"
        if _PY_OR_NUMPY.search(message):
            return "Python or NumPy change"
    if in_jax:
        return "JAX API"
    if str(deps) in last:
        return "other dependency"
    if "/numpy/" in last or "/lib/python3" in last and "site-packages" not in last:
        return "Python or NumPy change"
    return "other"


def normalize(message: str) -> str:
    """One line, without the local file path Python adds to an ImportError."""
    message = re.sub(r" \(/[^)]*\)", "", message)
    return re.sub(r"\s+", " ", message).strip()[:160]


def digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*.py"))
        if p.is_file()
    }


def compiles(path: Path) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def run_fix(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "jaxlint", "check", "--fix", "--unsafe-fixes", "--select",
           "ALL", "--no-cache", "--output-format", "concise", "."]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=folder)


def summarize(modules, before, after, tops, deps) -> tuple[list[dict], Counter, list[str]]:
    rows: list[dict] = []
    remaining: Counter = Counter()
    newly_broken: list[str] = []
    for dist, names in modules.items():
        row = {"project": dist, "version": PINNED[dist][0], "modules": len(names)}
        row["ok_before"] = sum(before[n]["ok"] for n in names)
        row["ok_after"] = sum(after[n]["ok"] for n in names)
        for phase, res in (("before", before), ("after", after)):
            counts = Counter(classify(res[n], tops, deps) for n in names if not res[n]["ok"])
            for c in CLASSES:
                row[f"{phase}:{c}"] = counts.get(c, 0)
        jax_before = [n for n in names if not before[n]["ok"]
                      and classify(before[n], tops, deps) == "JAX API"]  # fmt: skip
        row["jax_fixed"] = sum(after[n]["ok"] for n in jax_before)
        row["jax_failed_before"] = len(jax_before)
        for n in names:
            if before[n]["ok"] and not after[n]["ok"]:
                newly_broken.append(f"{n}: {after[n]['type']}: {after[n]['message']}")
            if not after[n]["ok"] and classify(after[n], tops, deps) == "JAX API":
                remaining[f"{after[n]['type']}: {normalize(after[n]['message'])}"] += 1
        rows.append(row)
    return rows, remaining, newly_broken


def markdown(rows: list[dict]) -> str:
    lines = [
        "| Project | Modules | Import before | JAX-API failures before | Repaired by the fix "
        "| Import after | JAX-API failures after | Other failures after |",
        "|---|---|---|---|---|---|---|---|",
    ]
    tot = Counter()
    for r in rows:
        other_after = sum(r[f"after:{c}"] for c in CLASSES if c != "JAX API")
        cells = [r["modules"], r["ok_before"], r["before:JAX API"], r["jax_fixed"],
                 r["ok_after"], r["after:JAX API"], other_after]  # fmt: skip
        for key, v in zip(("m", "ob", "jb", "jf", "oa", "ja", "xa"), cells, strict=True):
            tot[key] += v
        lines.append(f"| {r['project']} {r['version']} | " + " | ".join(map(str, cells)) + " |")
    lines.append(
        f"| **all** | {tot['m']} | {tot['ob']} | {tot['jb']} | {tot['jf']} | {tot['oa']} "
        f"| {tot['ja']} | {tot['xa']} |"
    )
    return "\n".join(lines)


def update_docs(table: str, remaining: Counter, header: str) -> None:
    text = DOCS.read_text()
    common = "\n".join(f"| {n} | `{m}` |" for m, n in remaining.most_common(15))
    block = (
        f"{START}\n{header}\n\n{table}\n\nThe commonest remaining JAX-API failures:\n\n"
        f"| Modules | Exception |\n|---|---|\n{common}\n{END}"
    )
    if START in text:
        pre, _, rest = text.partition(START)
        _, _, post = rest.partition(END)
        text = pre + block + post
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    DOCS.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update-docs", action="store_true")
    parser.add_argument("--json", type=Path, help="write the per-module results here")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args(argv)
    started = time.monotonic()
    cache = cache_dir()
    try:
        releases = fetch(cache)
    except (RuntimeError, OSError, subprocess.SubprocessError, zipfile.BadZipFile) as exc:
        print(f"error: cannot fetch the pinned releases: {exc}", file=sys.stderr)
        return 2
    deps = cache / "deps"
    work = Path(tempfile.mkdtemp(prefix="jaxlint-upgrade-"))
    failures: list[str] = []
    try:
        original = work / "original"
        original.mkdir()
        modules = build_stack(releases, original)
        tops = {p.name.removesuffix(".py") for p in original.iterdir()}
        names = sorted(n for mods in modules.values() for n in mods)
        print(f"{len(modules)} projects, {len(names)} modules; importing on the installed JAX")
        before = import_all(original, deps, names, work, "before")

        fixed = work / "fixed"
        shutil.copytree(original, fixed)
        pristine = digests(fixed)
        first = run_fix(fixed)
        summary = (first.stdout.strip().splitlines() or [""])[-1]
        print(f"jaxlint --fix --unsafe-fixes --select ALL: exit {first.returncode}: {summary}")
        if first.returncode == 2 or "error:" in first.stderr:
            failures.append(f"jaxlint crashed:\n{first.stderr[-2000:]}")
        after_fix = digests(fixed)
        changed = [p for p in after_fix if after_fix[p] != pristine.get(p)]
        for rel in changed:
            err = compiles(fixed / rel)
            if err is not None and compiles(original / rel) is None:
                failures.append(f"{rel}: no longer compiles: {err}")
        second = run_fix(fixed)
        again = [p for p, h in digests(fixed).items() if after_fix.get(p) != h]
        if again:
            failures.append(f"a second fix run changed {len(again)} file(s): {again[:5]}")
        if second.returncode == 2:
            failures.append(f"the second fix run crashed:\n{second.stderr[-2000:]}")
        print(f"{len(changed)} files changed by the fixes; all compile; second run changed "
              f"{len(again)}")  # fmt: skip
        after = import_all(fixed, deps, names, work, "after")

        rows, remaining, newly_broken = summarize(modules, before, after, tops, deps)
        table = markdown(rows)
        print()
        print(table)
        jb = sum(r["jax_failed_before"] for r in rows)
        jf = sum(r["jax_fixed"] for r in rows)
        share = f"{100 * jf / jb:.0f}%" if jb else "n/a"
        print(f"\nJAX-API failures repaired: {jf} of {jb} ({share})")
        print("\nThe commonest remaining JAX-API failures:")
        for message, n in remaining.most_common(25):
            print(f"  {n:4d}  {message}")
        for line in newly_broken:
            failures.append(f"newly broken: {line}")
        if args.json:
            args.json.write_text(json.dumps(
                {"modules": modules, "before": before, "after": after, "rows": rows},
                indent=1))  # fmt: skip
        if args.update_docs:
            header = (
                f"`make upgrade` (`python scripts/upgrade.py`), JAX {_jax_version()}: "
                f"{len(names)} modules of {len(modules)} releases; JAX-API failures repaired: "
                f"{jf} of {jb} ({share}); newly broken: {len(newly_broken)}; files changed by "
                f"the fixes: {len(changed)} (all compile; a second fix run changes nothing)."
            )
            update_docs(table, remaining, header)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"work folder kept: {work}")
    print(f"\n{time.monotonic() - started:.0f} s")
    if failures:
        print("\nGATE FAILED:", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        return 1
    print(
        "gate passed: 0 newly broken, every fixed file compiles, a second fix run changes nothing"
    )
    return 0


def _jax_version() -> str:
    proc = subprocess.run(
        [sys.executable, "-c", "import jax; print(jax.__version__)"],
        capture_output=True,
        text=True,
    )
    return proc.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())
