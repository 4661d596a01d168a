from jax.sharding import Mesh
import numpy as np
import jax

mesh = Mesh(np.array(devs).reshape(2, 4), ('a', 'b'))

def f():
    with jax.set_mesh(mesh):
        pass
