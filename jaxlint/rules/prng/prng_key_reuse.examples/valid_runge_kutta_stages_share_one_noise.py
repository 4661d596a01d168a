import jax


def rk4_step(state, control, dt, key):
    def dynamics(s, k):
        disturbance = 0.1 * jax.random.normal(k, s.shape)  # held over the step
        return -s + control + disturbance

    k1 = dynamics(state, key)
    k2 = dynamics(state + 0.5 * dt * k1, key)
    k3 = dynamics(state + 0.5 * dt * k2, key)
    k4 = dynamics(state + dt * k3, key)
    return state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


state = jax.numpy.ones(3)
key = jax.random.key(0)
for _ in range(3):
    key, step_key = jax.random.split(key)
    state = rk4_step(state, 0.0, 0.1, step_key)
