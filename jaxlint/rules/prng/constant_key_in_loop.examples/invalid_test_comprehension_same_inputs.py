import jax


def test_batch_mean():
    xs = [jax.random.normal(jax.random.key(0), (3,)) for _ in range(4)]
    assert len(xs) == 4
