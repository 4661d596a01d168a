"""``jaxlint rule CODE`` and ``jaxlint rule --all``: a rule's documentation."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jaxlint.cli import common
from jaxlint.cli.common import EXIT_OK, UsageError

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule


def add_parser(sub: argparse._SubParsersAction) -> None:
    rule = sub.add_parser("rule", help="show a rule's documentation")
    rule.add_argument("code", nargs="?", help="a code (JAX602) or name (empty-not-zeros)")
    rule.add_argument("--all", action="store_true", help="list every rule")


_FIX_LABELS = {"always": "fix: always", "sometimes": "fix: sometimes", "none": "fix: none"}


def run(args: argparse.Namespace) -> int:
    if args.all:
        rules = common.all_rules()
        width = max((len(r.name) for r in rules), default=0)
        for r in rules:
            state = "" if r.default_enabled else "  (off by default)"
            print(f"{r.code}  {r.name:<{width}}  {_FIX_LABELS[r.fix_availability]}{state}")
        return EXIT_OK
    if not args.code:
        raise UsageError("jaxlint rule: give a rule code or name, or --all")
    rule = common.find_rule(args.code) or common.find_rule(args.code.strip().upper())
    if rule is None:
        rule = common.find_rule(args.code.strip().lower())
    if rule is None:
        known = ", ".join(r.code for r in common.all_rules())
        raise UsageError(f"jaxlint rule: unknown rule {args.code!r} (known: {known})")
    print(rule_markdown(rule), end="")
    return EXIT_OK


def rule_markdown(rule: type[Rule]) -> str:
    from jaxlint.docs_gen import rule_markdown as generate

    return generate(rule)
