import logging
import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


@jax.jit
def f(x):
    log.info('compiling f for shape %s', x.shape)
    return x * 2


y = f(jnp.ones(3))
log.info('result %s', y)
