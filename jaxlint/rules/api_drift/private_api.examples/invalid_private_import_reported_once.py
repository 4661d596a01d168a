import jax
import jax._src.core as core_internals
from jax._src.dispatch import runtime_tokens

print(jax.__version__, core_internals.Tracer, runtime_tokens)
