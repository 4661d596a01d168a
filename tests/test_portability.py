"""The linter runs on Python 3.10+ and never imports jax."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_linting_never_imports_jax() -> None:
    code = (
        "import sys\n"
        "from jaxlint.cli import main\n"
        f"rc = main(['check', '--output-format', 'json', {str(ROOT / 'examples')!r}])\n"
        "assert rc == 1, rc\n"
        "import jaxlint.flake8_plugin\n"
        "bad = sorted(m for m in sys.modules if m == 'jax' or m.startswith('jax.'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def _python310() -> str | None:
    candidates = []
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(root, "versions", "3.10*", "bin", "python3")))
    candidates += ["/usr/bin/python3.10", "/usr/local/bin/python3.10"]
    for c in candidates:
        if os.path.exists(c):
            try:
                out = subprocess.run(
                    [c, "-c", "import sys; print(sys.version_info[:2] == (3, 10))"],
                    capture_output=True,
                    text=True,
                    timeout=30,
                )
            except OSError:
                continue
            if out.stdout.strip() == "True":
                return c
    return None


@pytest.mark.skipif(_python310() is None, reason="no Python 3.10 interpreter on this machine")
def test_runs_on_python_310(tmp_path: Path) -> None:
    python = _python310()
    assert python is not None
    env_dir = tmp_path / "venv310"
    subprocess.run([python, "-m", "venv", str(env_dir)], check=True, timeout=120)
    py = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    proc = subprocess.run(
        [str(py), "-m", "jaxlint", "check", "--output-format", "concise", str(ROOT / "examples")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "JAX101" in proc.stdout and "JAX702" in proc.stdout
    assert "Traceback" not in proc.stderr
