from jax.numpy import float64, zeros
grid = zeros((2, 2), float64)
