import jax

sizes = [1, 2]
sizes = tuple(sizes)
g = jax.jit(lambda x, s: x, static_argnums=1)
g(1.0, sizes)
