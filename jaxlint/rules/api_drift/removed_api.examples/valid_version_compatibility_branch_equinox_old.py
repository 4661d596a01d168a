import jax

def aval_of(x):
    if hasattr(jax, 'typeof'):
        return jax.typeof(x)
    else:
        return jax.core.get_aval(x)
