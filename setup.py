"""The build script: the one thing pyproject.toml cannot say.

The rule pages, ``docs/rules/JAXnnn.md`` (and their ``index.md``), ship inside the
package as ``jaxlint/data/rules/``, so that an installed jaxlint links to pages on disk
(``jaxlint/output/urls.py``). There is one copy of them: the pages in ``docs/rules/``,
generated from the rule classes by ``python -m jaxlint.docs_gen docs/rules`` and kept
from going stale by ``tests/test_docs.py``. ``package_dir`` maps the package
``jaxlint.data.rules`` onto that folder, so a wheel (or an sdist, and a wheel built
from it) takes them as they are: nothing is generated or copied at build time, and
nothing beyond setuptools is needed to build. ``[tool.setuptools.packages.find]`` in
pyproject.toml cannot name a package outside ``jaxlint/``, hence this file;
``tests/test_packaging.py`` builds a wheel and checks what it holds.
"""

from setuptools import find_namespace_packages, setup

RULE_PAGES = "jaxlint.data.rules"

setup(
    packages=[*find_namespace_packages(include=["jaxlint*"]), RULE_PAGES],
    package_dir={RULE_PAGES: "docs/rules"},
)
