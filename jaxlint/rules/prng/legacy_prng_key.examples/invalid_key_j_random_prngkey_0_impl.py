import jax as j
key = j.random.PRNGKey(0, impl='rbg')
