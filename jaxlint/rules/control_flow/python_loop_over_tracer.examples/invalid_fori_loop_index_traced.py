from jax import lax

def body(i, acc):
    return acc + sum(j for j in range(i))

lax.fori_loop(0, 4, body, 0)
