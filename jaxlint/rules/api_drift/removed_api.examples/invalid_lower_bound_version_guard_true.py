import jax

jax_version = tuple(int(x) for x in jax.__version__.split(".")[:3])

if jax_version >= (0, 3, 1):
    out = jax.tree_map(abs, [-1, 2])
else:
    out = [abs(v) for v in [-1, 2]]
