import os
import tempfile

import equinox as eqx
import jax


class Net(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (3,))


def train_and_reload(key, path):
    trained = Net(key)  # stands in for a training run that draws from `key`
    eqx.tree_serialise_leaves(path, trained)
    # only a template: every weight it drew is replaced by the saved one
    template = Net(key)
    return eqx.tree_deserialise_leaves(path, template)


with tempfile.TemporaryDirectory() as folder:
    train_and_reload(jax.random.key(0), os.path.join(folder, "net.eqx"))
