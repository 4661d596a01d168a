import jax
import jax.numpy as jnp


@jax.jit
def halve(w):
    return w * 0.5


def test_halving_is_exact():
    w = jnp.ones(3)
    for _ in range(20):
        expected = float(w[0]) / 2
        w = halve(w)
        print(float(w[0]), expected)


if __name__ == "__main__":
    test_halving_is_exact()
