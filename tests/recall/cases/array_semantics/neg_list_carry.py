import jax.numpy as jnp


def collect(xs):
    out = [0.0, 0.0]
    for x in xs:
        out[0] += float(x)
    return out


print(jnp.asarray(collect([1.0, 2.0, 3.0])))
