import jax
try:
    Err = jax.errors.JaxRuntimeError
except AttributeError:
    Err = jax.lib.xla_extension.XlaRuntimeError
