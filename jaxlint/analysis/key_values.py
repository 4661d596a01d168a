"""PRNG key values and their uses: the ``jax.random`` vocabulary (what samples, splits,
derives or reads a key), the values the key walk tracks (:class:`KeyValue`, :class:`Use`,
:class:`Reuse`) and the small syntax helpers it shares (see :mod:`jaxlint.analysis.keys`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.transforms import PARTIAL, STATIC_CALLS

LineOf = Callable[[cst.CSTNode], int]

RANDOM = "random"
"""Consumed by a ``jax.random`` sampler, ``split`` or ``bits``: certainly a consumption."""
LOCAL = "local"
"""Consumed by a function of this module whose body consumes it that way."""
CALL = "call"
"""Passed to a function this module does not show: it may sample."""

# jax.random functions whose first argument (or ``key=``) is a key they consume.
SAMPLERS = frozenset(
    f"jax.random.{n}"
    for n in (
        "ball bernoulli beta binomial bits categorical cauchy chisquare choice dirichlet "
        "double_sided_maxwell exponential f gamma generalized_normal geometric gumbel "
        "laplace loggamma logistic lognormal maxwell multinomial multivariate_normal "
        "normal orthogonal pareto permutation poisson rademacher randint rayleigh "
        "shuffle split t triangular truncated_normal uniform wald weibull_min"
    ).split()
)
SPLIT = "jax.random.split"
SPLITS_ITS_KEY = frozenset(
    f"jax.random.{n}"
    for n in (
        "ball beta binomial chisquare choice dirichlet double_sided_maxwell f gamma "
        "generalized_normal loggamma multinomial permutation poisson randint t wald"
    ).split()
)
"""Samplers that split the key they are given (``random_split`` inside, or the
``random_gamma`` primitive, which splits it once per element), so that a later
``jax.random.split(key)`` returns keys they drew with (``split(k, n)`` starts with the
keys of ``split(k, m)``); ``choice`` only without ``p=``. Measured on JAX 0.12 from the
jaxprs by ``tests/test_prng_split_runtime.py``."""
DRAWS_FROM_ITS_KEY = frozenset(
    f"jax.random.{n}"
    for n in (
        "bernoulli bits categorical cauchy exponential geometric gumbel laplace logistic "
        "lognormal maxwell multivariate_normal normal orthogonal pareto rademacher "
        "rayleigh triangular truncated_normal uniform weibull_min"
    ).split()
)
"""Samplers that draw ``random_bits`` from the key itself and never split it (and
``choice`` with ``p=``); measured with :data:`SPLITS_ITS_KEY`."""
_SPLITTING = (SPLITS_ITS_KEY - {"jax.random.choice"}) | {SPLIT}
"""What a function of the file may consume its key with and still only split it."""
LIBRARY_SPLITTERS = frozenset(
    f"equinox.nn.{n}"
    for n in (
        "Linear Conv Conv1d Conv2d Conv3d ConvTranspose ConvTranspose1d ConvTranspose2d "
        "ConvTranspose3d MLP MultiheadAttention GRUCell LSTMCell"
    ).split()
)
"""Layers whose constructor splits its ``key=`` before drawing anything (equinox 0.13.8:
``wkey, bkey = jrandom.split(key, 2)`` in ``Linear``): consumed as ``split`` consumes,
so a draw from the same key shares no bits with the layer's (not ``Embedding``, which
draws from its key itself)."""
_SAME_SPLIT_LAYERS = frozenset(
    f"equinox.nn.{n}"
    for n in (
        "Linear Conv Conv1d Conv2d Conv3d ConvTranspose ConvTranspose1d ConvTranspose2d "
        "ConvTranspose3d"
    ).split()
)


def layer_family(qualname: str | None) -> str | None:
    """What an Equinox layer of :data:`LIBRARY_SPLITTERS` does with its key: ``Linear``
    and the convolutions all split it in two and draw the weight and the bias from the
    two keys (``"weight-bias"``); the others each their own way (their name)."""
    if qualname not in LIBRARY_SPLITTERS:
        return None
    return "weight-bias" if qualname in _SAME_SPLIT_LAYERS else qualname


MAKERS = frozenset({"jax.random.key", "jax.random.PRNGKey", "jax.random.wrap_key_data"})
"""Make a fresh key from a seed or raw bits."""
DERIVERS = frozenset({"jax.random.fold_in", "jax.random.clone"})
"""Read a key without consuming it and return a fresh one."""
READERS = frozenset({"jax.random.key_data", "jax.random.key_impl"})
"""Read a key without consuming it."""
KEY_TAKERS = SAMPLERS | DERIVERS | READERS
LEGACY = "jax.random.PRNGKey"

# Calls that return a fresh key on every call (Flax, Haiku).
FRESH_KEY_CALLS = frozenset({"haiku.next_rng_key", "haiku.maybe_next_rng_key"})

# Loop primitives: which argument is the body (by position and keyword).
LOOP_BODIES: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.lax.scan": ((0,), ("f",)),
    "jax.lax.fori_loop": ((2,), ("body_fun",)),
    "jax.lax.while_loop": ((0, 1), ("cond_fun", "body_fun")),
    "jax.lax.map": ((0,), ("f",)),
}
_COPIES = frozenset({"clone", "copy", "deepcopy"})
"""Functions named like copies (``test_utils.clone(key)``): like ``jax.random.clone``,
they do not consume."""
INDEX_DRAWS = frozenset(
    {"jax.random.permutation", "jax.random.choice", "jax.random.shuffle", "jax.random.randint"}
)
"""Draws of indices: one key for several arrays keeps them aligned (same shuffle)."""
_FLAX_RNG_METHODS = frozenset({"init", "init_with_output", "lazy_init", "apply"})
_INIT_METHODS = frozenset({"init", "init_with_output", "lazy_init"})
_RECORD_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple"})
INERT_SPLIT = "split, drawing from none of the keys split off"
"""``Use.draws`` of a loop primitive whose body only splits its carry's key and reads none
of the keys split off (``k, unused = split(k)``): no value comes from the key."""
ONCE_CALLERS = frozenset({"jax.lax.cond", "jax.lax.switch"})
"""Call one of the functions they receive, once."""
MAPPERS = frozenset(
    {
        "jax.tree.map",
        "jax.tree_util.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.map_with_path",
        "builtins.map",
    }
)
"""Call the function they receive once per element or leaf."""

# Calls that never consume a key passed to them.
_NON_CONSUMING_PREFIXES = (
    "builtins.",
    "logging.",
    "warnings.",
    "typing.",
    "jax.debug.",
    "jax.dtypes.",
    "numpy.testing.",
    "chex.assert",
    "absl.logging.",
    "numpy.",  # NumPy cannot draw from a JAX key: it converts or stores its bits
)
_NON_CONSUMING = (
    STATIC_CALLS
    | READERS
    | DERIVERS
    | PARTIAL
    | frozenset(
        {
            "jax.block_until_ready",
            "jax.device_get",
            "jax.tree.leaves",
            "jax.tree.flatten",
            "jax.tree.structure",
            "jax.tree_util.tree_leaves",
            "jax.tree_util.tree_flatten",
            "jax.tree_util.tree_structure",
            "jax.numpy.array_equal",
            "jax.eval_shape",
            "jax.make_jaxpr",
            "haiku.experimental.fast_eval_shape",
        }
    )
)
# Calls that return their key argument unchanged (``Forward`` in JAX's table).
_FORWARDERS = frozenset(
    {
        "jax.numpy.asarray",
        "jax.numpy.array",
        "jax.numpy.copy",
        "jax.device_put",
        "jax.lax.stop_gradient",
        "jax.lax.with_sharding_constraint",
    }
)
_FORWARDING_METHODS = frozenset(
    {"reshape", "squeeze", "flatten", "ravel", "copy", "block_until_ready", "T"}
)

# -- raw uint32 data uses of a key (what breaks when PRNGKey becomes key) -------------------
_RAW_METHODS = frozenset({"astype", "view", "tolist", "item", "tobytes", "__array__"})
_SAFE_JNP = frozenset(
    f"jax.numpy.{n}"
    for n in (
        "asarray array stack concatenate vstack hstack where copy take reshape ravel squeeze "
        "expand_dims broadcast_to transpose swapaxes moveaxis array_equal split tile repeat "
        "zeros_like empty_like"
    ).split()
)
_RAW_LAX = frozenset(
    f"jax.lax.{n}"
    for n in (
        "bitcast_convert_type convert_element_type shift_right_logical shift_left "
        "shift_right_arithmetic bitwise_and bitwise_or bitwise_xor bitwise_not add sub mul"
    ).split()
)
_SHAPE_READERS = frozenset(
    {
        "numpy.shape",
        "numpy.ndim",
        "numpy.size",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
    }
)
_RAW_BUILTINS = frozenset(
    {
        "builtins.float",
        "builtins.int",
        "builtins.bytes",
        "builtins.hash",
        "builtins.list",
        "builtins.tuple",
    }
)

_KEY_NAME = re.compile(r"^(key|rng|prng|subkey|sub_key|subrng|rngkey|prngkey)\d*$|_(key|rng)\d*$")
_KEY_ANNOTATION = re.compile(r"PRNGKey|KeyArray|\bKey\[|PRNGKeyArray")
_ARRAY_ANNOTATION = re.compile(r"^(jax\.|jnp\.|jt\.|jaxtyping\.)?(Array|ArrayLike|ndarray)$")


def is_key_name(name: str) -> bool:
    """``key``, ``rng``, ``prng_key``, ``dropout_rng``, ``key2``: named like a PRNG key."""
    return _KEY_NAME.search(name) is not None


# -- results -------------------------------------------------------------------------------


@dataclass(eq=False)
class KeyValue:
    """One key (or array of keys) as the program makes it.

    Each evaluation of the expression that makes it gives a new value (loop bodies
    are walked twice, so a key made in a loop has one value per walked iteration).
    """

    name: str
    """The name it was first bound to, or the code that made it."""
    origin: cst.CSTNode
    certain: bool
    """Certainly a key (made by a key function, used as one by ``jax.random``, annotated)."""
    array: bool = False
    """An array of keys (``split(key, n)``): its elements are distinct keys."""
    where: str = "local"
    """``local``, ``param``, ``global`` (a module-level key read in a function),
    ``closure`` (a key of an enclosing function), ``attr-entry`` (``self.<attr>`` as
    the function finds it: the caller's key) or ``attr`` (an attribute path read after
    it may have been reassigned: see ``key_attrs``)."""
    raw_roots: frozenset[int] = frozenset()
    """``id`` of the ``PRNGKey`` calls it derives from: raw ``uint32`` data."""
    outer_name: str | None = None
    """For ``global``/``closure`` keys (and their elements): the variable of the
    module or enclosing function that holds them."""
    outer_path: str | None = None
    """For an element of such a key array taken at a constant index, the element as the
    enclosing code would write it (``_rngs[3]``): a closure that draws from ``_rngs[3]``
    consumes that element of its caller's array, not the whole array."""
    split_element: bool = False
    """It stands for key ``i`` of ``split(key, n)[i]`` (one value per key and index)."""
    parent: KeyValue | None = None
    """For an element at a constant index (``keys[0]``, or ``k0`` of ``k0, k1 = keys``):
    the array of keys it belongs to."""
    elements: dict[int, KeyValue] = field(default_factory=dict)
    """For an array of keys: its elements taken at constant indexes, by index."""
    uses: list[Use] = field(default_factory=list)
    """Every consumption recorded on it, on any path."""


@dataclass(frozen=True, eq=False)
class Use:
    """A consumption: ``arg`` (a key expression) passed to ``call``."""

    arg: cst.CSTNode
    call: cst.Call
    kind: str
    """``RANDOM``, ``LOCAL`` or ``CALL``."""
    qualname: str | None = None
    """The ``jax.random`` function, for ``RANDOM`` uses."""
    key_name: str | None = None
    """The variable, when the key is consumed by a function that closes over it."""
    weak: bool = False
    """The root key of ``x.init(key, ...)`` where ``x`` comes from another package: the
    module may split the key or only fold it in (Flax, Haiku, Equinox differ), and this
    file cannot tell. Recorded, but it never makes a later use a reuse, and a reuse it
    takes part in is not ``definite``."""
    index: cst.BaseExpression | None = None
    """For ``split(key, n)[i]``: the index ``i`` (only that key of the split is used)."""
    through: Use | None = None
    """A function of this file that hands the key, unchanged, to a function it cannot see
    (``train_step(state, batch, rng)`` whose body calls ``model(rng, ...)``): that inner
    use. Its kind is ``CALL``."""
    draws: frozenset[str] = frozenset()
    """For a call of a function of this file: what its body consumes the key with
    (``jax.random`` names, or kinds), so that ``tree.map(lambda x: shuffle(x, key), batch)``
    whose ``shuffle`` only permutes ``x`` is known as an index draw over each leaf."""

    @cached_property
    def by(self) -> str:
        """The callee as the user wrote it: ``jax.random.normal``, ``self.dropout``.

        Generated when a message asks for it: code generation is slow, and most uses
        are never reported."""
        return _code(self.call.func)

    @property
    def passed_to(self) -> str | None:
        """For a use ``through`` a function of this file: the function it cannot see that
        finally receives the key (``model``)."""
        inner = self.through
        while inner is not None and inner.through is not None:
            inner = inner.through
        return inner.by if inner is not None else None

    @property
    def splits_key(self) -> bool:
        """``split``, or a sampler that splits its key and draws with the keys split off
        (``permutation``, ``randint``, ``choice`` without ``p``: :data:`SPLITS_ITS_KEY`)."""
        if self.qualname == SPLIT:
            return True
        if self.kind == LOCAL and self.through is None and self.draws:
            # a function of this file whose body only splits the key (jax-moseq's
            # ``sample_invwishart``: ``chi2_seed, norm_seed = jr.split(seed)``)
            return self.draws <= _SPLITTING
        return self.qualname in SPLITS_ITS_KEY and not (
            self.qualname == "jax.random.choice" and self._with_p
        )

    @property
    def draws_from_key(self) -> bool:
        """A sampler that takes its bits from the key itself, not from keys it splits off
        (:data:`DRAWS_FROM_ITS_KEY`, ``choice`` with ``p``): the keys a ``split`` of that
        key returns draw values not correlated with it (measured on JAX 0.12 for every PRNG
        implementation, ``tests/test_prng_split_runtime.py``)."""
        if self.splits_key:
            return False
        if self.kind == LOCAL and self.through is None and self.draws:
            return self.draws <= DRAWS_FROM_ITS_KEY
        return self.qualname in DRAWS_FROM_ITS_KEY or self.qualname == "jax.random.choice"

    @property
    def _with_p(self) -> bool:
        """``choice(key, a, shape, replace, p)`` given ``p``."""
        args = self.call.args
        return any(a.keyword is not None and a.keyword.value == "p" for a in args) or (
            len([a for a in args if a.keyword is None]) >= 5
        )


@dataclass(frozen=True, eq=False)
class Reuse:
    """``value`` consumed at ``second`` after ``first`` on one path."""

    value: KeyValue
    first: Use
    second: Use
    how: str
    """``again`` (straight-line code), ``loop`` (every iteration of ``loop``),
    ``stored`` (a loop body returns a key it consumed in its carry: ``second.arg`` is
    the returned name),
    ``body`` (a loop primitive's body consumes a key it closes over), ``mapped``
    (a function called once per element or leaf consumes a key it closes over),
    ``attr`` (a method draws from ``self.<attr>``, which only a constructor assigns:
    the same key on every call; ``first is second``)."""
    loop: cst.CSTNode | None = None
    """The ``for``/``while``/comprehension, or the loop primitive's call."""
    body: cst.FunctionDef | cst.Lambda | None = None
    fn: cst.FunctionDef | cst.Lambda | None = None
    """The function whose body holds both uses (``None``: the module body)."""
    array: KeyValue | None = None
    """``value`` is an element of this array of keys, and one of the two uses consumes the
    whole array one key at a time (``jax.vmap(f)(keys)``, ``lax.map``, ``lax.scan``'s
    ``xs``): that use draws from ``value`` too."""
    mapped_first: bool = False
    """With ``array``: the first use is the one that maps over the array."""
    split_unused: bool = False
    """``again`` after ``first``, a ``split`` whose keys were bound to names of which none
    is read on any path through ``second`` (``k1, k2 = split(key)``, then only
    ``normal(key)`` on that branch): no key of the split draws anything there, so no
    bits are shared; JAX's key-reuse checker still rejects the pair."""

    @property
    def definite(self) -> bool:
        """Certainly a reuse: both consumptions are certain (a ``jax.random`` consumer,
        or a function of this module that passes the key to one), or one is and the
        other passes a certain key to a function we cannot see. Two calls of unknown
        functions are not enough: they may only derive keys with ``fold_in`` (Flax's
        ``init``/``apply`` do) or compare them, and tests reuse keys on purpose to
        compare two runs."""
        kinds = (self.first.kind, self.second.kind)
        if self.first.weak or self.second.weak:
            return False
        if self.first is self.second:
            return kinds[0] != CALL
        if CALL not in kinds:
            return True
        if self.how == "loop" and self.second.through is not None:
            # a function of this file hands the certain key, unchanged, to a function it
            # cannot see on every iteration: nothing between derives a new key per step
            # (a ``fold_in(rng, step)`` in that function would not be a consumption)
            return self.value.certain
        return kinds != (CALL, CALL) and self.value.certain

    @property
    def split_and_own_draw(self) -> bool:
        """One use splits the key (``split``, or a sampler that splits its key itself) and
        the other draws from the key itself: the two are not correlated on JAX 0.12
        (``Use.draws_from_key``), though ``jax_debug_key_reuse`` rejects the pair."""
        first, second = self.first, self.second
        return (first.splits_key and second.draws_from_key) or (
            second.splits_key and first.draws_from_key
        )


@dataclass(frozen=True)
class RawUse:
    """A legacy raw key used as ``uint32`` data: ``node`` does ``what``."""

    node: cst.CSTNode
    what: str


Fact = tuple[str, str]
"""What a path knows of a local name from the tests it passed: (name, ``truth``) for
``if name:``, (name, ``none``) for ``if name is None:``; mapped to True or False."""


@dataclass(frozen=True)
class _Mark:
    use: Use
    maybe_depth: int | None
    """``None``: consumed on every path here; else consumed on some paths only, the
    join having happened at this branch depth."""
    needs: frozenset[tuple[Fact, bool]] = frozenset()
    """The facts that held where the key was consumed: a path whose facts contradict one
    of them never went through that consumption (``if not bootstrap: ...; return``
    after ``if refs is None and not bootstrap: draw(key)``)."""


def _contradicts(needs: frozenset[tuple[Fact, bool]], facts: dict[Fact, bool]) -> bool:
    """A path with ``facts`` cannot have gone where ``needs`` held."""
    return any(facts.get(fact, value) is not value for fact, value in needs)


class _State:
    __slots__ = ("consumed", "env", "facts", "pending", "read")

    def __init__(
        self,
        env: dict[str, KeyValue],
        consumed: dict[KeyValue, _Mark],
        facts: dict[Fact, bool] | None = None,
        pending: dict[int, tuple[Reuse, ...]] | None = None,
        read: set[int] | None = None,
    ) -> None:
        self.env = env
        self.consumed = consumed
        self.facts: dict[Fact, bool] = facts if facts is not None else {}
        self.pending: dict[int, tuple[Reuse, ...]] = pending if pending is not None else {}
        """``id`` of the keys of a ``split`` (the array its call made) -> the reuses of
        its key after it on this path, held until one of those keys is read here
        (:attr:`Reuse.split_unused`)."""
        self.read: set[int] = read if read is not None else set()
        """``id`` of the keys read on this path, and of the arrays they are elements of."""

    def copy(self) -> _State:
        return _State(
            dict(self.env),
            dict(self.consumed),
            dict(self.facts),
            dict(self.pending),
            set(self.read),
        )

    def defer(self, products: KeyValue, reuse: Reuse) -> bool:
        """Hold ``reuse`` until a key of ``products`` is read; ``False`` if one was."""
        if id(products) in self.read:
            return False
        self.pending[id(products)] = (*self.pending.get(id(products), ()), reuse)
        return True

    def read_key(self, val: KeyValue) -> tuple[Reuse, ...]:
        """``val`` is read here: the reuses held for the split that made it, removed."""
        self.read.add(id(val))
        if val.parent is not None:
            self.read.add(id(val.parent))
        return taken(self.pending, val) if self.pending else ()


def names_only(targets: Sequence[cst.AssignTarget]) -> bool:
    """Every target a plain name or a tuple of them: the values bound can be read only
    through those names."""
    for t in targets:
        target = t.target
        parts = target.elements if type(target) in (cst.Tuple, cst.List) else [target]
        for el in parts:
            inner = el.value if isinstance(el, cst.BaseElement) else el
            if type(inner) is not cst.Name:
                return False
    return True


def taken(pending: dict[int, tuple[Reuse, ...]], val: KeyValue) -> tuple[Reuse, ...]:
    """The reuses held for the split that made ``val`` (or whose element it is), removed:
    a key of that split is read, so it may draw what the reused key drew."""
    found = pending.pop(id(val), ())
    if val.parent is not None:
        found += pending.pop(id(val.parent), ())
    return found


def join_pending(states: Sequence[_State]) -> dict[int, tuple[Reuse, ...]]:
    """The held reuses of every joined path (:meth:`_State.defer`)."""
    joined: dict[int, tuple[Reuse, ...]] = {}
    for st in states:
        for key, reuses in st.pending.items():
            have = joined.get(key, ())
            joined[key] = have + tuple(r for r in reuses if r not in have)
    return joined


@dataclass
class _Summary:
    """What calling a function of this module consumes."""

    params: dict[str, str] = field(default_factory=dict)
    """Parameter name -> the strongest kind of consumption in the body."""
    free: dict[str, str] = field(default_factory=dict)
    """Names of enclosing or module scopes consumed by the body -> kind."""
    free_by: dict[str, set[str]] = field(default_factory=dict)
    """Those names -> what consumes them (``jax.random`` names, or the kind)."""
    params_by: dict[str, set[str]] = field(default_factory=dict)
    """Consumed parameters -> what consumes them (``jax.random`` names, or the kind)."""
    advances: set[str] = field(default_factory=set)
    """Module-level keys the body consumes and rebinds (``global KEY``; ``KEY, sub =
    split(KEY)``): a stateful RNG. Each call draws from the key the previous call left,
    so a caller consumes nothing (eagerly); under ``jit`` the split runs once, at trace
    time (``KeyAnalysis.stateful_calls``)."""
    positional: list[str] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)
    """``self.<attr>`` keys the body consumes as it finds them (not reassigned before)
    -> kind: calling the method consumes the caller's ``self.<attr>``."""
    passes: dict[str, Use] = field(default_factory=dict)
    """Parameters not known here to be keys that the body hands, unchanged, to a function
    it cannot see -> that use: a caller passing a certain key consumes it there as by
    that function (``CALL``)."""
    free_passes: dict[str, Use] = field(default_factory=dict)
    """The same for names of enclosing scopes (a nested ``loss_fn`` calling ``model(rng,
    ...)`` with its enclosing function's ``rng``)."""
    split_index: dict[str, int | None] = field(default_factory=dict)
    """Parameters consumed -> ``i`` when every consumption is ``split(param, ...)[i]`` with
    the same literal ``i`` (a ``reset(rng)`` that keeps ``split(rng)[0]``): a caller's
    ``split(rng)[1]`` takes another key. ``None``: some consumption is anything else."""


_STRENGTH = {CALL: 0, LOCAL: 1, RANDOM: 2}


def _stronger(a: str | None, b: str) -> str:
    return b if a is None or _STRENGTH[b] > _STRENGTH[a] else a


FunctionNode = cst.FunctionDef | cst.Lambda


def _body_args(
    call: cst.Call, positions: Sequence[int], keywords: Sequence[str]
) -> Iterator[cst.BaseExpression]:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for idx in positions:
        if idx < len(positional):
            yield positional[idx].value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords:
            yield arg.value


def _key_arg(call: cst.Call, names: tuple[str, ...] = ("key",)) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            return arg.value
        break
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in names:
            return arg.value
    return None


def _literal_int(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.evaluated_value)
    if (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
    ):
        return -int(expr.expression.evaluated_value)
    return None


def _code(node: cst.CSTNode, limit: int = 40) -> str:
    text = cst.Module([]).code_for_node(node)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _annotation(param: cst.Param) -> str:
    if param.annotation is None:
        return ""
    expr = param.annotation.annotation
    dotted = _plain_dotted(expr)
    if dotted is not None:
        return dotted
    return " ".join(cst.Module([]).code_for_node(expr).split())


def _no_space(ws: cst.BaseParenthesizableWhitespace) -> bool:
    return type(ws) is cst.SimpleWhitespace and ws.value == ""


def _plain_dotted(expr: cst.BaseExpression) -> str | None:
    """The code of ``x`` or ``a.b.c`` written without parentheses or spaces, without
    code generation (slow, and most annotations are such names); else ``None``."""
    kind = type(expr)
    if kind is cst.Name:
        return None if expr.lpar else expr.value  # type: ignore[attr-defined]
    if kind is cst.Attribute and not expr.lpar:  # type: ignore[attr-defined]
        dot = expr.dot  # type: ignore[attr-defined]
        if not (_no_space(dot.whitespace_before) and _no_space(dot.whitespace_after)):
            return None
        base = _plain_dotted(expr.value)  # type: ignore[attr-defined]
        attr = _plain_dotted(expr.attr)  # type: ignore[attr-defined]
        return None if base is None or attr is None else f"{base}.{attr}"
    return None


def _annotated_key(name: str, annotation: str) -> bool:
    if not annotation:
        return False
    if _KEY_ANNOTATION.search(annotation):
        return True
    bare = annotation.replace(" ", "")
    for part in re.split(r"\||Optional\[|\]", bare):
        if part and _ARRAY_ANNOTATION.match(part) and is_key_name(name):
            return True
    return False


def key_factory(model: SemanticModel, fn: cst.CSTNode) -> cst.Call | None:
    """The ``jax.random.key(...)``/``PRNGKey(...)`` call that ``fn`` returns when its body
    is that one ``return`` (after a docstring): a key factory (``def make_key(): return
    jax.random.key(0)``)."""
    if type(fn) is not cst.FunctionDef or type(fn.body) is not cst.IndentedBlock:
        return None
    stmts = list(fn.body.body)
    if (
        stmts
        and type(stmts[0]) is cst.SimpleStatementLine
        and len(stmts[0].body) == 1
        and type(stmts[0].body[0]) is cst.Expr
        and isinstance(stmts[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    ):
        stmts = stmts[1:]
    if len(stmts) != 1 or type(stmts[0]) is not cst.SimpleStatementLine:
        return None
    small = stmts[0].body
    if len(small) != 1 or type(small[0]) is not cst.Return:
        return None
    value = small[0].value
    if type(value) is not cst.Call or model.call_name(value) not in _FACTORY_MAKERS:
        return None
    return value


_FACTORY_MAKERS = frozenset({"jax.random.key", "jax.random.PRNGKey"})


def _suite(body: cst.BaseSuite | cst.CSTNode) -> Sequence[cst.CSTNode]:
    if type(body) is cst.IndentedBlock:
        return body.body
    if type(body) is cst.SimpleStatementSuite:
        return [cst.SimpleStatementLine(body=body.body)]
    return [body]


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in target.elements:
            out.extend(_target_names(el.value))
        return out
    return []


def _runs_at_least_once(it: cst.BaseExpression, model: SemanticModel) -> bool:
    """A ``for`` over ``range(N)`` with literal bounds that give at least one step, or
    over a non-empty literal list or tuple: its body runs."""
    if type(it) in (cst.List, cst.Tuple):
        return bool(it.elements)  # type: ignore[attr-defined]
    if type(it) is not cst.Call or model.call_name(it) != "builtins.range":
        return False
    ints = []
    for arg in it.args:  # type: ignore[attr-defined]
        if arg.keyword is not None or arg.star or type(arg.value) is not cst.Integer:
            return False
        ints.append(arg.value.evaluated_value)
    if len(ints) == 1:
        return ints[0] >= 1
    if len(ints) == 2:
        return ints[1] > ints[0]
    return False


def _repeats(iterable: cst.BaseExpression, model: SemanticModel) -> bool:
    """The loop may run its body more than once (not a literal of at most one element,
    not ``range(0)``/``range(1)``)."""
    if type(iterable) in (cst.Tuple, cst.List, cst.Set):
        return len(iterable.elements) > 1
    if isinstance(iterable, cst.Call) and model.call_name(iterable) == "builtins.range":
        positional = [a.value for a in iterable.args if a.keyword is None]
        if len(positional) == 1:
            n = _literal_int(positional[0])
            return n is None or n > 1
        if len(positional) == 2:
            lo, hi = (_literal_int(p) for p in positional)
            return lo is None or hi is None or hi - lo > 1
    return True


def repeats(iterable: cst.BaseExpression, model: SemanticModel) -> bool:
    """A ``for`` over ``iterable`` may run its body more than once."""
    return _repeats(iterable, model)
