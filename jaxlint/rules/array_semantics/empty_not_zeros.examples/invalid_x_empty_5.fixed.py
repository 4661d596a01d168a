from jax.numpy import empty
import jax
x = jax.numpy.zeros(5)
