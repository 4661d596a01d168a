import jax


def runs(key, n_runs):
    means = []
    for run in range(n_runs):
        run_key = jax.random.split(key, n_runs)[run]
        means.append(float(jax.random.normal(run_key, (100,)).mean()))
    return means


runs(jax.random.key(0), 3)
