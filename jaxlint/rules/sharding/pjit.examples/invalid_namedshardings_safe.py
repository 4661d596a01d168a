import jax
from jax.experimental import pjit
from jax.sharding import NamedSharding

s = NamedSharding(mesh, spec)
step = pjit.pjit(f, s, (s, s))
