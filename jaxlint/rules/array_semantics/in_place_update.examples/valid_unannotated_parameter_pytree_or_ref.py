import jax
import jax.numpy as jnp

@jax.jit
def sgd(params, grads):
    params["w"] += -0.1 * grads["w"]
    return params

@jax.jit
def swap(pair):
    pair[0], pair[1] = pair[1], pair[0]
    return pair

@jax.jit
def fill(ref, v):
    n = ref.shape[0]
    ref[...] += v * n
    return ref.dtype == jnp.float32

sgd({"w": jnp.ones(2)}, {"w": jnp.ones(2)})
swap([jnp.zeros(2), jnp.ones(2)])
fill(jax.new_ref(jnp.zeros(3)), 1.0)
