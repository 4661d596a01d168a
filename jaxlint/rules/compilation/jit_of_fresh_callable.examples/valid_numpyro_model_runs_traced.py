import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist


def simulate(rate, t):
    return rate * t


def renewal_model(ts, obs=None):
    rate = numpyro.sample("rate", dist.Exponential(1.0))
    # MCMC and SVI trace the model: this jit is inlined, not compiled per call
    sim = jax.jit(jax.vmap(simulate, in_axes=(None, 0)))
    numpyro.sample("obs", dist.Poisson(sim(rate, ts)), obs=obs)


ts = jnp.arange(5.0)
