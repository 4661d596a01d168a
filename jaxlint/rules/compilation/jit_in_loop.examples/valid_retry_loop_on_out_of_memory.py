import jax
import jax.numpy as jnp

ROWS_THAT_FIT = 4  # stands for the device's memory


def simulate(p):
    return jnp.sin(p) * 2.0


def run_all(params):
    # Tries a full vmap, then smaller batches after an out-of-memory error: the loop
    # comes round only when an attempt fails, and each attempt has another batch size,
    # so it compiles anyway. A successful attempt returns: one wrapper, one compilation.
    batch_size = None
    while True:
        try:
            if batch_size is None:
                fn = jax.jit(jax.vmap(simulate))
            else:
                fn = jax.jit(lambda p, bs=batch_size: jax.lax.map(simulate, p, batch_size=bs))
            rows = params.shape[0] if batch_size is None else batch_size
            if rows > ROWS_THAT_FIT:
                raise MemoryError("RESOURCE_EXHAUSTED: out of memory while allocating")
            return fn(params)
        except MemoryError:
            batch_size = (params.shape[0] if batch_size is None else batch_size) // 2


out = run_all(jnp.arange(16.0))
