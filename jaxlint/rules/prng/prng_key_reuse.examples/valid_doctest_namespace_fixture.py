import jax
import pytest


@pytest.fixture(autouse=True)
def add_examples(doctest_namespace):
    """Example values for the docstrings' examples."""
    key = jax.random.key(0)
    doctest_namespace["x"] = jax.random.normal(key, (4, 4))
    doctest_namespace["noise"] = jax.random.normal(key, (4, 4))
