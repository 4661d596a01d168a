from jax import jit
from jax import process_count as nproc
from jax import process_indices as host_ids
