import jax
def g(jax):
    return jax.host_id()
