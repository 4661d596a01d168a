import jax


def tangent_aval(x):
    aval = jax.typeof(x)
    if hasattr(aval, "to_tangent_aval"):
        return aval.to_tangent_aval()
    else:  # JAX before 0.4.34: never runs on the target JAX
        return jax.core.raise_to_shaped(aval)
