from jax.sharding import Mesh, use_mesh

def run(mesh: Mesh):
    with use_mesh(mesh):
        pass
