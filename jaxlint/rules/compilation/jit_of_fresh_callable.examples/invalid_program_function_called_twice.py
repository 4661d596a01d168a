import jax
import jax.numpy as jnp


def fit(data):
    def loss(w):
        return jnp.sum((data - w) ** 2)

    return jax.jit(jax.grad(loss))(jnp.zeros(()))


if __name__ == "__main__":
    for batch in (jnp.arange(4.0), jnp.ones(4)):
        print(fit(batch))
