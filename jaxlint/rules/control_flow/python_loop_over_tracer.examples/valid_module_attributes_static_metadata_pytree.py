from flax import nnx

class MLP(nnx.Module):
    def __init__(self, depth: int, rngs: nnx.Rngs):
        self.layers = [nnx.Linear(4, 4, rngs=rngs) for _ in range(depth)]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

@nnx.jit
def step(model, x):
    for i in range(model.depth):
        x = x + i
    return model(x)
