"""JAX5xx: pmap, legacy meshes and sharding APIs."""
