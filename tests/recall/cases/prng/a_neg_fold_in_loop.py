import jax

base = jax.random.key(0)
for step in range(3):
    key = jax.random.fold_in(base, step)
    print(jax.random.normal(key, (2,)))
