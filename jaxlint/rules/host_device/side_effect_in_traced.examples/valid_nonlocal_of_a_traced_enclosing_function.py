import jax
import jax.numpy as jnp


@jax.jit
def widths_agree(xs, batch):
    """`bound` is a local of the traced `widths_agree`: made again on every trace, set by
    `bind` and read here within that one trace."""
    bound = batch

    def bind(size):
        nonlocal bound
        if bound is None:
            bound = size
        return size

    for x in xs:
        bind(x.shape[0])
    return jnp.asarray(bound == xs[0].shape[0])


widths_agree([jnp.ones((2, 3)), jnp.ones((2, 4))], None)
