import jax

jax.config.update("jax_debug_key_reuse", True)


def tarp(key, shape, references=None, bootstrap=False):
    if references is None and not bootstrap:
        references = jax.random.normal(key, shape)
    if not bootstrap:
        return references
    return jax.random.uniform(key, shape)


tarp(jax.random.key(0), (3,))
tarp(jax.random.key(1), (3,), bootstrap=True)
