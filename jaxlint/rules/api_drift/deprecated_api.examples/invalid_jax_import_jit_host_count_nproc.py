from jax import jit, host_count as nproc, host_ids
