import jax
if jax.process_index() == 0:
    print('main')
