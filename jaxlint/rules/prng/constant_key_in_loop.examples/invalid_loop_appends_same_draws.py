import jax


def fake_batches(n):
    batches = []
    for _ in range(n):
        batches.append(jax.random.normal(jax.random.key(0), (8,)))
    return batches
