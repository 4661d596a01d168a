from jax.sharding import Mesh
from jax.sharding import set_mesh as use_mesh

def run(mesh: Mesh):
    with use_mesh(mesh):
        pass
