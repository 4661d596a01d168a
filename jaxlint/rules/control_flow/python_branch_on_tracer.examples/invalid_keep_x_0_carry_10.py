from jax import lax

def body(carry, x):
    keep = x > 0 and carry < 10
    return carry + x, keep

lax.scan(body, 0.0, lax.iota('float32', 3))
