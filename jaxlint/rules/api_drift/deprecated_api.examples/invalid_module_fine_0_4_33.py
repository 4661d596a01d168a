from jax.lib import xla_bridge
name = xla_bridge.default_backend()
