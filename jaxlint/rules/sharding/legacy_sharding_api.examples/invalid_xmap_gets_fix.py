from jax.experimental.maps import Mesh, xmap
