"""Project-wide analysis: what other modules of a project say about an imported name.

Each fixture project under tests/fixtures/projects/ is copied to a temporary folder and
checked the ways a user runs jaxlint: the whole project (one process and two), one
file alone (pre-commit passes only changed files), stdin with ``--stdin-filename``,
and flake8. Findings that need another module's summary must appear in all of them;
a changed module must re-check the files that used what it said, also from the cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from project_support import (
    KEY_MIXIN,
    NOISE,
    NOISE_STORED_KEY,
    NOISE_WITH_MIXIN,
    STATIC_OPS,
    STATIC_USE,
    write_package,
)

import jaxlint.versions
from jaxlint.analysis.project import (
    ModuleId,
    ProjectIndex,
    absolute_module,
    find_project_root,
    module_id,
)
from jaxlint.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "projects"


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)


def copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def check(
    root: Path, *args: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, int, str, str]]:
    """``jaxlint check --select ALL`` in ``root``: (file, row, code, message) per finding."""
    monkeypatch.chdir(root)
    code = main(["check", "--select", "ALL", "--output-format", "json", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert code in (0, 1), err
    found = json.loads(out)
    return sorted(
        (Path(d["filename"]).relative_to(root).as_posix(), d["location"]["row"], d["code"],
         d["message"])
        for d in found
    )  # fmt: skip


def codes(found: list[tuple[str, int, str, str]]) -> list[tuple[str, int, str]]:
    return [(f, row, code) for f, row, code, _ in found]


SRC_LAYOUT = [
    ("src/pkg/loop.py", 9, "JAX102"),
    ("src/pkg/models.py", 7, "JAX201"),
    ("src/pkg/util.py", 5, "JAX101"),
]
"""``tests/util_under_jit.py`` jits ``untouched`` on purpose (it checks the error): test files
do not make library functions traced."""


# -- modules, packages, roots ------------------------------------------------------------------


def test_module_names_from_packages_and_src_layout(tmp_path: Path) -> None:
    root = copy("src_layout", tmp_path)
    step = module_id(root / "src/pkg/train/step.py")
    assert step == ModuleId("pkg.train.step", root / "src", False)
    init = module_id(root / "src/pkg/train/__init__.py")
    assert init == ModuleId("pkg.train", root / "src", True)
    assert find_project_root(root / "src/pkg/train/step.py") == root
    index = ProjectIndex(root)
    assert index.find_module("pkg.util") == root / "src/pkg/util.py"
    assert index.find_module("pkg.train") == root / "src/pkg/train/__init__.py"
    assert index.locate("pkg.train.step.train_step") == ("pkg.train.step", ["train_step"])
    assert index.find_module("jax") is None  # installed packages are never looked at


def test_without_a_project_marker_only_the_folder_and_its_packages_are_read(
    tmp_path: Path,
) -> None:
    """A script checked in a folder with no pyproject.toml/setup.py/.git (a home folder,
    /tmp, Colab's /content): the folder's own files and its packages stand in for the
    project; other folders below it (datasets, checkouts, caches) are not read."""
    (tmp_path / "train.py").write_text("import jax\n")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "layers.py").write_text("import jax\n")
    (tmp_path / "checkouts" / "other").mkdir(parents=True)
    (tmp_path / "checkouts" / "other" / "big.py").write_text("import jax\n")
    assert find_project_root(tmp_path / "train.py") is None
    index = ProjectIndex(None)
    index.add_search_root(tmp_path)
    files = {p.relative_to(tmp_path).as_posix() for p in index.project_files()}
    assert files == {"train.py", "pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/layers.py"}
    marked = ProjectIndex(tmp_path)
    assert "checkouts/other/big.py" in {
        p.relative_to(tmp_path).as_posix() for p in marked.project_files()
    }


def test_relative_import_levels() -> None:
    mod = ModuleId("pkg.train.step", Path("."), False)
    assert absolute_module(mod, 1, None) == "pkg.train"
    assert absolute_module(mod, 2, "util") == "pkg.util"
    assert absolute_module(mod, 3, None) is None or absolute_module(mod, 3, None) == ""
    package = ModuleId("pkg.train", Path("."), True)
    assert absolute_module(package, 1, "step") == "pkg.train.step"
    assert absolute_module(mod, 5, "x") is None  # beyond the top-level package


# -- what the other modules say ------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_src_layout_whole_project(tmp_path: Path, capsys, monkeypatch, jobs: str) -> None:
    root = copy("src_layout", tmp_path)
    found = check(root, "--no-cache", "-j", jobs, ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == SRC_LAYOUT
    messages = {code: message for _, _, code, message in found}
    # the evidence says where it came from, in the user's names
    assert "waits for `train_step` (jitted at src/pkg/train/step.py:7)" in messages["JAX102"]
    assert (
        "`batch` is traced: parameter of `helper`, called from `train_step`"
        " (src/pkg/train/step.py:7), which is jitted by `jax.jit`" in messages["JAX101"]
    )
    # ``fast_forward = jax.jit(forward, static_argnums=1)`` in apply.py: ``depth`` is static
    assert (
        "`x` is traced: parameter of `forward`, jitted by `jax.jit` in src/pkg/apply.py:6"
        in messages["JAX201"]
    )


@pytest.mark.parametrize("one", ["src/pkg/loop.py", "src/pkg/util.py", "src/pkg/models.py"])
def test_one_file_uses_the_other_modules(tmp_path: Path, capsys, monkeypatch, one: str) -> None:
    """pre-commit passes only the changed files: the others' summaries are still used."""
    root = copy("src_layout", tmp_path)
    found = check(root, "--no-cache", one, capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [f for f in SRC_LAYOUT if f[0] == one]


def test_stdin_with_a_file_name(tmp_path: Path) -> None:
    root = copy("src_layout", tmp_path)
    text = (root / "src/pkg/util.py").read_text()
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--select", "ALL", "--no-cache",
         "--output-format", "concise", "-", "--stdin-filename", "src/pkg/util.py"],
        input=text, capture_output=True, text=True, cwd=root, timeout=120,
    )  # fmt: skip
    assert "src/pkg/util.py:5:13: JAX101" in proc.stdout, proc.stderr


def test_flake8_plugin_uses_the_project(tmp_path: Path) -> None:
    root = copy("src_layout", tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX", "src"],
        capture_output=True, text=True, cwd=root, timeout=300,
    )  # fmt: skip
    lines = sorted(
        line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in proc.stdout.splitlines()
    )
    assert lines == [
        "src/pkg/loop.py:9:23: JAX102",
        "src/pkg/models.py:7:8: JAX201",
        "src/pkg/util.py:5:13: JAX101",
    ], proc.stdout


def test_without_the_project_the_file_is_analysed_alone(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """The same code outside its package (no sibling modules): today's one-file result."""
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(FIXTURES / "src_layout/src/pkg/util.py", lone / "util.py")
    shutil.copy(FIXTURES / "src_layout/src/pkg/loop.py", lone / "loop.py")
    assert check(lone, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch) == []


def test_scripts_folder_without_packages(tmp_path: Path, capsys, monkeypatch) -> None:
    """Research scripts: ``from utils import step`` beside ``train.py``, no package."""
    root = copy("scripts", tmp_path)
    found = check(root, "--no-cache", "train.py", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("train.py", 9, "JAX102")]
    assert "waits for `step` (jitted at utils.py:5)" in found[0][3]


_SAMPLER = """import jax
import transformer as transformer_lib


class Sampler:
    def __init__(self, transformer: transformer_lib.Transformer):
        self.transformer = transformer
        self.sample = jax.jit(self._sample)

    def _sample(self, tokens):
        return self.transformer(tokens)
"""


def test_a_script_imports_the_sibling_module_of_its_own_folder(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``import transformer`` in ``examples/gemma/sampler.py``, run as a script from its
    folder: the ``transformer.py`` beside it, not another example's (``examples/`` is a
    package, ``gemma/`` and ``plain/`` are not)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    examples = tmp_path / "examples"
    for folder, base in (("gemma", "nnx.Module"), ("plain", "object")):
        (examples / folder).mkdir(parents=True)
        (examples / folder / "sampler.py").write_text(_SAMPLER)
        (examples / folder / "transformer.py").write_text(
            f"from flax import nnx\n\n\nclass Transformer({base}):\n    pass\n"
        )
    (examples / "__init__.py").write_text("")
    found = check(tmp_path, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("examples/gemma/sampler.py", 8, "JAX406")]
    assert "`self.transformer` (`Transformer`, a Flax NNX module)" in found[0][3]


def test_meshes_by_annotation(tmp_path: Path, capsys, monkeypatch) -> None:
    root = copy("meshes", tmp_path)
    found = check(root, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [
        ("app/run.py", 10, "JAX502"),
        ("app/run.py", 12, "JAX502"),
        ("app/run.py", 14, "JAX502"),
    ]
    messages = [m for *_, m in found]
    assert "`with trainer.device_mesh:` (a `Mesh`, says app/trainer.py:5)" in messages[0]
    assert "`with build_mesh():` (a `Mesh`, says app/trainer.py:18)" in messages[1]
    assert "`with MESH:` (a `Mesh`, says app/trainer.py:22)" in messages[2]


def test_flax_model_class_from_the_project(tmp_path: Path, capsys, monkeypatch) -> None:
    """A module that imports the model class from the project's own package: Flax's
    ``init`` only folds the key in, so drawing from it afterwards is not a reuse (the
    file never imports flax itself). A plain class's ``init`` still consumes it."""
    root = copy("flax_models", tmp_path)
    found = check(root, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("app/build.py", 18, "JAX301")]


def test_module_class_from_the_project_is_traced_by_contract(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``Block`` derives from a Flax module through a base class of another module (the
    file never imports Flax): its ``__call__`` is traced by contract, and so is the helper
    of another module that it calls (a module that never mentions JAX). A plain class's
    ``__call__`` is not, nor a module's in a test file, which calls it eagerly."""
    root = copy("contract_bases", tmp_path)
    found = check(root, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("app/layers.py", 9, "JAX201"), ("app/util.py", 5, "JAX101")]
    assert "parameter of `Block.__call__`, a Flax Linen module method" in found[0][3]
    assert (
        "called from `Block.__call__` (app/layers.py:8), which is a Flax Linen module method,"
        " traced whenever the model runs under `jax.jit`" in found[1][3]
    )


def test_key_wrappers(tmp_path: Path, capsys, monkeypatch) -> None:
    """``rand.normal(key)`` twice is a reuse when ``rand.normal`` draws from its key;
    ``rand.describe(key)`` only reads it (``key_data``) and consumes nothing; the jitted
    ``rand.noisy_step(state, rng)`` draws from its key, given the same one every step."""
    root = copy("keys", tmp_path)
    found = check(root, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("mylib/use.py", 9, "JAX301"), ("mylib/use.py", 22, "JAX301")]
    assert "by `rand.noisy_step` at line 22 on every iteration of the loop" in found[1][3]


def test_import_cycle_and_missing_module(tmp_path: Path, capsys, monkeypatch) -> None:
    """``a`` imports ``b`` and ``b`` imports ``a`` (and a name ``a`` re-exports from
    ``b``); ``a`` imports a module that does not exist. Nothing hangs or crashes; what
    can be known is used: ``b.helper`` is traced from ``a.step``."""
    root = copy("cycle", tmp_path)
    found = check(root, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("cyc/b.py", 8, "JAX201")]
    assert "called from `step` (cyc/a.py:9)" in found[0][3]


# -- invalidation --------------------------------------------------------------------------------


def test_changed_module_rechecks_its_importers(tmp_path: Path, capsys, monkeypatch) -> None:
    root = copy("src_layout", tmp_path)
    step = root / "src/pkg/train/step.py"
    first = check(root, ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(first) == SRC_LAYOUT
    assert check(root, ".", capsys=capsys, monkeypatch=monkeypatch) == first  # from the cache
    step.write_text(step.read_text().replace("@jax.jit\n", ""))
    # util.py and loop.py are unchanged, and their cached results no longer hold
    models = [f for f in first if f[0] == "src/pkg/models.py"]
    assert check(root, ".", capsys=capsys, monkeypatch=monkeypatch) == models
    assert check(root, "src/pkg/util.py", capsys=capsys, monkeypatch=monkeypatch) == []
    step.write_text(step.read_text().replace("def train_step", "@jax.jit\ndef train_step"))
    assert check(root, ".", capsys=capsys, monkeypatch=monkeypatch) == first
    # one file, answered from the cache, still checks what the others say now
    step.write_text(step.read_text().replace("@jax.jit\n", ""))
    assert check(root, "src/pkg/loop.py", capsys=capsys, monkeypatch=monkeypatch) == []


def test_end_of_run_recheck_is_counted(tmp_path: Path, capsys, monkeypatch) -> None:
    root = copy("src_layout", tmp_path)
    monkeypatch.chdir(root)
    code = main(["check", "--select", "ALL", "--no-cache", "--timings", "-j", "1", "."])
    out, err = capsys.readouterr()
    assert code == 1
    # util.py is linted before step.py says it calls `helper` traced: linted again
    assert "linted again for what other modules say" in out + err


# -- JAX603: x64 switched on outside the file ----------------------------------------------------


def copy_x64(tmp_path: Path) -> Path:
    """The ``x64`` fixture projects, with each ``conftest.fixture.py`` copied as
    ``conftest.py`` (stored under another name so that pytest does not load it here)."""
    root = copy("x64", tmp_path)
    for stored in root.rglob("conftest.fixture.py"):
        stored.rename(stored.with_name("conftest.py"))
    return root


@pytest.mark.parametrize("one", [False, True], ids=["project", "one-file"])
def test_x64_switched_on_outside_the_file(tmp_path: Path, capsys, monkeypatch, one: bool) -> None:
    """JAX603 reads the ``conftest.py`` files above a test module (at import, in
    ``pytest_configure``, in an autouse fixture), the pytest configuration
    (``pytest.ini``, ``pyproject.toml``, ``setup.cfg``, ``tox.ini``) and the package
    ``__init__.py`` the module belongs to or imports. Each fixture folder is its own
    project (its own marker)."""
    base = copy_x64(tmp_path)
    expected = {
        "conftest/other/tests/sums.py": 5,  # no conftest above it
        "disabled/tests/sums.py": 5,  # JAX_ENABLE_X64=0
        "hooks/tests/named/sums.py": 5,  # a fixture the test does not request
        "package/scripts/plain.py": 3,  # does not import the package that enables x64
    }
    silent = [
        "conftest/tests/sums.py",
        "conftest/tests/unit/nested.py",
        "hooks/tests/hook/sums.py",
        "hooks/tests/autouse/sums.py",
        "ini/tests/sums.py",
        "pyproject/tests/sums.py",
        "setupcfg/tests/sums.py",
        "tox/tests/sums.py",
        "package/mypkg/run.py",
        "package/scripts/demo.py",
    ]
    for name in [*expected, *silent]:
        project, _, rel = name.partition("/")
        root = base / project
        args = ["--no-cache", "--select", "JAX603", rel if one else "."]
        found = check(root, *args, capsys=capsys, monkeypatch=monkeypatch)
        mine = [(f, row, code) for f, row, code, _ in found if f == rel]
        want = [(rel, expected[name], "JAX603")] if name in expected else []
        assert mine == want, name


def test_x64_answer_is_recorded_and_rechecked(tmp_path: Path, capsys, monkeypatch) -> None:
    """The finding depends on a ``conftest.py`` the run does not lint: a cached result is
    checked again when it changes."""
    root = copy_x64(tmp_path) / "conftest"
    conftest = root / "tests/conftest.py"
    args = ["--select", "JAX603", "."]
    first = codes(check(root, *args, capsys=capsys, monkeypatch=monkeypatch))
    assert first == [("other/tests/sums.py", 5, "JAX603")]
    conftest.write_text(conftest.read_text().replace("True", "False"))
    second = codes(check(root, *args, capsys=capsys, monkeypatch=monkeypatch))
    assert second == [
        ("other/tests/sums.py", 5, "JAX603"),
        ("tests/sums.py", 5, "JAX603"),
        ("tests/unit/nested.py", 5, "JAX603"),
    ]
    conftest.write_text(conftest.read_text().replace("False", "True"))
    assert codes(check(root, *args, capsys=capsys, monkeypatch=monkeypatch)) == first


@pytest.mark.parametrize(
    ("name", "text", "on"),
    [
        ("pytest.ini", "[pytest]\nenv =\n    JAX_ENABLE_X64=1\n", True),
        ("pytest.ini", "[pytest]\nenv =\n    JAX_ENABLE_X64=false\n", False),
        ("pytest.ini", "[pytest]\naddopts = -ra --jax_enable_x64\n", True),
        ("pytest.ini", "[other]\nenv = JAX_ENABLE_X64=1\n", False),
        ("setup.cfg", "[tool:pytest]\nenv = D:JAX_ENABLE_X64=True\n", True),
        ("setup.cfg", "[testenv]\nsetenv = JAX_ENABLE_X64=1\n", False),
        ("tox.ini", "[testenv:py312]\nsetenv =\n    JAX_ENABLE_X64 = 1\n", True),
        ("pyproject.toml", '[tool.pytest.ini_options]\nenv = ["JAX_ENABLE_X64=1"]\n', True),
        ("pyproject.toml", '[tool.pytest_env]\nJAX_ENABLE_X64 = "0"\n', False),
        ("pyproject.toml", '[tool.pytest_env]\nJAX_ENABLE_X64 = "1"\n', True),
        ("pyproject.toml", '[project]\ndescription = "JAX_ENABLE_X64=1"\n', False),
        ("pyproject.toml", "[tool.pytest.ini_options\n", False),  # not TOML: nothing
    ],
)
def test_x64_in_pytest_configuration(name: str, text: str, on: bool) -> None:
    from jaxlint.analysis.x64 import scan_config

    assert scan_config(name, text) is on


@pytest.mark.parametrize(
    ("text", "conftest", "line"),
    [
        ('import jax\njax.config.update("jax_enable_x64", True)\n', False, 2),
        ('import jax\njax.config.update("jax_enable_x64", False)\n', False, None),
        ('import os\nos.environ["JAX_ENABLE_X64"] = "1"\nimport jax\n', False, 2),
        ('import os\nos.environ.setdefault("JAX_ENABLE_X64", "True")\n', False, 2),
        # a function of a package's __init__ runs only when called
        ('import jax\ndef on():\n    jax.config.update("jax_enable_x64", True)\n', False, None),
        ('import jax\ndef pytest_configure(config):\n    jax.config.update("jax_enable_x64", 1)\n',
         True, 3),
        # JAX reads the environment variable once, when it is imported
        ('import jax\nimport os\nos.environ["JAX_ENABLE_X64"] = "1"\n', False, None),
        ("import jax, pytest\n@pytest.fixture(autouse=True)\ndef f(monkeypatch):\n"
         '    monkeypatch.setenv("JAX_ENABLE_X64", "1")\n', True, None),
        ("import jax, pytest\n@pytest.fixture(autouse=True)\ndef f():\n"
         "    with jax.enable_x64(True):\n        yield\n", True, 4),
        ("import jax, pytest\n@pytest.fixture\ndef f():\n    with jax.enable_x64(True):\n"
         "        yield\n", True, None),
        # a fixture that restores the flag it saved does not switch it on (blackjax)
        ("import jax, pytest\n@pytest.fixture(autouse=True)\ndef restore():\n"
         "    saved = jax.config.jax_enable_x64\n    yield\n"
         '    jax.config.update("jax_enable_x64", saved)\n', True, None),
        ("def broken(:\n", True, None),
        # at the top level a computed value may switch it on (feax: an environment default)
        ('import jax\njax.config.update("jax_enable_x64", _resolve())\n', False, 2),
        ('import jax\njax.config.update("jax_enable_x64", None)\n', False, None),
        # a module-level object whose constructor switches it on, through a method (nlsq)
        ("class Config:\n    def __init__(self):\n        self._init_jax()\n\n"
         "    def _init_jax(self):\n        from jax import config\n\n"
         '        config.update("jax_enable_x64", True)\n\n\n_config = Config()\n',
         False, 8),
        # ... a module-level function called there, and one it calls
        ('import jax\ndef on():\n    _on()\ndef _on():\n    jax.config.update("jax_enable_x64", 1)\n'
         "on()\n", False, 5),
        # a class never instantiated, a method only called later, a switch that turns it off
        ("import jax\nclass Config:\n    def enable(self):\n"
         '        jax.config.update("jax_enable_x64", True)\n\n\n_config = Config()\n',
         False, None),
        ("import jax\nclass Config:\n    def __init__(self):\n"
         '        jax.config.update("jax_enable_x64", False)\n\n\n_config = Config()\n',
         False, None),
        # a script's main() runs when the file is run, not when it is imported
        ('import jax\ndef main():\n    jax.config.update("jax_enable_x64", True)\n'
         'if __name__ == "__main__":\n    main()\n', False, None),
    ],
)  # fmt: skip
def test_x64_in_python_files(text: str, conftest: bool, line: int | None) -> None:
    from jaxlint.analysis.x64 import scan_python

    assert scan_python(text, conftest) == line


@pytest.mark.parametrize(
    ("test", "reported"),
    [
        # a submodule that switches x64 on when imported (pylcp-jax's GPU tools)
        ("from pkg.gpu import solve\n", False),
        # a function of the project that switches it on, with a computed value (dnsjax)
        ("from pkg.setup import configure\n\nconfigure()\n", False),
        # ... also when the test imports and calls it inside a function
        ("def setup_module():\n    from pkg.setup import configure\n\n    configure()\n",
         False),
        # ... and a module that switches it on, imported inside a function (awen-dlmax)
        ("def setup_module():\n    from pkg.gpu import solve  # noqa: F401\n", False),
        # one that switches it off, or one never called, does not
        ("from pkg.setup import disable\n\ndisable()\n", True),
        ("from pkg.setup import configure  # noqa: F401\n", True),
        ("import pkg\n", True),
    ],
)  # fmt: skip
def test_x64_from_a_project_module_or_function(
    tmp_path: Path, capsys, monkeypatch, test: str, reported: bool
) -> None:
    """JAX603 counts the project modules a file imports at its top level (not only the
    top package's ``__init__.py``) and the project functions it calls that switch x64
    on with any value but a literal false (fresh-2026-12i: pylcp-jax, dnsjax)."""
    pkg = write_package(
        tmp_path,
        {
            "gpu.py": 'import jax\n\njax.config.update("jax_enable_x64", True)\n\n\n'
            "def solve(x):\n    return x\n",
            "setup.py": "import jax\n\n\ndef configure(double_precision=True):\n"
            '    jax.config.update("jax_enable_x64", double_precision)\n\n\n'
            'def disable():\n    jax.config.update("jax_enable_x64", False)\n',
        },
    )
    _float64_test(tmp_path, "test_sum.py", test)
    del pkg
    found = check(
        tmp_path, "--no-cache", "--select", "JAX603", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert bool(found) is reported, found


@pytest.mark.parametrize(
    ("init", "test", "reported"),
    [
        # the package re-exports it (gridvoting-jax: ``gv.enable_float64()``)
        ("from .core.config import enable\n", "import pkg as gv\n\ngv.enable()\n", False),
        ("from pkg.core.config import enable\n", "import pkg\n\npkg.enable()\n", False),
        # through the subpackage's own re-export too
        ("from .core import enable\n", "from pkg import enable\n\nenable()\n", False),
        # a re-exported function that switches it off does not
        ("from .core.config import disable\n", "import pkg\n\npkg.disable()\n", True),
    ],
)  # fmt: skip
def test_x64_from_a_reexported_project_function(
    tmp_path: Path, capsys, monkeypatch, init: str, test: str, reported: bool
) -> None:
    """JAX603 follows the package's re-exports to the function that switches x64 on
    (fresh-2026-12n: gridvoting-jax's test calls ``gv.enable_float64()``, defined in
    ``core/config.py`` and imported into the package's ``__init__.py``)."""
    pkg = write_package(tmp_path, {"__init__.py": init})
    (pkg / "core").mkdir()
    (pkg / "core" / "__init__.py").write_text("from .config import disable, enable\n")
    (pkg / "core" / "config.py").write_text(
        'import jax\n\n\ndef enable():\n    jax.config.update("jax_enable_x64", True)\n\n\n'
        'def disable():\n    jax.config.update("jax_enable_x64", False)\n'
    )
    _float64_test(tmp_path, "test_sum.py", test)
    found = check(
        tmp_path, "--no-cache", "--select", "JAX603", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert bool(found) is reported, found


_X64_ON = 'import jax\n\njax.config.update("jax_enable_x64", True)\n'


def _float64_test(root: Path, name: str, head: str) -> None:
    """``tests/<name>``: a test asking for float64 after the lines ``head``."""
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / name).write_text(
        "import jax.numpy as jnp\n"
        + head
        + "\n\ndef test_sum():\n    assert jnp.zeros(3, dtype=jnp.float64).sum() == 0\n"
    )


def test_x64_through_an_import_cycle_does_not_depend_on_which_file_asks_first(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``a`` imports ``b`` and ``c`` (which switches x64 on), ``b`` imports ``a``: both run
    with x64 on. A walk from ``a`` that met ``b`` while ``a`` was still open must not
    leave ``b`` remembered as "never switches it on" for the next file that asks."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    for name, text in {
        "__init__.py": "",
        "a.py": "from . import b  # noqa: F401\nfrom . import c  # noqa: F401\n",
        "b.py": "from . import a  # noqa: F401\n",
        "c.py": _X64_ON,
    }.items():
        (pkg / name).write_text(text)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    for test, module in (("test_a.py", "pkg.a"), ("test_b.py", "pkg.b")):
        _float64_test(tmp_path, test, f"from pkg import {module[4:]}  # noqa: F401\n")
    found = check(
        tmp_path, "--no-cache", "--select", "JAX603", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert found == [], found


@pytest.mark.parametrize(
    ("files", "test", "reported"),
    [
        # the package imports a subpackage whose module switches it on (chronax's
        # ``utils/__init__.py`` imports ``.utils``; fresh-2026-12q)
        ({"__init__.py": "from . import utils\n", "utils/__init__.py": "from .core import *\n",
          "utils/core.py": _X64_ON},
         "import pkg\n", False),
        ({"__init__.py": "from . import utils\n", "utils/__init__.py": "from .core import *\n",
          "utils/core.py": _X64_ON, "models.py": "def fit(x):\n    return x\n"},
         "from pkg.models import fit  # noqa: F401\n", False),
        # absolute imports, inside ``try`` too
        ({"__init__.py": "try:\n    import pkg.core\nexcept ImportError:\n    pass\n",
          "core.py": _X64_ON},
         "import pkg\n", False),
        # not an import that never runs: under ``if TYPE_CHECKING:``, or in a function
        ({"__init__.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
          "    from . import core\n", "core.py": _X64_ON},
         "import pkg\n", True),
        ({"__init__.py": "def load():\n    from . import core\n", "core.py": _X64_ON},
         "import pkg\n", True),
        # a cycle of imports that never switches it on ends
        ({"__init__.py": "from . import a\n", "a.py": "from . import b\n",
          "b.py": "from . import a\n"},
         "import pkg\n", True),
    ],
)  # fmt: skip
def test_x64_through_the_modules_an_imported_package_imports(
    tmp_path: Path, capsys, monkeypatch, files: dict[str, str], test: str, reported: bool
) -> None:
    """Importing a module runs the project modules it imports at its top level, and theirs:
    x64 switched on anywhere down that chain is on for the importer."""
    pkg = tmp_path / "pkg"
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    _float64_test(tmp_path, "test_sum.py", test)
    found = check(
        tmp_path, "--no-cache", "--select", "JAX603", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert bool(found) is reported, found


@pytest.mark.parametrize(("package", "reported"), [(True, False), (False, True)])
def test_a_module_of_constants_in_a_package_is_a_library(
    tmp_path: Path, capsys, monkeypatch, package: bool, reported: bool
) -> None:
    """Only imports and assignments: in a package, constants other modules import
    (clm-ml-jax's ``TowerDataMod.py``, fresh-2026-12q), silent as a library module; a
    lone file like it is a script (the rule's INVALID examples)."""
    folder = tmp_path / "driver"
    folder.mkdir()
    if package:
        (folder / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'driver'\n")
    (folder / "towers.py").write_text(
        '"""Tower sites."""\n\nimport jax.numpy as jnp\n\nntower: int = 3\n'
        "lat = jnp.array([42.5, 45.8, 38.4], dtype=jnp.float64)\n"
    )
    found = check(
        tmp_path, "--no-cache", "--select", "JAX603", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert bool(found) is reported, found


_TO_NUMPY_RNG = (
    "import jax\nimport numpy as np\n\n\ndef to_numpy_rng(key):\n"
    "    seed = np.asarray(jax.random.randint(key, (2,), 0, 99), dtype=np.uint32)\n"
    "    return np.random.default_rng(seed)\n"
)


@pytest.mark.parametrize(
    ("caller", "reported"),
    [
        # an Equinox module's ``__call__``, traced only by contract (xwm's mask sampler)
        ("import equinox as eqx\n\nfrom pkg.base import to_numpy_rng\n\n\n"
         "class Mask(eqx.Module):\n    def __call__(self, key):\n"
         "        return to_numpy_rng(key).permutation(8)\n", False),
        # a function jitted in sight: the seed really is a tracer there
        ("import jax\n\nfrom pkg.base import to_numpy_rng\n\n\n"
         "@jax.jit\ndef mask(key):\n    return to_numpy_rng(key).permutation(8)\n", True),
    ],
)  # fmt: skip
def test_host_generator_seeded_in_another_module(
    tmp_path: Path, capsys, monkeypatch, caller: str, reported: bool
) -> None:
    """JAX101 leaves a conversion that seeds a host generator when every caller that
    makes it traced is traced only by a framework's contract, through the summaries of
    other modules too (fresh-2026-12n: xwm's ``to_numpy_rng``)."""
    write_package(tmp_path, {"base.py": _TO_NUMPY_RNG, "mask.py": caller})
    found = check(
        tmp_path, "--no-cache", "--select", "JAX101", ".", capsys=capsys, monkeypatch=monkeypatch
    )
    assert codes(found) == ([("pkg/base.py", 6, "JAX101")] if reported else []), found


def test_shard_map_none_spec_of_an_imported_function(tmp_path: Path, capsys, monkeypatch) -> None:
    """``shard_map(body, in_specs=(P(), None))`` in another module: ``body``'s second
    argument is passed as it is (a Python int stays one), so it is not surely traced
    there; with ``P()`` it is (both checked on jax 0.12 by the JAX201 examples)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    body = "import jax  # noqa: F401\n\n\ndef {name}(x, n):\n    return x * int(n)\n"
    (tmp_path / "pkg" / "as_is.py").write_text(body.format(name="as_is"))
    (tmp_path / "pkg" / "replicated.py").write_text(body.format(name="replicated"))
    (tmp_path / "pkg" / "main.py").write_text(
        "import jax\n"
        "from jax.sharding import PartitionSpec as P\n\n"
        "from pkg.as_is import as_is\n"
        "from pkg.replicated import replicated\n\n\n"
        "def run(x):\n"
        "    y = jax.shard_map(as_is, in_specs=(P(), None), out_specs=P())(x, 2)\n"
        "    return jax.shard_map(replicated, in_specs=(P(), P()), out_specs=P())(y, 2)\n"
    )
    found = check(tmp_path, "--no-cache", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [("pkg/replicated.py", 5, "JAX101")]


# -- modules that never mention JAX, called from traced code -------------------------------------

PLAIN_HELPERS = [("pkg/helpers.py", 10, "JAX101"), ("pkg/utils.py", 5, "JAX101")]
"""``helpers.py`` and ``utils.py`` never spell a JAX library's name; jitted ``step`` calls
``normalize``, which calls ``to_host``. ``on_host`` and ``unrelated.py`` are host code."""


@pytest.mark.parametrize("flags", [["--no-cache"], ["--no-cache", "-j", "2"], []])
def test_modules_that_never_mention_jax_called_from_traced_code(
    tmp_path: Path, capsys, monkeypatch, flags: list[str]
) -> None:
    root = copy("plain_helpers", tmp_path)
    found = check(root, *flags, ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == PLAIN_HELPERS
    assert "called from `normalize` (pkg/helpers.py:8)" in found[1][3]
    assert "jitted by `jax.jit`" in found[1][3]
    if not flags:  # the cache holds the fixpoint: the next run (a new process) lints nothing
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        env.pop("JAXLINT_CACHE_DIR", None)
        again = subprocess.run(
            [sys.executable, "-m", "jaxlint", "check", "--select", "ALL", "--output-format", "json",
             "--timings", "--target-jax", "0.12.0", "."],  # the JAX ``check`` above pretends
            cwd=root, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert again.returncode == 1, again.stderr
        assert "0 file(s) linted, 3 from the cache, 2 never mention JAX" in again.stderr


def test_a_plain_module_is_linted_again_when_traced_code_stops_calling_it(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    root = copy("plain_helpers", tmp_path)
    model = root / "pkg/model.py"
    assert codes(check(root, ".", capsys=capsys, monkeypatch=monkeypatch)) == PLAIN_HELPERS
    model.write_text(model.read_text().replace("@jax.jit\n", ""))
    assert check(root, ".", capsys=capsys, monkeypatch=monkeypatch) == []
    model.write_text(model.read_text().replace("def step", "@jax.jit\ndef step"))
    assert codes(check(root, ".", capsys=capsys, monkeypatch=monkeypatch)) == PLAIN_HELPERS


def test_one_plain_file_sees_the_jitted_code_that_calls_it(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    root = copy("plain_helpers", tmp_path)
    found = check(root, "--no-cache", "pkg/helpers.py", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == [PLAIN_HELPERS[0]]


def test_flake8_plugin_lints_a_plain_module_called_from_traced_code(tmp_path: Path) -> None:
    root = copy("plain_helpers", tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX", "pkg"],
        capture_output=True, text=True, cwd=root, timeout=300,
    )  # fmt: skip
    found = sorted(
        line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in proc.stdout.splitlines()
    )
    # one file at a time: utils.py is traced only through helpers.py, a helper of a third
    # module, which one-file runs follow only when the process linted helpers.py before
    # (docs/design.md, "One file alone"); flake8's order of files and processes decides
    assert "pkg/helpers.py:10:33: JAX101" in found, proc.stdout
    assert set(found) <= {"pkg/helpers.py:10:33: JAX101", "pkg/utils.py:5:12: JAX101"}


@pytest.mark.parametrize(
    ("record", "reported"),
    [
        ("class State(NamedTuple):\n    key: jax.Array\n    x: jax.Array\n", False),
        (
            "@dataclasses.dataclass\nclass State:\n    key: jax.Array\n    x: jax.Array\n\n"
            "    def __post_init__(self):\n        self.noise = jax.random.normal(self.key)\n",
            True,
        ),
        (
            # navix's ``State``: a frozen struct whose ``__post_init__`` fills one field
            # from another and never reads ``key``
            "@dataclasses.dataclass(frozen=True)\nclass State:\n    key: jax.Array\n"
            "    x: jax.Array\n    total: float = 0.0\n\n    def __post_init__(self):\n"
            '        object.__setattr__(self, "total", self.x.sum())\n',
            False,
        ),
        (
            "@dataclasses.dataclass\nclass State:\n    key: jax.Array\n    x: jax.Array\n\n"
            "    def __post_init__(self):\n        check(self)\n\n\n"
            "def check(state):\n    jax.random.normal(state.key)\n",
            True,
        ),
    ],
    ids=["plain-record", "post-init", "post-init-reads-other-fields", "post-init-gives-self"],
)
def test_a_key_stored_in_a_record_class_of_another_module(
    tmp_path: Path, capsys, monkeypatch, record: str, reported: bool
) -> None:
    """A class of the project without a constructor of its own only stores the key (as a
    class of the same module does): not a use; one whose ``__post_init__`` reads the key's
    field, or gives ``self`` away, may draw from it; one whose ``__post_init__`` reads only
    other fields stores it."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "states.py").write_text(
        "import dataclasses\nfrom typing import NamedTuple\n\nimport jax\n\n\n" + record
    )
    (pkg / "env.py").write_text(
        "import jax\n\nfrom pkg.states import State\n\n\ndef reset(key):\n"
        "    k1, k2 = jax.random.split(key)\n    x = jax.random.normal(k1, (3,))\n"
        "    return State(key=key, x=x)\n"
    )
    found = codes(check(tmp_path, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch))
    assert found == ([("pkg/env.py", 9, "JAX301")] if reported else [])


def test_x64_script_among_tests_says_the_conftest_is_for_pytest_only(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """A script under ``tests/`` (run as ``python tests/sweep_script.py``) does not run
    under pytest: the ``conftest.py`` that switches x64 on for the tests beside it does not
    apply, so it is reported, and the message names that ``conftest.py`` and says why it
    does not count (the test files beside it stay silent)."""
    root = copy_x64(tmp_path) / "conftest"
    (root / "tests" / "sweep_script.py").write_text(
        "import jax.numpy as jnp\n\n\ndef main():\n"
        "    acc = jnp.zeros(3, dtype=jnp.float64)\n    print(acc.dtype)\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    found = check(root, "--no-cache", "--select", "JAX603", ".", capsys=capsys,
                  monkeypatch=monkeypatch)  # fmt: skip
    mine = [(f, row, message) for f, row, _, message in found if f.startswith("tests/")]
    assert [(f, row) for f, row, _ in mine] == [("tests/sweep_script.py", 5)]
    assert (
        "but this script never enables x64 (`tests/conftest.py:4` switches it on only for"
        " the tests that pytest runs, not when this script runs)"
    ) in mine[0][2]


@pytest.mark.parametrize(
    ("package", "folder", "reported"),
    [(True, "tests", False), (False, "tests", False), (False, "checks", True)],
    ids=["packages", "plain-tests-folder", "plain-folder"],
)
def test_x64_from_a_conftest_above_without_a_project_marker(
    tmp_path: Path, capsys, monkeypatch, package: bool, folder: str, reported: bool
) -> None:
    """No pyproject.toml, setup.cfg, setup.py or .git: the ``conftest.py`` files of the
    packages the test is in, and of the folder that holds the top one, apply (where pytest
    is run from); under a ``tests`` folder, those up to the folder that holds it, packages
    or not (``pytest`` run there loads ``tests/conftest.py`` for ``tests/state/test_x.py``:
    checked with pytest; jax-galsim, fresh-2026-12g); in another plain folder only its
    own."""
    tests = tmp_path / "proj" / folder
    sub = tests / "state"
    sub.mkdir(parents=True)
    (tests / "conftest.py").write_text(
        'from jax import config\n\nconfig.update("jax_enable_x64", True)\n'
    )
    if package:
        (tests / "__init__.py").write_text("")
        (sub / "__init__.py").write_text("")
    (sub / "test_bessel.py").write_text(
        "import jax.numpy as jnp\n\n\ndef test_grad():\n"
        "    c = jnp.asarray(0.5, dtype=jnp.float64)\n    assert c > 0\n"
    )
    found = codes(check(tmp_path, "--no-cache", "proj", capsys=capsys, monkeypatch=monkeypatch))
    if not reported:
        assert found == []
    else:
        assert found == [(f"proj/{folder}/state/test_bessel.py", 5, "JAX603")]


def test_a_branch_that_a_default_keeps_off_the_traced_path_traces_nothing(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``coeffs(x, y, use_jax=True)`` is traced because another module's jitted code calls
    it, never passing ``use_jax``: its ``else`` branch, a NumPy helper for host callers
    (``coeffs(x, y, use_jax=False)``), never runs traced (jax-galsim, fresh-2026-12g). A
    helper in the branch the default takes is still traced."""
    pkg = write_package(tmp_path, {})
    (pkg / "interp.py").write_text(
        "import numpy as np\n"
        "import jax.numpy as jnp\n\n\n"
        "def coeffs(x, y, use_jax=True):\n"
        "    if use_jax:\n"
        "        return on_device(x, y)\n"
        "    else:\n"
        "        return on_host(x, y)\n\n\n"
        "def on_device(x, y):\n"
        "    return jnp.diff(y) / jnp.diff(x), np.asarray(y)\n\n\n"
        "def on_host(x, y):\n"
        "    return np.diff(np.asarray(y)) / np.diff(np.asarray(x))\n"
    )
    (pkg / "model.py").write_text(
        "import jax\n"
        "import jax.numpy as jnp\n\n"
        "from pkg.interp import coeffs\n\n\n"
        "@jax.jit\n"
        "def profile(k):\n"
        "    return coeffs(k, jnp.sin(k))\n"
    )
    found = codes(check(tmp_path, "--no-cache", "pkg", capsys=capsys, monkeypatch=monkeypatch))
    assert [f for f in found if f[0] == "pkg/interp.py"] == [("pkg/interp.py", 13, "JAX101")]


@pytest.mark.parametrize("grid", ["grid=grid", "grid=None", "left out"])
def test_an_optional_argument_every_traced_caller_passes_selects_the_traced_path(
    tmp_path: Path, capsys, monkeypatch, grid: str
) -> None:
    """``turbulence(..., grid=grid)`` from another module's traced step: in it, ``if grid
    is not None: return on_device(x, grid)`` takes the traced path, so the host path after
    it (``float()`` in the helper it calls) never runs traced (clm-ml-jax's
    ``CanopyTurbulence``, fresh-2026-12q), and the helper on the path taken is traced.
    Given ``None``, or left at ``None``, the host path is the traced one."""
    arg = "" if grid == "left out" else f", {grid}"
    pkg = write_package(tmp_path, {})
    (pkg / "turb.py").write_text(
        "import numpy as np\n"
        "import jax.numpy as jnp\n\n\n"
        "def turbulence(x, grid=None):\n"
        "    if grid is not None:\n"
        "        return on_device(x, grid)\n"
        "    return on_host(x)\n\n\n"
        "def on_device(x, grid):\n"
        "    return jnp.sum(x * grid), np.asarray(x)\n\n\n"
        "def on_host(x):\n"
        "    return float(jnp.sum(x))\n"
    )
    (pkg / "model.py").write_text(
        "import jax\n"
        "import jax.numpy as jnp\n\n"
        "from pkg.turb import turbulence\n\n\n"
        "@jax.jit\n"
        "def step(k, grid):\n"
        f"    return turbulence(jnp.sin(k){arg})\n"
    )
    found = codes(check(tmp_path, "--no-cache", "pkg", capsys=capsys, monkeypatch=monkeypatch))
    expected = [("pkg/turb.py", 12 if grid == "grid=grid" else 16, "JAX101")]
    assert [f for f in found if f[0] == "pkg/turb.py"] == expected


@pytest.mark.parametrize("given", ["check=False", "check=True", "check=flag"])
def test_a_literal_flag_from_another_module_decides_the_branch(
    tmp_path: Path, capsys, monkeypatch, given: str
) -> None:
    """``linear_operator(..., check=False)`` from another module's jitted ``transition``:
    the ``if check:`` branch, which calls a host-side check, never runs traced
    (rheplicant, fresh-2026-12s). Given ``True``, or a name, the branch may run."""
    pkg = write_package(tmp_path, {})
    (pkg / "linear.py").write_text(
        "import jax.numpy as jnp\n\n\n"
        "def linear_operator(x, check=True):\n"
        "    if check:\n"
        "        check_linearity(x)\n"
        "    return x * 2.0\n\n\n"
        "def check_linearity(x):\n"
        "    return float(jnp.max(jnp.abs(x)))\n"
    )
    (pkg / "engines.py").write_text(
        "import jax\n\n"
        "from pkg.linear import linear_operator\n\n\n"
        "@jax.jit\n"
        "def transition(x, flag=True):\n"
        f"    return linear_operator(x, {given})\n"
    )
    found = codes(check(tmp_path, "--no-cache", "pkg", capsys=capsys, monkeypatch=monkeypatch))
    expected = [] if given == "check=False" else [("pkg/linear.py", 11, "JAX101")]
    assert [f for f in found if f[0] == "pkg/linear.py"] == expected


def test_pytest_loads_the_conftest_of_a_tests_folder_for_a_plain_subfolder(
    tmp_path: Path,
) -> None:
    """What JAX603's walk without a project marker rests on (analysis/x64.py): pytest, run
    from the folder that holds ``tests``, imports ``tests/conftest.py`` before
    ``tests/state/test_x.py``, though neither folder is a package."""
    sub = tmp_path / "tests" / "state"
    sub.mkdir(parents=True)
    (tmp_path / "tests" / "conftest.py").write_text(
        'import os\n\nos.environ["JAXLINT_CONFTEST_SEEN"] = "1"\n'
    )
    (sub / "test_x.py").write_text(
        "import os\n\n\ndef test_seen():\n"
        '    assert os.environ.get("JAXLINT_CONFTEST_SEEN") == "1"\n'
    )
    env = {k: v for k, v in os.environ.items() if k != "JAXLINT_CONFTEST_SEEN"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


@pytest.mark.parametrize("where", ["other module", "same module"])
def test_a_key_property_of_a_base_class_gives_a_new_key_on_every_read(
    tmp_path: Path, capsys, monkeypatch, where: str
) -> None:
    """``self.rng_key`` is a ``@property`` of a base class that splits a key kept on the
    class and returns the new half (gwkokab's ``PRNGKeyMixin``): every read is a new key,
    so drawing from it in a loop or twice is no reuse (checked on JAX in
    tests/test_prng_runtime.py). The same class with a plain attribute is reported."""
    if where == "other module":
        pkg = write_package(tmp_path, {"keys.py": KEY_MIXIN, "noise.py": NOISE})
    else:
        pkg = write_package(tmp_path, {"noise.py": NOISE_WITH_MIXIN})
    found = check(tmp_path, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert [f for f in found if f[2] == "JAX301"] == []
    # a key stored on the object, not a property: the loop and the pair are reuses
    (pkg / "noise.py").write_text(NOISE_STORED_KEY)
    found = check(tmp_path, "--no-cache", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert [(f, c) for f, _, c, _ in found if c == "JAX301"] == [("pkg/noise.py", "JAX301")] * 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_list_reaches_a_static_parameter_of_another_module(
    tmp_path: Path, capsys, monkeypatch, jobs: str
) -> None:
    """JAX404 across modules: ``total``, jitted in ``pkg/ops.py``, and ``mesh``, which hands
    its ``limits`` on to ``_mesh``'s static parameter (``mesh_outer`` hands it to
    ``mesh``). Reported exactly where JAX raises: each function of ``pkg/use.py`` is
    called on CPU JAX and the ones that raise ``ValueError`` are the reported ones."""
    write_package(tmp_path, {"ops.py": STATIC_OPS, "use.py": STATIC_USE})
    found = check(
        tmp_path, "--no-cache", "-j", jobs, "--select", "JAX404", ".",
        capsys=capsys, monkeypatch=monkeypatch,
    )  # fmt: skip
    lines = STATIC_USE.splitlines()

    def function_at(row: int) -> str:
        return next(ln.split("(")[0][4:] for ln in reversed(lines[:row]) if ln.startswith("def "))

    reported = sorted(function_at(row) for f, row, code, _ in found if f == "pkg/use.py")
    assert reported == ["closure", "jitted_of_another_module", "through_mesh", "through_two"]
    messages = sorted(m for *_, m in found)
    assert any(
        "`[0, 1]` is passed to `mesh_outer`, which hands its `bounds` on to static parameter "
        "`limits` of `_mesh`: a list" in m
        for m in messages
    ), messages
    pytest.importorskip("jax")
    names = [ln[4:].split("(")[0] for ln in lines if ln.startswith("def ")]
    program = (
        "import json\nimport pkg.use as u\nout = {}\n"
        f"for name in {names!r}:\n"
        "    try:\n        getattr(u, name)()\n        out[name] = False\n"
        "    except ValueError as exc:\n"
        "        out[name] = str(exc).startswith('Non-hashable static arguments')\n"
        "print('RAISED ' + json.dumps(out))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(tmp_path)}, timeout=300,
    )  # fmt: skip
    out = [ln for ln in proc.stdout.splitlines() if ln.startswith("RAISED ")]
    assert out, proc.stderr[-3000:]
    raised = json.loads(out[-1][len("RAISED ") :])
    assert sorted(n for n, r in raised.items() if r) == reported


def test_a_failed_answer_about_callers_is_no_callers(tmp_path: Path, capsys, monkeypatch) -> None:
    """An answer the project could not give (a module it failed to summarise: a
    ``ValueError`` there) is recorded as none; the traced calls into this module are then
    none, and the file is still checked (fresh-2026-12k: one crash spread to 16 files)."""
    import jaxlint.analysis.project as project_module

    def fail(self: object) -> list:
        raise ValueError("a module the run could not summarise")

    monkeypatch.setattr(project_module.ProjectFacts, "_callers", fail)
    pkg = write_package(
        tmp_path,
        {
            "a.py": "import jax\n\nfrom pkg.b import helper\n\n\n@jax.jit\ndef step(x):\n"
            "    return helper(x)\n",
            "b.py": "import numpy as np\n\n\ndef helper(x):\n    return np.asarray(x)\n",
        },
    )
    assert pkg.is_dir()
    found = check(tmp_path, "--no-cache", "-j", "1", ".", capsys=capsys, monkeypatch=monkeypatch)
    assert codes(found) == []  # and ``check`` saw exit 0 or 1: no rule failed


@pytest.mark.parametrize(
    "imports",
    [
        "from tests._x64_compat import enable_x64",
        "try:\n    from jax import enable_x64\nexcept ImportError:\n"
        "    from tests._x64_compat import enable_x64",
        "try:\n    from jax import enable_x64 as _enable_x64\nexcept ImportError:\n"
        "    from tests._x64_compat import enable_x64 as _enable_x64",
    ],
)
def test_a_project_wrapper_named_enable_x64_scopes_x64_in_a_test(imports: str) -> None:
    """rfx-fdtd's tests scope x64 with their own ``tests._x64_compat.enable_x64`` (absent
    from the sdist), or with JAX's under a fallback import: 13 JAX603 false alarms of the
    fresh-2026-12k read. The name says what the context manager does."""
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import all_rules

    name = "_enable_x64" if "as _enable_x64" in imports else "enable_x64"
    text = (
        f"import jax.numpy as jnp\n{imports}\n\n\ndef test_sum():\n"
        f"    with {name}():\n        x = jnp.ones(3, dtype=jnp.float64)\n    assert x.sum() == 3\n"
    )
    settings = Settings()
    result = lint_text(text, "tests/test_sum.py", settings, settings.enabled_rules(all_rules()))
    assert [d.code for d in result.diagnostics] == []
    # the near miss: imported, never entered
    bare = (
        f"import jax.numpy as jnp\n{imports}\n\n\ndef test_sum():\n"
        "    x = jnp.ones(3, dtype=jnp.float64)\n    assert x.sum() == 3\n"
    )
    result = lint_text(bare, "tests/test_sum.py", settings, settings.enabled_rules(all_rules()))
    assert [d.code for d in result.diagnostics] == ["JAX603"]


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ('    jax.config.update("jax_enable_x64", flag)\n', 5),
        # rema-jax's ``_float64``: the context manager through a name (fresh-2026-12s)
        ('    ctx = getattr(jax, "enable_x64", None)\n    with ctx(True):\n        yield\n', 6),
        ("    from jax.experimental import enable_x64 as ctx\n    with ctx():\n        yield\n", 6),
        ('    ctx = getattr(jax, "enable_x64", None)\n    with ctx(False):\n        yield\n', None),
        ('    ctx = getattr(jax, "disable_jit", None)\n    with ctx():\n        yield\n', None),
    ],
)
def test_x64_switched_on_by_a_project_function(body: str, line: int | None) -> None:
    """What JAX603 reads of a project function the file calls (``analysis/x64.py``)."""
    import ast

    from jaxlint.analysis.x64 import scan_function

    tree = ast.parse(f"import jax\n\n\ndef on(flag=True):\n{body}")
    assert scan_function(tree, "on") == line


@pytest.mark.parametrize(
    ("where", "reported"),
    [
        ("pkg/layers.py", False),  # a library module's self-test block
        ("pkg/examples/train.py", True),  # a package of programs: the block is the program
        ("train.py", True),  # a script: the block is the program
    ],
)
def test_the_main_block_of_a_package_module_is_judged_as_test_code(
    tmp_path: Path, capsys, monkeypatch, where: str, reported: bool
) -> None:
    """``if __name__ == "__main__":`` at the end of a module of a package is its
    developer's self-test (generax's ``generax/nn/layers.py``: a layer built from one key,
    called once; 20 debatable JAX301 rows of the fresh-2026-12s read): JAX301 applies the
    test-code policy there, as in tests. A script's own block, or one under ``examples/``,
    is the program, and is judged as such."""
    write_package(tmp_path, {})
    (tmp_path / "pkg" / "examples").mkdir()
    (tmp_path / "pkg" / "examples" / "__init__.py").write_text("")
    path = tmp_path / where
    path.write_text(
        "import jax\n\n\ndef scale(x):\n    return 2 * x\n\n\n"
        'if __name__ == "__main__":\n'
        "    key = jax.random.PRNGKey(0)\n"
        "    x = jax.random.normal(key, (3,))\n"
        "    w = jax.random.uniform(key, (3,))\n"
        "    print(scale(x) * w)\n"
    )
    found = codes(check(tmp_path, "--no-cache", where, capsys=capsys, monkeypatch=monkeypatch))
    assert bool([f for f in found if f[2] == "JAX301"]) is reported, found
