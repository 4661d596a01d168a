import jax

DISABLE_JIT = False


def maybe_jit(fn, *args, **kwargs):
    return fn if DISABLE_JIT else jax.jit(fn, *args, **kwargs)


def collect(init, upper, progbar=False):
    if not progbar:

        def loop_fn(x):
            return jax.lax.fori_loop(0, upper, lambda i, v: v + 1.0, x)

        return maybe_jit(loop_fn, donate_argnums=0)(init)
    else:
        for _ in range(upper):
            init = init + 1.0
            print(init)
        return init
