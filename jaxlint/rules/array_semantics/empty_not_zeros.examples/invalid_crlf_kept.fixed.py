import jax.numpy as jnp
x = jnp.zeros(
    (3,),
)
