import contextlib, jax
with contextlib.ExitStack() as stack:
    stack.enter_context(jax.log_compiles(True))
