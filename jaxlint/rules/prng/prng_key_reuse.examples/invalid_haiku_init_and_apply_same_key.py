import haiku as hk
import jax


def forward(x):
    x = hk.Linear(4)(x)
    return hk.dropout(hk.next_rng_key(), 0.5, x)


model = hk.transform(forward)


def init_and_run(x):
    rng = jax.random.key(42)
    params = model.init(rng, x)
    return model.apply(params, rng, x)  # apply splits the key init drew the weights from
