import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3)}


def replicate(p, devs, first_only):
    named = jax.device_put_replicated(p, devs)
    maybe = jax.device_put_replicated(p, jax.devices()[:1]) if first_only else None
    return jax.device_put_replicated(p, jax.local_devices()[:1]), named, maybe


def train_state(p):
    if p:
        return dict(
            params=jax.device_put_replicated(p, jax.local_devices()),  # replicated
            step=0,
        )


class Replicated:
    params = jax.device_put_replicated(params, jax.local_devices())


first, named, maybe = replicate(params, jax.local_devices(), True)
assert first["w"].shape == maybe["w"].shape == (1, 3)
assert train_state(params)["params"]["w"].shape == (jax.local_device_count(), 3)
assert named["w"].shape == Replicated.params["w"].shape == (jax.local_device_count(), 3)
