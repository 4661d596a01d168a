import jax

f = jax.smap(g, in_axes=0, out_axes=0, axis_name='i')
