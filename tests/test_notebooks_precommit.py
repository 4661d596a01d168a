"""The ``jaxlint-fix`` pre-commit hook on a notebook, run by the real ``pre-commit try-repo``
(slow: it builds the hook's virtualenv; see tests/test_precommit.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_precommit import git, hook_repo, make_project, precommit_env, try_repo

__all__ = ["hook_repo", "precommit_env"]  # fixtures, used by name

FIXTURE = Path(__file__).parent / "fixtures" / "notebooks" / "colab_style.ipynb"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_fix_hook_fixes_a_staged_notebook(
    tmp_path: Path, hook_repo: Path, precommit_env: dict[str, str]
) -> None:
    original = FIXTURE.read_text(encoding="utf-8")
    project = make_project(tmp_path / "proj", {"analysis.ipynb": original})
    proc = try_repo(project, hook_repo, "jaxlint-fix", precommit_env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "files were modified by this hook" in out
    fixed = (project / "analysis.ipynb").read_text(encoding="utf-8")
    assert fixed == original.replace("jnp.round_(x)", "jnp.round(x)")

    git(project, "add", "analysis.ipynb")
    proc = try_repo(project, hook_repo, "jaxlint", precommit_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout
