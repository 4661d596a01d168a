import jax
import jax.numpy as jnp


def _predict(x, params, message_steps: int):
    if params is None:
        p = {"w": jnp.ones(3), "steps": int(message_steps), "mode": 0}
    else:
        p = params
    # the entries read here are the Python ints the dict was built with
    steps = max(int(p.get("steps", message_steps)), 1)
    mode = int(p["mode"])
    for _ in range(steps):
        x = jnp.tanh(x * p["w"]) + mode
    return x


def _params_from_state(state, steps: int):
    return {"w": state["w"], "steps": steps, "mode": 1}


@jax.jit
def loss(state, xs):
    p = _params_from_state(state, 2)
    return jnp.mean(jax.vmap(lambda x: _predict(x, p, 2))(xs))


print(loss({"w": jnp.ones(3)}, jnp.ones((4, 3))))
