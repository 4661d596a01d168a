"""What confirms a rule at runtime is declared once, on the rule (``Rule.confirmed_by``),
and the probes read it from there: no second table in ``jaxlint.runtime_probes``."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import ClassVar

import pytest

import jaxlint.rules
from jaxlint.rules import all_rules
from jaxlint.rules.base import Event, Raises, Rule
from jaxlint.runtime_probes import _errors, recompile
from jaxlint.runtime_probes._monitor import BACKEND_COMPILE

jax = pytest.importorskip("jax")


def _declared(kind: type) -> list[tuple[str, object]]:
    return [(r.code, c) for r in all_rules() for c in r.confirmed_by if isinstance(c, kind)]


def test_every_declared_exception_exists_in_the_installed_jax() -> None:
    assert _declared(Raises), "no rule declares an exception"
    for code, sign in _declared(Raises):
        found = getattr(jax.errors, sign.exception, None) or getattr(builtins, sign.exception, None)
        assert isinstance(found, type) and issubclass(found, BaseException), (code, sign)


def test_every_declared_event_is_one_the_probes_count() -> None:
    assert {sign.name for _, sign in _declared(Event)} == {BACKEND_COMPILE}


def test_loop_mode_names_the_rules_that_declare_compilations() -> None:
    assert recompile.loop_rules() == [code for code, _ in _declared(Event)]


def _jax_error(name: str, base: type[BaseException] = Exception) -> type[BaseException]:
    """A stand-in for a JAX exception class: same name, a module inside ``jax``."""
    return type(name, (base,), {"__module__": "jax._src.errors"})


@pytest.mark.parametrize(
    ("name", "message", "rule"),
    [
        ("TracerBoolConversionError", "Attempted boolean conversion", "JAX201"),
        ("TracerArrayConversionError", "The numpy.ndarray conversion", "JAX101"),
        ("TracerIntegerConversionError", "The __index__() method", "JAX101"),
        ("NonConcreteBooleanIndexError", "Array boolean indices must be concrete", "JAX203"),
        ("KeyReuseError", "In jit, argument 0 is already consumed.", "JAX301"),
        (
            "ConcretizationTypeError",
            "Abstract tracer\nThe problem arose with the `float` function",
            "JAX101",
        ),
        ("ConcretizationTypeError", "Abstract tracer\nthe size argument of jnp.nonzero", "JAX203"),
        ("ConcretizationTypeError", "Abstract tracer\nsomething else", None),
        ("UnrelatedJaxError", "whatever", None),
    ],
)
def test_predicted_rule_follows_the_declarations(name: str, message: str, rule: str | None) -> None:
    assert _errors.predicted_rule(_jax_error(name)(message)) == rule


def test_builtin_declarations_need_their_message() -> None:
    assert _errors.predicted_rule(TypeError("Shapes must be 1D sequences of concrete values")) == (
        "JAX203"
    )
    assert _errors.predicted_rule(IndexError("slice indices must have static start")) == "JAX203"
    assert _errors.predicted_rule(TypeError("unsupported operand")) is None
    # raised_in_jax: the user's own ValueError with the same text is not JAX201
    user = ValueError("The truth value of an array with more than one element is ambiguous")
    assert _errors.predicted_rule(user) is None


class _MadeUpRule(Rule):
    code = "JAX999"
    name = "made-up"
    confirmed_by: ClassVar[tuple[Raises, ...]] = (Raises("MadeUpError"),)


def test_a_new_declaration_reaches_the_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule declaring a new exception is all it takes: the probe names that rule."""
    made_up = _jax_error("MadeUpError")("boom")
    assert _errors.predicted_rule(made_up) is None
    rules = (*all_rules(), _MadeUpRule)
    monkeypatch.setattr(jaxlint.rules, "all_rules", lambda: rules)
    assert _errors.predicted_rule(made_up) == "JAX999"


# -- real failures, each named by its rule (issue 16) ------------------------------------------

RULES_AT_RUNTIME = Path(__file__).parent / "fixtures" / "probes" / "rules_at_runtime.py"


def _probe(module, argv: list[str], tmp_path: Path) -> tuple[int, dict]:
    out = tmp_path / "report.json"
    code = module.main([*argv, "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("func", "factory", "error_class", "class_alone"),
    [
        ("power", "make_power", "jax.errors.TracerIntegerConversionError", "JAX101"),
        ("halve_until_small", "make_scalar", "jax.errors.TracerBoolConversionError", "JAX201"),
    ],
)
def test_a_python_loop_over_a_tracer_is_named_by_the_finding_at_its_line(
    tmp_path, func, factory, error_class, class_alone
):
    from jaxlint.runtime_probes import compile as compile_probe

    argv = [f"{RULES_AT_RUNTIME}:{func}", "--factory", factory]
    code, report = _probe(compile_probe, argv, tmp_path)
    assert code == 3
    error = report["error"]
    assert error["class"] == error_class
    # the exception class alone would name another rule; the finding at the line decides
    assert error["rule"] == "JAX202" and class_alone != "JAX202"
    assert error["static_findings_at_line"] == ["JAX202"]
    assert error["rule_source"] == "static finding at the failing line, and its confirmed_by"


def _run_bench(func: str, factory: str, tmp_path: Path, *flags: str) -> dict:
    from jaxlint.runtime_probes import bench

    argv = [f"{RULES_AT_RUNTIME}:{func}", "--factory", factory, "--repeat", "1", *flags]
    code, report = _probe(bench, argv, tmp_path)
    assert code == 3, report
    return report["error"]


def test_a_non_hashable_static_argument_is_jax404(tmp_path):
    error = _run_bench("scale", "make_list_static", tmp_path, "--jit", "--static-argnums", "1")
    # `jaxlint check` reports nothing in this file (the list comes from the factory and the
    # flags): the class alone names no rule, it lists the rule that declares it
    assert error["class"] == "ValueError" and error["rule"] is None
    assert error["declared_by"] == ["JAX404"] and "reports none" in error["rule_note"]
    assert error["message"].startswith("Non-hashable static arguments are not supported")


def test_a_deleted_donated_array_is_jax405(tmp_path):
    error = _run_bench("reuse_donated", "make_vector", tmp_path)
    assert error["class"] == "RuntimeError" and error["rule"] == "JAX405"
    assert error["code"] == "return x + y  # x was donated: JAX405"
    assert error["static_findings_at_line"] == ["JAX405"]


def test_an_in_place_update_is_jax601(tmp_path):
    error = _run_bench("set_first", "make_vector", tmp_path)
    # set_first is not traced, so `check` reports no JAX601 there: no rule is named
    assert error["class"] == "TypeError" and error["rule"] is None
    assert error["declared_by"] == ["JAX601"] and "rule_source" not in error


def test_an_unexpected_tracer_is_jax104(tmp_path):
    error = _run_bench("use_leaked", "make_vector", tmp_path)
    # check reports JAX104 where the tracer is stored (line 61), not at the failing line
    # nor a line that called it: the class alone names no rule, it lists JAX104
    assert error["class"] == "jax.errors.UnexpectedTracerError" and error["rule"] is None
    assert error["declared_by"] == ["JAX104"]


def test_the_float64_truncation_warning_is_jax603(tmp_path):
    from jaxlint.runtime_probes import compile as compile_probe

    script = RULES_AT_RUNTIME.parent / "float64_script.py"  # check reports JAX603 there
    argv = [f"{script}:add_float64", "--factory", "make_vector"]
    code, report = _probe(compile_probe, argv, tmp_path)
    assert code == 0, report.get("error")
    (named,) = report["stages"]["eval_shape"]["warning_rules"]
    assert named["rule"] == "JAX603" and named["category"] == "UserWarning"
    assert "truncated to dtype float32" in named["warning"]
    # turned into an error (-W error), the same declaration names it
    warning = UserWarning("Explicitly requested dtype float64 requested in array is not")
    assert _errors.predicted_rule(warning) is None
    truncated = UserWarning("... is not available, and will be truncated to dtype float32.")
    assert _errors.predicted_rule(truncated) == "JAX603"


def test_a_static_finding_without_a_matching_declaration(monkeypatch):
    monkeypatch.setattr(_errors, "static_rules_at", lambda f, line: ["JAX501"])
    # a declaration matches: it wins over an unrelated finding at the line
    exc = _jax_error("TracerBoolConversionError")("Attempted boolean conversion")
    # a declaration matches but check reports another rule at the line: that one is named
    assert _errors.choose_rule(exc, "f.py", 3)[:2] == (
        "JAX501",
        "static finding at the failing line",
    )
    # nothing declared: the finding at the failing line is named
    assert _errors.choose_rule(ValueError("mine"), "f.py", 3)[:2] == (
        "JAX501",
        "static finding at the failing line",
    )
    monkeypatch.setattr(_errors, "static_rules_at", lambda f, line: [])
    assert _errors.choose_rule(ValueError("mine"), "f.py", 3) == (None, None, [])
    # never a rule that check did not report: the class alone names none
    assert _errors.choose_rule(exc, "f.py", 3) == (None, None, [])
    # a calling line's finding that declares the class is named
    monkeypatch.setattr(
        _errors, "static_rules_at", lambda f, line: ["JAX201"] if line == 9 else ["JAX501"]
    )
    rule, why, static = _errors.choose_rule(exc, "f.py", 3, (("f.py", 3), ("g.py", 9)))
    assert (rule, static) == ("JAX201", ["JAX501"]) and "calling line g.py:9" in why


def test_jax404_raises_and_never_recompiles() -> None:
    assert "JAX404" not in recompile.loop_rules()
    (declared,) = next(r for r in all_rules() if r.code == "JAX404").confirmed_by
    assert isinstance(declared, Raises) and declared.exception == "ValueError"


def test_a_warning_names_only_a_rule_that_declares_it(monkeypatch) -> None:
    """A float64 truncation warning at a line where check reports JAX201 (not JAX603):
    choose_rule's fallback names JAX201, which does not declare the warning, so the
    warning names no rule."""
    import warnings

    truncated = UserWarning("... is not available, and will be truncated to dtype float32.")
    caught = [warnings.WarningMessage(truncated, UserWarning, "f.py", 6)]
    monkeypatch.setattr(_errors, "_user_file", lambda filename: True)
    monkeypatch.setattr(_errors, "static_rules_at", lambda f, line: ["JAX201"])
    assert _errors.warning_rules(caught) == []
    monkeypatch.setattr(_errors, "static_rules_at", lambda f, line: ["JAX201", "JAX603"])
    assert [w["rule"] for w in _errors.warning_rules(caught)] == ["JAX603"]


def test_rule_check_never_confirms_a_rule_by_an_error_it_does_not_declare() -> None:
    """describe_exception names a finding at the failing line even when its rule does
    not declare the exception (rule_source without "and its confirmed_by"): --rule for
    that rule is not confirmed by it; with the declaration it is."""
    from jaxlint.runtime_probes._rule_check import rule_check

    error = {
        "class": "ValueError",
        "message": "mine",
        "file": "f.py",
        "line": 3,
        "rule": "JAX201",
        "rule_source": "static finding at the failing line",
    }
    check = rule_check("JAX201", {"probe": "compile", "error": error}, 3)
    assert check["confirmed"] is False
    assert "does not declare ValueError" in check["why"]
    declared = {
        **error,
        "class": "jax.errors.TracerBoolConversionError",
        "rule_source": "static finding at the failing line, and its confirmed_by",
    }
    check = rule_check("JAX201", {"probe": "compile", "error": declared}, 3)
    assert check["confirmed"] is True
