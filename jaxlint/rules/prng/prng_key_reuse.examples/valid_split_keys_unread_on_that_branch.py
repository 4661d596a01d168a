import jax


def propose(key, alpha, n):
    key_v, key_u = jax.random.split(key)
    if alpha is None:
        # on this branch no key of the split is drawn from: `key` alone makes the noise
        return jax.random.normal(key, (n,))
    return alpha * jax.random.normal(key_v, (n,))


propose(jax.random.key(0), None, 3)
propose(jax.random.key(0), 0.5, 3)
