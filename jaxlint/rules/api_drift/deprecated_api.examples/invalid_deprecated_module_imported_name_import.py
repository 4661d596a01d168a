from jax.lib import xla_bridge
backend = xla_bridge.get_backend()
