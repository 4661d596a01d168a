"""JAX7xx, API drift: APIs that moved, were deprecated or were removed, and inert config calls.

Rules, one module each:

- JAX701 ``deprecated-api`` (:mod:`.deprecated_api`)
- JAX702 ``removed-api`` (:mod:`.removed_api`)
- JAX703 ``inert-config-call`` (:mod:`.inert_config_call`)
- JAX704 ``private-api`` (:mod:`.private_api`): imports from ``jax._src``, fixed to the
  public name of the same object (``jaxlint/data/jax_public_names.json``)

JAX701 and JAX702 read one table, ``jaxlint/data/api_drift.toml`` plus the release
diff ``jaxlint/data/api_drift_history.json`` (see ``table.py``): a symbol is JAX701 when the target JAX deprecates it and
still has it, JAX702 once the target JAX has removed it. Attribute uses
(``jax.tree_map(...)``) are reported at each use; a name bound by an import
(``from jax import tree_map``, ``from jax.lib import xla_bridge``) is reported once,
at the import, whose fix rewrites the import together with the uses it needs. Their
shared code is in ``helpers.py`` and ``helpers_checks.py``.
"""

from __future__ import annotations

from jaxlint.rules.api_drift.deprecated_api import DeprecatedApi
from jaxlint.rules.api_drift.inert_config_call import InertConfigCall
from jaxlint.rules.api_drift.private_api import PrivateApi
from jaxlint.rules.api_drift.removed_api import RemovedApi

__all__ = ["DeprecatedApi", "InertConfigCall", "PrivateApi", "RemovedApi"]
