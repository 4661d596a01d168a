import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class GaussianMatrix:
    def __init__(self, rows, cols, key):
        self.rows = rows
        self.cols = cols
        self.key = key

    def get_2d_array(self):
        return jax.random.normal(self.key, (self.rows, self.cols))


def draw_weights(key, rows, cols):
    matrix_key, _ = jax.random.split(key)
    return GaussianMatrix(rows, cols, key=matrix_key).get_2d_array()


weights = [draw_weights(jax.random.key(step), 2, 3) for step in range(2)]
print(jnp.stack(weights).shape)
