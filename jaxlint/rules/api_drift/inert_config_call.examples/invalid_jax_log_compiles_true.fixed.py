import jax

def main():
    jax.config.update('jax_disable_jit', True)
    jax.config.update('jax_log_compiles', True)
