"""JAX5xx sharding: pmap, legacy meshes and sharding APIs.

One module per rule:

* ``pmap``: JAX501 :class:`Pmap`
* ``legacy_mesh_context``: JAX502 :class:`LegacyMeshContext`
* ``pjit``: JAX503 :class:`Pjit`
* ``experimental_shard_map``: JAX504 :class:`ExperimentalShardMap`
* ``legacy_sharding_api``: JAX505 :class:`LegacyShardingApi`

``helpers`` holds what several of them share (the ``Facts`` mixin, the ``Speller``,
syntax queries and import rewrites).

Facts these rules rely on were checked on jax 0.12.0.1 with 8 forced CPU devices
(``tests/test_sharding_runtime.py`` runs every fix):

* ``jax.pmap(f, axis_name='i')(x)`` gives the same numbers, shapes and output
  sharding as ``jax.jit(jax.shard_map(jax.vmap(f), mesh=jax.make_mesh((n,),
  ('i',), axis_types=(AxisType.Auto,)), in_specs=P('i'), out_specs=P('i'),
  check_vma=False))(x)``: the inner ``vmap`` over the size-1 per-device block
  restores pmap's rank reduction, collectives by axis name reach the mesh axis,
  and ``check_vma=False`` is what pmap itself passes (a ``fori_loop`` whose carry
  mixes device-invariant and device-varying values fails the check otherwise).
* ``pjit`` with bare ``PartitionSpec`` shardings works only under the legacy
  ``with mesh:`` context; ``jax.jit`` with bare specs works only under
  ``jax.set_mesh(mesh)``; ``with mesh:`` no longer sets the mesh that ``jax.jit``,
  ``jax.shard_map`` and ``jax.sharding.get_abstract_mesh()`` read.
* ``jax.set_mesh(mesh)`` entered with ``as m`` binds ``None``, not the mesh.
"""

from __future__ import annotations

from jaxlint.rules.sharding.experimental_shard_map import ExperimentalShardMap
from jaxlint.rules.sharding.legacy_mesh_context import LegacyMeshContext
from jaxlint.rules.sharding.legacy_sharding_api import LegacyShardingApi
from jaxlint.rules.sharding.pjit import Pjit
from jaxlint.rules.sharding.pmap import Pmap

__all__ = [
    "ExperimentalShardMap",
    "LegacyMeshContext",
    "LegacyShardingApi",
    "Pjit",
    "Pmap",
]
