"""What JAX's transformations do to the functions they receive: the tables the
trace analysis reads. Checked against jax 0.12 (see tests/test_tracing_runtime.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Transform:
    qualname: str
    short: str
    """How messages name it: ``jax.jit``."""
    verb: str
    """``jitted``, ``vmapped``, ``differentiated``..."""
    all_params_traced: bool = True
    """False when only some arguments become tracers (``grad``'s ``argnums``,
    ``vmap``'s mapped axes); the others are passed through unchanged."""
    has_static_args: bool = False
    """Accepts ``static_argnums``/``static_argnames``."""
    filter_static: bool = False
    """Equinox ``filter_*``: non-array arguments are static."""


def _t(qualname: str, verb: str, **kw: bool) -> Transform:
    return Transform(qualname, qualname, verb, **kw)


_JIT = dict(has_static_args=True)
TRANSFORMS: dict[str, Transform] = {
    t.qualname: t
    for t in [
        _t("jax.jit", "jitted", **_JIT),
        _t("jax.experimental.pjit.pjit", "jitted", **_JIT),
        _t("jax.pmap", "pmapped", **_JIT),
        _t("jax.shard_map", "shard_mapped"),
        _t("jax.experimental.shard_map.shard_map", "shard_mapped"),
        _t("jax.vmap", "vmapped", all_params_traced=False),
        _t("jax.grad", "differentiated", all_params_traced=False),
        _t("jax.value_and_grad", "differentiated", all_params_traced=False),
        _t("jax.jacfwd", "differentiated", all_params_traced=False),
        _t("jax.jacrev", "differentiated", all_params_traced=False),
        _t("jax.hessian", "differentiated", all_params_traced=False),
        _t("jax.checkpoint", "rematerialized"),
        _t("jax.remat", "rematerialized"),
        _t("jax.ad_checkpoint.checkpoint", "rematerialized"),
        _t("jax.custom_jvp", "wrapped in jax.custom_jvp"),
        _t("jax.custom_vjp", "wrapped in jax.custom_vjp"),
        _t("jax.make_jaxpr", "traced by jax.make_jaxpr"),
        _t("jax.eval_shape", "traced by jax.eval_shape"),
        _t("flax.nnx.jit", "jitted", **_JIT),
        _t("flax.nnx.vmap", "vmapped", all_params_traced=False),
        _t("flax.nnx.scan", "scanned"),
        _t("flax.nnx.grad", "differentiated", all_params_traced=False),
        _t("flax.nnx.value_and_grad", "differentiated", all_params_traced=False),
        _t("flax.nnx.remat", "rematerialized"),
        _t("equinox.filter_jit", "jitted", filter_static=True),
        _t("equinox.filter_vmap", "vmapped", all_params_traced=False, filter_static=True),
        _t("equinox.filter_grad", "differentiated", all_params_traced=False, filter_static=True),
        _t(
            "equinox.filter_value_and_grad",
            "differentiated",
            all_params_traced=False,
            filter_static=True,
        ),
        _t("equinox.filter_pmap", "pmapped", filter_static=True),
        _t("equinox.filter_checkpoint", "rematerialized", filter_static=True),
    ]
}

NONDIFF_TRANSFORMS = frozenset({"jax.custom_jvp", "jax.custom_vjp"})
"""They trace nothing themselves: a ``custom_vjp``/``custom_jvp`` function called
eagerly, or under ``grad``, runs on concrete arrays (checked on jax 0.12: host NumPy in
it runs there, and raises under ``jit`` or ``vmap``), so it is traced only where its
caller is. Their ``nondiff_argnums`` arguments reach the function as the caller passed
them (a Python int stays an int): not tracers of their own making."""

# Control-flow primitives: (qualname) -> positions of the callables they trace.
# Each callable's parameters are all tracers.
BODY_ARGS: dict[str, tuple[int, ...]] = {
    "jax.lax.scan": (0,),
    "jax.lax.fori_loop": (2,),
    "jax.lax.while_loop": (0, 1),
    "jax.lax.cond": (1, 2),
    "jax.lax.map": (0,),
    "jax.lax.associative_scan": (0,),
    "jax.lax.custom_root": (0, 2, 3),
    "jax.lax.custom_linear_solve": (0, 2),
}
BODY_KEYWORDS: dict[str, tuple[str, ...]] = {
    "jax.lax.scan": ("f",),
    "jax.lax.fori_loop": ("body_fun",),
    "jax.lax.while_loop": ("cond_fun", "body_fun"),
    "jax.lax.cond": ("true_fun", "false_fun"),
    "jax.lax.map": ("f",),
    "jax.lax.associative_scan": ("fn",),
}
LAX_LOOPS = frozenset({"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map"})
"""lax loops: one traced body run many times inside one compiled computation."""
DEVICE_LOOPS = LAX_LOOPS | {"flax.nnx.fori_loop", "flax.nnx.while_loop"}
"""Loops that run on the device inside one jitted call (the lax ones and Flax's wrappers)."""
SWITCH = "jax.lax.switch"
"""``lax.switch(index, branches, *operands)``: every callable in ``branches``."""

COMPILING = frozenset(
    {
        "jax.jit",
        "jax.experimental.pjit.pjit",
        "jax.pmap",
        "flax.nnx.jit",
        "equinox.filter_jit",
        "equinox.filter_pmap",
    }
)
"""Transforms that compile and cache what they compile on the wrapped function."""

PARTIAL = frozenset({"functools.partial"})
EQUINOX_CACHED_BY_VALUE = frozenset({"equinox.filter_jit"})
"""Jits whose cache compares the wrapped callable by value (an Equinox Module), not by
identity."""
EQUINOX_WRAPPERS_BY_VALUE = frozenset(
    {
        "equinox.filter_vmap",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "equinox.filter_checkpoint",
    }
)
"""Equinox wrappers that are Modules equal whenever their function and options are: a new
one around the same function hits ``filter_jit``'s cache (measured on Equinox 0.13.8 by
tests/test_compilation_runtime.py)."""

# Attributes of arrays that are known at trace time.
STATIC_ATTRIBUTES = frozenset(
    {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "weak_type", "sharding", "aval"}
)

# Calls whose result is a Python value known at trace time, whatever the arguments.
STATIC_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.type",
        "builtins.callable",
        "builtins.hasattr",
        "builtins.id",
        "builtins.range",
        "builtins.repr",
        "builtins.str",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.issubdtype",
        "jax.numpy.isdtype",
        "jax.numpy.dtype",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.can_cast",
        "jax.numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.isscalar",
        "jax.numpy.broadcast_shapes",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.lax.broadcast_shapes",
        "jax.lax.dtype",
        "jax.lax.axis_size",
        "numpy.broadcast_shapes",
        "jax.dtypes.issubdtype",
        "jax.dtypes.canonicalize_dtype",
        "jax.dtypes.result_type",
        "jax.core.is_concrete",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.typeof",
        "jax.tree.structure",
        "jax.tree_util.tree_structure",
        "jax.device_count",
        "jax.local_device_count",
        "jax.process_index",
        "jax.devices",
        "numpy.shape",
        "numpy.ndim",
        "numpy.dtype",
        "numpy.issubdtype",
        "numpy.iinfo",
        "numpy.finfo",
        "numpy.prod",
        "math.prod",
    }
)

# NumPy functions that call their first argument's own array method (``np.mean(x)`` is
# ``x.mean()``): on a tracer they return a tracer, under ``jit`` as on the host. Checked
# on jax 0.12.0.1 by calling each on a tracer inside ``jax.jit`` (each returned a
# ``DynamicJaxprTracer``). ``np.prod`` is left out: it is a ``STATIC_CALLS`` entry (of
# shapes, its usual argument).
NUMPY_ARRAY_METHODS = frozenset(
    "numpy." + name
    for name in (
        "all any amax amin max min argmax argmin argsort around round cumprod cumsum"
        " mean std var sum squeeze swapaxes transpose permute_dims moveaxis rollaxis"
        " flip real imag isreal reshape repeat searchsorted"
    ).split()
)

# Functions of the array modules below that compute static metadata (Python ints,
# tuples, named tuples) from their arguments: traced only if an argument is. Checked on
# jax 0.12.0.1. Classes of those modules (``lax.ConvDimensionNumbers``,
# ``lax.Precision``...) count too, except in ``jax.random`` (``PRNGKey`` makes an array).
METADATA_CALLS = frozenset(
    {
        "jax.lax.conv_dimension_numbers",
        "jax.lax.conv_general_permutations",
        "jax.lax.conv_general_shape_tuple",
        "jax.lax.conv_shape_tuple",
        "jax.lax.conv_transpose_shape_tuple",
        "jax.lax.padtype_to_pads",
    }
)


def metadata_call(qualname: str) -> bool:
    """``qualname`` (in one of ``ARRAY_MODULES``) builds static metadata, not an array."""
    if qualname in METADATA_CALLS:
        return True
    short = qualname.rsplit(".", 1)[-1]
    return short[:1].isupper() and not qualname.startswith("jax.random.")


# Modules whose functions produce traced arrays when called inside traced code
# (omnistaging: even ``jnp.zeros(3)`` is a tracer under ``jit``).
ARRAY_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.random.",
    "jax.scipy.",
    "jax.image.",
    "jax.ops.",
)

# Transformations that stage their function out to a jaxpr: inside them every JAX
# operation returns a tracer, even on constants. ``grad`` and ``vmap`` on their own
# run eagerly: operations on constants there stay concrete.
STAGING = frozenset(
    {
        "jax.jit",
        "jax.experimental.pjit.pjit",
        "jax.pmap",
        "jax.shard_map",
        "jax.experimental.shard_map.shard_map",
        "jax.checkpoint",
        "jax.remat",
        "jax.ad_checkpoint.checkpoint",
        "jax.make_jaxpr",
        "jax.eval_shape",
        "flax.nnx.jit",
        "flax.nnx.scan",
        "flax.nnx.remat",
        "equinox.filter_jit",
        "equinox.filter_pmap",
        "equinox.filter_checkpoint",
    }
)

# Transformations whose tracers are abstract although they do not stage: ``vmap``
# batches its mapped arguments, so ``if``, ``int()`` or a shape on them raises as under
# ``jit``. Under ``grad``/``jacfwd``/``custom_jvp`` alone the values stay concrete
# (checked on jax 0.12: ``if x > 0`` runs under ``jax.grad`` and fails under
# ``jax.vmap``).
BATCHING = frozenset({"jax.vmap", "flax.nnx.vmap", "equinox.filter_vmap"})

# Control-flow primitives that call their function eagerly on concrete arrays when
# they run outside ``jit`` (``associative_scan`` is written in Python with slicing):
# their bodies are traced only when the caller is.
EAGER_BODIES = frozenset({"jax.lax.associative_scan"})

# Attributes and methods of a JAX array: reading them from a traced array gives a
# traced array. Any other attribute of a traced parameter is pytree navigation
# (``state.step``, ``model.num_layers``) and may be static metadata.
ARRAY_ATTRIBUTES = frozenset(
    {
        "T",
        "mT",
        "real",
        "imag",
        "at",
        "flat",
        "all",
        "any",
        "argmax",
        "argmin",
        "argsort",
        "astype",
        "clip",
        "conj",
        "conjugate",
        "cumprod",
        "cumsum",
        "diagonal",
        "dot",
        "flatten",
        "max",
        "mean",
        "min",
        "nonzero",
        "prod",
        "ravel",
        "repeat",
        "reshape",
        "round",
        "sort",
        "squeeze",
        "std",
        "sum",
        "swapaxes",
        "take",
        "trace",
        "transpose",
        "var",
        "view",
        # ``x.at[i].set(v)`` and friends
        "set",
        "add",
        "subtract",
        "multiply",
        "divide",
        "power",
        "apply",
    }
)

# Every public attribute of a JAX array, on jax 0.12.0.1: ``jax.Array``, the concrete
# array, a typed key array, a tracer (the ``Tracer`` base class, not its subclasses'
# internals) and the ``x.at[i]`` updater. A value read with any other attribute is not a
# ``jax.Array`` (which would raise ``AttributeError``), whatever the model guessed: it is an
# object of another class (e3nn's ``IrrepsArray``, a Flax NNX ``Variable``, a dataclass
# pytree). ``tests/test_trace_attributes.py`` checks the list against the installed JAX.
JAX_ARRAY_ATTRIBUTES = (
    ARRAY_ATTRIBUTES
    | STATIC_ATTRIBUTES
    | frozenset(
        (
            "addressable_data addressable_shards argpartition array block_until_ready byteswap"
            " choose clone committed compress copy copy_to_host_async delete device"
            " device_buffer device_buffers devices dimension_as_value format full_lower get"
            " get_referent global_shards index is_deleted is_fully_addressable"
            " is_fully_replicated is_ready item memory_space mul on_device_size_in_bytes"
            " platform pprint ptp searchsorted to_concrete_value to_device tobytes tolist"
            " traceback unsafe_buffer_pointer unsafe_raw_buffer"
        ).split()
    )
)

# The fields and methods of the named tuples and classes that functions of the array
# modules return instead of one array, on jax 0.12.0.1: ``jnp.linalg.eigh``/``eig``
# (``eigenvalues``, ``eigenvectors``), ``qr``, ``slogdet``, ``svd``, ``jnp.unique_all``
# and friends, ``jax.scipy.stats.mode``, ``jax.scipy.optimize.minimize`` and
# ``jax.scipy.spatial.transform``'s ``Rotation`` and ``Slerp``. Their fields hold arrays.
JAX_RESULT_ATTRIBUTES = frozenset(
    (
        "eigenvalues eigenvectors Q R sign logabsdet U S Vh values indices inverse_indices"
        " counts mode count x success status fun jac hess_inv nfev njev nit quat apply"
        " as_euler as_matrix as_mrp as_quat as_rotvec concatenate from_euler from_matrix"
        " from_mrp from_quat from_rotvec identity inv magnitude mean random single times"
        " timedelta rotations rotvecs init"
    ).split()
)

# Options a transform also takes by position, after the function: ``jax.vmap(f, (0,
# None))`` is ``in_axes=(0, None)``, ``jax.grad(f, 1)`` is ``argnums=1``.
POSITIONAL_OPTIONS: dict[str, tuple[str, ...]] = {
    "jax.vmap": ("in_axes", "out_axes"),
    "jax.grad": ("argnums",),
    "jax.value_and_grad": ("argnums",),
    "jax.jacfwd": ("argnums",),
    "jax.jacrev": ("argnums",),
    "jax.hessian": ("argnums",),
    "equinox.filter_vmap": ("in_axes", "out_axes"),
    "jax.experimental.shard_map.shard_map": ("mesh", "in_specs", "out_specs"),
}

# Transforms that pass an argument through unchanged where its entry in this option is
# ``None`` (``shard_map(f, in_specs=(P("i"), None))``: the second argument keeps its
# Python value; ``P()`` would make it a replicated tracer). Checked on jax 0.12.
PASSED_AS_IS_SPECS: dict[str, str] = {
    "jax.shard_map": "in_specs",
    "jax.experimental.shard_map.shard_map": "in_specs",
}

# Context managers under which JAX evaluates operations on concrete values eagerly, even
# inside a traced function (``jnp.arange(3).sum()`` is a concrete array there; an
# operation on a tracer still gives a tracer). Checked on jax 0.12.
COMPILE_TIME_EVAL = frozenset({"jax.ensure_compile_time_eval", "jax.core.ensure_compile_time_eval"})

# Collectives that return a Python value when their operand is one: ``lax.psum(1,
# "i")`` is the axis size as an ``int`` even under ``jit`` (checked on jax 0.12 under
# ``vmap(axis_name=...)`` and ``shard_map``).
CONSTANT_COLLECTIVES = frozenset({"jax.lax.psum", "jax.lax.pmean", "jax.lax.pmax", "jax.lax.pmin"})

COLLECTIVE_AXIS_NAME_AT = {
    f"jax.lax.{name}": 1
    for name in (
        "psum", "pmean", "pmax", "pmin", "all_gather", "ppermute", "psum_scatter",
        "all_to_all", "pshuffle", "pbroadcast",
    )
} | {"jax.lax.axis_index": 0, "jax.lax.axis_size": 0}  # fmt: skip
"""Collectives and the position of their axis name (also the keyword ``axis_name``): a
Python value JAX reads when it traces; a traced argument cannot carry it."""
