"""The API-drift table (jaxlint/data/api_drift.toml) checked against the installed JAX.

Each entry's ``example`` runs in a JAX interpreter: a symbol removed in a version
<= the installed one must be gone (the example raises ``error``); one deprecated
but still present must still work, with the ``warns`` warning where JAX warns; a
fix (safe or unsafe) applied by jaxlint to the example must remove the finding
and run without error. Every replacement named in the table must exist, reached
the way the fixes spell it (``import jax``, plus ``import jax.extend`` for the
subpackages that ``import jax`` does not load). JAX703's list of config context
managers is checked the same way: each exists, its option exists, a bare call
leaves the option unchanged and ``jax.config.update`` changes it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.fixers import fix_text
from jaxlint.rules.api_drift import DeprecatedApi, RemovedApi
from jaxlint.rules.api_drift.inert_config_call import _CONFIG_CONTEXTS
from jaxlint.rules.api_drift.table import EXPLICIT_IMPORTS, Drift, load_table
from jaxlint.versions import installed_jax_version, parse_version

pytest.importorskip("jax")

INSTALLED = parse_version(installed_jax_version() or "0")
TABLE = load_table()
ENTRIES = TABLE.entries
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w.]*\.[\w.]+)\}")


def _id(d: Drift) -> str:
    return f"{d.kind}:{d.old}" + (f"({d.keyword}=)" if d.keyword else "")


def _fixed(code: str) -> tuple[str, list[str]]:
    """The example after every JAX701/JAX702 fix (unsafe included), and what is left."""
    settings = Settings(target_jax=INSTALLED)
    rules = [DeprecatedApi, RemovedApi]

    def lint(text: str):
        return lint_text(text, "example.py", settings, rules, want_fixes=True).diagnostics

    text = fix_text(code, lint, unsafe=True).text
    return text, [d.message for d in lint(text)]


def _findings(code: str) -> list[str]:
    settings = Settings(target_jax=INSTALLED)
    result = lint_text(code, "example.py", settings, [DeprecatedApi, RemovedApi])
    return [d.code for d in result.diagnostics]


RUNNER = textwrap.dedent(
    """
    import importlib, inspect, json, sys, warnings
    import jax

    out = {"explicit": {}, "resolve": {}, "programs": {}, "config": {}}
    spec = json.loads(open(sys.argv[1]).read())

    # which subpackages `import jax` leaves unloaded (before any example imports them)
    for name in spec["explicit"]:
        parts = name.split(".")
        obj = jax
        try:
            for p in parts[1:]:
                obj = getattr(obj, p)
            out["explicit"][name] = "loaded"
        except AttributeError:
            out["explicit"][name] = "not loaded"

    def resolve(qualname):
        for need in spec["explicit"]:
            if qualname == need or qualname.startswith(need + "."):
                importlib.import_module(need)
        obj = importlib.import_module(qualname.split(".")[0])
        for p in qualname.split(".")[1:]:
            obj = getattr(obj, p)
        return obj

    baseline = set(sys.modules)
    for q in spec["resolve"]:
        try:
            resolve(q)
            out["resolve"][q] = "ok"
        except Exception as exc:
            out["resolve"][q] = f"{type(exc).__name__}: {exc}"

    def forget_new_modules():
        for name in sorted(set(sys.modules) - baseline, key=len, reverse=True):
            if name.startswith("jax.") and not name.startswith("jax._src"):
                parent, _, child = name.rpartition(".")
                sys.modules.pop(name, None)
                if parent in sys.modules and getattr(sys.modules[parent], child, None) is not None:
                    try:
                        delattr(sys.modules[parent], child)
                    except AttributeError:
                        pass

    forget_new_modules()
    for key, src in spec["programs"].items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(compile(src, key, "exec"), {"__name__": "__main__"})
                res = {"ok": True}
            except BaseException as exc:
                res = {"ok": False, "error": type(exc).__name__,
                       "mro": [c.__name__ for c in type(exc).__mro__],
                       "message": (str(exc).splitlines() or [""])[0]}
        res["warnings"] = sorted({c.__name__ for w in caught for c in w.category.__mro__})
        out["programs"][key] = res
        jax.config.update("jax_enable_x64", False)
        forget_new_modules()

    for qualname, (option, param, is_bool, value) in spec["config"].items():
        rec = {}
        try:
            obj = resolve(qualname)
        except Exception as exc:
            out["config"][qualname] = {"error": repr(exc)}
            continue
        rec["option_exists"] = option in jax.config.values
        before = jax.config.values.get(option)
        if is_bool and isinstance(before, bool):
            value = not before  # a default that changed (softmax_custom_jvp: True in 0.12.1)
        if isinstance(value, str) and value.startswith("device:"):
            value = jax.devices()[0]
        obj(value)  # the bare call
        rec["bare_call_inert"] = jax.config.values.get(option) == before
        jax.config.update(option, value)
        rec["update_changes"] = jax.config.values.get(option) != before
        jax.config.update(option, before)
        try:
            params = list(inspect.signature(obj).parameters)
        except (TypeError, ValueError):
            params = []
        if not params and hasattr(obj, "__call__"):
            params = [p for p in inspect.signature(obj.__call__).parameters if p != "self"]
        rec["first_param"] = params[0] if params else None
        if is_bool:
            with obj():
                rec["no_arg_means_true"] = jax.config.values.get(option) is True
        out["config"][qualname] = rec

    mesh = jax.make_mesh((1,), ("x",))
    jax.set_mesh(mesh)
    out["set_mesh_bare_acts"] = jax.get_mesh() is not None and \\
        tuple(jax.get_mesh().axis_names) == ("x",)
    print("RESULTS " + json.dumps(out))
    """
)

# a value that changes each option from its default
_CONFIG_VALUES = {
    "jax_default_matmul_precision": "highest",
    "jax_numpy_rank_promotion": "raise",
    "jax_numpy_dtype_promotion": "strict",
    "jax_legacy_prng_key": "error",
    "jax_default_prng_impl": "rbg",
    "jax_default_device": "device:0",
    "jax_transfer_guard": "disallow",
    "jax_transfer_guard_host_to_device": "disallow",
    "jax_transfer_guard_device_to_host": "disallow",
    "jax_transfer_guard_device_to_device": "disallow",
    "jax_threefry_partitionable": False,
    "jax_allow_f16_reductions": False,
}


def _replacement_names(d: Drift) -> list[str]:
    names = []
    if d.replacement and _DOTTED.match(d.replacement) and d.kind in ("name", "module", "import"):
        names.append(d.replacement)
    names += _PLACEHOLDER.findall(d.template or "")
    return names


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> dict:
    programs: dict[str, str] = {}
    for i, d in enumerate(ENTRIES):
        programs[f"e{i}"] = d.example
        if d.status(INSTALLED) is not None and d.applicability(INSTALLED) is not None:
            fixed, _ = _fixed(d.example)
            programs[f"e{i}_fixed"] = fixed
    resolve = sorted({q for d in ENTRIES for q in _replacement_names(d)})
    config = {
        q: (opt, param, is_bool, _CONFIG_VALUES.get(opt, True))
        for q, (opt, param, is_bool) in _CONFIG_CONTEXTS.items()
    }
    spec = {
        "explicit": list(EXPLICIT_IMPORTS),
        "resolve": resolve,
        "programs": programs,
        "config": config,
    }
    path = tmp_path_factory.mktemp("drift") / "spec.json"
    path.write_text(json.dumps(spec))
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, f"runner printed nothing\n{proc.stderr[-3000:]}"
    return json.loads(lines[-1][len("RESULTS ") :])


def test_table_size_and_versions() -> None:
    assert len(ENTRIES) >= 400
    assert sum(not d.generated for d in ENTRIES) >= 140, "the curated entries"
    for d in ENTRIES:
        if d.deprecated_in is not None and d.removed_in is not None:
            assert d.deprecated_in <= d.removed_in, d.old
        assert d.example, f"{d.old}: no example"
        if d.removed_in is not None or d.never:
            assert d.error, f"{d.old}: a removed symbol needs the error its example raises"
        assert d.note, f"{d.old}: no note"


def test_names_that_never_existed_are_not_in_the_release_diff() -> None:
    """A ``never`` entry is absent from the installed JAX (its example raises: the test
    above) and from the release diff, which lists every public name that some release
    from 0.2.0 on had and a later one dropped: so no release had it."""
    import importlib.resources

    history = json.loads(
        importlib.resources.files("jaxlint").joinpath("data/api_drift_history.json").read_text()
    )
    dropped = {row["old"] for row in history["api"]}
    never = [d for d in ENTRIES if d.never]
    assert never, "the table has names that never existed (jax.tree.tree_map)"
    for d in never:
        assert d.old not in dropped, d.old
        assert d.status(INSTALLED) == "removed" and d.describe(INSTALLED).startswith("never")


def test_table_leaves_the_sharding_family_alone() -> None:
    """pmap, meshes, pjit, shard_map and PositionalSharding belong to JAX5xx."""
    owned_by_jax5xx = {
        "pmap",
        "pjit",
        "shard_map",
        "Mesh",
        "mesh_utils",
        "use_mesh",
        "set_mesh",
        "make_mesh",
        "PositionalSharding",
        "xmap",
        "maps",
        "device_put_replicated",
        "device_put_sharded",
        "jax_pmap_shmap_merge",
        "jax_pmap_no_rank_reduction",
    }
    for d in ENTRIES:
        assert not owned_by_jax5xx & set(d.old.split(".")), d.old


def test_explicit_imports_are_not_loaded_by_import_jax(runtime: dict) -> None:
    assert runtime["explicit"] == {name: "not loaded" for name in EXPLICIT_IMPORTS}


@pytest.mark.parametrize("drift", ENTRIES, ids=_id)
def test_replacements_exist(drift: Drift, runtime: dict) -> None:
    for qualname in _replacement_names(drift):
        assert runtime["resolve"][qualname] == "ok", (qualname, runtime["resolve"][qualname])


@pytest.mark.parametrize("drift", ENTRIES, ids=_id)
def test_example_matches_the_installed_jax(drift: Drift, runtime: dict) -> None:
    i = ENTRIES.index(drift)
    result = runtime["programs"][f"e{i}"]
    status = drift.status(INSTALLED)
    if status == "removed":
        assert not result["ok"], f"{drift.old} is marked removed but its example runs"
        assert drift.error in result["mro"], (drift.error, result)
    else:
        assert result["ok"], f"{drift.old} is marked present but its example fails: {result}"
        if status == "deprecated" and drift.warns:
            assert drift.warns in result["warnings"], (drift.warns, result["warnings"])
        elif status == "deprecated":  # the table says JAX is silent: it must be
            assert "DeprecationWarning" not in result["warnings"], result["warnings"]
    # the linter sees it too
    if status is not None:
        expected = "JAX702" if status == "removed" else "JAX701"
        assert expected in _findings(drift.example), drift.example


@pytest.mark.parametrize(
    "drift",
    [d for d in ENTRIES if d.status(INSTALLED) is not None and d.applicability(INSTALLED)],
    ids=_id,
)
def test_fixed_example_runs(drift: Drift, runtime: dict) -> None:
    i = ENTRIES.index(drift)
    fixed, left = _fixed(drift.example)
    if drift.fix == "display-only":
        assert fixed == drift.example
        return
    assert fixed != drift.example, f"{drift.old}: the fix did not apply to its example"
    assert left == [], left
    result = runtime["programs"][f"e{i}_fixed"]
    assert result["ok"], f"{drift.old}: the fixed example fails\n{fixed}\n{result}"
    if drift.warns:
        assert drift.warns not in result["warnings"], f"{drift.old}: still warns\n{fixed}"


@pytest.mark.parametrize("qualname", sorted(_CONFIG_CONTEXTS))
def test_config_context_managers_are_inert_as_statements(qualname: str, runtime: dict) -> None:
    rec = runtime["config"][qualname]
    option, param, is_bool = _CONFIG_CONTEXTS[qualname]
    assert "error" not in rec, rec
    assert rec["option_exists"], option
    assert rec["bare_call_inert"], f"{qualname}(...) as a statement changed {option}"
    assert rec["update_changes"], f"jax.config.update({option!r}, ...) changed nothing"
    assert rec["first_param"] == param, rec
    if is_bool:
        assert rec["no_arg_means_true"], qualname


def test_set_mesh_is_not_inert(runtime: dict) -> None:
    """The near miss JAX703 leaves alone: a bare ``jax.set_mesh(mesh)`` sets the mesh."""
    assert "jax.set_mesh" not in _CONFIG_CONTEXTS
    assert runtime["set_mesh_bare_acts"] is True


def test_toml_is_package_data() -> None:
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert "data/*.toml" in pyproject
    assert "data/*.json" in pyproject  # api_drift_history.json


def test_generated_entries_are_advice_or_private_moves() -> None:
    """The release diff never invents a fix: its entries are advice, except a `jax._src`
    object fixed (unsafe) to the public name that re-exported it."""
    generated = [d for d in ENTRIES if d.generated]
    assert len(generated) >= 300
    for d in generated:
        assert d.removed_in is not None, d.old
        if d.old.startswith("jax._src."):
            assert d.fix == "unsafe" and d.replacement, d.old
            assert not d.replacement.startswith("jax._src"), d.old
        else:
            assert d.fix == "none" and d.replacement is None, d.old


def test_curated_entries_win_over_generated_ones() -> None:
    curated = {(d.kind, d.old, d.keyword) for d in ENTRIES if not d.generated}
    generated = [(d.kind, d.old, d.keyword) for d in ENTRIES if d.generated]
    assert not curated & set(generated)
    assert len(generated) == len(set(generated))
