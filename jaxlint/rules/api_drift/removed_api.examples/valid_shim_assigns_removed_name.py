import jax

# an older library still reads `jax.random.KeyArray`: put the name back for it
jax.random.KeyArray = jax.Array
