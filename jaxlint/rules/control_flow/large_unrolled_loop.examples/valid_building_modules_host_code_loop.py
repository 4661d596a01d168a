from flax import nnx

class Stack(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.layers = [nnx.Linear(4, 4, rngs=rngs) for _ in range(200)]

@nnx.jit
def step(model, x):
    for layer in model.layers:
        x = layer(x)
    return x
