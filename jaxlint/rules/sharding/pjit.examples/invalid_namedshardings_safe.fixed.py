import jax
from jax.experimental import pjit
from jax.sharding import NamedSharding

s = NamedSharding(mesh, spec)
step = jax.jit(f, in_shardings=s, out_shardings=(s, s))
