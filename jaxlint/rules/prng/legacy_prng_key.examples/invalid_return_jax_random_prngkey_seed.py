import jax

def init(seed):
    return jax.random.PRNGKey(seed)
