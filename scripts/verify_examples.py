"""Run every verify line of the rules' INVALID examples, as printed, and sort the results.

    python scripts/verify_examples.py                 # every rule, one process per rule
    python scripts/verify_examples.py JAX201 JAX405   # some rules
    python scripts/verify_examples.py --json out.json

Each INVALID example is written to a fresh folder as its file (``example.py`` unless the
example names another) and checked with jaxlint (all rules, as ``jaxlint check --select
ALL``); for each finding of the example's rule that has a verify line, the line is run as
printed from that folder (its ``NAME=VALUE`` words become the environment; the probe's
``main`` runs in a process made for the rule, so a rule's environment is set before JAX
is imported). Each result is one of:

* ``confirmed``: the report's ``rule_check`` (the verify line passes ``--rule CODE``)
  says the run confirmed the rule: the probe names it (``error.rule``, a loop's
  ``rules``, a warning's rule);
* ``explained``: ``rule_check`` says plainly why the run did not confirm it (``env``
  runs none of the code; the run stopped with an error; it finished without the rule's
  runtime sign on those inputs);
* ``wrong rule``: the probe names a rule that jaxlint does not report in the example;
* ``crash``: no report, an ``InternalError``, or an exit code outside 0-3.

The probes import and run the examples (they are jaxlint's own code).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ("confirmed", "explained", "wrong rule", "crash")


def _examples(code: str) -> list[tuple[Any, Any]]:
    from jaxlint.rules import all_rules

    rule = next(r for r in all_rules() if r.code == code)
    return [(rule, example) for example in rule.INVALID]


def _findings(rule: Any, example: Any, folder: Path) -> tuple[str, list[Any]]:
    from jaxlint.config import Settings
    from jaxlint.engine import lint_text
    from jaxlint.rules import all_rules
    from jaxlint.versions import NEWEST_KNOWN_JAX, parse_version

    name = Path(example.filename).name or "example.py"
    path = folder / name
    path.write_text(example.code, encoding="utf-8")
    options = tuple((k, v) for k, v in example.options.items())
    settings = Settings(
        target_jax=parse_version(example.target_jax or NEWEST_KNOWN_JAX),
        rule_options=((rule.code, options),) if options else (),
    )
    result = lint_text(example.code, name, settings, list(all_rules()), path=path)
    return name, list(result.diagnostics)


def _run(command: str, folder: Path) -> tuple[int | None, dict[str, Any] | None, str]:
    """Run a verify line in this process, from ``folder``; (exit code, report, stderr)."""
    import importlib

    words = shlex.split(command)
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        words.pop(0)  # the environment: set for the whole process by the caller
    if words[:2] != ["jaxlint", "probe"]:
        return None, None, f"not a probe command: {command}"
    module = importlib.import_module(f"jaxlint.runtime_probes.{words[2]}")
    out = folder / "report.json"
    out.unlink(missing_ok=True)
    err = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = module.main([*words[3:], "--output", str(out)])
    except BaseException as exc:  # a crash of the probe itself
        return None, None, f"{type(exc).__name__}: {exc}"
    finally:
        os.chdir(cwd)
    try:
        return code, json.loads(out.read_text(encoding="utf-8")), err.getvalue()
    except (OSError, ValueError) as exc:
        return code, None, f"no report: {exc}; {err.getvalue()[-500:]}"


def classify(code: str, reported: set[str], exit_code: int | None, report: Any) -> dict:
    from jaxlint.runtime_probes._rule_check import named_rules

    if report is None or exit_code not in (0, 1, 2, 3):
        return {"verdict": "crash", "why": "no report, or an exit code outside 0-3"}
    error = report.get("error") or {}
    if error.get("class") == "InternalError":
        return {"verdict": "crash", "why": error.get("message", "")}
    wrong = [n for n in named_rules(report) if n not in reported]
    if wrong:
        return {"verdict": "wrong rule", "why": f"names {wrong}, not reported in the example"}
    check = report.get("rule_check") or {}
    if check.get("rule") != code:
        return {"verdict": "crash", "why": "the report has no rule_check for the rule"}
    if check.get("confirmed"):
        return {"verdict": "confirmed", "why": check.get("why", "")}
    if check.get("why"):
        return {"verdict": "explained", "why": check["why"]}
    return {"verdict": "unexplained", "why": "nothing in the report says why not"}


def run_rule(code: str) -> list[dict[str, Any]]:
    """Every verify line of ``code``'s INVALID examples, run in this process."""
    out: list[dict[str, Any]] = []
    for rule, example in _examples(code):
        with tempfile.TemporaryDirectory(prefix=f"verify-{code}-") as tmp:
            folder = Path(tmp)
            try:
                name, diags = _findings(rule, example, folder)
            except Exception as exc:  # the example does not lint: not a verify result
                out.append({"rule": code, "example": example.file, "verdict": "crash",
                            "why": f"lint failed: {exc}"})  # fmt: skip
                continue
            reported = {d.code for d in diags}
            commands = sorted({d.probe for d in diags if d.code == code and d.probe})
            for command in commands:
                exit_code, report, err = _run(command, folder)
                result = classify(code, reported, exit_code, report)
                if result["verdict"] == "crash" and err:
                    result["why"] += f"; {err.strip()[-300:]}"
                out.append(
                    {
                        "rule": code,
                        "example": Path(example.file).name if example.file else name,
                        "command": command,
                        "exit": exit_code,
                        **result,
                    }
                )
    return out


def _rule_env(code: str) -> dict[str, str]:
    from jaxlint.rules import all_rules
    from jaxlint.verify import parse_declaration

    rule = next(r for r in all_rules() if r.code == code)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONPATH"] = str(ROOT)
    env["JAXLINT_PROBE_IN_PROCESS"] = "1"
    env.update(dict(parse_declaration(rule.probe).env))
    return env


def rules_with_verify_lines() -> list[str]:
    from jaxlint.rules import all_rules

    return [r.code for r in all_rules() if getattr(r, "probe", None) and r.INVALID]


def run_in_child(code: str, timeout: int = 600) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", code],
        capture_output=True,
        text=True,
        env=_rule_env(code),
        timeout=timeout,
        cwd=ROOT,
    )
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        why = f"the rule's process ended with {proc.returncode}: {proc.stderr.strip()[-500:]}"
        return [{"rule": code, "example": None, "verdict": "crash", "why": why}]


def summary(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for r in results:
        row = table.setdefault(r["rule"], {})
        row[r["verdict"]] = row.get(r["verdict"], 0) + 1
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.child:
        (code,) = args.codes
        results = run_rule(code)
        sys.stdout.write("\n" + json.dumps(results) + "\n")
        return 0
    codes = args.codes or rules_with_verify_lines()
    results: list[dict[str, Any]] = []
    for code in codes:
        got = run_in_child(code)
        results += got
        row = summary(got).get(code, {})
        print(f"{code}: " + ", ".join(f"{k} {v}" for k, v in sorted(row.items())), flush=True)
    totals: dict[str, int] = {}
    for r in results:
        totals[r["verdict"]] = totals.get(r["verdict"], 0) + 1
    print("total: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    bad = sum(totals.get(k, 0) for k in ("wrong rule", "crash", "unexplained"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
