"""ruff next to jaxlint: ``lint.external = ["JAX"]`` keeps ``# noqa: JAX...`` comments.

These run the real ruff and pin the behaviour that docs/integrations.md describes
(checked against ruff 0.17):

* RUF100 (unused-noqa) on its own ignores codes that ruff does not know, so a lone
  ``# noqa: JAX702`` survives it even without ``external``;
* RUF102 (invalid-rule-code, part of ``RUF``) reports such codes and its fix deletes
  them, and RUF100's fix for ``# noqa: E501, JAX702`` (E501 unused) deletes the whole
  comment, JAX702 included;
* with ``external = ["JAX"]`` neither happens.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = "import jax.numpy as jnp\n\nx = jnp.round_(3)  # noqa: JAX702\n"


def ruff_command() -> list[str]:
    exe = shutil.which("ruff", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "ruff"]


def ruff(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ruff_command(), "check", "--no-cache", "--config", "ruff.toml", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_config(root: Path, select: list[str], external: list[str] | None) -> None:
    lines = ["[lint]", f"select = {json.dumps(select)}"]
    if external is not None:
        lines.append(f"external = {json.dumps(external)}")
    (root / "ruff.toml").write_text("\n".join(lines) + "\n")


def jaxlint_codes(root: Path, name: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format", "json", name],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return [d["code"] for d in json.loads(proc.stdout)]


@pytest.mark.parametrize("select", [["RUF100"], ["RUF100", "RUF102"], ["RUF"]])
def test_external_keeps_jaxlint_noqa(tmp_path: Path, select: list[str]) -> None:
    write_config(tmp_path, select, external=["JAX"])
    (tmp_path / "m.py").write_text(SOURCE)
    proc = ruff(tmp_path, "--fix", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RUF1" not in proc.stdout
    assert "All checks passed" in proc.stdout
    assert (tmp_path / "m.py").read_text() == SOURCE
    # ... and jaxlint still honours the comment
    assert jaxlint_codes(tmp_path, "m.py") == []


def test_without_external_ruf102_removes_the_comment(tmp_path: Path) -> None:
    write_config(tmp_path, ["RUF100", "RUF102"], external=None)
    (tmp_path / "m.py").write_text(SOURCE)
    proc = ruff(tmp_path, "--output-format", "concise", "m.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "m.py:3:20: RUF102" in proc.stdout
    assert "JAX702" in proc.stdout

    proc = ruff(tmp_path, "--fix", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "m.py").read_text() == "import jax.numpy as jnp\n\nx = jnp.round_(3)\n"
    # the suppression is gone: jaxlint reports the finding again
    assert jaxlint_codes(tmp_path, "m.py") == ["JAX702"]


def test_ruf100_alone_ignores_unknown_codes(tmp_path: Path) -> None:
    # ruff's own docs: RUF100 "ignores any codes that are unknown to Ruff". If this
    # ever changes, docs/integrations.md needs updating.
    write_config(tmp_path, ["RUF100"], external=None)
    (tmp_path / "m.py").write_text(SOURCE)
    proc = ruff(tmp_path, "--fix", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "m.py").read_text() == SOURCE


@pytest.mark.parametrize(
    ("external", "kept"),
    [
        (None, "x = jnp.round_(3)\n"),
        (["JAX"], "x = jnp.round_(3)  # noqa: JAX702\n"),
    ],
)
def test_ruf100_on_a_mixed_comment(tmp_path: Path, external: list[str] | None, kept: str) -> None:
    # E501 is not enabled, so RUF100 reports the directive; its fix keeps only the codes
    # it considers in use, and without `external` that drops JAX702 too.
    write_config(tmp_path, ["RUF100"], external=external)
    (tmp_path / "m.py").write_text(
        "import jax.numpy as jnp\n\nx = jnp.round_(3)  # noqa: E501, JAX702\n"
    )
    proc = ruff(tmp_path, "--output-format", "concise", "m.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "m.py:3:20: RUF100" in proc.stdout
    assert "E501" in proc.stdout

    proc = ruff(tmp_path, "--fix", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "m.py").read_text() == "import jax.numpy as jnp\n\n" + kept
    expected = ["JAX702"] if external is None else []
    assert jaxlint_codes(tmp_path, "m.py") == expected


def test_bare_noqa_is_removed_even_with_external(tmp_path: Path) -> None:
    # This is why the docs recommend explicit codes over a bare noqa on jaxlint findings.
    write_config(tmp_path, ["RUF100"], external=["JAX"])
    (tmp_path / "m.py").write_text("import jax.numpy as jnp\n\nx = jnp.round_(3)  # noqa\n")
    proc = ruff(tmp_path, "--fix", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "m.py").read_text() == "import jax.numpy as jnp\n\nx = jnp.round_(3)\n"
