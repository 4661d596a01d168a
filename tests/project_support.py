"""Small projects written by the tests that lint a whole project (and the programs the
runtime tests run on JAX to check what those lints claim)."""

from __future__ import annotations

from pathlib import Path


def write_package(root: Path, modules: dict[str, str], name: str = "pkg") -> Path:
    """``root/pyproject.toml`` naming the project and the package ``root/<name>`` with
    ``modules`` (file name -> text; an empty ``__init__.py`` unless given): the package."""
    (root / "pyproject.toml").write_text(f"[project]\nname = '{name}'\n")
    pkg = root / name
    pkg.mkdir()
    for file, text in {"__init__.py": "", **modules}.items():
        (pkg / file).write_text(text)
    return pkg


KEY_MIXIN = '''import jax


class KeyMixin:
    _key = jax.random.key(0)

    @property
    def rng_key(self):
        """A new key on every read: the class keeps the other half."""
        cls = type(self)
        cls._key, sub = jax.random.split(cls._key)
        return sub
'''
"""``pkg/keys.py``: gwkokab's ``PRNGKeyMixin``, a ``@property`` that splits a key kept on
the class and returns the new half."""

NOISE = """import jax

from pkg.keys import KeyMixin


class Noise(KeyMixin):
    def __init__(self, size):
        self.size = size

    def per_coordinate(self, coords):
        out = {}
        for c in coords:
            out[c] = jax.random.uniform(self.rng_key, (self.size,))
        return out

    def pair(self):
        a = jax.random.normal(self.rng_key, (self.size,))
        b = jax.random.normal(self.rng_key, (self.size,))
        return a, b
"""
"""``pkg/noise.py``: draws from ``self.rng_key`` in a loop and twice in a row."""

NOISE_STORED_KEY = (
    NOISE.replace("(KeyMixin)", "")
    .replace("from pkg.keys import KeyMixin\n", "")
    .replace("self.size = size", "self.size = size\n        self.rng_key = jax.random.key(0)")
)
"""The same class with the key stored on the object: the loop and the pair reuse it."""

NOISE_WITH_MIXIN = NOISE.replace(
    "from pkg.keys import KeyMixin\n", KEY_MIXIN.replace("import jax\n", "")
)
"""The mixin and the class in one module."""

STATIC_OPS = """from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1, 2))
def _mesh(scale, limits, num):
    return jnp.linspace(*limits, num=num) * scale


def mesh(scale, limits, num=11):
    return _mesh(scale, limits, num)


def mesh_outer(scale, bounds):
    return mesh(scale, bounds)


def safe(scale, limits):
    limits = tuple(limits)
    return _mesh(scale, limits, 3)


@partial(jax.jit, static_argnames=("axes",))
def total(x, axes):
    return x.sum(axis=axes)
"""
"""``pkg/ops.py``: jitted functions with static parameters, a public function that hands
its ``limits`` on to ``_mesh``'s static one (and another that hands it on to that one),
and one that makes a tuple first (jax's ``examples/advi.py`` before 9f8e3df3)."""

STATIC_USE = """import jax.numpy as jnp

from pkg.ops import mesh, mesh_outer, safe, total


def through_mesh():
    return mesh(1.0, [0, 1])


def through_two():
    return mesh_outer(1.0, [0, 1])


def made_a_tuple():
    return safe(1.0, [0, 1])


def jitted_of_another_module():
    return total(jnp.ones((2, 3)), axes=[0, 1])


def a_tuple():
    return mesh(1.0, (0, 1))


def closure():
    limits = [-2, 2]

    def callback(scale):
        return mesh(scale, limits)

    return callback(1.0)
"""
"""``pkg/use.py``: one call per function; the four that pass a list to a parameter that
ends up static raise ``ValueError`` on JAX."""
