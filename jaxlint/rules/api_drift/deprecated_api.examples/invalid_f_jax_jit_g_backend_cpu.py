import jax
f = jax.jit(g, backend='cpu')
