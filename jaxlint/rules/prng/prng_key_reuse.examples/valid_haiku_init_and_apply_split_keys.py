import haiku as hk
import jax


def forward(x):
    x = hk.Linear(4)(x)
    return hk.dropout(hk.next_rng_key(), 0.5, x)


model = hk.transform(forward)


def init_and_run(x):
    init_rng, apply_rng = jax.random.split(jax.random.key(42))
    params = model.init(init_rng, x)
    return model.apply(params, apply_rng, x)
