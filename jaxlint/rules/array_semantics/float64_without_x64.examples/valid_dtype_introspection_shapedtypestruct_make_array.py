import jax
import jax.numpy as jnp
x = jnp.ones(3)
eps = jnp.finfo(jnp.float64).eps
is_double = jnp.issubdtype(x.dtype, jnp.float64) or x.dtype == jnp.float64
spec = jax.ShapeDtypeStruct((3,), jnp.float64)
wide = jnp.promote_types(jnp.float32, jnp.float64)
