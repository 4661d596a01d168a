"""Values that seed a host random generator: ``np.random.default_rng(seed)`` where
``seed = np.asarray(jax.random.randint(key, ...))``.

Such code derives a NumPy (or Python) generator from a JAX key so that the rest of it
draws on the host (xwm's mask samplers: ``to_numpy_rng(key)``). It can never run traced:
a generator needs a concrete seed. JAX101 asks it about functions traced only by a
framework's contract (an Equinox module's ``__call__`` that samples masks on the host
before the jitted step): the code says it runs eagerly, so the contract's presumption
does not hold there.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.names import SemanticModel

HOST_GENERATORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.seed",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "numpy.random.SeedSequence",
        "numpy.random.PCG64",
        "numpy.random.PCG64DXSM",
        "numpy.random.MT19937",
        "numpy.random.Philox",
        "numpy.random.SFC64",
        "random.seed",
        "random.Random",
    }
)
"""Calls that make or seed a host random generator from their first argument."""


def seeds_host_rng(model: SemanticModel, node: cst.Call, fn: cst.CSTNode | None) -> bool:
    """``node``'s value is the seed of a host generator: the first argument of one of
    :data:`HOST_GENERATORS` (``default_rng(np.asarray(k))``), or bound to a name (one
    plain assignment) that is, further on in the function ``fn``."""
    parents = model.parents
    parent = parents.get(id(node))
    if type(parent) is cst.Arg:
        return _seeding(model, parents.get(id(parent)), parent)
    if type(parent) is not cst.Assign or len(parent.targets) != 1:
        return False
    target = parent.targets[0].target
    if type(target) is not cst.Name or fn is None:
        return False
    body = model.body_nodes(fn)  # type: ignore[arg-type]
    for n in body:
        if type(n) is cst.Name and n.value == target.value and n is not target:
            arg = parents.get(id(n))
            if type(arg) is cst.Arg and _seeding(model, parents.get(id(arg)), arg):
                return True
    return False


def _seeding(model: SemanticModel, call: cst.CSTNode | None, arg: cst.Arg) -> bool:
    if type(call) is not cst.Call or not call.args or call.args[0] is not arg:
        return False
    return model.call_name(call) in HOST_GENERATORS
