import jax

jax.config.update("jax_debug_key_reuse", True)


def test_batch_statistics():
    key = jax.random.key(0)
    batches = []
    for _ in range(3):
        batches.append(jax.random.normal(key, (4,)))
    assert len(batches) == 3


test_batch_statistics()
