import jax

jax.config.update("jax_debug_key_reuse", True)


def walk(key, x0, n):
    keys = jax.random.split(key, n)

    def body(i, carry):
        x, k = carry
        k, sub = jax.random.split(k)
        return x + jax.random.normal(sub), k

    x, _ = jax.lax.fori_loop(0, 3, body, (x0, key))
    return x, keys


walk(jax.random.key(0), 0.0, 2)
