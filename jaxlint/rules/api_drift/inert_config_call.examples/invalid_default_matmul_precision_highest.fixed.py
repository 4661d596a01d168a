from jax import default_matmul_precision
import jax
jax.config.update('jax_default_matmul_precision', 'highest')
