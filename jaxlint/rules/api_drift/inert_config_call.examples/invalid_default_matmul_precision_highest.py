from jax import default_matmul_precision
default_matmul_precision('highest')
