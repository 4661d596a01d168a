import time
import jax
import jax.numpy as jnp


@jax.jit
def noop(x):
    pass


t0 = time.time()
logs = {'loss': jnp.array(0.0)}
key = jax.random.key(0)
noop(1.0)
t1 = time.time()
