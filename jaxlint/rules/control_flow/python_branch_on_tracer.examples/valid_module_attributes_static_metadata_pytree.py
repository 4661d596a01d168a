from flax import nnx

class Block(nnx.Module):
    def __init__(self, n: int):
        self.n = n

    def __call__(self, x):
        if self.n > 1:
            x = x * 2
        return x

@nnx.jit
def step(model, x):
    if model.n > 2:
        x = x + 1
    return model(x)
