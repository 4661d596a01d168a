import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3)}


def replicate(p, devs, first_only):
    named = jax.device_put(jax.tree.map(lambda leaf: jnp.stack([leaf] * len(devs)), p), jax.NamedSharding(jax.sharding.Mesh(devs, ('x',)), jax.P('x')))
    maybe = jax.device_put(jax.tree.map(lambda leaf: jnp.stack([leaf] * len(jax.devices()[:1])), p), jax.NamedSharding(jax.sharding.Mesh(jax.devices()[:1], ('x',)), jax.P('x'))) if first_only else None
    devices = jax.local_devices()[:1]
    return jax.device_put(jax.tree.map(lambda leaf: jnp.stack([leaf] * len(devices)), p), jax.NamedSharding(jax.sharding.Mesh(devices, ('x',)), jax.P('x'))), named, maybe


def train_state(p):
    if p:
        devices = jax.local_devices()
        return dict(
            params=jax.device_put(jax.tree.map(lambda leaf: jnp.stack([leaf] * len(devices)), p), jax.NamedSharding(jax.sharding.Mesh(devices, ('x',)), jax.P('x'))),  # replicated
            step=0,
        )


class Replicated:
    params = jax.device_put(jax.tree.map(lambda leaf: jnp.stack([leaf] * len(jax.local_devices())), params), jax.NamedSharding(jax.sharding.Mesh(jax.local_devices(), ('x',)), jax.P('x')))


first, named, maybe = replicate(params, jax.local_devices(), True)
assert first["w"].shape == maybe["w"].shape == (1, 3)
assert train_state(params)["params"]["w"].shape == (jax.local_device_count(), 3)
assert named["w"].shape == Replicated.params["w"].shape == (jax.local_device_count(), 3)
