"""What confirms a rule at runtime is declared once, on the rule (``Rule.confirmed_by``),
and the probes read it from there: no second table in ``jaxlint.runtime_probes``."""

from __future__ import annotations

import builtins
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
