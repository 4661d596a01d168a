import flax
import jax

@flax.struct.dataclass
class State:
    step: int

    @jax.jit
    def next(self):
        return self.replace(step=self.step + 1)
