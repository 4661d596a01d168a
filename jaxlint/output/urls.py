"""Where a finding's rule page is: links that lead somewhere, never a placeholder.

The rule pages are ``docs/rules/JAXnnn.md``, generated from the rules by
``python -m jaxlint.docs_gen docs/rules`` (``tests/test_docs.py`` fails when they are
stale). The package ships that one copy: ``setup.py`` maps ``jaxlint/data/rules/`` onto
``docs/rules/``, so a wheel, and whatever is installed from it, holds every page
(``tests/test_packaging.py`` builds one and checks). ``jaxlint rule JAXnnn`` prints the
same page wherever jaxlint is installed.

A link to a page (JSON ``url``, SARIF ``helpUri``, the language server's
``codeDescription`` and hover) is, in order:

1. ``$JAXLINT_DOCS_URL/JAXnnn.md`` when the environment variable ``JAXLINT_DOCS_URL``
   names where the pages are published (an ``https://``, ``http://`` or ``file://``
   address of the folder holding them);
2. ``DOCS_URL/JAXnnn.md`` when the configuration sets ``docs-url = "DOCS_URL"``
   (``[tool.jaxlint]``, a ``jaxlint.toml`` or ``--config 'docs-url = "..."'``). The
   variable wins over the file (as ``MYPY_CACHE_DIR`` does over mypy's ``cache_dir``):
   the file says where a project's team reads the pages, the variable where one run,
   CI job or machine does (docs/configuration.md says more);
3. the page on disk, as a ``file://`` URI: the copy installed with the package
   (``jaxlint/data/rules/JAXnnn.md``), or, running from a checkout (``pip install -e .``
   or ``PYTHONPATH``), the checkout's ``docs/rules/JAXnnn.md``;
4. none (``null`` in JSON, no ``helpUri``, no ``codeDescription``): only for codes that
   are not rules (``JAX000``, a syntax error; ``JAX900``, an internal error), or a copy
   of jaxlint that lost its pages.

jaxlint has no published address, so no link ever points at a guessed one. A value
that is not such an address is a configuration error (``docs-url``; for the variable,
``jaxlint check`` stops with exit 2 and the language server shows a warning) and never
becomes a link.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path

DOCS_URL_VARIABLE = "JAXLINT_DOCS_URL"
DOCS_URL_KEY = "docs-url"
RULE_DOCS_PATH = "docs/rules"
_RULE_CODE = re.compile(r"^JAX\d{3}$")
_NO_PAGE = ("JAX000", "JAX900")  # a syntax error, an internal error: not rules
_PACKAGE = Path(__file__).resolve().parents[1]
_CHECKOUT = _PACKAGE.parent
_SCHEMES = ("https", "http", "file")
EXPECTED = (
    "expected the https://, http:// or file:// address of the folder that holds the"
    " JAXnnn.md rule pages"
)


def parse_docs_url(value: object) -> str:
    """``value`` as a docs base URL, without its trailing slash; :class:`ValueError`
    saying what is wrong (not a string, no such scheme, no host, spaces)."""
    if not isinstance(value, str):
        raise ValueError(f"{EXPECTED}, got {value!r}")
    text = value.strip()
    parts = urllib.parse.urlsplit(text)
    if parts.scheme.lower() not in _SCHEMES or any(c.isspace() for c in text):
        raise ValueError(f"{EXPECTED} (e.g. https://example.org/jaxlint/rules), got {value!r}")
    if parts.scheme.lower() != "file" and not parts.netloc:
        raise ValueError(f"{EXPECTED}: {value!r} names no host")
    if parts.scheme.lower() == "file" and parts.netloc not in ("", "localhost"):
        raise ValueError(f"{EXPECTED}: a file:// address is absolute (file:///path/to/rules)")
    if parts.scheme.lower() == "file" and not parts.path.strip("/"):
        raise ValueError(f"{EXPECTED}: {value!r} names no folder")
    if parts.query or parts.fragment:
        raise ValueError(f"{EXPECTED}: {value!r} has a query or fragment; pages go after it")
    return text.rstrip("/")


def environment_docs_url() -> str | None:
    """``$JAXLINT_DOCS_URL``, checked (:class:`ValueError` when it is not an address);
    None when it is unset or empty."""
    value = os.environ.get(DOCS_URL_VARIABLE, "")
    if not value.strip():
        return None
    try:
        return parse_docs_url(value)
    except ValueError as exc:
        raise ValueError(f"${DOCS_URL_VARIABLE}: {exc}") from None


def docs_base_url(configured: str | None = None) -> str | None:
    """Where the pages are published: ``$JAXLINT_DOCS_URL``, else the configuration's
    ``docs-url`` (``configured``, already checked), else None (the pages on disk). An
    invalid variable is left out here; ``jaxlint check`` refuses it before it gets here."""
    try:
        base = environment_docs_url()
    except ValueError:
        base = None
    if base is not None:
        return base
    return configured.rstrip("/") if configured else None


def pages_folder() -> Path | None:
    """The folder of the rule pages on disk: the installed package's copy, else the
    checkout's ``docs/rules``; None when neither is there."""
    for folder in (_PACKAGE / "data" / "rules", _CHECKOUT / RULE_DOCS_PATH):
        if (folder / "index.md").is_file():
            return folder
    return None


def repository_url(configured: str | None = None) -> str | None:
    """A page about jaxlint itself (SARIF's ``informationUri``): the rules' index under
    the docs base URL, else the checkout's README, else the installed index page, as a
    ``file://`` URI; None when there is none of them."""
    base = docs_base_url(configured)
    if base is not None:
        return f"{base}/index.md"
    readme = _CHECKOUT / "README.md"
    if readme.is_file() and (_CHECKOUT / RULE_DOCS_PATH).is_dir():
        return readme.as_uri()
    folder = pages_folder()
    return (folder / "index.md").as_uri() if folder is not None else None


def rule_url(code: str, configured: str | None = None) -> str | None:
    """The rule's page (see the module's docstring), or None: for codes that are not rules
    (syntax and internal errors), and when no page can be linked to. ``configured`` is
    the configuration's ``docs-url`` (``Settings.docs_url``)."""
    if not _RULE_CODE.match(code) or code in _NO_PAGE:
        return None
    base = docs_base_url(configured)
    if base is not None:
        return f"{base}/{code}.md"
    folder = pages_folder()
    if folder is None:
        return None
    page = folder / f"{code}.md"
    return page.as_uri() if page.is_file() else None


def rule_pointer(code: str) -> str:
    """How to read the rule's page wherever jaxlint is installed."""
    return f"jaxlint rule {code}"
