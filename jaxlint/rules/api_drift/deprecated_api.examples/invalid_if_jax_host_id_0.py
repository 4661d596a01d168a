import jax
if jax.host_id() == 0:
    print('main')
