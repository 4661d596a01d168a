import jax


def walk(x0):
    def body(x, _):
        k1, k2 = jax.random.split(jax.random.key(7))
        return x + jax.random.normal(k1), x

    return jax.lax.scan(body, x0, None, length=5)
