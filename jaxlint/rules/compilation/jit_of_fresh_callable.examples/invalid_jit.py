from jax import jit

def step(w, g, lr):
    @jit
    def update(w, g):
        return w - lr * g
    return update(w, g)
