import equinox as eqx
import jax.numpy as jnp

class Model(eqx.Module):
    w: jnp.ndarray

@eqx.filter_jit
def scale(model: Model, grads):
    grads['w'] = grads['w'] * 0.5
    cache = [jnp.zeros(2)] * 2
    cache[0] = model.w
    return model, grads, cache
