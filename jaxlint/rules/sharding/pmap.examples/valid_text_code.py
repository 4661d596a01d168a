import jax
# jax.pmap(f) in a comment
doc = 'use jax.pmap(f, axis_name=...)'
