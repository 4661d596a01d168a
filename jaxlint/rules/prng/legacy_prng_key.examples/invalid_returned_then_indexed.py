import jax


def make_key(seed):
    return jax.random.PRNGKey(seed)


k = make_key(0)
print(int(k[0]))
