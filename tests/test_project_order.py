"""A project's findings do not depend on the order its files are linted in (``-j``).

Found on fresh-2026-12k's pmpp (docs/reliability.md): a project with no marker whose
files are found from two folders (``cuda/`` scripts and ``src/pkg``). The index of a
project knew a folder only once a file found from it asked a question, so with a pool the
parent's first question came from ``cuda/`` and the callers index, rebuilt at the end of
the run, could not find ``pkg.gravity`` for ``lpt.py``'s traced call: it dropped the call
and never read it again. ``gravity.py``'s helper was then taken for host code with
``-j 2`` and for traced code with ``-j 1``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import jaxlint.parallel
import jaxlint.versions
from jaxlint.analysis.project import ProjectContext, ProjectIndex, SummaryStore, find_project_root
from jaxlint.cli import main
from jaxlint.cli.project_run import ProjectRun

SCRIPT = """\
import jax


def build():
    return jax.devices()
"""

HELPERS = """\
import numpy as np


def to_host(x):
    return np.asarray(x)
"""

MODEL = """\
import jax

from pkg.helpers import to_host


@jax.jit
def step(x):
    return to_host(x) + 1
"""


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    monkeypatch.setattr(jaxlint.parallel, "MIN_PARALLEL_BYTES", 0)  # a pool for small files
    monkeypatch.setattr(jaxlint.parallel, "_thread_count", lambda: 1)


def two_folders(root: Path) -> Path:
    """No project marker; ``cuda/`` (sorted first) holds scripts, ``src/pkg`` the package."""
    project = root / "unmarked"
    (project / "cuda").mkdir(parents=True)
    for i in range(3):
        (project / "cuda" / f"build_{i}.py").write_text(SCRIPT)
    pkg = project / "src" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "model.py").write_text(MODEL)
    return project


def findings(root: Path, *args: str, capsys, monkeypatch) -> list[tuple[str, int, str]]:
    monkeypatch.chdir(root)
    code = main(["check", "--select", "ALL", "--output-format", "json", *args, "."])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert code in (0, 1), err
    return sorted(
        (Path(d["filename"]).resolve().relative_to(root.resolve()).as_posix(),
         d["location"]["row"], d["code"])
        for d in json.loads(out)
    )  # fmt: skip


@pytest.mark.parametrize("cache", [True, False])
def test_findings_do_not_depend_on_the_number_of_jobs(
    tmp_path: Path, capsys, monkeypatch, cache: bool
) -> None:
    project = two_folders(tmp_path)
    if find_project_root(project) is not None:
        pytest.skip("a project marker above the temporary folder")
    flags = [] if cache else ["--no-cache"]
    expected = [("src/pkg/helpers.py", 5, "JAX101")]  # to_host runs under step's jit
    for jobs in ("1", "2", "1", "3"):
        if cache:
            monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / f"cache-{jobs}"))
        got = findings(project, *flags, "-j", jobs, capsys=capsys, monkeypatch=monkeypatch)
        assert got == expected, f"-j {jobs}"


def test_the_index_knows_every_folder_of_the_run_from_the_start(tmp_path: Path) -> None:
    project = two_folders(tmp_path)
    if find_project_root(project) is not None:
        pytest.skip("a project marker above the temporary folder")
    files = sorted(project.rglob("*.py"))
    run = ProjectRun(None, files, None)
    facts = run.facts(project / "cuda" / "build_0.py")  # the first file asks first
    assert facts is not None
    roots = {p.resolve() for p in facts.project.index.search_roots}
    assert roots == {(project / "cuda").resolve(), (project / "src").resolve()}
    assert facts.project.index.find_module("pkg.helpers") is not None


def test_the_callers_index_reads_again_when_a_folder_is_added(tmp_path: Path) -> None:
    project = two_folders(tmp_path)
    model = project / "src" / "pkg" / "model.py"
    store = SummaryStore(summarize=lambda *a: None, engine_fingerprint=lambda: "")
    call = {"target": "pkg.helpers.to_host", "caller": "step", "line": 7}
    store.by_path[str(model)] = ("k", {"module": "pkg.model", "calls": [call]})
    store.log.append(str(model))
    context = ProjectContext(ProjectIndex(None), store, final=True)
    context.index.add_search_root(project / "cuda")
    assert context.calls_into("pkg.helpers") == []  # pkg is not found from cuda/
    context.index.add_search_root(project / "src")
    assert [c["caller"] for c in context.calls_into("pkg.helpers")] == ["step"]
