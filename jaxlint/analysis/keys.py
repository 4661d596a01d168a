"""PRNG keys: which values are keys, where each one is consumed, and which are reused.

The semantics follow JAX's own key-reuse checker, switched on by
``jax.config.update("jax_debug_key_reuse", True)`` or ``jax.debug_key_reuse(True)``
and read in the installed jax 0.12.0.1, where it still lives in
``jax/experimental/key_reuse/_core.py`` (the ``key_reuse_signatures`` table and
``jaxpr_type_signature``; the primitives are defined in ``jax/_src/prng.py`` and
``jax/_src/random.py``) and checked by running it (``tests/test_keys.py`` runs the
cases below under ``jax_debug_key_reuse``):

* **Samplers consume their key.** Every sampler in ``jax.random`` draws its bits
  with ``random_bits_p`` (``Sink(0)``) or ``random_gamma_p`` (``Sink(0)``);
  ``jax.random.bits`` is ``random_bits`` itself.
* **``split`` consumes its key** (``random_split_p``: ``Sink(0), Source(0)``); the
  keys it returns are fresh, and so are the elements ``k1, k2 = split(key)`` or
  ``keys[0]``, ``keys[1]`` (``slice_p`` consumes only the sliced element).
* **``fold_in`` does not consume** (``random_fold_in_p``: ``Source(0)`` only, with a
  TODO in JAX asking whether it should), nor does ``clone`` (``random_clone_p``:
  ``Source(0)``) or ``key_data`` (``random_unwrap_p``: no sink); ``key``,
  ``PRNGKey`` and ``wrap_key_data`` (``random_seed_p``/``random_wrap_p``) make
  fresh keys; ``==``/``!=`` (``eq_p``/``ne_p``) do not consume.
* **Any other primitive consumes its key inputs** (``unknown_signature`` sinks
  every key argument), and a jitted function consumes what its body consumes
  (``_pjit_key_type_signature``). So a key passed to a function this module cannot
  see is consumed (kind ``CALL``): it may sample. For a function defined in this
  module, what its body consumes decides (its summary). A reuse whose both
  consumptions are such unknown calls is only possible (``Reuse.definite`` is
  false): Flax-style libraries derive keys with ``fold_in``, and tests pass one
  key to two implementations on purpose.
* **Loop bodies may not consume a key they close over**: ``_scan_key_type_signature``
  and ``_while_key_type_signature`` raise ``KeyReuseError`` ("scan body function
  leads to key reuse when repeatedly executed, because key constants are repeatedly
  consumed"); ``fori_loop`` and ``lax.map`` lower to them. A ``cond`` branch
  consumes at most once (``_cond_key_type_signature`` joins the branches).
* Raw ``uint32`` keys from ``PRNGKey`` are not tracked by the checker at all (it
  only sees ``key<impl>`` dtypes); reusing one is the same bug, so this analysis
  treats them like typed keys, and remembers which values derive from a
  ``PRNGKey`` call so that rules can tell where code relies on the raw bits.

Where jaxlint departs from the checker, on purpose: a function that ``tree.map``
calls once per leaf and that only draws indices from a key it closes over
(``permutation``, ``choice``, ``randint``) is not a reuse (the same shuffle keeps
the leaves aligned; JAX's checker would raise there); Flax's ``init``/``apply``
receive root keys that Flax only folds in; predicates (``is_*``, ``assert``) and
record constructors (``namedtuple``, dataclasses of the module) do not consume.

The walk is flow-sensitive inside each function (and the module body): a
consumption records the key value as consumed on that path; ``if`` arms are
joined (consumed in one arm: *maybe* consumed after the ``if``); ``return``,
``raise``, ``break`` and ``continue`` end a path; loop and comprehension bodies
are walked twice, so that a key consumed and not rebound in the body is seen
consumed again on the second iteration.

What two uses are *for* is asked only about reuses, from the statements of the
function that holds them (``KeyAnalysis.compared``, ``aligned``, ``draws_compared``,
``collected``): results compared against each other (one key fed to two
implementations), paired index draws that keep two arrays aligned, how two draws
relate (identical, a prefix of each other, ``split`` after ``split``, or correlated),
and whether a loop keeps its draws across iterations. A loop body that returns a key
it consumed in its carry is a reuse too (``stored``), as JAX's checker says. The root
key of ``model.init(key, ...)`` of a module of another package is a ``weak`` use:
what the module does with it is not visible here.

A value is *certainly* a key when a key function made it, or when its name is
passed as the key of a ``jax.random`` function in the same function, or when it
is annotated as a key (``PRNGKeyArray``, ``jax.Array`` on a key-like name).
Passing an uncertain value to an unknown function is not recorded as a
consumption: a parameter called ``rng`` may be a NumPy generator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.testcode import is_test_function
from jaxlint.analysis.tracing import TraceAnalysis, TracedFunction
from jaxlint.analysis.transforms import PARTIAL, STATIC_CALLS, TRANSFORMS
from jaxlint.analysis.walk import children, descendants

if TYPE_CHECKING:
    from jaxlint.analysis.project import ProjectFacts

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
    """``local``, ``param``, ``global`` (a module-level key read in a function) or
    ``closure`` (a key of an enclosing function)."""
    raw_roots: frozenset[int] = frozenset()
    """``id`` of the ``PRNGKey`` calls it derives from: raw ``uint32`` data."""
    outer_name: str | None = None
    """For ``global``/``closure`` keys (and their elements): the variable of the
    module or enclosing function that holds them."""
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

    @cached_property
    def by(self) -> str:
        """The callee as the user wrote it: ``jax.random.normal``, ``self.dropout``.

        Generated when a message asks for it: code generation is slow, and most uses
        are never reported."""
        return _code(self.call.func)


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
    (a function called once per element or leaf consumes a key it closes over)."""
    loop: cst.CSTNode | None = None
    """The ``for``/``while``/comprehension, or the loop primitive's call."""
    body: cst.FunctionDef | cst.Lambda | None = None
    fn: cst.FunctionDef | cst.Lambda | None = None
    """The function whose body holds both uses (``None``: the module body)."""

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
        return kinds != (CALL, CALL) and self.value.certain


@dataclass(frozen=True)
class RawUse:
    """A legacy raw key used as ``uint32`` data: ``node`` does ``what``."""

    node: cst.CSTNode
    what: str


@dataclass(frozen=True)
class _Mark:
    use: Use
    maybe_depth: int | None
    """``None``: consumed on every path here; else consumed on some paths only, the
    join having happened at this branch depth."""


class _State:
    __slots__ = ("consumed", "env")

    def __init__(self, env: dict[str, KeyValue], consumed: dict[KeyValue, _Mark]) -> None:
        self.env = env
        self.consumed = consumed

    def copy(self) -> _State:
        return _State(dict(self.env), dict(self.consumed))


@dataclass
class _Summary:
    """What calling a function of this module consumes."""

    params: dict[str, str] = field(default_factory=dict)
    """Parameter name -> the strongest kind of consumption in the body."""
    free: dict[str, str] = field(default_factory=dict)
    """Names of enclosing or module scopes consumed by the body -> kind."""
    free_by: dict[str, set[str]] = field(default_factory=dict)
    """Those names -> what consumes them (``jax.random`` names, or the kind)."""
    advances: set[str] = field(default_factory=set)
    """Module-level keys the body consumes and rebinds (``global KEY``; ``KEY, sub =
    split(KEY)``): a stateful RNG. Each call draws from the key the previous call left,
    so a caller consumes nothing (eagerly); under ``jit`` the split runs once, at trace
    time (``KeyAnalysis.stateful_calls``)."""
    positional: list[str] = field(default_factory=list)


_STRENGTH = {CALL: 0, LOCAL: 1, RANDOM: 2}


def _stronger(a: str | None, b: str) -> str:
    return b if a is None or _STRENGTH[b] > _STRENGTH[a] else a


FunctionNode = cst.FunctionDef | cst.Lambda


class KeyAnalysis:
    """Keys, their consumptions and their reuses, for one module."""

    def __init__(
        self, model: SemanticModel, line_of: LineOf, project: ProjectFacts | None = None
    ) -> None:
        self.model = model
        self.line_of = line_of
        self.project = project
        """What the project's other modules say (a model class defined elsewhere)."""
        self.reuses: list[Reuse] = []
        self.global_uses: list[tuple[Use, KeyValue, FunctionNode]] = []
        """A module-level key consumed inside a function that does not rebind it."""
        self.stateful_calls: list[tuple[cst.Call, str, FunctionNode, FunctionNode | None]] = []
        """Calls of a function that advances module-level RNG state (``_Summary.advances``):
        (call, key name, the called function, the calling function)."""
        self._values: dict[int, KeyValue] = {}
        self._raw: dict[int, list[RawUse]] = {}
        self._reported: set[int] = set()
        self._summaries: dict[int, _Summary] = {}
        self._in_progress: set[int] = set()
        self._active: dict[int, _Walker] = {}
        self._exit_envs: dict[int, dict[str, KeyValue]] = {}
        self._lambdas: dict[int, cst.Lambda] = {}
        self._assigned: dict[int, cst.BaseExpression] = {}
        self.uses_flax = bool(model.module_imports("flax"))
        """The module imports Flax: ``x.init(key, ...)`` is a Flax module's init."""
        self._module_env: dict[str, KeyValue] = {}
        self._module_walker: _Walker | None = None
        self._defs: list[FunctionNode] = []
        self._parent: dict[int, FunctionNode | None] = {}
        self._class_of: dict[int, cst.ClassDef] = {}
        self._loop_bodies: dict[int, tuple[str, cst.Call]] = {}
        self._module_facts = _OwnFacts()
        self._own_facts: dict[int, _OwnFacts] = {}
        """Per function (``id``): what its own nodes say, gathered by ``_collect``."""
        self._codes: dict[int, str] = {}
        self._annotations: dict[int, str] = {}
        self._purpose: dict[int, _PurposeIndex] = {}
        """Per function with a reuse (``id``, ``id(None)`` for the module): what its
        statements compute from what, built when a rule asks whether a reuse is deliberate."""
        self._collect()
        self._run()

    # -- public queries ----------------------------------------------------------------

    def value(self, expr: cst.CSTNode) -> KeyValue | None:
        """The key ``expr`` evaluates to (its last walked evaluation), if it is one."""
        return self._values.get(id(expr))

    def is_key(self, expr: cst.CSTNode) -> bool:
        """``expr`` is certainly a key (or an array of keys) where it is evaluated."""
        val = self._values.get(id(expr))
        return val is not None and val.certain

    def raw_uses(self, maker: cst.Call) -> list[RawUse]:
        """Where the key made by the ``PRNGKey`` call ``maker`` (or a key derived from
        it by ``split``/``fold_in``/indexing) is used as raw ``uint32`` data."""
        seen: set[int] = set()
        out = []
        for use in self._raw.get(id(maker), []):
            if id(use.node) not in seen:
                seen.add(id(use.node))
                out.append(use)
        return out

    def compared(self, reuse: Reuse) -> bool:
        """The two uses are compared against each other: what the first use returns
        reaches one side of a comparison (``assert_allclose``, ``assertEqual``,
        ``chex.assert_trees_all_close``, ``==``...) and what the second returns the other
        side, neither side holding both. One key fed to two implementations to check that
        they agree: the reuse is the point of the code."""
        if reuse.first is reuse.second:
            return False
        index = self._purpose_index(reuse.fn)
        first = index.results(reuse.first.call)
        second = index.results(reuse.second.call)
        if first is None or second is None:
            return False
        for sides in index.comparisons:
            touch = [(first.touches(side), second.touches(side)) for side in sides]
            if any(a and not b for a, b in touch) and any(b and not a for a, b in touch):
                return True
        return False

    def collected(self, call: cst.Call, fn: FunctionNode | None) -> bool:
        """What ``call`` (in ``fn``) returns is kept across iterations of a loop
        (``xs.append(...)``, ``out[i] = ...``, ``total += ...``, ``x = x + ...``,
        ``yield``): draws repeated in a loop are then used together, as different data,
        rather than each iteration drawing the data of its own case."""
        index = self._purpose_index(fn)
        reach = index.results(call, hops=0)
        return reach is not None and any(reach.touches(side) for side in index.collectors)

    def function_of(self, node: cst.CSTNode) -> FunctionNode | None:
        """The function whose own code holds ``node`` (a ``Name``, or an expression
        starting with one); ``None`` for the module body."""
        name = node
        while not isinstance(name, cst.Name):
            if isinstance(name, cst.Call):
                name = name.func
            elif isinstance(name, cst.Attribute):
                name = name.value
            else:
                return None
        scope = self.model.scope_for(name)
        while scope is not None and scope.kind in ("comprehension", "class"):
            scope = scope.parent
        if scope is None or scope.kind == "module":
            return None
        return scope.node  # type: ignore[return-value]

    def in_test_function(self, fn: FunctionNode | None) -> bool:
        """``fn`` is, or is nested in, a test function or a pytest fixture."""
        while fn is not None:
            if isinstance(fn, cst.FunctionDef) and is_test_function(fn):
                return True
            fn = self._parent.get(id(fn))
        return False

    def aligned(self, reuse: Reuse) -> bool:
        """Paired sampling: the same index draw (``choice``, ``permutation``,
        ``shuffle``) of two different arrays with otherwise equal arguments, so that the
        pairs stay aligned (``x[idx]`` with ``y[idx]``): ``choice(key, xs, (b,))`` and
        ``choice(key, ys, (b,))``."""
        first, second = reuse.first, reuse.second
        if first is second or first.kind != RANDOM or second.kind != RANDOM:
            return False
        if first.qualname != second.qualname or first.qualname not in _PAIRED_DRAWS:
            return False
        a, b = _draw_args(first.call), _draw_args(second.call)
        if len(a) < 2 or len(a) != len(b) or a[0][0] != b[0][0]:
            return False
        population = [
            i
            for i, ((ka, va), (kb, vb)) in enumerate(zip(a, b, strict=True))
            if ka != kb or va != vb
        ]
        return population == [1] and a[1][0] in ("", "a", "x")

    def draws_compared(self, reuse: Reuse) -> str | None:
        """How two ``jax.random`` draws of one key relate: ``same`` (the same function
        and arguments: equal values), ``prefix`` (the same function, only the shape
        differs: the smaller repeats the start of the larger), ``split`` (``split(key)``
        after ``split(key, n)``, or the reverse: the same first keys), ``other`` (the
        same bits through different functions or arguments); ``None`` unless both uses
        are ``jax.random`` draws."""
        first, second = reuse.first, reuse.second
        if first.kind != RANDOM or second.kind != RANDOM or first is second:
            return None
        if first.qualname != second.qualname:
            return "other"
        a, b = _draw_args(first.call), _draw_args(second.call)
        if a[1:] == b[1:]:
            return "same"
        if first.qualname == SPLIT:
            return "split"
        if len(a) != len(b):
            return "other"
        differ = {
            (ka or str(i))
            for i, ((ka, va), (kb, vb)) in enumerate(zip(a, b, strict=True))
            if ka != kb or va != vb
        }
        if differ <= _SHAPE_SLOTS.get(first.qualname, {"1", "shape"}):
            return "prefix"
        return "other"

    def _purpose_index(self, fn: FunctionNode | None) -> _PurposeIndex:
        got = self._purpose.get(id(fn))
        if got is None:
            body = list(self.model.module.body) if fn is None else [fn.body]
            got = self._purpose[id(fn)] = _PurposeIndex(body)
        return got

    def loop_body_of(self, fn: cst.CSTNode) -> tuple[str, cst.Call] | None:
        """``(qualified name, call)`` when ``fn`` is the body of ``lax.scan``/``fori_loop``/
        ``while_loop``/``lax.map``."""
        return self._loop_bodies.get(id(fn))

    # -- collection --------------------------------------------------------------------

    def _collect(self) -> None:
        """One pass over the model's events (no tree walk): the functions, assignments and
        loop bodies, and the facts each walker needs from its own nodes (``_OwnFacts``)."""
        model = self.model
        call_name = model.call_name
        stack: list[cst.CSTNode] = []
        # per open scope: the node that starts its own nodes (its body; ``None`` for a
        # class, whose body no walker reads), and its facts once that node is entered
        bodies: list[cst.CSTNode | None] = []
        regions: list[_OwnFacts | None] = []
        facts: _OwnFacts | None = self._module_facts
        for node, entering in model.events:
            kind = type(node)
            if not entering:
                if kind in _SCOPE_NODES:
                    stack.pop()
                    bodies.pop()
                    regions.pop()
                    facts = regions[-1] if stack else self._module_facts
                continue
            if stack and facts is None and node is bodies[-1]:
                # the body of the innermost function starts: its own nodes, until the
                # next nested function or class (decorators and defaults are not its own)
                facts = _OwnFacts()
                regions[-1] = facts
                self._own_facts[id(stack[-1])] = facts
            if kind in _SCOPE_NODES:
                if kind is not cst.ClassDef:
                    self._defs.append(node)
                    self._parent[id(node)] = next(
                        (n for n in reversed(stack) if type(n) is not cst.ClassDef), None
                    )  # type: ignore[assignment]
                    if kind is cst.FunctionDef and stack and type(stack[-1]) is cst.ClassDef:
                        self._class_of[id(node)] = stack[-1]
                stack.append(node)
                bodies.append(node.body if kind is not cst.ClassDef else None)  # type: ignore[attr-defined]
                regions.append(None)
                facts = None
                continue
            if kind is cst.Assign:
                for t in node.targets:
                    self._assigned[id(t.target)] = node.value
                if len(node.targets) == 1 and type(node.value) is cst.Lambda:
                    self._lambdas[id(node.targets[0].target)] = node.value
            elif kind is cst.Call:
                qn = call_name(node)
                if qn in LOOP_BODIES:
                    for body in _body_args(node, *LOOP_BODIES[qn]):
                        fn = self.resolve_function(body)
                        if fn is not None:
                            self._loop_bodies.setdefault(id(fn), (qn, node))
                if facts is not None:
                    if qn in KEY_TAKERS:
                        arg = _key_arg(node, ("key", "keys"))
                        if type(arg) is cst.Name:
                            facts.evidence.add(arg.value)
                    facts.note_condition(node)
            elif facts is not None and kind in _CONDITION_NODES:
                facts.note_condition(node)

    def resolve_function(self, expr: cst.BaseExpression) -> FunctionNode | None:
        """The function of this module that ``expr`` names (a lambda, a local ``def``)."""
        if isinstance(expr, cst.Lambda):
            return expr
        if isinstance(expr, cst.Name):
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None:
                return None
            bindings = found[1]
            if len(bindings) == 1 and bindings[0].kind == "def":
                node = bindings[0].node
                return node if isinstance(node, cst.FunctionDef) else None
            if len(bindings) == 1 and bindings[0].kind == "assign":
                return self._lambda_bound_to(bindings[0].node)
        return None

    def _lambda_bound_to(self, target: cst.CSTNode) -> cst.Lambda | None:
        return self._lambdas.get(id(target))

    def assigned_value(self, target: cst.CSTNode) -> cst.BaseExpression | None:
        """The value of ``target = value`` (``target`` is the bound ``Name``)."""
        return self._assigned.get(id(target))

    def method(self, within: FunctionNode | None, name: str) -> cst.FunctionDef | None:
        """``self.<name>`` from a method of a class of this module."""
        if not isinstance(within, cst.FunctionDef):
            return None
        cls = self._class_of.get(id(within))
        if cls is None:
            return None
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
                return stmt
        return None

    # -- driving -----------------------------------------------------------------------

    def _run(self) -> None:
        module = _Walker(self, None)
        self._module_walker = module
        module.run()
        self._module_walker = None
        self._module_env = module.exit_env
        for fn in self._defs:
            self.summary(fn)

    def summary(self, fn: FunctionNode) -> _Summary | None:
        """Walk ``fn`` once (reporting what it reuses) and say what calling it consumes;
        ``None`` while it is being walked (recursion)."""
        got = self._summaries.get(id(fn))
        if got is not None:
            return got
        if id(fn) in self._in_progress:
            return None
        self._in_progress.add(id(fn))
        walker = _Walker(self, fn)
        self._active[id(fn)] = walker
        walker.run()
        del self._active[id(fn)]
        self._in_progress.discard(id(fn))
        self._exit_envs[id(fn)] = walker.exit_env
        self._summaries[id(fn)] = walker.summary
        return walker.summary

    def module_key(self, name: str) -> KeyValue | None:
        """The module-level key ``name``: where the module's code is when it calls a
        function (while the module body is walked), else at its end."""
        walker = self._module_walker
        if walker is not None:
            return walker.state.env.get(name) if walker.state is not None else None
        return self._module_env.get(name)

    def report(self, reuse: Reuse) -> None:
        if id(reuse.second.arg) in self._reported:
            return
        self._reported.add(id(reuse.second.arg))
        self.reuses.append(reuse)

    def note_raw(self, val: KeyValue, node: cst.CSTNode, what: str) -> None:
        for root in val.raw_roots:
            self._raw.setdefault(root, []).append(RawUse(node, what))

    def code(self, node: cst.CSTNode) -> str:
        """``_code(node)``, generated once per node (loop bodies are walked twice)."""
        text = self._codes.get(id(node))
        if text is None:
            text = self._codes[id(node)] = _code(node)
        return text

    def annotation(self, param: cst.Param) -> str:
        """``_annotation(param)``, generated once per parameter."""
        text = self._annotations.get(id(param))
        if text is None:
            text = self._annotations[id(param)] = _annotation(param)
        return text


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


def _params(fn: FunctionNode) -> list[cst.Param]:
    p = fn.params
    out = [*p.posonly_params, *p.params]
    if isinstance(p.star_arg, cst.Param):
        out.append(p.star_arg)
    out.extend(p.kwonly_params)
    if p.star_kwarg is not None:
        out.append(p.star_kwarg)
    return out


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


_SCOPE_NODES = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})
"""Tested with ``type(node) in``: ``isinstance`` on libcst classes goes through ABCMeta."""
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_CONTAINERS = frozenset({cst.Tuple, cst.List, cst.Dict})
_RNGS = re.compile(r"\bRngs\b")


def _own_nodes(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every node of ``body``, not descending into nested functions and classes."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if type(node) in _SCOPE_NODES:
            continue
        stack.extend(reversed(children(node)))


_CONDITION_NODES = frozenset(
    {cst.If, cst.While, cst.IfExp, cst.Assert, cst.BooleanOperation, cst.UnaryOperation}
)
"""Nodes whose operands are used as truth values (and ``assertTrue``/``assertFalse`` calls)."""


class _OwnFacts:
    """What a walker needs from the own nodes of its function (or the module body).

    Gathered for every function in one pass over ``model.events`` (``_collect``)
    rather than by walking each body again."""

    __slots__ = ("conditions", "evidence")

    def __init__(self) -> None:
        self.evidence: set[str] = set()
        """Names passed as the key of a ``jax.random`` function."""
        self.conditions: set[int] = set()
        """Calls whose result is used as a truth value (``assert``, ``if``, ``not``...)."""

    def note_condition(self, node: cst.CSTNode) -> None:
        kind = type(node)  # libcst's concrete classes: no ABCMeta isinstance per node
        if kind is cst.If or kind is cst.While or kind is cst.IfExp or kind is cst.Assert:
            self._test(node.test)  # type: ignore[attr-defined]
        elif kind is cst.BooleanOperation:
            self._test(node.left)  # type: ignore[attr-defined]
            self._test(node.right)  # type: ignore[attr-defined]
        elif kind is cst.UnaryOperation:
            if type(node.operator) is cst.Not:  # type: ignore[attr-defined]
                self._test(node.expression)  # type: ignore[attr-defined]
        elif kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if (
                type(func) is cst.Attribute
                and func.attr.value in ("assertTrue", "assertFalse")
                and node.args  # type: ignore[attr-defined]
            ):
                self._test(node.args[0].value)  # type: ignore[attr-defined]

    def _test(self, test: cst.BaseExpression) -> None:
        if type(test) is cst.Call:
            self.conditions.add(id(test))

    @classmethod
    def of(cls, body: Sequence[cst.CSTNode], model: SemanticModel) -> _OwnFacts:
        """The same facts by walking ``body`` (for a function ``_collect`` did not see)."""
        facts = cls()
        for node in _own_nodes(body):
            kind = type(node)
            if kind is cst.Call:
                if model.call_name(node) in KEY_TAKERS:  # type: ignore[arg-type]
                    arg = _key_arg(node, ("key", "keys"))  # type: ignore[arg-type]
                    if type(arg) is cst.Name:
                        facts.evidence.add(arg.value)
                facts.note_condition(node)
            elif kind in _CONDITION_NODES:
                facts.note_condition(node)
        return facts


# -- what two uses of a key are for (asked only about reuses) --------------------------------

_PAIRED_DRAWS = frozenset({"jax.random.choice", "jax.random.permutation", "jax.random.shuffle"})
"""Index draws over an array: one key for two arrays gives the same indices for both."""
_SHAPE_SLOTS = {
    "jax.random.randint": {"1", "shape"},
    "jax.random.choice": {"2", "shape"},
    "jax.random.bernoulli": {"2", "shape"},
    "jax.random.categorical": {"3", "shape"},
}
"""The shape argument of samplers that do not take it second (slot number or keyword)."""
_COMPARER_WORDS = ("equal", "close", "near")
_COMPARERS = frozenset({"allclose", "arrayequal", "arrayequiv", "isclose"})


def _draw_args(call: cst.Call) -> list[tuple[str, str]]:
    """``(keyword or "", code)`` of each argument, spaces removed."""
    return [
        (a.keyword.value if a.keyword is not None else "", "".join(_code(a.value, 10_000).split()))
        for a in call.args
    ]


def _is_comparer(func: cst.BaseExpression) -> bool:
    """``np.testing.assert_allclose``, ``self.assertEqual``, ``chex.assert_trees_all_close``,
    ``jnp.allclose``, ``np.array_equal``: calls that compare their first two arguments."""
    name = func.attr.value if type(func) is cst.Attribute else getattr(func, "value", None)
    if not isinstance(name, str):
        return False
    flat = name.lower().replace("_", "")
    if flat.startswith("assert") and any(w in flat for w in _COMPARER_WORDS):
        return True
    return flat in _COMPARERS


def _is_collector(func: cst.BaseExpression) -> bool:
    return type(func) is cst.Attribute and func.attr.value in _COLLECTORS


_COLLECTORS = frozenset({"append", "extend", "insert", "add", "appendleft"})


class _Reach:
    """What a use's result reaches: the call itself and the names assigned from it."""

    __slots__ = ("call", "names")

    def __init__(self, call: cst.Call) -> None:
        self.call = id(call)
        self.names: set[str] = set()

    def touches(self, side: tuple[frozenset[str], frozenset[int]]) -> bool:
        names, calls = side
        return self.call in calls or not self.names.isdisjoint(names)


class _PurposeIndex:
    """A function's statements in order, each with the names it assigns, the names and
    calls it reads; and its comparisons, each as sides of (names, calls)."""

    def __init__(self, body: Sequence[cst.CSTNode]) -> None:
        self.statements: list[tuple[set[str], frozenset[str], frozenset[int]]] = []
        self.comparisons: list[list[tuple[frozenset[str], frozenset[int]]]] = []
        self.collectors: list[tuple[frozenset[str], frozenset[int]]] = []
        """What ``xs.append(...)``/``extend``/``insert``/``add`` and ``total += ...`` keep."""
        for node in _own_nodes(body):
            kind = type(node)
            if kind in _STATEMENTS:
                targets: set[str] = set()
                if kind is cst.Assign:
                    for t in node.targets:  # type: ignore[attr-defined]
                        targets.update(_target_names(t.target))
                elif kind is cst.AnnAssign or kind is cst.AugAssign:
                    targets.update(_target_names(node.target))  # type: ignore[attr-defined]
                if kind is cst.Assign or kind is cst.AnnAssign:
                    value = node.value  # type: ignore[attr-defined]
                    reads = _reads(value) if value is not None else (frozenset(), frozenset())
                else:
                    reads = _reads(node)
                self.statements.append((targets, *reads))
                if kind is cst.AugAssign or kind is cst.Expr and type(node.value) is cst.Yield:  # type: ignore[attr-defined]
                    self.collectors.append(_reads(node.value))  # type: ignore[attr-defined]
                elif kind is cst.Assign:
                    value = _reads(node.value)  # type: ignore[attr-defined]
                    stores = any(type(t.target) is cst.Subscript for t in node.targets)  # type: ignore[attr-defined]
                    if stores or not targets.isdisjoint(value[0]):
                        # ``out[i] = draw``; ``x = x + draw``: kept across iterations
                        self.collectors.append(value)
            elif kind is cst.Call and _is_collector(node.func):  # type: ignore[attr-defined]
                for arg in node.args:  # type: ignore[attr-defined]
                    self.collectors.append(_reads(arg.value))
            elif kind is cst.Call and _is_comparer(node.func):  # type: ignore[attr-defined]
                args = [a.value for a in node.args if not a.star][:2]  # type: ignore[attr-defined]
                if len(args) == 2:
                    self.comparisons.append([_value_reads(a) for a in args])
            elif kind is cst.Comparison and any(
                type(c.operator) in (cst.Equal, cst.NotEqual)
                for c in node.comparisons  # type: ignore[attr-defined]
            ):
                sides = [node.left, *(c.comparator for c in node.comparisons)]  # type: ignore[attr-defined]
                self.comparisons.append([_value_reads(side) for side in sides])

    def results(self, call: cst.Call, hops: int | None = None) -> _Reach | None:
        """What ``call``'s result reaches through assignments: in statement order, or,
        with ``hops``, through at most that many assignments after the one holding the
        call, in any order (a loop body wraps around)."""
        reach = _Reach(call)
        found = False
        for targets, names, calls in self.statements:
            if not found:
                if reach.call not in calls:
                    continue
                found = True
                reach.names |= targets
                if hops is not None:
                    break
            elif not reach.names.isdisjoint(names):
                reach.names |= targets
        if not found:
            return None
        frontier = set(reach.names)
        for _ in range(hops or 0):
            step: set[str] = set()
            for targets, names, _calls in self.statements:
                if not frontier.isdisjoint(names):
                    step |= targets - reach.names
            reach.names |= step
            frontier = step
        return reach


_STATEMENTS = frozenset(
    {cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Assert}
)


_METADATA = frozenset({"shape", "dtype", "ndim", "size"})


def _value_reads(side: cst.BaseExpression) -> tuple[frozenset[str], frozenset[int]]:
    """What one side of a comparison reads, unless it compares metadata only
    (``x.shape``, ``len(x)``): equal shapes say nothing about equal values."""
    if type(side) is cst.Attribute and side.attr.value in _METADATA:
        return frozenset(), frozenset()
    if type(side) is cst.Call and getattr(side.func, "value", None) == "len":
        return frozenset(), frozenset()
    return _reads(side)


def _reads(node: cst.CSTNode) -> tuple[frozenset[str], frozenset[int]]:
    names: set[str] = set()
    calls: set[int] = set()
    for sub in _own_nodes([node]):
        kind = type(sub)
        if kind is cst.Name:
            names.add(sub.value)  # type: ignore[attr-defined]
        elif kind is cst.Call:
            calls.add(id(sub))
    return frozenset(names), frozenset(calls)


class _Loop:
    """Bookkeeping for the loop being walked."""

    def __init__(self, node: cst.CSTNode, how: str) -> None:
        self.node = node
        self.how = how
        self.breaks: list[_State] = []
        self.continues: list[_State] = []
        self.uses: set[int] = set()
        """``id`` of the uses recorded while walking the body the first time."""


class _Walker:
    """Walks one function body (or the module body) path by path."""

    def __init__(self, analysis: KeyAnalysis, fn: FunctionNode | None) -> None:
        self.a = analysis
        self.model = analysis.model
        self.fn = fn
        self.depth = 0
        self.loops: list[_Loop] = []
        self.generation: tuple[int, ...] = ()
        self.memo: dict[tuple, KeyValue] = {}
        self.summary = _Summary()
        self.exit_env: dict[str, KeyValue] = {}
        self.exits: list[_State] = []
        self.state: _State | None = _State({}, {})
        scope = self.model.scope_of_node.get(id(fn)) if fn is not None else self.model.module_scope
        self.scope = scope
        self.local_names: set[str] = set()
        self.global_decl: set[str] = set()
        if fn is not None and scope is not None:
            self.local_names = set(scope.bindings) - scope.global_names - scope.nonlocal_names
            self.global_decl = set(scope.global_names)
        body: Sequence[cst.CSTNode] = list(self.model.module.body) if fn is None else [fn.body]
        self.body_nodes = body
        if fn is None:
            facts = analysis._module_facts
        else:
            facts = analysis._own_facts.get(id(fn)) or _OwnFacts.of(body, self.model)
        self.evidence = facts.evidence
        """Names passed as the key of a ``jax.random`` function in this body."""
        self.loop_body = analysis.loop_body_of(fn) if fn is not None else None
        self.rngs_names: set[str] = set()
        """Names bound to an ``nnx.Rngs(...)`` here: calling them gives fresh keys."""
        self.conditions = facts.conditions
        """Calls whose result is used as a truth value (``assert``, ``if``, ``not``...)."""

    def run(self) -> None:
        fn = self.fn
        assert self.state is not None
        if fn is not None:
            positional = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
            self.summary.positional = positional
            for param in _params(fn):
                name = param.name.value
                certain = name in self.evidence or _annotated_key(name, self.a.annotation(param))
                val = KeyValue(name, param, certain, where="param")
                self.state.env[name] = val
            if isinstance(fn, cst.Lambda):
                self._eval(fn.body)
                self._exit()
                return
        self._block(self.body_nodes if fn is None else _suite(fn.body))
        self._exit()

    def _exit(self) -> None:
        if self.state is not None:
            self.exits.append(self.state)
        env: dict[str, KeyValue] = {}
        for st in self.exits:
            for k, v in st.env.items():
                env.setdefault(k, v)
        self.exit_env = env

    # -- values ------------------------------------------------------------------------

    def _new(
        self,
        node: cst.CSTNode,
        name: str,
        certain: bool,
        *,
        array: bool = False,
        raw: frozenset[int] = frozenset(),
        tag: object = None,
    ) -> KeyValue:
        key = (id(node), tag, self.generation)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(name, node, certain, array=array, raw_roots=raw)
            self.memo[key] = val
        if self.state is not None:
            self.state.consumed.pop(val, None)  # a fresh key (JAX: ``Source``)
        return val

    def _element(self, parent: KeyValue, index: int | str, node: cst.CSTNode) -> KeyValue:
        key = ("element", id(parent), index)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(
                f"{parent.name}[{index}]" if isinstance(index, int) else parent.name,
                node,
                parent.certain,
                where=parent.where if parent.outer_name else "local",
                raw_roots=parent.raw_roots,
                outer_name=parent.outer_name,
            )
            self.memo[key] = val
        return val

    def _lookup(self, name: str, at: cst.Name | None) -> KeyValue | None:
        st = self.state
        if st is not None and name in st.env:
            return st.env[name]
        if self.fn is None or (name in self.local_names and name not in self.global_decl):
            return None
        found = self.model.lookup(name, self.scope) if self.scope is not None else None
        if found is None:
            return None
        scope, bindings = found
        if scope is self.model.module_scope:
            val = self.a.module_key(name)
            if val is None or any(b.kind not in ("assign",) for b in bindings):
                return None
            return self._outer_value(name, val, "global")
        # a closure: a key of an enclosing function
        outer_fn = scope.node
        summary_env = self._enclosing_keys(outer_fn)
        if summary_env is None or name not in summary_env:
            return None
        return self._outer_value(name, summary_env[name], "closure")

    def _outer_value(self, name: str, outer: KeyValue, where: str) -> KeyValue:
        key = ("outer", name)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(
                name,
                outer.origin,
                outer.certain,
                array=outer.array,
                where=where,
                raw_roots=outer.raw_roots,
                outer_name=name,
            )
            self.memo[key] = val
        return val

    def _enclosing_keys(self, fn_node: cst.CSTNode) -> dict[str, KeyValue] | None:
        """The keys of an enclosing function: where it is now if it is being walked
        (a call of this function from it), else where it ends."""
        active = self.a._active.get(id(fn_node))
        if active is not None:
            return active.state.env if active.state is not None else None
        return self.a._exit_envs.get(id(fn_node))

    # -- consumption -------------------------------------------------------------------

    def _consume(self, val: KeyValue, use: Use) -> None:
        st = self.state
        if st is None:
            return
        if use.kind == CALL and not val.certain:
            return
        val.uses.append(use)
        for loop in self.loops:
            loop.uses.add(id(use))
        if val.where == "param":
            self.summary.params[val.name] = _stronger(self.summary.params.get(val.name), use.kind)
        elif val.where == "global" and val.outer_name in self.global_decl:
            # ``global KEY; KEY, sub = split(KEY)``: stateful RNG, callers consume nothing
            self.summary.advances.add(val.outer_name)
        elif val.where in ("closure", "global") and val.outer_name is not None:
            name = val.outer_name
            self.summary.free[name] = _stronger(self.summary.free.get(name), use.kind)
            self.summary.free_by.setdefault(name, set()).add(use.qualname or use.kind)
            if self.loop_body is not None and self.fn is not None:
                _, call = self.loop_body
                self.a.report(Reuse(val, use, use, "body", call, self.fn, self.fn))
            if val.where == "global" and self.fn is not None and name not in self.global_decl:
                self.a.global_uses.append((use, val, self.fn))
        mark = st.consumed.get(val)
        if mark is not None and (mark.maybe_depth is None or self.depth <= mark.maybe_depth):
            loop = next((lp for lp in reversed(self.loops) if id(mark.use) in lp.uses), None)
            if loop is not None and mark.use.arg is use.arg:
                self.a.report(Reuse(val, mark.use, use, loop.how, loop.node, fn=self.fn))
            else:
                self.a.report(Reuse(val, mark.use, use, "again", fn=self.fn))
                if mark.maybe_depth is None and not use.weak and not self.loops:
                    # the next reuse is named against this, the latest use
                    st.consumed[val] = _Mark(use, None)
            return
        if mark is None and not use.weak:
            st.consumed[val] = _Mark(use, None)

    # -- statements --------------------------------------------------------------------

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            if self.state is None:
                return
            self._stmt(stmt)

    def _stmt(self, stmt: cst.CSTNode) -> None:
        kind = type(stmt)  # exact classes: see ``_eval_inner``
        if kind is cst.SimpleStatementLine:
            for small in stmt.body:
                if self.state is None:
                    return
                self._small(small)
        elif kind is cst.If:
            self._if(stmt)
        elif kind is cst.For:
            self._eval(stmt.iter)
            element = self._element_of(stmt.iter, stmt.target)
            self._loop(
                stmt, "loop", stmt.body, stmt.target, element, _repeats(stmt.iter, self.model)
            )
            if stmt.orelse is not None and self.state is not None:
                self._block(_suite(stmt.orelse.body))
        elif kind is cst.While:
            self._eval(stmt.test)
            self._loop(stmt, "loop", stmt.body, None, None, True, test=stmt.test)
            if stmt.orelse is not None and self.state is not None:
                self._block(_suite(stmt.orelse.body))
        elif kind is cst.With:
            for item in stmt.items:
                self._eval(item.item)
                if item.asname is not None:
                    self._assign(item.asname.name, None, None)
            self._block(_suite(stmt.body))
        elif kind is cst.Try or kind is cst.TryStar:
            self._try(stmt)
        elif kind is cst.Match:
            self._eval(stmt.subject)
            before = self.state
            outs: list[_State] = []
            self.depth += 1
            for case in stmt.cases:
                self.state = before.copy() if before is not None else None
                if case.guard is not None:
                    self._eval(case.guard)
                self._block(_suite(case.body))
                if self.state is not None:
                    outs.append(self.state)
            self.depth -= 1
            if before is not None:
                outs.append(before)  # no case matched
            self.state = self._join(outs, stmt)
        elif kind is cst.FunctionDef:
            for dec in stmt.decorators:
                self._eval(dec.decorator)
            self._unbind(stmt.name.value)
        elif kind is cst.ClassDef:
            self._unbind(stmt.name.value)
        elif kind is cst.IndentedBlock:
            self._block(stmt.body)

    def _small(self, small: cst.BaseSmallStatement) -> None:
        st = self.state
        assert st is not None
        kind = type(small)  # exact classes: see ``_eval_inner``
        if kind is cst.Assign:
            val = self._eval(small.value)
            for t in small.targets:
                self._assign(t.target, val, small.value)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                val = self._eval(small.value)
                self._assign(small.target, val, small.value)
        elif kind is cst.AugAssign:
            self._eval(small.value)
            self._eval(small.target)
            if type(small.target) is cst.Name:
                self._unbind(small.target.value)
        elif kind is cst.Expr:
            self._eval(small.value)
        elif kind is cst.Return:
            if small.value is not None:
                self._eval(small.value)
                if self.loop_body is not None and self.state is not None:
                    self._stored_back(small.value)
            self.exits.append(st)
            self.state = None
        elif kind is cst.Raise:
            if small.exc is not None:
                self._eval(small.exc)
            self.state = None
        elif kind is cst.Assert:
            self._eval(small.test)
            if small.msg is not None:
                self._eval(small.msg)
        elif kind is cst.Del:
            for name in _target_names(small.target):
                self._unbind(name)
        elif kind is cst.Break:
            if self.loops:
                self.loops[-1].breaks.append(st)
            self.state = None
        elif kind is cst.Continue:
            if self.loops:
                self.loops[-1].continues.append(st)
            self.state = None

    def _stored_back(self, value: cst.BaseExpression) -> None:
        """A loop body returns, in its carry, a key it has consumed: the next iteration
        consumes the same key again (JAX's checker raises for ``scan``/``fori_loop``/
        ``while_loop``)."""
        assert self.loop_body is not None and self.state is not None
        qn, call = self.loop_body
        carry: cst.BaseExpression = value
        if qn == "jax.lax.map":
            return
        if qn == "jax.lax.scan":
            if type(value) is not cst.Tuple or len(value.elements) != 2:
                return
            carry = value.elements[0].value
        pending = [carry]
        while pending:
            expr = pending.pop()
            if type(expr) in (cst.Tuple, cst.List):
                pending.extend(el.value for el in expr.elements)  # type: ignore[attr-defined]
                continue
            if type(expr) is not cst.Name:
                continue
            val = self.a._values.get(id(expr))
            mark = self.state.consumed.get(val) if val is not None else None
            if val is None or mark is None or not val.certain:
                continue
            if mark.maybe_depth is not None or mark.use.kind == CALL:
                continue
            use = Use(expr, call, mark.use.kind, mark.use.qualname)
            self.a.report(Reuse(val, mark.use, use, "stored", call, self.fn, self.fn))

    def _if(self, stmt: cst.If) -> None:
        self._eval(stmt.test)
        before = self.state
        if before is None:
            return
        self.depth += 1
        self.state = before.copy()
        self._block(_suite(stmt.body))
        then = self.state
        self.state = before.copy()
        if isinstance(stmt.orelse, cst.If):
            self._if(stmt.orelse)
        elif isinstance(stmt.orelse, cst.Else):
            self._block(_suite(stmt.orelse.body))
        other = self.state
        self.depth -= 1
        self.state = self._join([s for s in (then, other) if s is not None], stmt)

    def _try(self, stmt: cst.Try | cst.TryStar) -> None:
        before = self.state
        if before is None:
            return
        self.depth += 1
        self.state = before.copy()
        self._block(_suite(stmt.body))
        after_body = self.state
        outs: list[_State] = []
        for handler in stmt.handlers:
            self.state = self._join([s for s in (before, after_body) if s is not None], stmt)
            if self.state is None:
                continue
            # the body may have failed before its consumption: what it consumed is
            # only maybe consumed here, and never reported as reused in the handler
            self.depth += 1
            if handler.type is not None:
                self._eval(handler.type)
            self._block(_suite(handler.body))
            self.depth -= 1
            if self.state is not None:
                outs.append(self.state)
        if after_body is not None and stmt.orelse is not None:
            self.state = after_body
            self._block(_suite(stmt.orelse.body))
            after_body = self.state
        self.depth -= 1
        if after_body is not None:
            outs.insert(0, after_body)
        self.state = self._join(outs, stmt)
        if stmt.finalbody is not None and self.state is not None:
            self._block(_suite(stmt.finalbody.body))

    def _loop(
        self,
        stmt: cst.CSTNode,
        how: str,
        body: cst.BaseSuite | cst.BaseExpression,
        target: cst.BaseExpression | None,
        element: Callable[[], KeyValue | None] | None,
        repeats: bool,
        test: cst.BaseExpression | None = None,
    ) -> None:
        before = self.state
        if before is None:
            return
        loop = _Loop(stmt, how)
        self.loops.append(loop)
        outs: list[_State] = [before]
        self.state = before.copy()
        passes = 2 if repeats else 1
        outer_generation = self.generation
        for i in range(passes):
            self.generation = (*outer_generation, i)
            if self.state is None:
                break
            if target is not None:
                self._assign(target, element() if element is not None else None, None)
            if isinstance(body, cst.BaseExpression):
                self._eval(body)
            else:
                self._block(_suite(body))
            ends = [s for s in (self.state, *loop.continues) if s is not None]
            loop.continues = []
            if not ends:
                self.state = None
                break
            self.state = self._join(ends, stmt) if len(ends) > 1 else ends[0]
            if test is not None and self.state is not None:
                self._eval(test)
            if self.state is not None:
                outs.append(self.state.copy())
        self.generation = outer_generation
        self.loops.pop()
        outs.extend(loop.breaks)
        self.state = self._join(outs, stmt)

    def _join(self, states: list[_State], at: cst.CSTNode) -> _State | None:
        if not states:
            return None
        if len(states) == 1:
            return states[0]
        names: set[str] = set()
        for s in states:
            names |= set(s.env)
        env: dict[str, KeyValue] = {}
        consumed: dict[KeyValue, _Mark] = {}
        for name in names:
            vals = [s.env.get(name) for s in states]
            present = [v for v in vals if v is not None]
            if not present:
                continue
            first = present[0]
            if all(v is first for v in vals):
                env[name] = first
                continue
            merged = self._merged(at, name, present)
            env[name] = merged
            marks = [
                st.consumed.get(v) if v is not None else None
                for st, v in zip(states, vals, strict=True)
            ]
            mark = self._join_marks(marks)
            if mark is not None:
                consumed[merged] = mark
        every = {v for s in states for v in s.consumed}
        for val in every:
            marks = [s.consumed.get(val) for s in states]
            mark = self._join_marks(marks)
            if mark is not None:
                consumed[val] = mark
        return _State(env, consumed)

    def _join_marks(self, marks: list[_Mark | None]) -> _Mark | None:
        present = [m for m in marks if m is not None]
        if not present:
            return None
        if len(present) == len(marks) and all(m.maybe_depth is None for m in present):
            return present[0]
        depth = min([self.depth, *(m.maybe_depth for m in present if m.maybe_depth is not None)])
        return _Mark(present[0].use, depth)

    def _merged(self, at: cst.CSTNode, name: str, vals: list[KeyValue]) -> KeyValue:
        key = ("merge", id(at), name, self.generation)
        val = self.memo.get(key)
        roots: frozenset[int] = frozenset().union(*(v.raw_roots for v in vals))
        if val is None:
            val = KeyValue(
                name,
                vals[0].origin,
                any(v.certain for v in vals),
                array=all(v.array for v in vals),
                where=vals[0].where if all(v.where == vals[0].where for v in vals) else "local",
                raw_roots=roots,
            )
            self.memo[key] = val
        else:
            val.raw_roots = val.raw_roots | roots
            val.certain = val.certain or any(v.certain for v in vals)
        return val

    # -- binding -----------------------------------------------------------------------

    def _unbind(self, name: str) -> None:
        if self.state is not None:
            self.state.env.pop(name, None)

    def _assign(
        self, target: cst.BaseExpression, val: KeyValue | None, value: cst.BaseExpression | None
    ) -> None:
        st = self.state
        if st is None:
            return
        kind = type(target)  # exact classes: see ``_eval_inner``
        if kind is cst.Name:
            name = target.value
            if val is None and value is not None and name in self.evidence:
                # an unknown value used as a key by ``jax.random`` later in this body
                val = self._new(target, name, True)
            if type(value) is cst.Call:
                if self.model.call_name(value) == "flax.nnx.Rngs":
                    self.rngs_names.add(name)
            if val is None:
                st.env.pop(name, None)
                return
            st.env[name] = val
            self.a._values[id(target)] = val
        elif kind is cst.Tuple or kind is cst.List:
            elements = target.elements
            starred = any(type(el.value) is cst.StarredElement for el in elements)
            for i, el in enumerate(elements):
                inner = el.value
                if type(inner) is cst.StarredElement:
                    self._assign(inner.value, None, None)
                    continue
                sub = None
                if val is not None and val.array and not starred:
                    sub = self._element(val, i, inner)
                self._assign(inner, sub, value)
        elif kind is cst.StarredElement:
            self._assign(target.value, None, None)
        else:
            self._eval(target)  # attribute or subscript: the key is stored, not consumed

    # -- expressions -------------------------------------------------------------------

    def _eval(self, expr: cst.BaseExpression) -> KeyValue | None:
        if self.state is None:
            return None
        val = self._eval_inner(expr)
        if val is not None:
            self.a._values[id(expr)] = val
        return val

    def _eval_inner(self, expr: cst.BaseExpression) -> KeyValue | None:
        # ``type(expr) is``: libcst's concrete classes have no subclasses, and ``isinstance``
        # on them goes through ABCMeta (slow when it does not match)
        kind = type(expr)
        if kind is cst.Name:
            return self._lookup(expr.value, expr)
        if kind is cst.Call:
            return self._call(expr)
        if kind is cst.Attribute:
            base = self._eval(expr.value)
            if base is not None:
                attr = expr.attr.value
                if attr in ("shape", "ndim", "size") and not base.array:
                    self.a.note_raw(base, expr, "reads its shape (a typed key has shape `()`)")
                if attr == "T":
                    return base
            return None
        if kind is cst.Subscript:
            return self._subscript(expr)
        if kind is cst.BinaryOperation:
            for side in (expr.left, expr.right):
                v = self._eval(side)
                if v is not None:
                    self.a.note_raw(v, expr, "computes on its bits")
            return None
        if kind is cst.UnaryOperation:
            v = self._eval(expr.expression)
            if v is not None and type(expr.operator) is not cst.Not:
                self.a.note_raw(v, expr, "computes on its bits")
            return None
        if kind is cst.Comparison:
            self._comparison(expr)
            return None
        if kind is cst.BooleanOperation:
            self._eval(expr.left)
            before = self.state
            if before is not None:
                self.depth += 1
                self.state = before.copy()
                right = self._eval(expr.right)
                after = self.state
                self.depth -= 1
                self.state = self._join([s for s in (before, after) if s is not None], expr)
                return right
            return None
        if kind is cst.IfExp:
            self._eval(expr.test)
            before = self.state
            if before is None:
                return None
            self.depth += 1
            self.state = before.copy()
            a = self._eval(expr.body)
            s1 = self.state
            self.state = before.copy()
            b = self._eval(expr.orelse)
            s2 = self.state
            self.depth -= 1
            self.state = self._join([s for s in (s1, s2) if s is not None], expr)
            if a is not None and b is not None:
                return a if a is b else self._merged(expr, "<ifexp>", [a, b])
            return None
        if kind is cst.Tuple or kind is cst.List or kind is cst.Set:
            for el in expr.elements:
                self._eval(el.value)
            return None
        if kind is cst.Dict:
            for el in expr.elements:
                if type(el) is cst.DictElement:
                    self._eval(el.key)
                self._eval(el.value)
            return None
        if kind in _COMPREHENSIONS:
            self._comprehension(expr)
            return None
        if kind is cst.NamedExpr:
            val = self._eval(expr.value)
            self._assign(expr.target, val, expr.value)
            return val
        if kind is cst.StarredElement:
            self._eval(expr.value)
            return None
        if kind is cst.Await or kind is cst.Yield:
            inner = getattr(expr, "expression", None) or getattr(expr, "value", None)
            if isinstance(inner, cst.BaseExpression):
                self._eval(inner)
            return None
        if kind is cst.FormattedString:
            for part in expr.parts:
                if type(part) is cst.FormattedStringExpression:
                    self._eval(part.expression)
            return None
        if kind is cst.ConcatenatedString:
            self._eval(expr.left)
            self._eval(expr.right)
            return None
        return None

    def _comparison(self, expr: cst.Comparison) -> None:
        operands = [expr.left, *(c.comparator for c in expr.comparisons)]
        for op in operands:
            self._eval(op)
            if isinstance(op, cst.Attribute) and op.attr.value == "dtype":
                base = self.a._values.get(id(op.value))
                if base is not None:
                    self.a.note_raw(base, expr, "compares its dtype (a typed key has a key dtype)")

    def _subscript(self, expr: cst.Subscript) -> KeyValue | None:
        base = self._eval(expr.value)
        index: cst.BaseExpression | None = None
        is_slice = False
        for el in expr.slice:
            sl = el.slice
            if isinstance(sl, cst.Index):
                self._eval(sl.value)
                index = sl.value
            else:
                is_slice = True
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        self._eval(part)
        if base is None:
            return None
        if len(expr.slice) > 1 or not base.array:
            why = "typed key arrays have no axis of 2" if base.array else "a typed key is a scalar"
            self.a.note_raw(base, expr, f"indexes it ({why})")
            return None
        if is_slice:
            return self._new(expr, self.a.code(expr), base.certain, array=True, raw=base.raw_roots)
        assert index is not None
        literal = _literal_int(index)
        if literal is not None:
            return self._element(base, literal, expr)
        return self._new(expr, self.a.code(expr), base.certain, raw=base.raw_roots)

    def _element_of(
        self, iterable: cst.BaseExpression, target: cst.BaseExpression
    ) -> Callable[[], KeyValue | None] | None:
        it = self.a._values.get(id(iterable))
        if it is None or not it.array:
            return None
        return lambda: self._new(
            target, self.a.code(target), it.certain, raw=it.raw_roots, tag="element"
        )

    def _comprehension(self, expr: cst.BaseComprehension) -> None:
        before = self.state
        if before is None:
            return
        saved_env = dict(before.env)
        comp: cst.CompFor | None = expr.for_in
        fors: list[cst.CompFor] = []
        while comp is not None:
            fors.append(comp)
            comp = comp.inner_for_in
        self._eval(fors[0].iter)
        repeats = any(_repeats(c.iter, self.model) for c in fors)
        element = self._element_of(fors[0].iter, fors[0].target)
        loop = _Loop(expr, "comprehension")
        self.loops.append(loop)
        outer_generation = self.generation
        outs = [before.copy()]
        for i in range(2 if repeats else 1):
            self.generation = (*outer_generation, i)
            if self.state is None:
                break
            self._assign(fors[0].target, element() if element is not None else None, None)
            for j, c in enumerate(fors):
                if j > 0:
                    self._eval(c.iter)
                    self._assign(c.target, None, None)
                for cond in c.ifs:
                    self._eval(cond.test)
            if isinstance(expr, cst.DictComp):
                self._eval(expr.key)
                self._eval(expr.value)
            else:
                self._eval(expr.elt)  # type: ignore[attr-defined]
            if self.state is not None:
                outs.append(self.state.copy())
        self.generation = outer_generation
        self.loops.pop()
        joined = self._join(outs, expr)
        if joined is not None:
            joined.env = saved_env  # comprehension variables do not leak
        self.state = joined

    # -- calls -------------------------------------------------------------------------

    def _call(self, call: cst.Call) -> KeyValue | None:
        func = call.func
        qn = self.model.call_name(call)
        receiver: KeyValue | None = None
        func_kind = type(func)  # exact classes: see ``_eval_inner``
        if func_kind is cst.Attribute:
            receiver = self._eval(func.value)
        elif func_kind is cst.Call:
            self._eval(func)
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]] = []
        for arg in call.args:
            v = self._eval(arg.value)
            inside: list[tuple[cst.BaseExpression, KeyValue]] = []
            if type(arg.value) in _CONTAINERS:
                for el in arg.value.elements:
                    ev = self.a._values.get(id(el.value))
                    if ev is not None:
                        inside.append((el.value, ev))
            args.append((arg, v, inside))
        if self.state is None:
            return None

        # a method of a key: never consumes (reshape, block_until_ready...)
        if receiver is not None and receiver.certain and func_kind is cst.Attribute:
            method = func.attr.value
            if method in _RAW_METHODS:
                self.a.note_raw(receiver, call, "reads its bits")
                return None
            if method in _FORWARDING_METHODS:
                return receiver
            return None

        if qn is not None:
            if qn in SAMPLERS:
                key = _key_arg(call)
                kv = self.a._values.get(id(key)) if key is not None else None
                if key is not None and kv is not None:
                    self._consume(kv, Use(key, call, RANDOM, qn))
                if qn == SPLIT:
                    return self._new(
                        call,
                        self.a.code(call),
                        True,
                        array=True,
                        raw=kv.raw_roots if kv is not None else frozenset(),
                    )
                return None
            if qn in MAKERS:
                raw = frozenset({id(call)}) if qn == LEGACY else frozenset()
                return self._new(call, self.a.code(call), True, raw=raw)
            if qn in DERIVERS:
                key = _key_arg(call)
                kv = self.a._values.get(id(key)) if key is not None else None
                raw = kv.raw_roots if kv is not None else frozenset()
                return self._new(call, self.a.code(call), True, raw=raw)
            if qn in FRESH_KEY_CALLS:
                return self._new(call, self.a.code(call), True)
            if qn in _FORWARDERS:
                first = args[0][1] if args else None
                for arg, _, _ in args:
                    if (
                        arg.keyword is not None
                        and arg.keyword.value == "dtype"
                        and first is not None
                    ):
                        self.a.note_raw(first, call, "converts its bits")
                return first
            if (
                qn.startswith("numpy.")
                or qn in _RAW_BUILTINS
                or qn in _RAW_LAX
                or (qn.startswith("jax.numpy.") and qn not in _SAFE_JNP)
            ):
                for _, v, _ in args:
                    if v is not None and not (v.array and qn in _RAW_BUILTINS):
                        if qn in _SHAPE_READERS and v.array:
                            continue
                        self.a.note_raw(v, call, f"passes its bits to `{self.a.code(func)}`")
        if func_kind is cst.Attribute and func.attr.value == "make_rng":  # type: ignore[attr-defined]
            return self._new(call, self.a.code(call), True)
        if self._is_rngs_stream(func):
            return self._new(call, self.a.code(call), True)

        if qn is not None and (qn.startswith(_NON_CONSUMING_PREFIXES) or qn in _NON_CONSUMING):
            return None
        if qn in ONCE_CALLERS or qn in MAPPERS or qn in LOOP_BODIES:
            self._function_args(call, qn, args)
            # the carry, operands and trees: consumed, as by any function we cannot see
            for arg, v, inside in args:
                if self.a.resolve_function(arg.value) is None:
                    self._consume_arg(call, arg.value, v, inside, CALL)
            return None
        if qn is not None and (qn in TRANSFORMS or qn.startswith("jax.random.")):
            return None

        if self._is_predicate(call):
            return None  # ``assert is_prng_key(key)``: a predicate does not sample
        if self._flax_rngs(call, args):
            return None
        target, skip_first = self._local_target(call)
        if target is not None:
            summary = self.a.summary(target)
            if summary is not None:
                self._apply_summary(call, target, summary, args, skip_first)
                if key_factory(self.a.model, target) is not None:
                    # ``def make_key(): return jax.random.key(0)``: each call, a new key
                    return self._new(call, self.a.code(call), True)
                return None
        imported = self._imported_summary(call)
        if imported is not None:
            self._apply_summary(call, None, imported, args, False)
            return None
        if self._stores(call):
            return None
        weak = self._foreign_init(call, args)
        for arg, v, inside in args:
            self._consume_arg(call, arg.value, v, inside, CALL, weak=weak)
        return None

    def _imported_summary(self, call: cst.Call) -> _Summary | None:
        """What a function of another module of the project consumes, from that module's
        summary (``rand.normal(key, shape)`` where ``rand.normal`` passes ``key`` to
        ``jax.random.normal``); ``None`` when no summary says."""
        project = self.a.project
        func = call.func
        if project is None or type(func) not in (cst.Name, cst.Attribute):
            return None
        if project.in_test_file:
            # a test reuses keys on purpose (two runs compared): as for any function the
            # file cannot see, what the callee does with the key is not used there
            return None
        qn = project.qualified_name(self.model, func)
        if qn is None or qn.startswith(("jax.", "numpy.", "builtins.")):
            return None
        fact = project.function(qn)
        if fact is None or fact.get("transform") or not isinstance(fact.get("params"), list):
            return None
        kinds = fact.get("keys") or {}
        draws = set(fact.get("draws") or ())
        # a parameter it draws from on every call is a certain consumption; one it draws
        # from only on some paths (a branch the call's arguments may never take) is
        # consumed as by any function we cannot see
        params = {
            p: (LOCAL if p in draws else CALL)
            for p, k in kinds.items()
            if isinstance(p, str) and k in (CALL, LOCAL, RANDOM)
        }
        return _Summary(params=params, positional=list(fact["params"]))

    def _foreign_init(
        self,
        call: cst.Call,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> bool:
        """``x = normal(key, ...); model.init(key, x)`` (``init_with_output``,
        ``lazy_init``, ``mclmc.init(x, fn, key)``) where ``model`` is not a class or an
        instance of a class of this file (a module of another package, which may split
        the key or only fold it in) and a draw from the same key flows into the call as
        its example input: the usual way to initialise a model, not two independent
        uses. A foreign ``init`` given only the key consumes it like any call."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in _INIT_METHODS:
            return False
        if self._local_receiver(func.value):
            return False
        keys = {self.a.code(arg.value) for arg, v, _ in args if v is not None}
        return any(
            self._draws_from(value, keys)
            for arg, v, _ in args
            if v is None
            for value in (arg.value, *self._bound_values(arg.value))
        )

    def _bound_values(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The values assigned to the name ``expr`` in its scope (none for other nodes)."""
        if type(expr) is not cst.Name:
            return []
        found = self.model.lookup(expr.value, self.model.scope_for(expr))
        if found is None:
            return []
        values = (self.a.assigned_value(b.node) for b in found[1] if b.kind == "assign")
        return [v for v in values if v is not None]

    def _draws_from(self, expr: cst.BaseExpression, keys: set[str]) -> bool:
        """``expr`` contains a ``jax.random`` call given one of ``keys``."""
        for node in descendants(expr):
            if type(node) is not cst.Call:
                continue
            qn = self.model.call_name(node)
            if (
                qn is not None
                and qn.startswith("jax.random.")
                and any(self.a.code(a.value) in keys for a in node.args)
            ):
                return True
        return False

    def _local_receiver(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is a class of this file, or a name bound to an instance of one."""
        while type(expr) is cst.Call:
            expr = expr.func  # ``Model(...).init``
        if type(expr) is not cst.Name:
            return False  # ``self.model``, ``mod.Model``: nothing this file shows
        found = self.model.lookup(expr.value, self.model.scope_for(expr))
        if found is None:
            return False
        for binding in found[1]:
            if binding.kind == "class":
                return True
            if binding.kind == "assign":
                value = self.a.assigned_value(binding.node)
                if type(value) is cst.Call and self._constructor_class(value.func):
                    return True
        return False

    def _constructor_class(self, func: cst.BaseExpression) -> bool:
        if type(func) is not cst.Name:
            return False
        found = self.model.lookup(func.value, self.model.scope_for(func))
        return found is not None and any(b.kind == "class" for b in found[1])

    def _is_predicate(self, call: cst.Call) -> bool:
        """A call that reads its arguments without drawing from them: its result is a
        truth value (used as a condition: ``assert``, ``if``, ``not``...; or named like
        a predicate: ``is_prng_key``, ``has_rng``), or a copy (``clone``, ``copy``)."""
        if id(call) in self.conditions:
            return True
        func = call.func
        name = func.attr.value if type(func) is cst.Attribute else getattr(func, "value", "")
        if not isinstance(name, str):
            return False
        return name.lstrip("_").startswith(("is_", "has_")) or name in _COPIES

    def _flax_rngs(
        self,
        call: cst.Call,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> bool:
        """Flax's ``module.init(key, x)``/``init_with_output``/``lazy_init`` and the
        ``rngs=`` of ``apply``: Flax derives every stream from these root keys with
        ``random.fold_in`` (``flax/core/scope.py``: ``LazyRng.as_jax_rng`` ->
        ``_fold_in_static``; ``flax/nnx/rnglib.py``), which does not consume them.
        The key arguments are not consumed; other arguments are, as usual."""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return False
        method = func.attr.value
        if method not in _FLAX_RNG_METHODS:
            return False
        if not self.a.uses_flax and self._project_framework(func.value) != "flax.linen":
            return False
        for i, (arg, v, inside) in enumerate(args):
            root = (i == 0 and arg.keyword is None and method != "apply") or (
                arg.keyword is not None and arg.keyword.value == "rngs"
            )
            if not root:
                self._consume_arg(call, arg.value, v, inside, CALL)
        return True

    def _project_framework(self, receiver: cst.BaseExpression) -> str | None:
        """The framework of a model class imported from another module of the project
        (``Model(...).init``, or ``model.init`` with ``model = Model(...)``): a Flax
        module through its bases there, although this file never imports Flax."""
        project = self.a.project
        if project is None:
            return None
        expr = receiver
        if type(expr) is cst.Name:
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is not None and len(found[1]) == 1 and found[1][0].kind == "assign":
                value = self.a.assigned_value(found[1][0].node)
                if type(value) is cst.Call:
                    expr = value
        if type(expr) is not cst.Call:
            return None
        qn = project.qualified_name(self.model, expr.func)
        if qn is None:
            return None
        fact = project.class_(qn)
        return None if fact is None else fact.get("framework")

    def _stores(self, call: cst.Call) -> bool:
        """A constructor that only stores its arguments: a ``namedtuple`` or a class of
        this module without ``__init__`` (a dataclass, a ``NamedTuple``, a struct)."""
        func = call.func
        if type(func) is not cst.Name:
            return False
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1:
            return False
        binding = found[1][0]
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            return not any(
                isinstance(stmt, cst.FunctionDef)
                and stmt.name.value in ("__init__", "__post_init__")
                for stmt in binding.node.body.body
            )
        if binding.kind == "assign":
            value = self.a.assigned_value(binding.node)
            return isinstance(value, cst.Call) and self.model.call_name(value) in _RECORD_FACTORIES
        return False

    def _is_rngs_stream(self, func: cst.BaseExpression) -> bool:
        """``rngs()`` / ``rngs.params()`` on an ``nnx.Rngs``: a fresh key per call."""
        base = func.value if type(func) is cst.Attribute else func
        if type(base) is not cst.Name:
            return False
        if base.value in self.rngs_names:
            return True
        found = self.model.lookup(base.value, self.model.scope_for(base))
        if found is None:
            return False
        for b in found[1]:
            if b.kind == "param" and type(b.node) is cst.Param:
                if _RNGS.search(self.a.annotation(b.node)):
                    return True
        return False

    def _consume_arg(
        self,
        call: cst.Call,
        expr: cst.BaseExpression,
        v: KeyValue | None,
        inside: list[tuple[cst.BaseExpression, KeyValue]],
        kind: str,
        *,
        weak: bool = False,
    ) -> None:
        if v is not None:
            self._consume(v, Use(expr, call, kind, weak=weak))
        for el, ev in inside:
            self._consume(ev, Use(el, call, kind, weak=weak))

    def _local_target(self, call: cst.Call) -> tuple[FunctionNode | None, bool]:
        func = call.func
        init = self._constructor(func)
        if init is not None:
            return init, True
        kind = type(func)  # exact classes: see ``_eval_inner``
        if kind is cst.Call:
            # ``jax.jit(f)(key)``, ``jax.vmap(f)(keys)``
            qn = self.model.call_name(func)
            if qn in TRANSFORMS and func.args and func.args[0].keyword is None:
                return self.a.resolve_function(func.args[0].value), False
            return None, False
        if kind is cst.Name:
            return self.a.resolve_function(func), False
        if kind is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
            return self.a.method(self._method_owner(), func.attr.value), True
        return None, False

    def _constructor(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """``Cls(...)`` for a class of this module with an ``__init__``: that method."""
        if type(func) is not cst.Name:
            return None
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "class":
            return None
        cls = found[1][0].node
        if not isinstance(cls, cst.ClassDef):
            return None
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                return stmt
        return None

    def _method_owner(self) -> FunctionNode | None:
        fn = self.fn
        while fn is not None and id(fn) not in self.a._class_of:
            fn = self.a._parent.get(id(fn))
        return fn

    def _apply_summary(
        self,
        call: cst.Call,
        target: FunctionNode | None,
        summary: _Summary,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
        skip_first: bool,
    ) -> None:
        positional = summary.positional[1:] if skip_first else summary.positional
        i = 0
        for arg, v, inside in args:
            if arg.star:
                if v is not None or inside:
                    self._consume_arg(call, arg.value, v, inside, CALL)
                continue
            if arg.keyword is None:
                pname = positional[i] if i < len(positional) else None
                i += 1
            else:
                pname = arg.keyword.value
            if pname is None:
                if v is not None or inside:
                    self._consume_arg(call, arg.value, v, inside, CALL)
                continue
            kind = summary.params.get(pname)
            if kind is not None:
                self._consume_arg(call, arg.value, v, inside, LOCAL if kind != CALL else CALL)
        self._apply_free(call, summary)
        for name in sorted(summary.advances):
            self.a.stateful_calls.append((call, name, target, self.fn))

    def _apply_free(self, call: cst.Call, summary: _Summary) -> None:
        for name, kind in summary.free.items():
            val = self._lookup(name, None)
            if val is not None:
                kind = LOCAL if kind != CALL else CALL
                self._consume(val, Use(call, call, kind, key_name=name))

    def _function_args(
        self,
        call: cst.Call,
        qn: str,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> None:
        """Functions passed to ``cond``/``switch`` (called once) or to ``tree.map``/``map``
        (called once per leaf): what they consume from this scope."""
        fns: list[FunctionNode] = []
        for arg, _, _ in args:
            fn = self.a.resolve_function(arg.value)
            if fn is not None:
                fns.append(fn)
            elif qn == "jax.lax.switch" and isinstance(arg.value, (cst.List, cst.Tuple)):
                for el in arg.value.elements:
                    f = self.a.resolve_function(el.value)
                    if f is not None:
                        fns.append(f)
        if qn in LOOP_BODIES:
            return  # the body reports what it consumes from outside itself
        if self.state is None:
            return
        once = _Summary()
        for fn in fns:
            summary = self.a.summary(fn)
            if summary is None:
                continue
            if qn in MAPPERS:
                for name, kind in summary.free.items():
                    drawn_by = summary.free_by.get(name)
                    if drawn_by and drawn_by <= INDEX_DRAWS:
                        # ``tree.map(lambda x: permutation(key, x), batch)``: the same
                        # permutation for every leaf keeps the leaves aligned, on purpose
                        continue
                    val = self._lookup(name, None)
                    if val is not None and (kind != CALL or val.certain):
                        kind = LOCAL if kind != CALL else CALL
                        use = Use(call, call, kind, key_name=name)
                        val.uses.append(use)
                        self.a.report(Reuse(val, use, use, "mapped", call, fn, self.fn))
            else:  # one branch runs: what any branch consumes, consumed once
                for name, kind in summary.free.items():
                    once.free[name] = _stronger(once.free.get(name), kind)
        self._apply_free(call, once)


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


def _repeats(iterable: cst.BaseExpression, model: SemanticModel) -> bool:
    """The loop may run its body more than once (not a literal of at most one element,
    not ``range(0)``/``range(1)``)."""
    if isinstance(iterable, (cst.Tuple, cst.List, cst.Set)):
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


SHAPE_ONLY = frozenset({"jax.eval_shape", "jax.make_jaxpr"})
"""Transforms that trace a function only to read shapes or the jaxpr: nothing runs."""
_ONCE_BODIES = ("lax.cond", "lax.switch", "lax.custom_root", "lax.custom_linear_solve")


def compiled_function_of(
    trace: TraceAnalysis, keys: KeyAnalysis, node: cst.CSTNode
) -> TracedFunction | None:
    """The traced function containing ``node`` when JAX compiles it once and runs the
    program again and again: a jit-like (staging) transform other than
    ``eval_shape``/``make_jaxpr``, a ``scan``/``fori_loop``/``while_loop``/``map``
    body (traced once, run every iteration), or a helper or ``cond`` branch of one.
    A Python value computed there (``np.random.rand()``, ``time.time()``) is frozen
    into the program. ``None`` for host code, ``grad``/``vmap`` alone (they trace on
    every call) and shape-only tracing."""
    info = trace.traced_function_of(node)
    found = info
    seen: set[int] = set()
    while info is not None and id(info) not in seen:
        seen.add(id(info))
        if not info.staging:
            return None
        if info.transforms:
            return None if info.transforms <= SHAPE_ONLY else found
        if keys.loop_body_of(info.node) is not None:
            return found
        if info.caller is not None:
            info = info.caller
        elif any(body in info.verb for body in _ONCE_BODIES):
            info = trace.traced_function_of(info.site)  # a branch: compiled if its caller is
        else:
            return None
    return None
