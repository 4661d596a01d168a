import jax
import jax.numpy as jnp

@jax.jit
def update(params, grads):
    params['w'] = params['w'] - 0.1 * grads['w']
    layers = params['layers']
    layers[0] = layers[0] * 2
    return params

update({'w': jnp.ones(2), 'layers': [jnp.ones(2)]}, {'w': jnp.ones(2)})
