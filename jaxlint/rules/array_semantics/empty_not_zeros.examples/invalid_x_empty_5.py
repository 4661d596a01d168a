from jax.numpy import empty
x = empty(5)
