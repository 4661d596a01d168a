import jax

jax_version = (
    jax.__version_info__
    if hasattr(jax, "__version_info__")
    else tuple(map(int, jax.__version__.split(".")))
)


def leaves(tree):
    if jax_version >= (0, 4, 26):
        return jax.tree.leaves(tree)
    return jax.tree_leaves(tree)


print(leaves([1, (2, 3)]))
