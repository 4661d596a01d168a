from jax.lib import xla_bridge
import jax
name = jax.default_backend()
