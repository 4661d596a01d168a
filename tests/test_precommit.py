"""The hooks in ``.pre-commit-hooks.yaml``, run by the real ``pre-commit try-repo``.

``try-repo`` clones the hook repository, builds a virtualenv and pip-installs
jaxlint into it (from PyPI: libcst), so each run takes a few seconds to a minute.

It clones committed history plus *tracked* edits only: files that are new and not
yet ``git add``-ed would be missing. So the tests snapshot the working tree of the
repository that holds this test file (tracked and untracked, not ignored files)
into a temporary git repository and point ``try-repo`` at that: what is tested is
exactly the code on disk, committed or not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

_GIT_IDENTITY = (
    "-c",
    "user.name=jaxlint tests",
    "-c",
    "user.email=jaxlint-tests@example.invalid",
    "-c",
    "commit.gpgsign=false",
)

BAD = "import jax.numpy as jnp\n\nx = jnp.round_(3.5)\n"
FIXED = "import jax.numpy as jnp\n\nx = jnp.round(3.5)\n"


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *_GIT_IDENTITY, *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stdout}{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def precommit_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """An environment with a PRE_COMMIT_HOME shared by the tests of this module."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    env.pop("PRE_COMMIT", None)
    yield env


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed git snapshot of this checkout's working tree."""
    dest = tmp_path_factory.mktemp("hook-repo")
    if (REPO_ROOT / ".git").exists():
        listed = git(REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
        names = [n for n in listed.split("\0") if n]
    else:  # an unpacked source tree: take the files the package needs
        names = [
            p.relative_to(REPO_ROOT).as_posix()
            for p in REPO_ROOT.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".venv" not in p.parts
        ]
    for name in names:
        src = REPO_ROOT / name
        if not src.is_file():  # deleted but still in the index
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    assert (dest / ".pre-commit-hooks.yaml").is_file()
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot for pre-commit try-repo")
    return dest


def make_project(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(root, "add", "-f", *files)
    return root


def try_repo(
    project: Path, hook_repo: Path, hook: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(hook_repo),
            hook,
            "--all-files",
            "--color",
            "never",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_manifest_declares_both_hooks() -> None:
    text = (REPO_ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "- id: jaxlint\n" in text
    assert "entry: jaxlint check --force-exclude\n" in text
    assert "- id: jaxlint-fix\n" in text
    assert "entry: jaxlint check --fix --force-exclude --exit-non-zero-on-fix\n" in text
    assert text.count("types_or: [python, pyi]") == 2


def test_jaxlint_hook_fails_on_a_finding(
    tmp_path: Path, hook_repo: Path, precommit_env: dict[str, str]
) -> None:
    project = make_project(
        tmp_path / "proj",
        {
            "model.py": BAD,
            "clean.py": "import jax.numpy as jnp\n\nx = jnp.zeros(3)\n",
            "stub.pyi": "import jax.numpy as jnp\n\ny: jnp.ndarray = jnp.round_(2)\n",
            # excluded by jaxlint's default `exclude`, honoured thanks to --force-exclude
            "build/generated.py": BAD,
        },
    )
    proc = try_repo(project, hook_repo, "jaxlint", precommit_env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Failed" in out
    assert "model.py:3:5: JAX702" in out
    assert "stub.pyi:3:18: JAX702" in out
    assert "build/generated.py" not in out
    assert "clean.py" not in out
    assert (project / "model.py").read_text() == BAD  # the check hook never writes


def test_jaxlint_fix_hook_fixes_and_fails(
    tmp_path: Path, hook_repo: Path, precommit_env: dict[str, str]
) -> None:
    project = make_project(tmp_path / "proj", {"model.py": BAD, "build/generated.py": BAD})
    proc = try_repo(project, hook_repo, "jaxlint-fix", precommit_env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Failed" in out
    assert "files were modified by this hook" in out
    assert (project / "model.py").read_text() == FIXED
    assert (project / "build" / "generated.py").read_text() == BAD

    # Once fixed, the hook passes.
    git(project, "add", "model.py")
    proc = try_repo(project, hook_repo, "jaxlint-fix", precommit_env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "Passed" in out


def test_no_python_files_is_skipped(
    tmp_path: Path, hook_repo: Path, precommit_env: dict[str, str]
) -> None:
    project = make_project(tmp_path / "proj", {"README.md": "jnp.round_ is not code here\n"})
    proc = try_repo(project, hook_repo, "jaxlint", precommit_env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "(no files to check)Skipped" in out
