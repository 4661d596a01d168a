import jax.numpy as jnp
from jax.experimental import host_callback as hcb


def tap(x, transforms, device):
    print(x, device)


x = hcb.id_tap(tap, jnp.arange(3.0), tap_with_device=True)
y = hcb.id_tap(lambda v, t: print(v), x) + 1
