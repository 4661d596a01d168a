from jax.sharding import Mesh
import numpy as np

mesh = Mesh(np.array(devs).reshape(2, 4), ('a', 'b'))

def f():
    with mesh:
        pass
