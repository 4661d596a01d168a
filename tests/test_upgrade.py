"""The parts of scripts/upgrade.py (the legacy-upgrade gate) and scripts/jax_api_history.py
(the release diff behind the drift table) that run without the network: failure
classification, the module list, the forked importer on a made-up package, and the
namespace diff on made-up releases."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import jax_api_history as history  # noqa: E402
import upgrade  # noqa: E402

DEPS = Path("/nowhere/deps")
TOPS = {"flax", "chex"}


def failure(kind: str, message: str, frames=(), missing=None, mro=None) -> dict:
    return {
        "ok": False,
        "type": kind,
        "mro": mro or [kind, "Exception", "BaseException", "object"],
        "message": message,
        "missing": missing,
        "frames": list(frames),
    }


@pytest.mark.parametrize(
    ("res", "expected"),
    [
        (
            failure(
                "AttributeError",
                "module 'jax.tree_util' has no attribute 'tree_multimap'",
                frames=["/x/fixed/optax/_src/transform.py"],
            ),
            "JAX API",
        ),
        (
            failure(
                "ImportError",
                "cannot import name 'host_callback' from 'jax.experimental' (/v/jax/...)",
                mro=["ImportError", "Exception"],
            ),
            "JAX API",
        ),
        (
            failure(
                "ModuleNotFoundError",
                "No module named 'jax.experimental.maps'",
                missing="jax.experimental.maps",
                mro=["ModuleNotFoundError", "ImportError", "Exception"],
            ),
            "JAX API",
        ),
        (
            failure(
                "ModuleNotFoundError",
                "No module named 'tensorflow'",
                missing="tensorflow",
                mro=["ModuleNotFoundError", "ImportError", "Exception"],
            ),
            "other dependency",
        ),
        (
            failure("AttributeError", "module 'numpy' has no attribute 'float'"),
            "Python or NumPy change",
        ),
        (
            failure(
                "ImportError",
                "cannot import name 'Mapping' from 'collections'",
                mro=["ImportError", "Exception"],
            ),
            "Python or NumPy change",
        ),
        (failure("SyntaxError", "invalid syntax"), "Python or NumPy change"),
        (
            failure(
                "TypeError",
                "got an unexpected keyword argument",
                frames=["/venv/lib/python3.12/site-packages/jax/_src/api.py"],
            ),
            "JAX API",
        ),
        (
            failure("ValueError", "bad value", frames=["/x/fixed/flax/core/scope.py"]),
            "other",
        ),
        (
            # a JAX-API failure inside a dependency that is not in the stack (TensorFlow
            # Probability's JAX substrate): the projects' fixes cannot reach it
            failure(
                "AttributeError",
                "module 'jax.interpreters.xla' has no attribute 'pytype_aval_mappings'",
                frames=[
                    "/x/fixed/distrax/_src/utils/conversion.py",
                    f"{DEPS}/tensorflow_probability/python/internal/backend/jax/ops.py",
                ],
            ),
            "other dependency",
        ),
    ],
)
def test_classify(res: dict, expected: str) -> None:
    assert upgrade.classify(res, TOPS, DEPS) == expected


def test_test_modules_are_left_out() -> None:
    assert upgrade.is_test(Path("flax/linen/linear_test.py"))
    assert upgrade.is_test(Path("optax/tests/test_alias.py"))
    assert upgrade.is_test(Path("chex/conftest.py"))
    assert not upgrade.is_test(Path("flax/linen/linear.py"))
    assert not upgrade.is_test(Path("chex/_src/asserts.py"))


def _release(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_build_stack_lists_importable_modules(tmp_path: Path) -> None:
    wheel = _release(
        tmp_path / "unpacked" / "demo-0.1",
        {
            "demo/__init__.py": "",
            "demo/core.py": "",
            "demo/core_test.py": "",
            "demo/__main__.py": "",
            "demo-0.1.dist-info/METADATA": "",
        },
    )
    dest = tmp_path / "stack"
    dest.mkdir()
    modules = upgrade.build_stack({"demo": wheel}, dest)
    assert sorted(modules["demo"]) == ["demo", "demo.core"]
    assert (dest / "demo" / "core.py").exists()
    assert not (dest / "demo-0.1.dist-info").exists()


def test_build_stack_keeps_the_first_of_two_same_top_levels(tmp_path: Path, capsys) -> None:
    first = _release(
        tmp_path / "unpacked" / "a-1", {"a/__init__.py": "", "examples/__init__.py": ""}
    )
    second = _release(
        tmp_path / "unpacked" / "b-1",
        {"b/__init__.py": "", "examples/__init__.py": "x = 2", "examples/run.py": ""},
    )
    dest = tmp_path / "stack"
    dest.mkdir()
    modules = upgrade.build_stack({"a": first, "b": second}, dest)
    assert sorted(modules["a"]) == ["a", "examples"]
    assert modules["b"] == ["b"]
    assert (dest / "examples" / "__init__.py").read_text() == ""
    assert "b: top-level `examples` already comes from another release" in capsys.readouterr().out


def test_importer_runs_each_module_in_its_own_process(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    site = _release(
        tmp_path / "site",
        {
            "good/__init__.py": "import jax\nVALUE = 1\n",
            "gone/__init__.py": "import jax\nf = jax.tree_multimap\n",
            "needs/__init__.py": "import tensorflow_not_installed\n",
            # a module that changes the process: the next import must not see it
            "poison/__init__.py": "import sys\nsys.modules['good'] = None\n",
            "after/__init__.py": "import good\n",
        },
    )
    names = ["poison", "good", "gone", "needs", "after"]
    res = upgrade.import_all(site, tmp_path / "nodeps", names, tmp_path, "t")
    assert res["good"] == {"ok": True}
    assert res["after"] == {"ok": True}, res["after"]
    assert res["poison"] == {"ok": True}
    assert res["gone"]["type"] == "AttributeError"
    assert upgrade.classify(res["gone"], {"good", "gone"}, tmp_path) == "JAX API"
    assert res["needs"]["type"] == "ModuleNotFoundError"
    assert upgrade.classify(res["needs"], {"needs"}, tmp_path) == "other dependency"


def test_markdown_totals() -> None:
    row = {
        "project": "p",
        "version": "1",
        "modules": 3,
        "ok_before": 1,
        "ok_after": 3,
        "jax_fixed": 2,
        "jax_failed_before": 2,
        **{f"before:{c}": 0 for c in upgrade.CLASSES},
        **{f"after:{c}": 0 for c in upgrade.CLASSES},
    }
    row["before:JAX API"] = 2
    text = upgrade.markdown([row, dict(row, project="q")])
    assert "| p 1 | 3 | 1 | 2 | 2 | 3 | 0 | 0 |" in text
    assert "| **all** | 6 | 2 | 4 | 4 | 6 | 0 | 0 |" in text


# -- the release diff -----------------------------------------------------------------------

V1 = {
    "jax/__init__.py": """
        from jax._src.api import jit, tree_multimap
        from jax import core
        import numpy as np
        from functools import partial
        from jax.lax import *
    """,
    "jax/core.py": "def lattice_join(a, b): pass\nclass Tracer: pass\n",
    "jax/lax/__init__.py": "from jax.lax.lax import *\n",
    "jax/lax/lax.py": "def add(x, y): pass\ndef _private(): pass\n",
    "jax/_src/api.py": "def jit(f): pass\ndef tree_multimap(f, *t): pass\n",
    "jax/experimental/host_callback.py": "def id_tap(f, x): pass\n",
}
V2 = {
    **V1,
    "jax/__init__.py": """
        from jax._src.api import jit, tree_multimap
        _deprecations = {"tree_multimap": ("use jax.tree.map", tree_multimap)}
    """,
}
V2["jax/_src/api.py"] = (
    "import warnings\n"
    "def jit(f): pass\n"
    "def tree_multimap(f, *t):\n"
    "    warnings.warn('tree_multimap() is deprecated: use tree_map()')\n"
)
V3 = {
    "jax/__init__.py": """
        from jax._src.api import jit
        _deprecations = {"tree_multimap": ("removed: use jax.tree.map", None)}
    """,
    "jax/core.py": "class Tracer: pass\n",
    "jax/lax/__init__.py": "from jax._src.lax.lax import add as add\n",
    "jax/_src/lax/lax.py": "def add(x, y): pass\n",
    "jax/_src/api.py": "def jit(f): pass\n",
}


@pytest.fixture
def releases(tmp_path: Path) -> Path:
    for version, files in (("0.2.0", V1), ("0.3.5", V2), ("0.3.16", V3)):
        _release(tmp_path / version, files)
        (tmp_path / version / ".complete").write_text("")
    return tmp_path


def test_namespace_keeps_api_names_only(releases: Path) -> None:
    ns = history.namespace(releases / "0.2.0")
    top = ns["jax"]
    assert top["jit"] == ("ok", "jax._src.api.jit")
    assert "np" not in top and "partial" not in top  # other libraries' names
    assert "core" in top and top["core"][0] == "module"  # a submodule, not a re-export
    assert "add" in top  # through two star imports
    assert "_private" not in ns["jax.lax"]
    assert "jax._src.api" not in ns  # private modules are not API


def test_history_finds_removals_deprecations_and_modules(releases: Path) -> None:
    names, removed = history.history(releases)
    assert names == ["0.2.0", "0.3.5", "0.3.16"]
    rec = removed["jax.tree_multimap"]
    assert (rec["deprecated"], rec["last"], rec["removed"]) == ("0.3.5", "0.3.5", "0.3.16")
    assert removed["jax.core.lattice_join"]["removed"] == "0.3.16"
    assert removed["jax.experimental.host_callback"]["module"] is True
    assert removed["jax.lax.lax"]["module"] is True
    assert "jax.core.Tracer" not in removed and "jax.jit" not in removed
    assert "jax.lax.add" not in removed  # moved behind the package, still public


def test_private_reexports_point_at_the_public_name(releases: Path) -> None:
    moves = history.public_reexports(releases)
    assert moves["jax._src.lax.lax.add"] == ("jax.lax.add", "0.3.16")
    assert moves["jax._src.api.tree_multimap"][0] == "jax.tree_multimap"


def test_diff_command_output(releases: Path, monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setattr(history, "cache_dir", lambda: releases)
    out = tmp_path / "diff.json"
    assert history.main(["diff", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["releases"] == ["0.2.0", "0.3.5", "0.3.16"]
    assert "jax.tree_multimap" in data["removed"]
    assert "jax.tree_multimap\tfirst 0.2.0\tdeprecated 0.3.5\tremoved 0.3.16" in (
        capsys.readouterr().out
    )


def test_deprecation_warnings_in_the_sources(releases: Path) -> None:
    hits = history.deprecation_lines(releases, "tree_multimap")
    assert [v for v, _line in hits] == ["0.3.5", "0.3.16"]  # first and last release
    assert "deprecat" in hits[0][1].lower()
    assert history.deprecation_lines(releases, "jit") == []


def test_no_releases_is_a_clear_error(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(history, "cache_dir", lambda: tmp_path / "none")
    assert history.main(["diff"]) == 2
    assert "run `jax_api_history.py fetch` first" in capsys.readouterr().err
