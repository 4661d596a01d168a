"""``jaxlint probe compile``: stages, StableHLO, cost analysis, tracer errors with rule codes."""

from __future__ import annotations

import json

import pytest
from probe_support import (
    EIGHT_DEVICES,
    FIXTURES,
    SAMPLE,
    SHARDED,
    probe_env,
    run_main,
    run_module,
    spec,
)

pytest.importorskip("jax")

from jaxlint.runtime_probes import compile as compile_probe  # noqa: E402
from jaxlint.runtime_probes._errors import predicted_rule  # noqa: E402


def test_stages_stablehlo_and_cost_analysis(tmp_path):
    out_dir = tmp_path / "ir"
    dump = tmp_path / "jaxpr.txt"
    argv = [spec(SAMPLE, "matmul_sin"), "--dump", str(dump), "--out", str(out_dir)]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["version"] == 1 and report["ok"] is True
    stages = report["stages"]
    assert all(stages[name]["ok"] and stages[name]["seconds"] >= 0 for name in compile_probe.STAGES)
    assert [a["aval"] for a in report["arguments"]] == ["float32[4,8]", "float32[8,2]"]
    (out,) = stages["eval_shape"]["outputs"]
    assert out["shape"] == [4, 2] and out["dtype"] == "float32" and out["weak_type"] is False
    assert stages["eval_shape"]["jax_events"]["traces"] == 1
    jaxpr = stages["jaxpr"]
    assert jaxpr["equations"] == 3
    assert jaxpr["primitives"] == {"sin": 1, "dot_general": 1, "add": 1}
    assert "dot_general" in dump.read_text()
    lowering = stages["lowering"]
    assert lowering["dialect"] == "stablehlo" and lowering["ops"]["stablehlo.sine"] == 1
    hlo_text = (out_dir / "stablehlo.mlir").read_text()
    assert "stablehlo.dot_general" in hlo_text and "func.func public @main" in hlo_text
    compilation = stages["compilation"]
    assert compilation["jax_events"]["backend_compiles"] == 1
    cost = compilation["cost_analysis"]
    # sin on 32 elements, a 4x8 @ 8x2 dot and an add: 136 flops, 32 transcendentals (CPU)
    assert cost["available"] and cost["flops"] == 136.0 and cost["transcendentals"] == 32.0
    assert cost["bytes_accessed"] > 0
    memory = compilation["memory_analysis"]
    assert memory["argument_bytes"] == (4 * 8 + 8 * 2) * 4 and memory["output_bytes"] == 4 * 2 * 4
    assert (out_dir / "compiled_hlo.txt").read_text().startswith("HloModule")
    assert (out_dir / "jaxpr.txt").exists()


@pytest.mark.parametrize(
    ("func", "factory", "error_class", "rule", "line_text"),
    [
        ("branchy", "make_scalar", "jax.errors.TracerBoolConversionError", "JAX201", "if y > 0:"),
        (
            "to_numpy",
            "make_vector",
            "jax.errors.TracerArrayConversionError",
            "JAX101",
            "np.asarray",
        ),
        ("zeros_of", "make_n", "TypeError", "JAX203", "jnp.zeros(n)"),
    ],
)
def test_tracer_errors_exit_3_with_rule(tmp_path, func, factory, error_class, rule, line_text):
    argv = [spec(SAMPLE, func), "--factory", factory]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 3
    assert report["ok"] is False
    error = report["error"]
    assert error["class"] == error_class
    # sample.py does not jit these functions, so check reports nothing there: no rule is
    # named, and what check reports when the function is jitted as the probe did is said so
    assert error["rule"] is None and error["rule_if_jitted"] == rule
    assert "does not jit it" in error["rule_if_jitted_note"]
    assert error["phase"] == "eval_shape"
    assert error["file"] == str(SAMPLE)
    assert line_text in error["code"]
    assert SAMPLE.read_text().splitlines()[error["line"] - 1].strip() == error["code"]
    assert report["stages"]["eval_shape"]["ok"] is False
    assert report["stages"]["compilation"]["skipped"] is True


def test_text_output_names_rule_and_line(tmp_path, capsys):
    code = compile_probe.main(
        [spec(SAMPLE, "branchy"), "--factory", "make_scalar", "--format", "text"]
    )
    assert code == 3
    text = capsys.readouterr().out
    assert "TracerBoolConversionError" in text and "reports JAX201" in text and "if y > 0:" in text


def test_static_argnums_pass_through(tmp_path):
    code, report = run_main(
        compile_probe.main,
        [spec(SAMPLE, "zeros_of"), "--factory", "make_n", "--static-argnums", "0"],
        tmp_path,
    )
    assert code == 0, report.get("error")
    assert report["arguments"] == [{"argument": "n", "path": "n", "static": True, "value": "3"}]
    assert report["stages"]["eval_shape"]["outputs"][0]["shape"] == [3]


def test_donate_argnums_pass_through(tmp_path):
    argv = [spec(SAMPLE, "matmul_sin"), "--donate-argnums", "0"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["jit"]["donate_argnums"] == [0]
    assert report["stages"]["lowering"]["donated_leaves"] == 1
    # the output (4, 2) cannot reuse the (4, 8) buffer: JAX warns, the probe reports it
    assert any(
        "donated buffers were not usable" in w for w in report["stages"]["lowering"]["warnings"]
    )


def test_an_already_jitted_function_shows_its_own_settings(tmp_path):
    argv = [spec(SAMPLE, "donating_update"), "--factory", "make_update"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    jit = report["jit"]
    assert jit["wrapped_here"] is False
    assert jit["donate_argnums"] == [0] and jit["static_argnums"] == [2]
    assert report["stages"]["lowering"]["donated_leaves"] == 1
    # the static argument is shown as static, with its value, not as a traced int32[]
    assert report["arguments"][-1] == {"argument": "n", "path": "n", "static": True, "value": "3"}


def test_jit_settings_say_unknown_rather_than_guess(monkeypatch):
    import jax

    from jaxlint.runtime_probes import _targets

    class Opaque:  # jitted-looking, with no settings to read
        def __init__(self, fn):
            self._fn = jax.jit(fn)
            self.trace, self.lower = self._fn.trace, self._fn.lower

        def __call__(self, *a):
            return self._fn(*a)

    _, info = _targets.effective_jit(
        jax, Opaque(lambda x: x), static_argnums=[], static_argnames=[], donate_argnums=[]
    )
    assert info["donate_argnums"] == "unknown" and info["static_argnums"] == "unknown"


def test_real_exception_classes_map_to_rules():
    import jax
    import jax.numpy as jnp

    def raised(fn, *args):
        try:
            jax.jit(fn).trace(*args)
        except Exception as exc:
            return exc
        raise AssertionError("no error")

    assert predicted_rule(raised(lambda x: int(x), 1.0)) == "JAX101"
    assert predicted_rule(raised(lambda x: x.item(), 1.0)) == "JAX101"
    assert predicted_rule(raised(lambda x: [1, 2][x], 1)) == "JAX101"
    assert predicted_rule(raised(lambda n: jnp.arange(n), 3)) == "JAX203"
    assert predicted_rule(raised(lambda x: x[x > 1], jnp.ones(3))) == "JAX203"
    assert predicted_rule(raised(lambda x, n: x[:n], jnp.ones(3), 2)) == "JAX203"
    assert predicted_rule(raised(lambda x: 1 if x > 0 else 2, jnp.ones(3))) == "JAX201"
    with jax.debug_key_reuse(True):
        exc = raised(lambda k: jax.random.normal(k) + jax.random.uniform(k), jax.random.key(0))
    assert type(exc).__name__ == "KeyReuseError" and predicted_rule(exc) == "JAX301"
    assert predicted_rule(ValueError("plain")) is None


@pytest.mark.parametrize(
    ("argv", "error_class"),
    [
        (["no/such/file.py:f"], "TargetNotFound"),
        ([f"{SAMPLE}:no_such_function"], "TargetNotFound"),
        (["not_a_spec"], "UsageError"),
        ([f"{SAMPLE}:matmul_sin", "--factory", "no_such_factory"], "FactoryNotFound"),
        (["no_such_pkg_xyz.mod:f"], "TargetNotFound"),
        ([f"{FIXTURES / 'bad_factory.py'}:identity"], "FactoryContractError"),
    ],
)
def test_usage_errors_exit_2(tmp_path, argv, error_class):
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 2, report
    assert report["ok"] is False and report["error"]["class"] == error_class


def test_factory_that_raises_exits_3(tmp_path):
    # matmul_sin() without arguments raises TypeError: the user's code raised
    argv = [f"{SAMPLE}:matmul_sin", "--factory", "matmul_sin"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 3
    assert report["error"]["class"] == "TypeError"
    assert report["error"]["phase"] == "calling factory matmul_sin()"


def test_module_that_raises_on_import_exits_3(tmp_path):
    code, report = run_main(compile_probe.main, [f"{FIXTURES / 'raises_on_import.py'}:f"], tmp_path)
    assert code == 3
    assert report["error"]["class"] == "RuntimeError"
    assert report["error"]["phase"].startswith("importing target file")


def test_package_module_spec(tmp_path, monkeypatch):
    monkeypatch.chdir(FIXTURES.parent)
    code, report = run_main(compile_probe.main, ["probes.sample:matmul_sin"], tmp_path)
    assert code == 0, report.get("error")


def test_sharded_inputs_on_eight_devices():
    proc = run_module(
        "compile",
        [spec(SHARDED, "total"), "--factory", "make_sharded_inputs"],
        env=probe_env(XLA_FLAGS=EIGHT_DEVICES),
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["backend"]["device_count"] == 8
    assert "NamedSharding" in report["arguments"][0]["sharding"]
    assert report["stages"]["compilation"]["cost_analysis"]["available"] is True
    assert report["stages"]["lowering"]["ops"]
    compilation = report["stages"]["compilation"]
    # the sum over a sharded axis: one all-reduce in the optimised HLO
    counts = compilation["hlo_counts"]
    assert counts["collectives"]["all-reduce"] == 1 and counts["collectives_total"] == 1
    assert counts["fusions"] == sum(counts["fusion_kinds"].values()) >= 1
    (sharding_in,) = compilation["shardings"]["input"]
    assert "NamedSharding" in sharding_in and "P('x'" in sharding_in
    # memory per device: 64 float32 over 8 devices is 8 per device
    memory = compilation["memory_analysis"]
    assert memory["scope"] == "per device" and memory["argument_bytes"] == 64 * 4 // 8


def test_cost_is_labelled_per_device_with_the_device_count():
    """A (64,32)@(32,16) matmul is 65536 flops; sharded 8 ways on its rows, each device's
    program does 8192 of them: the report says it is per device, and on how many."""
    proc = run_module(
        "compile",
        [spec(SHARDED, "matmul"), "--factory", "make_sharded_matmul", "--format", "text"],
        env=probe_env(XLA_FLAGS=EIGHT_DEVICES),
    )
    assert proc.returncode == 0, proc.stderr
    assert "cost analysis (per device, 8 device(s)): flops 8192.0" in proc.stdout
    proc = run_module(
        "compile",
        [spec(SHARDED, "matmul"), "--factory", "make_sharded_matmul"],
        env=probe_env(XLA_FLAGS=EIGHT_DEVICES),
    )
    cost = json.loads(proc.stdout)["stages"]["compilation"]["cost_analysis"]
    assert cost["scope"] == "per device" and cost["devices"] == 8
    assert cost["flops"] == 2 * 64 * 32 * 16 / 8 and cost["loops"] == 0 and "caveat" not in cost


def test_a_scan_body_is_counted_once_and_the_report_says_so(tmp_path):
    code, report = run_main(
        compile_probe.main, [spec(SAMPLE, "scanned"), "--args", "f32[16]"], tmp_path
    )
    assert code == 0, report.get("error")
    cost = report["stages"]["compilation"]["cost_analysis"]
    assert cost["devices"] == 1 and cost["loops"] >= 1
    assert "counts a loop body once" in cost["caveat"]
    # the body's 16 sines, once, though the scan runs it 10 times
    assert cost["transcendentals"] == 16.0


def test_hlo_counts_of_async_collectives_and_tuple_shapes():
    hlo = """HloModule m
ENTRY %main {
  %p = f32[8]{0} parameter(0)
  %f = f32[8]{0} fusion(%p), kind=kLoop, calls=%fused
  %ars = (f32[8]{0}, f32[]) all-reduce-start(%f, %p), channel_id=1
  %ard = f32[8]{0} all-reduce-done(%ars)
  %ag = f32[64]{0} all-gather(%ard), dimensions={0}
  %cp = f32[64]{0} collective-permute(%ag), source_target_pairs={{0,1}}
  ROOT %g = f32[64]{0} fusion(%cp), kind=kOutput, calls=%fused.1
}
"""
    counts = compile_probe.hlo_counts(hlo)
    assert counts["collectives"] == {
        "all-reduce": 1,
        "all-gather": 1,
        "reduce-scatter": 0,
        "all-to-all": 0,
        "collective-permute": 1,
    }
    assert counts["fusions"] == 2 and counts["fusion_kinds"] == {"kLoop": 1, "kOutput": 1}


def test_time_split_shows_persistent_cache_hits_as_hits(tmp_path):
    env = probe_env(
        JAX_COMPILATION_CACHE_DIR=str(tmp_path / "cache"),
        JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
    )
    splits = []
    for _ in range(2):
        proc = run_module("compile", [spec(SAMPLE, "matmul_sin")], env=env)
        assert proc.returncode == 0, proc.stderr
        splits.append(json.loads(proc.stdout)["time_split"])
    cold, warm = splits
    assert cold["persistent_cache_hits"] == 0 and cold["compiled_or_loaded"] == "compiled by XLA"
    assert warm["persistent_cache_hits"] == 1
    assert warm["compiled_or_loaded"] == "loaded from the persistent compilation cache"
    for split in splits:
        assert {"trace_seconds", "lower_seconds", "compile_seconds"} <= set(split)


def test_help(capsys):
    assert compile_probe.main(["--help"]) == 0
    text = capsys.readouterr().out
    for flag in (
        "--factory",
        "--static-argnums",
        "--static-argnames",
        "--donate-argnums",
        "--dump",
        "--out",
        "--format",
        "--output",
        "trusted code only",
        "examples:",
    ):
        assert flag in text


def test_unwritable_output_exits_2(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code = compile_probe.main(
        [spec(SAMPLE, "matmul_sin"), "--output", str(blocker / "report.json")]
    )
    assert code == 2
    assert "cannot write" in capsys.readouterr().err
