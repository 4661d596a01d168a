from jax.numpy import isin as member
from jax.numpy import union1d

both = union1d(member(1, [1]), [2])
