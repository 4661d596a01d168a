import jax
import jax.numpy as jnp

def synchronize_hosts():
    x = jnp.ones([jax.local_device_count()])
    x = jax.device_get(jax.pmap(lambda v: jax.lax.psum(v, 'i'), 'i')(x))
    assert x[0] == jax.device_count()
