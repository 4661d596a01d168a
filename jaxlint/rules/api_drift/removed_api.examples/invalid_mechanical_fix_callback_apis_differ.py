from jax.experimental import host_callback as hcb

def f(x):
    return hcb.id_print(x)
