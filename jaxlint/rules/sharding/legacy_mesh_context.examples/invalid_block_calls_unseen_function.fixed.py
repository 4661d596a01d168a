import jax
from jax.sharding import Mesh
from trainer import train_step

def fit(state, batch):
    mesh = Mesh(jax.devices(), ('data',))
    with jax.set_mesh(mesh):
        return train_step(state, batch)
