try:
    from jax.experimental.pjit import pjit
except ImportError:
    from jax import jit as pjit
