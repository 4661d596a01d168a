import jax

def main():
    jax.disable_jit()
    jax.log_compiles(True)
