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
consumption: a parameter called ``rng`` may be a NumPy generator. But a function of
this module that hands a parameter (or a name of an enclosing function) unchanged to
an unknown function says so in its summary (``_Summary.passes``/``free_passes``): a
caller that passes a certain key consumes it there as by that unknown function
(``Use.through``), and doing so on every iteration of a loop that never rebinds the
key is a reuse (nothing on the way derives a key per step). A Haiku transformed
function of this module (``f = hk.transform(g)``) is known: ``f.init(rng, ...)``
draws from its key (``LOCAL``), ``f.apply(params, rng, ...)`` may (``CALL``).

Keys held on attributes (``self.rng``, ``state.key``) are walked like variables once
they are clearly keys, and forgotten where they may be reassigned
(:mod:`jaxlint.analysis.key_attrs`). A method that draws from ``self.<attr>`` as it
finds it, where only a constructor assigns the attribute, draws the same bits on
every call (``Reuse.how == "attr"``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.flags import constant_flags, decided_if
from jaxlint.analysis.key_attrs import CONSTRUCTORS, ClassAttrs, dotted
from jaxlint.analysis.key_calls import SELECTS
from jaxlint.analysis.key_purpose import (
    _CONDITION_NODES,
    _PAIRED_DRAWS,
    _SCOPE_NODES,
    _SHAPE_SLOTS,
    _draw_args,
    _OwnFacts,
    _PurposeIndex,
    callee_name,
)
from jaxlint.analysis.key_templates import may_have_templates
from jaxlint.analysis.key_values import (
    CALL,
    DERIVERS,
    DRAWS_FROM_ITS_KEY,
    INERT_SPLIT,
    KEY_TAKERS,
    LEGACY,
    LIBRARY_SPLITTERS,
    LOCAL,
    LOOP_BODIES,
    RANDOM,
    READERS,
    SPLIT,
    SPLITS_ITS_KEY,
    FunctionNode,
    KeyValue,
    RawUse,
    Reuse,
    Use,
    _annotation,
    _body_args,
    _code,
    _key_arg,
    _target_names,
    is_key_name,
    key_factory,
    repeats,
)
from jaxlint.analysis.key_walk import _Walker
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.testcode import is_test_function
from jaxlint.analysis.tracing import TraceAnalysis, TracedFunction

if TYPE_CHECKING:
    from jaxlint.analysis.key_values import LineOf, _Summary
    from jaxlint.analysis.project import ProjectFacts

__all__ = [
    "CALL",
    "DERIVERS",
    "DRAWS_FROM_ITS_KEY",
    "INERT_SPLIT",
    "FunctionNode",
    "KeyAnalysis",
    "KeyValue",
    "LEGACY",
    "LIBRARY_SPLITTERS",
    "LOCAL",
    "RANDOM",
    "READERS",
    "Reuse",
    "SPLIT",
    "SPLITS_ITS_KEY",
    "Use",
    "compiled_function_of",
    "is_key_name",
    "key_factory",
    "repeats",
]


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
        self._unpacked: dict[int, tuple[cst.BaseExpression, int]] = {}
        """``a, b = value``: each target name (``id``) -> (value, its position)."""
        self.uses_flax = bool(model.module_imports("flax"))
        self.templates = may_have_templates(model)
        """The module spells a restore function that takes a template (key_templates.py)."""
        """The module imports Flax: ``x.init(key, ...)`` is a Flax module's init."""
        self._module_env: dict[str, KeyValue] = {}
        self._module_walker: _Walker | None = None
        self._flags: dict[str, bool] | None = None
        self._defs: list[FunctionNode] = []
        self._parent: dict[int, FunctionNode | None] = {}
        self._class_of: dict[int, cst.ClassDef] = {}
        self._loop_bodies: dict[int, tuple[str, cst.Call]] = {}
        self._module_facts = _OwnFacts()
        self._select_calls: dict[int, list[cst.Call]] = {}
        """Per function (``id``): its ``where``/``select`` calls (``_selects``)."""
        self._own_facts: dict[int, _OwnFacts] = {}
        """Per function (``id``): what its own nodes say, gathered by ``_collect``."""
        self._codes: dict[int, str] = {}
        self._annotations: dict[int, str] = {}
        self._class_attrs: dict[int, ClassAttrs] = {}
        self._outside_assigned: set[str] = set()
        """Attributes assigned on objects other than ``self`` (``agent.rng = ...``)."""
        self._method_calls: dict[str, bool] = {}
        """Method name -> whether every call of it in the file is on an object built by
        the call's own receiver expression (``Maker(key=k).draw()``)."""
        self._purpose: dict[int, _PurposeIndex] = {}
        """Per function with a reuse (``id``, ``id(None)`` for the module): what its
        statements compute from what, built when a rule asks whether a reuse is deliberate."""
        self._collect()
        self._run()

    # -- public queries ----------------------------------------------------------------

    def test_truth(self, test: cst.BaseExpression) -> bool | None:
        """The truth of an ``if`` test the module decides: ``if False:`` (code switched off
        by hand: generax's ``misc/vi/cnf.py``, fresh-2026-12s) or a module flag bound once
        (:mod:`jaxlint.analysis.flags`); its other branch never runs."""
        if self._flags is None:
            self._flags = constant_flags(self.model)
        return decided_if(self.model, self._flags, test)

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
        return self.in_test_function(reuse.fn) and all(
            self._expected(index, use.call, (first.call, second.call))
            for use in (reuse.first, reuse.second)
        )

    @staticmethod
    def _expected(index: _PurposeIndex, call: cst.Call, draws: tuple[int, int]) -> bool:
        """In a test, the draw ``call`` is written inside the expected side of an assertion
        (``assertEqual(sample(seed), normal(k1) + normal(k2))``), whose other side holds
        neither draw: the test recomputes, with the same keys, what the code under test
        drew, and it fails unless that code drew the same way."""
        for sides in index.comparisons:
            holds = [id(call) in calls for _, calls in sides]
            if any(holds) and not any(
                not held and not set(draws).isdisjoint(calls)
                for held, (_, calls) in zip(holds, sides, strict=True)
            ):
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
        return self.model.function_of_name(name)  # type: ignore[return-value]

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

    def inverse_pair(self, reuse: Reuse) -> bool:
        """A random transform and its inverse given one key: the inverse must replay the
        transform's draws, so it takes the same key on purpose (fedjax:
        ``structured_rotation_pytree(params, rng)`` then
        ``inverse_structured_rotation_pytree(..., rng)``). Told by the user's names: one
        callee is the other's name with ``inverse_``/``inv_``/``undo_`` before it or
        ``_inverse``/``_inv`` after it."""
        a, b = callee_name(reuse.first.call.func), callee_name(reuse.second.call.func)
        return a is not None and b is not None and (_inverse(a, b) or _inverse(b, a))

    def exclusive(self, reuse: Reuse) -> bool:
        """The two draws feed the two alternatives of one ``jnp.where``/``lax.select``,
        so each position keeps one of them, never both: the second is made in one
        alternative and the first is made in the other, or is kept, through names, only
        there (``z = normal(key, s)`` then ``where(c, exponential_approx(key, ...), rate +
        sqrt(rate) * z)``), or both are kept, through names, each only in its own
        alternative (``a = switch(i, fns, tree, key)``, ``b = tree + normal(key)``, then
        ``out = lax.select(c, b, a)``; reading ``out`` afterwards reads the selection). The
        walk already treats two alternatives that are both calls as branches
        (``key_calls._select``); this covers the others. Not when the two draws are the
        same function with the same arguments: the alternatives are then equal and the
        ``where`` selects nothing (``where(mask, noise, normal(key, s))`` is ``noise``),
        which is not what the code says."""
        first, second = reuse.first, reuse.second
        if first is second or reuse.how != "again" or self.draws_compared(reuse) == "same":
            return False
        other = self._other_alternative(second.call, reuse.fn)
        if other is not None:
            return self._kept_only_in(first.call, other, None, reuse.fn)
        for select in self._selects(reuse.fn):
            alternatives = _alternatives(select, self.model)
            for mine in alternatives:
                if not self._kept_only_in(first.call, mine, select, reuse.fn):
                    continue
                for theirs in alternatives:
                    if theirs is not mine and self._kept_only_in(
                        second.call, theirs, select, reuse.fn
                    ):
                        return True
        return False

    def _selects(self, fn: FunctionNode | None) -> list[cst.Call]:
        """The ``where(c, a, b)``/``lax.select`` calls of a function's body (all
        positional), found once per function."""
        got = self._select_calls.get(id(fn))
        if got is None:
            got = self._select_calls[id(fn)] = [
                node
                for node in self._body(fn)
                if type(node) is cst.Call and len(_alternatives(node, self.model)) > 1
            ]
        return got

    def _body(self, fn: FunctionNode | None) -> list[cst.CSTNode]:
        model = self.model
        return (
            model.body_nodes(fn)
            if fn is not None
            else [n for n, entering in model.events if entering]
        )

    def _kept_only_in(
        self,
        call: cst.Call,
        alternative: cst.BaseExpression,
        select: cst.Call | None,
        fn: FunctionNode | None,
    ) -> bool:
        """``call`` is made in ``alternative``, or its result is only assigned, through
        names, and read nowhere but there. With ``select`` (the ``where`` itself, when it
        is the value of an assignment), a name that assignment binds again is, after it,
        the selection's result, not the draw's."""
        model = self.model
        if model.inside(call, alternative):
            return True
        reach = self._purpose_index(fn).results(call, stop=select)
        if reach is None or not reach.names:
            return False  # the draw's result is not only assigned
        holder = _statement_part(select, model.parents) if select is not None else None
        selection = holder[1] if holder is not None and type(holder[1]) is cst.Assign else None
        rebound: set[str] = set()
        for node in self._body(fn):
            if node is selection:
                rebound = {
                    n for t in selection.targets for n in _target_names(t.target)
                } & reach.names
                continue
            if type(node) is not cst.Name or node.value not in reach.names:
                continue
            if model.inside(node, alternative):
                continue
            if selection is not None and model.inside(node, selection):
                if any(model.inside(node, t) for t in selection.targets):
                    continue  # bound by the selection, not read
                return False  # read in the other alternative or the condition
            if node.value in rebound:
                continue  # the selection's result, bound to the draw's old name
            holder = _statement_part(node, model.parents)
            if holder is None:
                return False
            part, statement = holder
            if type(statement) is not cst.Assign:
                return False
            if any(part is t for t in statement.targets):
                continue  # assigned, not read
            if part is statement.value and all(
                type(t.target) is cst.Name and t.target.value in reach.names
                for t in statement.targets
            ):
                continue  # read into another name that is kept the same way
            return False
        return True

    def _other_alternative(
        self, call: cst.Call, fn: FunctionNode | None
    ) -> cst.BaseExpression | None:
        """When ``call`` lies in one alternative of ``where(c, a, b)`` (all positional):
        the other alternative."""
        parents = self.model.parents
        node = parents.get(id(call))
        while node is not None and node is not fn:
            kind = type(node)
            if kind in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
                return None
            if kind is cst.Arg:
                select = parents.get(id(node))
                if (
                    type(select) is cst.Call
                    and len(select.args) == 3
                    and not any(a.keyword or a.star for a in select.args)
                    and self.model.call_name(select) in SELECTS
                ):
                    if node is select.args[1]:
                        return select.args[2].value
                    if node is select.args[2]:
                        return select.args[1].value
            node = parents.get(id(node))
        return None

    def draws_compared(self, reuse: Reuse) -> str | None:
        """How two ``jax.random`` draws of one key relate: ``same`` (the same function
        and arguments: equal values), ``prefix`` (the same function, only the shape
        differs: the smaller repeats the start of the larger), ``split`` (``split(key)``
        after ``split(key, n)``, or the reverse: the same first keys), ``bernoulli-normal``,
        ``bernoulli-uniform`` and ``normal-uniform`` (one decides the other position by
        position, see :func:`_decided`), ``other`` (the same bits through different
        functions or arguments); ``None`` unless both uses are ``jax.random`` draws."""
        first, second = reuse.first, reuse.second
        if first.kind != RANDOM or second.kind != RANDOM or first is second:
            return None
        if first.qualname != second.qualname:
            return _decided(first, second) or "other"
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
                    self._note_attribute_target(t.target)
                if len(node.targets) == 1 and type(node.value) is cst.Lambda:
                    self._lambdas[id(node.targets[0].target)] = node.value
                if len(node.targets) == 1 and type(node.targets[0].target) is cst.Tuple:
                    for i, el in enumerate(node.targets[0].target.elements):
                        self._unpacked[id(el.value)] = (node.value, i)
            elif kind is cst.Call:
                func = node.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute:
                    method = func.attr.value
                    fresh = type(func.value) is cst.Call
                    self._method_calls[method] = self._method_calls.get(method, True) and fresh
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
                        elif type(arg) is cst.Attribute:
                            path = dotted(arg)
                            if path is not None:
                                facts.evidence.add(path)  # ``self.rng``: see key_attrs
                    facts.note_condition(node)
            elif facts is not None and kind in _CONDITION_NODES:
                facts.note_condition(node)

    def _note_attribute_target(self, target: cst.BaseExpression) -> None:
        """``obj.rng = ...`` on an object other than ``self``: code outside the class
        may give its objects new keys."""
        kind = type(target)
        if kind is cst.Tuple or kind is cst.List:
            for el in target.elements:  # type: ignore[attr-defined]
                self._note_attribute_target(el.value)
        elif kind is cst.Attribute:
            base = target.value  # type: ignore[attr-defined]
            if type(base) is not cst.Name or base.value != "self":
                self._outside_assigned.add(target.attr.value)  # type: ignore[attr-defined]

    def resolve_function(self, expr: cst.BaseExpression) -> FunctionNode | None:
        """The function of this module that ``expr`` names (a lambda, a local ``def``)."""
        if type(expr) is cst.Lambda:
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

    def unpacked_from(self, target: cst.CSTNode) -> tuple[cst.BaseExpression, int] | None:
        """``(value, i)`` when ``target`` is the ``i``-th name of ``a, b = value``."""
        return self._unpacked.get(id(target))

    def assigned_value(self, target: cst.CSTNode) -> cst.BaseExpression | None:
        """The value of ``target = value`` (``target`` is the bound ``Name``)."""
        return self._assigned.get(id(target))

    def class_of(self, fn: FunctionNode | None) -> cst.ClassDef | None:
        """The class whose method ``fn`` is (``None`` for other functions)."""
        return self._class_of.get(id(fn)) if fn is not None else None

    def class_attrs(self, cls: cst.ClassDef) -> ClassAttrs:
        """What ``cls`` says about its ``self.<attr>`` keys (built on first ask)."""
        got = self._class_attrs.get(id(cls))
        if got is None:
            project = self.project
            class_of = project.class_ if project is not None else None
            got = self._class_attrs[id(cls)] = ClassAttrs(cls, self.model, class_of)
        return got

    def _attr_reports(self, fn: FunctionNode, draws: list[tuple[KeyValue, Use]]) -> None:
        """A method that draws from ``self.<attr>`` as it finds it (not reassigned before
        in the method) where no method of the file's classes but a constructor assigns
        that attribute: every call of the method draws the same bits (a key stored on
        an object, or an Equinox module's key field, is the same key on every call)."""
        cls = self._class_of.get(id(fn))
        if cls is None or not isinstance(fn, cst.FunctionDef):
            return
        if fn.name.value in CONSTRUCTORS or self.in_test_function(fn):
            return
        params = fn.params.params
        if not params or params[0].name.value != "self":
            return
        for dec in fn.decorators:
            d = dec.decorator
            name = d.attr.value if type(d) is cst.Attribute else getattr(d, "value", "")
            if name in ("staticmethod", "classmethod"):
                return
        own = self.class_attrs(cls)
        if own.opaque_outside_constructors() or not own.bases_known():
            return
        classes = {id(c): c for c in self._class_of.values()}
        reused = {id(r.value) for r in self.reuses}
        done: set[str] = set()
        for val, use in draws:
            attr = val.name.split(".", 1)[1]
            if val.name in done or id(val) in reused or "." in attr:
                continue
            if attr in self._outside_assigned:
                continue  # ``agent.rng = ...`` somewhere in the file: a new key from outside
            done.add(val.name)
            if any(
                self.class_attrs(c).refreshed_outside_constructors(attr) for c in classes.values()
            ):
                continue
            if self._method_calls.get(fn.name.value, False):
                continue  # called only as ``Maker(key=k).draw()``: a new object each time
            self.report(Reuse(val, use, use, "attr", None, None, fn))

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
        if walker.attr_draws:
            self._attr_reports(fn, walker.attr_draws)
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


def _alternatives(call: cst.Call, model: SemanticModel) -> list[cst.BaseExpression]:
    """What a selection keeps one of at every position: ``a`` and ``b`` of
    ``where(c, a, b)``/``lax.select(c, a, b)`` (all positional), the choices and the
    default of ``jnp.select([c1, c2], [a, b], default)`` (checked on JAX 0.12: each
    position takes the first choice whose condition holds, else the default)."""
    args = call.args
    if any(a.star for a in args):
        return []
    qn = model.call_name(call)
    if qn in SELECTS:
        if len(args) == 3 and not any(a.keyword for a in args):
            return [args[1].value, args[2].value]
        return []
    if qn not in ("jax.numpy.select", "numpy.select"):
        return []
    positional = [a.value for a in args if a.keyword is None]
    keyword = {a.keyword.value: a.value for a in args if a.keyword is not None}
    choices = positional[1] if len(positional) > 1 else keyword.get("choicelist")
    default = positional[2] if len(positional) > 2 else keyword.get("default")
    if type(choices) not in (cst.List, cst.Tuple):
        return []
    found = [el.value for el in choices.elements]  # type: ignore[union-attr]
    return found + [default] if default is not None else found


def _inverse(name: str, of: str) -> bool:
    """``name`` says it is the inverse of ``of`` (``inverse_rotate`` of ``rotate``)."""
    stem = of.lstrip("_")
    bare = name.lstrip("_")
    return bool(stem) and (
        any(bare == f"{p}{stem}" for p in ("inverse_", "inv_", "undo_"))
        or any(bare == f"{stem}{s}" for s in ("_inverse", "_inv"))
    )


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


_DECIDED = {
    "jax.random.bernoulli": {"p"},
    "jax.random.uniform": set(),
    "jax.random.normal": set(),
}
"""The samplers whose values one bit pattern decides position by position, and the
keywords each may have besides its key and shape (no ``dtype``, ``minval``, ``maxval`` or
``mode``: those change the values' bits or scale)."""
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _decided(first: Use, second: Use) -> str | None:
    """``bernoulli-normal``, ``bernoulli-uniform`` or ``normal-uniform`` when both draws
    use the same shape, written the same way, and no other argument but ``bernoulli``'s
    ``p`` as a number literal: then ``bernoulli(key, p, s)`` is exactly ``uniform(key, s) <
    p`` and ``normal(key, s) < norm.ppf(p)``, and ``normal(key, s)`` is an increasing
    function of ``uniform(key, s)`` at every position, for every PRNG implementation,
    with and without x64 (``tests/test_prng_runtime.py``). A ``p`` array of another
    float dtype (``float16``) draws other bits, so it is left out."""
    shapes = []
    for use in (first, second):
        extra = _DECIDED.get(use.qualname or "")
        if extra is None:
            return None
        slots = _SHAPE_SLOTS.get(use.qualname or "", {"1", "shape"})
        args = _draw_args(use.call)
        shape = []
        for i, (keyword, value) in enumerate(args[1:], start=1):
            if keyword in slots or (not keyword and str(i) in slots):
                shape.append(value)
                continue
            name = keyword or ("p" if i == 1 else "")  # ``bernoulli(key, 0.3, s)``
            if name not in extra or not _NUMBER.fullmatch(value):
                return None
        if len(shape) != 1:
            return None
        shapes.append(shape[0])
    if shapes[0] != shapes[1]:
        return None
    return "-".join(sorted((use.qualname or "").rsplit(".", 1)[-1] for use in (first, second)))


def _statement_part(
    node: cst.CSTNode, parents: dict[int, cst.CSTNode]
) -> tuple[cst.CSTNode, cst.CSTNode] | None:
    """The small statement holding ``node`` and its child on the way (a target or the
    value of an assignment)."""
    child, current = node, parents.get(id(node))
    while current is not None:
        if isinstance(current, cst.BaseSmallStatement) or isinstance(
            current, cst.BaseCompoundStatement
        ):
            return child, current
        child, current = current, parents.get(id(current))
    return None
