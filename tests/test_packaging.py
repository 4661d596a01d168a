"""What ``pip install .`` gives: a wheel that holds every rule page, and an installed copy
whose links (JSON ``url``, SARIF ``helpUri`` and ``informationUri``) are those pages on
disk (issue 26: links that lead somewhere).

One wheel is built offline for the module (about 2 s; tests/packaging_support.py) and
installed with ``pip install --target``; the installed copy runs in a subprocess from a
folder outside the checkout, so nothing of the checkout can answer for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import urllib.parse
import zipfile
from pathlib import Path

import pytest
from packaging_support import ROOT, build_wheel, copy_sources, install_wheel, installed_env

from jaxlint.docs_gen import expected_pages
from jaxlint.rules import all_rules

PAGES_IN_WHEEL = "jaxlint/data/rules/"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the folder it is installed in)."""
    folder = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(folder)
    return wheel, install_wheel(wheel, folder / "site")


def _path_of(uri: str) -> Path:
    assert uri.startswith("file://"), uri
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(uri).path))


def test_the_wheel_holds_every_rule_page_as_generated(built: tuple[Path, Path]) -> None:
    wheel, _ = built
    with zipfile.ZipFile(wheel) as zf:
        shipped = {
            name.removeprefix(PAGES_IN_WHEEL): zf.read(name).decode("utf-8")
            for name in zf.namelist()
            if name.startswith(PAGES_IN_WHEEL)
        }
        names = zf.namelist()
    expected = expected_pages()  # what the rule classes say (docs/rules is checked against it)
    assert set(expected) == {f"{r.code}.md" for r in all_rules()} | {"index.md"}
    assert shipped == expected
    # the rest of the package is still there: code, data, rule examples, py.typed
    for needed in (
        "jaxlint/py.typed",
        "jaxlint/data/api_drift.toml",
        "jaxlint/output/urls.py",
        "jaxlint/server/app.py",
    ):
        assert needed in names
    assert any(".examples/" in name for name in names)
    assert not any("__pycache__" in name or name.startswith("docs/") for name in names)


def test_the_sdist_carries_the_pages(tmp_path: Path) -> None:
    """A wheel built from the sdist (what an index install does) has them too: the sdist
    holds docs/rules/, which setup.py maps into the package."""
    from packaging_support import need_setuptools

    need_setuptools()
    src = copy_sources(tmp_path)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta;"
            " print(build_meta.build_sdist(sys.argv[1]))",
            str(tmp_path / "sdist"),
        ],
        cwd=src,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    name = proc.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / "sdist" / name) as tf:
        members = {Path(m.name).relative_to(Path(m.name).parts[0]).as_posix() for m in tf}
    for rule in all_rules():
        assert f"docs/rules/{rule.code}.md" in members
    assert "setup.py" in members


def _installed(code: str, site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args] if args else [sys.executable, "-c", code],
        cwd=cwd,
        env=installed_env(site),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_installed_rule_url_points_at_the_installed_pages(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, site = built
    code = (
        "import json, jaxlint; from jaxlint.output.urls import rule_url, repository_url;"
        " from jaxlint.rules import all_rules;"
        " print(json.dumps({'file': jaxlint.__file__, 'info': repository_url(),"
        " 'urls': {r.code: rule_url(r.code) for r in all_rules()}}))"
    )
    proc = _installed(code, site, tmp_path)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert Path(found["file"]).resolve() == (site / "jaxlint" / "__init__.py").resolve()
    pages = (site / "jaxlint" / "data" / "rules").resolve()
    assert set(found["urls"]) == {r.code for r in all_rules()}
    for rule_code, url in found["urls"].items():
        page = _path_of(url)
        assert page == pages / f"{rule_code}.md" and page.is_file(), url
        assert f"({rule_code})\n" in page.read_text(encoding="utf-8")
    assert _path_of(found["info"]) == pages / "index.md"
    assert ROOT.as_posix() not in proc.stdout


def test_installed_json_and_sarif_link_to_the_installed_pages(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, site = built
    (tmp_path / "a.py").write_text("import jax.numpy as jnp\nx = jnp.round_(3)\n")
    pages = (site / "jaxlint" / "data" / "rules").resolve()
    proc = _installed("", site, tmp_path, "-m", "jaxlint", "check", "--no-cache", "-q",
                      "--output-format", "json", "a.py")  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    (item,) = json.loads(proc.stdout)
    assert item["code"] == "JAX702"
    assert _path_of(item["url"]) == pages / "JAX702.md"
    assert _path_of(item["url"]).is_file()
    proc = _installed("", site, tmp_path, "-m", "jaxlint", "check", "--no-cache", "-q",
                      "--output-format", "sarif", "a.py")  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    driver = json.loads(proc.stdout)["runs"][0]["tool"]["driver"]
    assert _path_of(driver["informationUri"]) == pages / "index.md"
    assert len(driver["rules"]) == len(all_rules())
    for rule in driver["rules"]:
        assert _path_of(rule["helpUri"]) == pages / f"{rule['id']}.md"
        assert _path_of(rule["helpUri"]).is_file()


def test_installed_copy_takes_the_configured_base(built: tuple[Path, Path], tmp_path: Path) -> None:
    """docs-url in the project's configuration, and $JAXLINT_DOCS_URL over it, work the
    same from an installed copy."""
    _, site = built
    (tmp_path / "a.py").write_text("import jax.numpy as jnp\nx = jnp.round_(3)\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\ndocs-url = "https://docs.example.org/jaxlint/rules/"\n'
    )
    proc = _installed("", site, tmp_path, "-m", "jaxlint", "check", "--no-cache", "-q",
                      "--output-format", "json", "a.py")  # fmt: skip
    (item,) = json.loads(proc.stdout)
    assert item["url"] == "https://docs.example.org/jaxlint/rules/JAX702.md"
