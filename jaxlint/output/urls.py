"""Where a finding's rule page is: links that lead somewhere, never a placeholder.

The rule pages are ``docs/rules/JAXnnn.md`` (generated from the rules by
``python -m jaxlint.docs_gen docs/rules``), and ``jaxlint rule JAXnnn`` prints the same
page wherever jaxlint is installed. A link to a page (JSON ``url``, SARIF ``helpUri``,
the language server's ``codeDescription``) is, in order:

1. ``$JAXLINT_DOCS_URL/JAXnnn.md`` when the environment variable ``JAXLINT_DOCS_URL``
   names where the pages are published (``https://example.org/jaxlint/rules``; a
   ``file://`` folder works too);
2. the page itself, as a ``file://`` URI, when jaxlint runs from a checkout that holds
   it (``pip install -e .`` or ``PYTHONPATH``);
3. none (``null`` in JSON, no ``helpUri``, no ``codeDescription``): there is no page to
   link to, and ``jaxlint rule JAXnnn`` is the way to read it.

jaxlint has no published address yet, so no link ever points at a guessed one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DOCS_URL_VARIABLE = "JAXLINT_DOCS_URL"
RULE_DOCS_PATH = "docs/rules"
_RULE_CODE = re.compile(r"^JAX\d{3}$")
_NO_PAGE = ("JAX000", "JAX900")  # a syntax error, an internal error: not rules
_CHECKOUT = Path(__file__).resolve().parents[2]


def docs_base_url() -> str | None:
    """``$JAXLINT_DOCS_URL`` without its trailing slash, when it is a URL."""
    base = os.environ.get(DOCS_URL_VARIABLE, "").strip()
    if base.startswith(("https://", "http://", "file://")):
        return base.rstrip("/")
    return None


def _checkout_page(code: str) -> Path | None:
    page = _CHECKOUT / RULE_DOCS_PATH / f"{code}.md"
    return page if page.is_file() else None


def repository_url() -> str | None:
    """A page about jaxlint itself (SARIF's ``informationUri``): the docs base URL, or the
    checkout's README as a ``file://`` URI; None when there is neither."""
    base = docs_base_url()
    if base is not None:
        return base
    readme = _CHECKOUT / "README.md"
    if readme.is_file() and (_CHECKOUT / RULE_DOCS_PATH).is_dir():
        return readme.as_uri()
    return None


def rule_url(code: str) -> str | None:
    """The rule's page (see the module's docstring), or None: for codes that are not rules
    (syntax and internal errors), and when no page can be linked to."""
    if not _RULE_CODE.match(code) or code in _NO_PAGE:
        return None
    base = docs_base_url()
    if base is not None:
        return f"{base}/{code}.md"
    page = _checkout_page(code)
    return page.as_uri() if page is not None else None


def rule_pointer(code: str) -> str:
    """How to read the rule's page wherever jaxlint is installed."""
    return f"jaxlint rule {code}"
