import logging
import jax
import jax.numpy as jnp

logger = logging.getLogger(__name__)


@jax.jit
def step(w, x):
    loss = jnp.sum((w - x) ** 2)
    logger.info('loss %s', loss)
    return loss
