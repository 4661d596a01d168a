"""The project-wide analysis at scale: how much work a run does, counted (never timed).

A chain of modules, each importing the next, is linted with its imports first: what a
module asks of the module it imports is answered on the first lint, and no file is
linted twice. When traced-ness flows the other way (a jitted function calls a helper
of the module it imports, which calls a helper of the next one), a module learns that
it is traced only from the module linted after it: each file is linted at most once
more, importers first, and the end of the run is the fixpoint the cache stores, so a
run right after lints nothing, with any number of workers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from project_support import write_package

import jaxlint.parallel
import jaxlint.versions
from jaxlint.cli import main

CHAIN = """import jax
import jax.numpy as jnp

from chain.m{nxt} import step_{nxt}


@jax.jit
def step_{i}(x):
    return jnp.tanh(x) + 1.0


def loop_{i}(x, batches):
    for batch in batches:
        x = step_{nxt}(x + batch)
        print(f"loss {{float(x)}}")
    return x
"""

CASCADE = """import jax.numpy as jnp

from chain.m{nxt} import helper_{nxt}


def helper_{i}(x):
    if x.sum() > 0:
        x = jnp.sin(x)
    return helper_{nxt}(x)
"""
"""``helper_i`` is traced only because ``helper_{i-1}`` is: one hop per module."""

TRACED = """import jax
import jax.numpy as jnp

from chain.m{nxt} import helper_{nxt}


def helper_{i}(x):
    if x.sum() > 0:
        x = jnp.sin(x)
    return x


@jax.jit
def step_{i}(x):
    return helper_{nxt}(x)
"""
"""Every module's jitted step calls the next module's helper."""

FIRST = """import jax

from chain.m1 import helper_1


@jax.jit
def step(x):
    return helper_1(x)
"""

LAST = """import jax
import jax.numpy as jnp


@jax.jit
def step_{i}(x):
    return jnp.cos(x)


def helper_{i}(x):
    if x.sum() > 0:
        x = jnp.cos(x)
    return x
"""


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    monkeypatch.setattr(jaxlint.parallel, "MIN_PARALLEL_BYTES", 0)  # -j 2: a pool, small files
    monkeypatch.setattr(jaxlint.parallel, "_thread_count", lambda: 1)


def make_chain(root: Path, size: int, kind: str) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'chain'\n")
    pkg = root / "chain"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for i in range(size):
        if i == size - 1:
            text = LAST.format(i=i)
        elif kind == "cascade" and i == 0:
            text = FIRST
        else:
            text = {"chain": CHAIN, "cascade": CASCADE, "traced": TRACED}[kind]
            text = text.format(i=i, nxt=i + 1)
        (pkg / f"m{i}.py").write_text(text)


_LINTED = re.compile(r"(\d+) file\(s\) linted, (\d+) from the cache")
_AGAIN = re.compile(r"(\d+) linted again for what other modules say")


def run(root: Path, monkeypatch, capsys, *args: str) -> tuple[list[tuple[str, int, str]], int, int]:
    """``jaxlint check --timings`` in ``root``: (findings, files linted, linted again)."""
    monkeypatch.chdir(root)
    code = main(["check", "--select", "ALL", "--output-format", "json", "--timings", *args, "."])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert "Traceback" not in err, err
    found = sorted(
        (Path(d["filename"]).relative_to(root).as_posix(), d["location"]["row"], d["code"])
        for d in json.loads(out)
    )
    linted = _LINTED.search(err)
    assert linted is not None, err
    again = _AGAIN.search(err)
    return found, int(linted[1]), int(again[1]) if again else 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_chain_of_imports_is_linted_once(tmp_path: Path, monkeypatch, capsys, jobs) -> None:
    make_chain(tmp_path, 12, "chain")
    found, linted, again = run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", jobs)
    # each loop waits for the next module's jitted step: known on the first lint
    assert [f for f in found if f[2] == "JAX102"] == sorted(
        (f"chain/m{i}.py", 15, "JAX102") for i in range(11)
    )
    assert again == 0
    if jobs == "1":
        assert linted == 12 + 1  # and the empty __init__.py


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_cascade_of_traced_helpers_reaches_the_fixpoint(
    tmp_path: Path, monkeypatch, capsys, jobs
) -> None:
    """Nine hops of traced helpers: every helper is reported, each file is linted at
    most twice, and a run right after a cached run lints nothing."""
    size = 10
    make_chain(tmp_path, size, "cascade")
    cache = str(tmp_path / "cache")
    found, linted, again = run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", jobs)
    helpers = sorted(f for f in found if f[2] == "JAX201")
    assert helpers == sorted(
        [(f"chain/m{i}.py", 7, "JAX201") for i in range(1, size - 1)]
        + [(f"chain/m{size - 1}.py", 11, "JAX201")]
    )
    assert again <= size - 1
    if jobs == "1":
        assert linted == size + again
    assert run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", "1")[0] == found
    again_found, linted, again = run(
        tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", jobs
    )
    assert (again_found, linted, again) == (found, 0, 0)


def test_with_workers_the_cache_holds_what_the_run_reports(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Forty modules whose jitted steps call the next module's helper, two workers: the
    helpers learn that they are traced after the first lints (linted again in the pool),
    the findings are those of one process, and the run right after lints nothing."""
    size = 40
    make_chain(tmp_path, size, "traced")
    one, _, _ = run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", "1")
    assert [f for f in one if f[2] == "JAX201"] == sorted(
        [(f"chain/m{i}.py", 8, "JAX201") for i in range(1, size - 1)]
        + [(f"chain/m{size - 1}.py", 11, "JAX201")]
    )
    cache = str(tmp_path / "cache")
    found, _, again = run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "2")
    assert found == one
    assert again <= size - 1
    assert run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "2") == (one, 0, 0)
    assert run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", "2")[0] == one


def test_a_change_relints_the_module_and_those_that_read_it(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    make_chain(tmp_path, 12, "chain")
    cache = str(tmp_path / "cache")
    first, _, _ = run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "2")
    assert run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "2")[1:] == (0, 0)
    # m5's step is no longer jitted: m5 changed, m4 asked about step_5, nothing else did
    m5 = tmp_path / "chain/m5.py"
    m5.write_text(m5.read_text().replace("@jax.jit\n", ""))
    found, linted, again = run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "1")
    assert (linted, again) == (2, 1)
    # m4's loop no longer waits for a jitted step; m5's own finding moved up a line
    moved = [(f, row - 1 if f == "chain/m5.py" else row, code) for f, row, code in first]
    assert found == [f for f in moved if f[0] != "chain/m4.py"]
    assert run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", "2")[1:] == (0, 0)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_import_cycle_settles(tmp_path: Path, monkeypatch, capsys, jobs) -> None:
    """Two modules importing each other, with a helper traced across the cycle: correct
    findings, and the cache holds the fixpoint."""
    (tmp_path / "pyproject.toml").write_text("")
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "import jax\n\nfrom cyc.b import helper\n\n\n@jax.jit\ndef step(x):\n"
        "    return helper(x)\n\n\ndef inner(x):\n    if x > 0:\n        return x\n    return -x\n"
    )
    (pkg / "b.py").write_text(
        "import jax\n\nfrom cyc.a import inner\n\n\ndef helper(x):\n    return inner(x) + 1\n"
    )
    cache = str(tmp_path / "cache")
    found, _, _ = run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", jobs)
    assert [f for f in found if f[2] == "JAX201"] == [("cyc/a.py", 12, "JAX201")]
    assert run(tmp_path, monkeypatch, capsys, "--cache-dir", cache, "-j", jobs) == (found, 0, 0)


def test_the_work_per_module_does_not_grow_with_the_project(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Counted, not timed: how many call targets are followed through re-exports, per
    module, for 10 and 40 modules whose jitted steps call the next module's helper. Rebuilding the index of traced calls
    whenever a module published its summary made this grow with the project."""
    from jaxlint.analysis.project import ProjectContext

    real = ProjectContext.real_target
    followed = [0]

    def counted(self, *args, **kwargs):
        followed[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProjectContext, "real_target", counted)
    per_module = []
    for size in (10, 40):
        root = tmp_path / str(size)
        root.mkdir()
        make_chain(root, size, "traced")
        followed[0] = 0
        run(root, monkeypatch, capsys, "--no-cache", "-j", "1")
        per_module.append(followed[0] / size)
    assert per_module[1] <= 1.3 * per_module[0], per_module


PACKAGE_OPS = """import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x) + 1.0
"""

PACKAGE_TRAIN = """import jax.numpy as jnp

from pkg import step


def train(x, batches):
    for batch in batches:
        x = step(x + jnp.asarray(batch))
        print(f"loss {float(x)}")
    return x
"""


CYCLE_A = """import jax

from pkg import b


@jax.jit
def step(x):
    return x + 1


def loop(x, n):
    for _ in range(n):
        x = b.double(x)
        print(float(x))
"""

CYCLE_B = """import jax

from pkg import a


@jax.jit
def double(x):
    return x * 2


def loop(x, n):
    for _ in range(n):
        x = a.step(x)
        print(float(x))
"""


def test_no_second_sweep_when_a_file_linted_again_keeps_its_summary(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """``a`` and ``b`` import each other and each asks what the other's jitted function
    is: the one linted first is linted again at the end, and its summary is the one it
    had. No answer can have changed, so no second sweep checks every file's answers
    again: each of the three files is checked once, not twice; the findings are the
    same."""
    import jaxlint.cli.project_order as project_order

    write_package(tmp_path, {"__init__.py": "", "a.py": CYCLE_A, "b.py": CYCLE_B})
    checked: list[int] = []
    real = project_order.answers_changed
    monkeypatch.setattr(project_order, "answers_changed", lambda *a: checked.append(1) or real(*a))
    found, _, again = run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", "1")
    assert ("pkg/a.py", 14, "JAX102") in found
    assert ("pkg/b.py", 14, "JAX102") in found
    assert again == 1
    assert len(checked) == 3  # ``__init__.py``, ``a`` and ``b``: one sweep


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_import_in_a_docstring_makes_no_cycle(tmp_path: Path, monkeypatch, capsys, jobs) -> None:
    """``ops``'s docstring shows ``from pkg.train import train`` at the left margin: not
    an import, so ``ops`` is linted before ``train`` (which imports it) and nothing is
    linted twice (read as an import it made a cycle that put ``train`` first)."""
    doc = '"""The step.\n\nUse it as\n\nfrom pkg.train import train\ntrain(x, batches)\n"""\n'
    train = PACKAGE_TRAIN.replace("from pkg import", "from pkg.ops import")
    write_package(tmp_path, {"ops.py": doc + PACKAGE_OPS, "train.py": train})
    found, _, again = run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", jobs)
    assert ("pkg/train.py", 9, "JAX102") in found
    assert again == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_package_and_a_submodule_that_import_each_other_are_linted_once(
    tmp_path: Path, monkeypatch, capsys, jobs
) -> None:
    """``pkg/__init__.py`` re-exports ``step`` and imports ``train``, which imports
    ``step`` from ``pkg``: an import cycle. The package is linted before its submodule
    (it names what ``ops`` defines), so ``train`` knows on its first lint that ``step``
    is jitted, and nothing is linted twice."""
    # ``train`` sorts before ``ops``: a depth-first walk from ``__init__`` meets the cycle
    # at ``train -> pkg`` and would lint ``train`` first
    init = "from pkg.train import train\nfrom pkg.ops import step\n"
    write_package(tmp_path, {"__init__.py": init, "ops.py": PACKAGE_OPS, "train.py": PACKAGE_TRAIN})
    found, _, again = run(tmp_path, monkeypatch, capsys, "--no-cache", "-j", jobs)
    assert ("pkg/train.py", 9, "JAX102") in found
    assert again == 0
