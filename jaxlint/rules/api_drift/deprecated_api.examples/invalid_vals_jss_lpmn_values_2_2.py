import jax.scipy.special as jss
vals = jss.lpmn_values(2, 2, x, True)
