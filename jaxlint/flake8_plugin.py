"""jaxlint as a flake8 plugin: ``flake8`` (or ``flake8 --select JAX``).

Registered in ``pyproject.toml`` under ``[project.entry-points."flake8.extension"]``.
This module never imports flake8, so the ``jaxlint`` CLI does not depend on it.

What flake8 governs and what jaxlint does:

* flake8's ``--select`` / ``--extend-select`` / ``--ignore`` / ``--extend-ignore`` /
  ``--per-file-ignores`` and inline ``# noqa`` comments decide which findings are
  shown. The plugin runs every jaxlint rule and leaves jaxlint's own ``select``,
  ``ignore``, ``extend-select`` and ``per-file-ignores`` aside.
* The codes of rules that are off by default (``default_enabled = False``, such as
  JAX302) go on flake8's default ignore list (:meth:`JaxlintChecker.add_options`),
  so a plain ``flake8`` run reports what ``jaxlint check`` reports. Selecting them
  explicitly turns them on, as in jaxlint: ``--extend-select JAX302``,
  ``--select JAX3``, and also ``--select JAX`` (flake8, like jaxlint, lets an
  explicit selection override a default ignore). An explicit ``--ignore`` (or
  ``ignore =`` in a flake8 config) replaces flake8's default ignore list and so
  turns them on too; ``--extend-ignore`` does not.
* The file's ``[tool.jaxlint]`` (or ``jaxlint.toml``) still supplies ``target-jax``
  and the per-rule options, and a file-level ``# jaxlint: noqa[: codes]`` line
  still silences the file (flake8 does not know that comment).
* A configuration error, a rule that crashes, or any other failure inside the
  plugin is reported as one ``JAX900`` finding instead of aborting the flake8 run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from jaxlint import __version__
from jaxlint.analysis.project import find_project_root
from jaxlint.config import ConfigError, ConfigResolver, Settings
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, PARSE_ERROR_CODE
from jaxlint.engine import lint_text, mentions_jax
from jaxlint.gc_pause import gc_paused
from jaxlint.noqa import ALL, file_noqa_codes, suppresses
from jaxlint.rules import all_rules
from jaxlint.rules.base import Rule

Report = tuple[int, int, str, type[Any]]
"""What flake8 expects from a tree plugin: (row, 0-based column, "CODE message", type)."""


class JaxlintChecker:
    """The flake8 tree plugin (flake8 calls ``JaxlintChecker(tree, filename, lines).run()``)."""

    name = "jaxlint"
    version = __version__

    _resolver: ClassVar[ConfigResolver | None] = None
    """One resolver per process: it caches the config found for each folder."""
    _flake8_settings: ClassVar[dict[int, tuple[Settings, Settings, list[type[Rule]]]]] = {}
    """id(config settings) -> (those settings, the flake8 view of them, the rules to run)."""

    def __init__(self, tree: object, filename: str, lines: Sequence[str]) -> None:
        # ``tree`` is requested only so that flake8 runs this as a tree plugin; jaxlint
        # parses the text with libcst itself.
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, parser: Any) -> None:
        """Put the codes of jaxlint's default-off rules on flake8's default ignore list.

        flake8 calls this with its ``OptionManager`` while registering plugins. The
        plugin runs every rule; flake8's selection then hides these codes unless the
        user selects them (``--extend-select JAX302``, ``--select JAX3``).
        """
        parser.extend_default_ignore(default_off_codes())

    @classmethod
    def resolver(cls) -> ConfigResolver:
        if cls._resolver is None:
            cls._resolver = ConfigResolver()
        return cls._resolver

    @classmethod
    def settings_for(cls, filename: str) -> tuple[Settings, list[type[Rule]]]:
        """The file's settings with jaxlint's rule selection cleared, and every rule."""
        path = None if filename in ("-", "stdin") else Path(filename)
        config = cls.resolver().for_path(path)
        cached = cls._flake8_settings.get(id(config))
        if cached is None or cached[0] is not config:
            settings = dataclasses.replace(
                config, select=None, ignore=(), extend_select=(), per_file_ignores=()
            )
            cached = (config, settings, list(all_rules()))
            cls._flake8_settings[id(config)] = cached
        return cached[1], cached[2]

    def run(self) -> Iterator[Report]:
        try:
            reports = self._check()
        except Exception as exc:  # never abort the flake8 run
            reports = [self._internal(f"jaxlint internal error: {type(exc).__name__}: {exc}")]
        yield from reports

    def _internal(self, message: str) -> Report:
        return (1, 0, f"{INTERNAL_ERROR_CODE} {_one_line(message)}", type(self))

    def _check(self) -> list[Report]:
        text = "".join(self.lines)
        jax_named = mentions_jax(text)
        try:
            settings, rules = self.settings_for(self.filename)
        except ConfigError as exc:
            return [self._internal(f"jaxlint config error: {exc}")] if jax_named else []
        plain = not jax_named and not mentions_jax(text, settings.prefilter_words)
        file_codes = file_noqa_codes(text)
        if file_codes is not None and ALL in file_codes:
            return []
        from jaxlint.cli.project_run import standalone_facts

        path = None if self.filename in ("-", "stdin") else Path(self.filename)
        if plain and (path is None or find_project_root(path) is None):
            return []  # the prefilter: never parsed
        # a file that never mentions JAX is linted when traced code of its project calls
        # it (the project's JAX files are read once per process to find out)
        project = standalone_facts(path, settings)
        if plain and (project is None or not project.traced_calls()):
            return []  # the prefilter: never parsed
        with gc_paused():
            result = lint_text(
                text, self.filename, settings, rules, apply_noqa=False, project=project
            )
        reports: list[Report] = []
        for error in result.internal_errors:
            reports.append(
                self._internal(
                    f"jaxlint internal error in rule {error.rule_code} ({error.rule_name}):"
                    f" {error.error}"
                )
            )
        for diag in result.diagnostics:
            if diag.code != PARSE_ERROR_CODE and suppresses(file_codes, diag.code):
                continue
            col0 = max(diag.start.column - 1, 0)
            reports.append((diag.start.row, col0, f"{diag.code} {diag.message}", type(self)))
        return reports


def default_off_codes() -> list[str]:
    """The codes of the rules that ``jaxlint check`` runs only when selected."""
    return [rule.code for rule in all_rules() if not rule.default_enabled]


def _one_line(message: str) -> str:
    return " ".join(message.split())
