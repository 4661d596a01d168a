import jax
import jax.numpy as jnp


def save(v):
    with open('/dev/null', 'w') as fh:
        fh.write(str(v))


@jax.jit
def f(x):
    jax.debug.callback(save, x)
    return x


f(jnp.ones(2))
with open('/dev/null', 'w') as fh:
    fh.write('done')
