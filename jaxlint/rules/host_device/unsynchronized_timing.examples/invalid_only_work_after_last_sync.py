import timeit
import jax


@jax.jit
def f(x):
    return x


t0 = timeit.default_timer()
y = f(x)
loss = float(y)
z = f(y)
t1 = timeit.default_timer(); print(t1 - t0)
