import jax.numpy as jnp

acc = jnp.zeros((4,))
for i in range(4):
    acc = acc.at[i].set(i)
print(acc)
