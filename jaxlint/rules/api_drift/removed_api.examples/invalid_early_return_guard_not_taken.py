import jax

jax_version = tuple(int(x) for x in jax.__version__.split(".")[:3])


def leaves(tree):
    if jax_version < (0, 4, 26):
        return [tree]
    return jax.tree_leaves(tree)


print(leaves([1, (2, 3)]))
