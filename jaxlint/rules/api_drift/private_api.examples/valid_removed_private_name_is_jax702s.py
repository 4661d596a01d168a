from jax._src.numpy.lax_numpy import isin
