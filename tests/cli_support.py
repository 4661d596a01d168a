"""Helpers shared by the tests that run ``jaxlint`` in-process (``jaxlint.cli.main``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from jaxlint.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    def lines_for(self, name: str) -> list[str]:
        return [line for line in self.out.splitlines() if line.startswith(f"{name}:")]

    @property
    def errors(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.startswith("error:")]


def runner(capsys: pytest.CaptureFixture[str], *prefix: str) -> Callable[..., Run]:
    """``run(*args)``: ``main([*prefix, *args])``, its exit code and captured output (never
    a traceback)."""

    def run(*args: str) -> Run:
        code = main([*prefix, *args])
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return Run(code, out, err)

    return run
