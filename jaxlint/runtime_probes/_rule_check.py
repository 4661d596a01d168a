"""``--rule CODE``: whether a probe's run confirmed the finding it was started for.

Verify lines pass the finding's rule (``jaxlint probe compile f.py:g --rule JAX201``);
the report then has ``rule_check``: ``{rule, confirmed, why}``. It is read from the
report only, never guessed: the rule is confirmed when the report names it by its runtime
sign (the error's ``rule`` when that rule declares the exception, not a finding at the
failing line that declares something else; a compilation loop's ``rules``; a warning's
``rule``), and when it is not the
``why`` says plainly what the run showed and what would have confirmed it (the rule's
``confirmed_by``). ``rule_check`` never changes the exit code or ``ok``.
"""

from __future__ import annotations

from typing import Any


def _rule(code: str) -> Any:
    from jaxlint.rules import all_rules

    return next((r for r in all_rules() if r.code == code), None)


def _signs(rule: Any) -> list[str]:
    """What confirms the rule at runtime, in words (its ``confirmed_by``)."""
    from jaxlint.rules.base import Event, HostSyncEveryRun, Raises

    out = []
    for sign in getattr(rule, "confirmed_by", ()):
        if isinstance(sign, Raises):
            extra = sign.message_startswith or sign.message_contains
            out.append(f"{sign.exception}" + (f" ({extra!r})" if extra else ""))
        elif isinstance(sign, Event):
            out.append("an XLA compilation on a call after the first")
        elif isinstance(sign, HostSyncEveryRun):
            out.append("a read of a device array by the host on every run of the line, in a loop")
    return out


def _error_declared(error: dict[str, Any]) -> bool:
    """The error's ``rule`` declares the exception (its ``confirmed_by``), rather than
    being a finding ``jaxlint check`` reports at the failing line (``choose_rule``'s
    fallback, whose ``rule_source`` does not end so)."""
    return str(error.get("rule_source", "")).endswith("and its confirmed_by")


def named_rules(report: dict[str, Any]) -> list[str]:
    """Every rule the report names: the error's, a loop's ``rules``, the warnings'."""
    named: list[str] = []
    error = report.get("error") or {}
    if error.get("rule"):
        named.append(error["rule"])
    named += [r for r in report.get("rules") or [] if isinstance(r, str)]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "warning_rules" and isinstance(item, list):
                    named.extend(w["rule"] for w in item if isinstance(w, dict) and w.get("rule"))
                elif key != "rule_check":
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({k: v for k, v in report.items() if k not in ("error", "rules")})
    return list(dict.fromkeys(named))


def rule_check(code: str, report: dict[str, Any], exit_code: int) -> dict[str, Any]:
    """``{rule, confirmed, why}`` for ``--rule CODE`` (see the module's docstring)."""
    rule = _rule(code)
    if rule is None:
        return {"rule": code, "confirmed": False, "why": f"{code} is not a jaxlint rule"}
    named = named_rules(report)
    error = report.get("error") or {}
    # the rules named by their runtime sign: the error's only when it declares the error
    signed = named_rules({**report, "error": error if _error_declared(error) else {}})
    if code in signed:
        if error.get("rule") == code:
            where = f" at {error['file']}:{error['line']}" if error.get("line") else ""
            why = f"the run raised {error.get('class')}{where}, which is {code}'s"
        else:
            why = f"the run showed what {code} predicts ({', '.join(_signs(rule)) or 'its sign'})"
        return {"rule": code, "confirmed": True, "why": why}
    signs = _signs(rule)
    wanted = (
        f"{code} is confirmed by {' or '.join(signs)}"
        if signs
        else (
            f"{code} declares nothing a run can show (no confirmed_by): its claim is about"
            " the code, read the report's measurements"
        )
    )
    probe = report.get("probe")
    if probe == "env":
        versions = report.get("versions") or {}
        jax_version = versions.get("jax") if isinstance(versions, dict) else None
        why = (
            f"env reports the installed JAX{f' ({jax_version})' if jax_version else ''};"
            f" {code}'s claim is about what that version provides, which `jaxlint rule"
            f" {code}` states: env runs none of your code, so it confirms nothing itself"
        )
        return {"rule": code, "confirmed": False, "why": why}
    if error:
        others = f"; it names {', '.join(named)}" if named else ""
        if error.get("rule") == code:
            others += (
                f"; `jaxlint check` reports {code} at the failing line, but {code} does not"
                f" declare {error.get('class')}"
            )
        why = (
            f"the run stopped with {error.get('class')}: {error.get('message', '')}"
            f"{others}; {wanted}"
        )
        if error.get("hint"):
            why += f" (hint: {error['hint']})"
        return {"rule": code, "confirmed": False, "why": why}
    if report.get("rules_note"):
        return {"rule": code, "confirmed": False, "why": f"{report['rules_note']}; {wanted}"}
    inputs = report.get("inputs_from") or {}
    source = inputs.get("source") if isinstance(inputs, dict) else None
    on = f" on the inputs from {source}" if source else ""
    why = f"the run finished without any of it{on} (exit {exit_code}); {wanted}"
    line = report.get("line")
    if isinstance(line, dict) and line.get("verdict"):  # syncs --line: what the line did
        why = f"{line['verdict']}{on}; {wanted}"
    if not signs and probe == "bench":
        why = (
            f"the run measured the code{on} (the timings are in the report);"
            f" {code} declares no runtime sign, so the probe cannot tell whether it holds:"
            " compare the times, or see `jaxlint rule " + code + "`"
        )
    return {"rule": code, "confirmed": False, "why": why}


def rule_check_text(check: dict[str, Any] | None) -> list[str]:
    if not check:
        return []
    state = "confirmed" if check.get("confirmed") else "not confirmed"
    return [f"rule {check.get('rule')}: {state}: {check.get('why')}"]
