"""Where jaxlint's documentation lives: the repository, and one page per rule.

``REPOSITORY_URL`` is the one place the address is written. Run from a checkout,
the ``[project.urls]`` of the checkout's ``pyproject.toml`` (``Repository``,
``Source``, ``Source Code`` or ``Homepage``) wins over it, so a fork that sets its
own URL links to its own pages; ``tests/test_output_formats.py`` keeps the two
in agreement for this repository.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPOSITORY_URL = "https://github.com/OWNER/jaxlint"
"""The repository (a placeholder owner until the project is published)."""
DOCS_BRANCH = "main"
RULE_DOCS_PATH = "docs/rules"
_URL_LABELS = ("repository", "source", "source code", "homepage")
_RULE_CODE = re.compile(r"^JAX\d{3}$")
_NO_PAGE = ("JAX000", "JAX900")  # a syntax error, an internal error: not rules
_CHECKOUT_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@functools.lru_cache(maxsize=1)
def repository_url() -> str:
    """The repository's address: the checkout's ``[project.urls]`` if any, else the constant."""
    return repository_url_from(_checkout_project(_CHECKOUT_PYPROJECT))


def _checkout_project(path: Path) -> Mapping[str, Any]:
    """The ``[project]`` table of ``path`` if it is jaxlint's own pyproject.toml, else {}."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as fh:
            project = tomllib.load(fh).get("project", {})
    except (OSError, ValueError):
        return {}
    if not isinstance(project, Mapping):
        return {}
    scripts = project.get("scripts", {})
    if not isinstance(scripts, Mapping) or scripts.get("jaxlint") != "jaxlint.cli:main":
        return {}
    return project


def repository_url_from(project: Mapping[str, Any]) -> str:
    """The first ``[project.urls]`` entry with a known label, else ``REPOSITORY_URL``."""
    urls = project.get("urls", {})
    if not isinstance(urls, Mapping):
        return REPOSITORY_URL
    by_label = {str(k).strip().lower(): v for k, v in urls.items() if isinstance(v, str)}
    for label in _URL_LABELS:
        url = by_label.get(label, "")
        if url.startswith(("https://", "http://")):
            return url.rstrip("/")
    return REPOSITORY_URL


def rule_url(code: str) -> str | None:
    """The rule's documentation page (``docs/rules/JAXnnn.md`` in the repository), or
    None for codes that are not rules (syntax and internal errors)."""
    if not _RULE_CODE.match(code) or code in _NO_PAGE:
        return None
    return f"{repository_url()}/blob/{DOCS_BRANCH}/{RULE_DOCS_PATH}/{code}.md"
