import jax
import jax.numpy as jnp


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.sum(labels * logp, axis=-1)
    print(f"per-example nll: {nll}")  # expect: JAX103
    return nll.mean()


step = jax.jit(jax.value_and_grad(cross_entropy))
step(jnp.zeros((2, 3)), jnp.eye(3)[:2])
