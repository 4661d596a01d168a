import jax.experimental.maps

f = jax.experimental.maps.xmap(g, in_axes=['i'])
