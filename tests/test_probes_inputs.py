"""Inputs without a factory: ``--args`` shape specs, annotations, a call site in the file."""

from __future__ import annotations

import pytest
from probe_support import FIXTURES, run_main, spec

pytest.importorskip("jax")

from jaxlint.runtime_probes import bench as bench_probe  # noqa: E402
from jaxlint.runtime_probes import compile as compile_probe  # noqa: E402
from jaxlint.runtime_probes import recompile as recompile_probe  # noqa: E402
from jaxlint.runtime_probes._inputs import parse_args_text  # noqa: E402

SOURCES = FIXTURES / "inputs_sources.py"


def test_args_specs_are_shape_dtype_structs_for_compile(tmp_path):
    argv = [spec(SOURCES, "dense"), "--args", "f32[128,784], f32[128]"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["inputs_from"]["source"] == "--args"
    assert report["inputs_from"]["arguments"] == ["float32[128,784]", "float32[128]"]
    assert "ShapeDtypeStruct" in report["inputs_from"]["values"]
    assert [a["aval"] for a in report["arguments"]] == ["float32[128,784]", "float32[128]"]
    (out,) = report["stages"]["eval_shape"]["outputs"]
    assert out["shape"] == [128]


def test_args_specs_are_real_arrays_for_bench(tmp_path):
    argv = [spec(SOURCES, "dense"), "--jit", "--args", "f32[8,784], f32[8]", "--repeat", "2"]
    code, report = run_main(bench_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["inputs_from"]["target"]["source"] == "--args"
    assert report["results"]["target"]["inputs_not_equivalent"] == []


def test_args_parsing():
    args, kwargs = parse_args_text("f32[2,3], bf16[], 3, (1, 2), mode='mean', n=i32[4]")
    assert [getattr(a, "dtype", a) for a in args] == [
        "float32",
        "bfloat16",
        ("literal", 3),
        ("literal", (1, 2)),
    ]
    assert args[0].shape == (2, 3) and args[1].shape == ()
    assert kwargs["mode"] == ("literal", "mean") and kwargs["n"].shape == (4,)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--args", "f33[2]"], "neither a shape spec"),
        (["--args", "x=f32[2], f32[3]"], "positional item after a keyword"),
        (["--args", "f32[2]", "--factory", "make"], "not both"),
    ],
)
def test_bad_args_are_usage_errors(tmp_path, extra, message):
    code, report = run_main(compile_probe.main, [spec(SOURCES, "dense"), *extra], tmp_path)
    assert code == 2 and report["ok"] is False
    assert report["error"]["class"] == "UsageError" and message in report["error"]["message"]


def test_annotations(tmp_path):
    code, report = run_main(compile_probe.main, [spec(SOURCES, "annotated")], tmp_path)
    assert code == 0, report.get("error")
    assert report["inputs_from"]["source"] == "annotations"
    assert report["inputs_from"]["arguments"] == {
        "x": "float32[2,3]",
        "scale": "1.0",
        "n": "int32[]",
    }
    code, report = run_main(compile_probe.main, [spec(SOURCES, "jaxtyped")], tmp_path)
    assert code == 0, report.get("error")
    assert report["inputs_from"]["arguments"] == {"x": "float32[4,5]"}


def test_call_site_in_a_function_after_its_assignments(tmp_path):
    argv = [spec(SOURCES, "called_in_main"), "--static-argnums", "1"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    source = report["inputs_from"]
    assert source["source"] == "call site"
    (site,) = source["call_sites"]
    assert site["call"] == "called_in_main(data, 2)" and site["line"] == 31
    assert report["arguments"][0]["aval"] == "float32[6]"
    code, report = run_main(
        recompile_probe.main, [spec(SOURCES, "called_in_main"), "--static-argnums", "1"], tmp_path
    )
    assert code == 0 and report["inputs_from"]["source"] == "call sites"
    assert report["total_compiles"] == 1


def test_no_source_of_inputs_says_what_was_tried(tmp_path):
    code, report = run_main(compile_probe.main, [spec(SOURCES, "never_called")], tmp_path)
    assert code == 2 and report["ok"] is False
    error = report["error"]
    assert error["class"] == "FactoryNotFound"
    assert "no annotation with a shape" in error["message"]
    assert "no call of never_called" in error["message"]
    assert "--args" in error["hint"]


def test_no_source_of_cases_names_the_cases_factory_and_its_contract(tmp_path):
    argv = [spec(SOURCES, "never_called"), "--cases", "my_cases"]
    code, report = run_main(recompile_probe.main, argv, tmp_path)
    # --cases names a factory that is not there: the loader says so
    assert code == 2 and report["error"]["class"] == "FactoryNotFound"
    code, report = run_main(recompile_probe.main, [spec(SOURCES, "never_called")], tmp_path)
    assert code == 2 and report["ok"] is False
    error = report["error"]
    assert error["class"] == "FactoryNotFound"
    assert "no cases factory 'make_cases'" in error["message"]
    assert "def make_cases(): return [(args, kwargs), ...]" in error["hint"]
    assert "--cases FILE.py:FUNCTION" in error["hint"]
    code, report = run_main(compile_probe.main, [spec(SOURCES, "never_called")], tmp_path)
    assert "no factory 'make_inputs'" in report["error"]["message"]
    assert "def make_inputs(): return (args, kwargs)" in report["error"]["hint"]


def test_typed_key_specs(tmp_path):
    """`key<fry>[]` is jax.random.key(0) (the dtype JAX prints for a typed key);
    `key<fry>[3]` three keys split from it; compile gets ShapeDtypeStructs of key dtype."""
    args, _ = parse_args_text("key<fry>[], key<rbg>[3], f32[2]")
    assert [(a.dtype, a.shape) for a in args] == [
        ("key<fry>", ()),
        ("key<rbg>", (3,)),
        ("float32", (2,)),
    ]
    argv = [spec(SOURCES, "with_key"), "--args", "key<fry>[], f32[3]"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert [a["aval"] for a in report["arguments"]] == ["key<fry>[]", "float32[3]"]
    argv = [spec(SOURCES, "with_key"), "--jit", "--args", "key<fry>[], f32[3]", "--repeat", "1"]
    code, report = run_main(bench_probe.main, argv, tmp_path)
    assert code == 0, report.get("error")
    code, report = run_main(
        compile_probe.main, [spec(SOURCES, "dense"), "--args", "key<xyz>[]"], tmp_path
    )
    assert code == 2 and "key<fry>[]" in report["error"]["message"]


def test_python_ints_from_a_call_site_stay_constants_of_a_plain_function(tmp_path):
    """`called_in_main(data, 2)`: the code passes 2 to a function it does not jit, so `k`
    is a constant there; the probe marks it static rather than failing on `x[:k]` with
    an error the code never raises."""
    code, report = run_main(compile_probe.main, [spec(SOURCES, "called_in_main")], tmp_path)
    assert code == 0, report.get("error")
    assert report["static_from_inputs"]["argnums"] == [1]
    assert report["jit"]["static_argnums"] == [1]
    assert report["stages"]["eval_shape"]["outputs"][0]["shape"] == [2]
    # an explicit flag wins: nothing is marked for it
    argv = [spec(SOURCES, "called_in_main"), "--static-argnames", "k"]
    code, report = run_main(compile_probe.main, argv, tmp_path)
    assert code == 0 and "static_from_inputs" not in report
