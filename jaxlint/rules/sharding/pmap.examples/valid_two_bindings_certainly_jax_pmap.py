try:
    from jax import pmap
except ImportError:
    pmap = None
