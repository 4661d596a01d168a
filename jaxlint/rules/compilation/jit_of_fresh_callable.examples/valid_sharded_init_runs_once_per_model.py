import jax
import jax.numpy as jnp


def sharded_init(init_fn, *args):
    def go():
        return init_fn(*args)

    return jax.jit(go)()


params = sharded_init(lambda n: jnp.zeros(n), 4)
