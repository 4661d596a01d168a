import jax


def sample(keys):
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(keys)


def test_no_tracer_leak():
    for _ in range(3):
        keys = jax.random.split(jax.random.key(23), 4)
        out = sample(keys)
        out.block_until_ready()


test_no_tracer_leak()
