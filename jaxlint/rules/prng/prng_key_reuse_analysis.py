"""PrngKeyReuse's analysis: the helper methods and tables of the rule in `prng_key_reuse.py`,
kept apart from its docs and examples (a mixin of the rule class)."""

from __future__ import annotations

import re

import libcst as cst

from jaxlint.analysis.cases import configurations
from jaxlint.analysis.key_checker import KeyChecker
from jaxlint.analysis.key_purpose import (
    sibling_unused,
    stacked,
    stages_of_one_step,
    unread_target,
    unused_result,
)
from jaxlint.analysis.key_values import layer_family
from jaxlint.analysis.keys import (
    CALL,
    DRAWS_FROM_ITS_KEY,
    INERT_SPLIT,
    LIBRARY_SPLITTERS,
    LOCAL,
    RANDOM,
    SPLIT,
    SPLITS_ITS_KEY,
    Reuse,
    Use,
)
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.testcode import is_test_function, self_test_block
from jaxlint.analysis.walk import descendants
from jaxlint.rules.prng.helpers import line

_LOOP_WORDS = {"loop": "loop", "comprehension": "comprehension"}


def _program(body: str, imports: str = "") -> str:
    """A complete program that switches JAX's key-reuse checker on first."""
    return f'import jax\n{imports}\njax.config.update("jax_debug_key_reuse", True)\n\n\n{body}'


def _repeats_one_case(reuse: Reuse, model: SemanticModel) -> bool:
    """``for i in range(n): f(key, ...)`` where the call never reads ``i``: a repetition
    loop (not a loop over cases) that gives every iteration the same key and the same
    arguments."""
    loop = reuse.loop
    if type(loop) is not cst.For or type(loop.iter) is not cst.Call:
        return False
    if model.call_name(loop.iter) != "builtins.range":
        return False  # resolved, so a shadowed ``range`` is not the builtin
    targets = {n.value for n in _names(loop.target)}
    return not any(n.value in targets for n in _names(reuse.second.call))


def _names(node: cst.CSTNode) -> list[cst.Name]:
    return [n for n in descendants(node) if type(n) is cst.Name]


_PASSES_ON = ("jax.numpy.",)
"""Array operations: given a key, they never draw from it but may pass it on
(``jnp.where(done, new_key, key)``), and JAX's key-reuse checker
(``jax_debug_key_reuse``) counts the key as consumed there, as it does any argument of
a compiled function. Not the tree and lax functions that call a function (``tree.map``,
``lax.scan``, ``lax.cond``): that function may draw."""
_PASSES_ON_LAX = frozenset(
    f"jax.lax.{name}"
    for name in ("select", "select_n", "stop_gradient", "dynamic_slice", "dynamic_index_in_dim")
)
_CALLS_A_FUNCTION = frozenset(
    f"jax.numpy.{name}"
    for name in ("apply_along_axis", "apply_over_axes", "piecewise", "vectorize", "frompyfunc")
)


def _passes_on(use: Use, model: SemanticModel) -> bool:
    qn = model.call_name(use.call) if use.kind == CALL else None
    if qn is None or qn in _CALLS_A_FUNCTION:
        return False
    return qn.startswith(_PASSES_ON) or qn in _PASSES_ON_LAX


def _by(use: Use, model: SemanticModel) -> str:
    if use.qualname == SPLIT and model.call_name(use.call) != SPLIT:
        return f"by `{use.by}` (whose body splits it)"  # a loop primitive's carry
    if _passes_on(use, model):
        return (
            f"by `{use.by}` (which does not draw from it but can pass it on, and which"
            " `jax_debug_key_reuse` counts as consuming it)"
        )
    if use.kind == CALL and use.passed_to is not None:
        return f"by `{use.by}` (which passes it on to `{use.passed_to}`, which may draw from it)"
    if use.kind == CALL:
        return f"by `{use.by}` (which receives it and may draw from it)"
    if use.kind == LOCAL and use.splits_key:
        return f"by `{use.by}` (which splits it)"
    if use.kind == LOCAL:
        return f"by `{use.by}` (which draws from it)"
    return f"by `{use.by}`"


_REUSE_WORDS = re.compile(
    r"\b(?:re-?us(?:e|es|ed|ing)|same (?:rng|key|seed|prng|subkey))\b", re.IGNORECASE
)
_INTENT_WORDS = re.compile(
    r"\b(?:as|because|since|so that|on purpose|intentional(?:ly)?|deliberate(?:ly)?"
    r"|by design|hacky|fine|safe|reproducib\w*)\b",
    re.IGNORECASE,
)
"""A comment that says a key is used again and why (``# Use the same rng as events are
mutually exclusive``, ``# NOTE: This is hacky because we reuse the seed``): both a word of
reuse and a word of intent, so that ``# the same key again: b == a``, which names the
bug, does not silence it."""


_WARM_UP = re.compile(
    r"(?:^|_)(?:pre)?compile(?:$|_)|warm_?up.*(?:jit|compil)|(?:jit|compil).*warm_?up",
    re.IGNORECASE,
)
"""A function named for compiling (``compile``, ``precompile``, ``_compile_steps``,
``jit_warmup``, ``warm_up_compilation``): it runs the code once with placeholder inputs so
that JAX compiles it, and throws the outputs away (envrax's ``VecEnv.compile`` resets and
steps with ``jax.random.key(0)``). A bare ``warmup`` is not enough: in RL it is the phase
that fills a replay buffer with random actions, whose draws matter."""


def _awaits(model: SemanticModel, parent: cst.CSTNode | None, node: cst.CSTNode) -> bool:
    """``parent`` only waits for ``node``: ``node.block_until_ready`` (through attributes:
    ``out.field.block_until_ready``) or ``jax.block_until_ready(node)``."""
    while type(parent) is cst.Attribute and parent.value is node:
        if parent.attr.value == "block_until_ready":
            return True
        node, parent = parent, model.parents.get(id(parent))
    return (
        type(parent) is cst.Arg
        and type(model.parents.get(id(parent))) is cst.Call
        and model.call_name(model.parents[id(parent)]) == "jax.block_until_ready"
    )


_METADATA = frozenset({"shape", "ndim", "dtype", "size"})


def _reads_metadata(model: SemanticModel, parents: dict, node: cst.CSTNode) -> bool:
    """``node.shape`` (``ndim``, ``dtype``, ``size``) or ``len(node)``."""
    parent = parents.get(id(node))
    if type(parent) is cst.Attribute and parent.value is node:
        return parent.attr.value in _METADATA
    if type(parent) is cst.Arg and parent.value is node:
        call = parents.get(id(parent))
        return type(call) is cst.Call and model.call_name(call) == "builtins.len"
    return False


def _own_draws_only(use: Use) -> bool:
    """A sampler that draws from the key itself (``normal``, ``uniform``...), or a
    function of this file whose body only draws from the key with such samplers
    (``generate_components(key)`` calling ``normal(key, ...)``): a ``split`` of the key
    returns keys whose draws are not correlated with it (measured on JAX 0.12)."""
    if use.draws_from_key:
        return True
    return (
        use.kind in (CALL, LOCAL)
        and use.through is None
        and bool(use.draws)
        and all(d in DRAWS_FROM_ITS_KEY for d in use.draws)
    )


def _splits_only(use: Use) -> bool:
    """``split``, a sampler that splits its key itself (``randint``, ``permutation``...),
    or a function of this file whose body consumes the key only that way."""
    if use.splits_key:
        return True
    splits = SPLITS_ITS_KEY | {SPLIT}
    return (
        use.kind in (CALL, LOCAL)
        and use.through is None
        and bool(use.draws)
        and all(d in splits for d in use.draws)
    )


class PrngKeyReuseChecks:
    """The analysis behind :class:`PrngKeyReuse`."""

    def _findings(self) -> list[Reuse]:
        """The reuses JAX301 and JAX306 report between them: definite, not deliberate
        (compared, aligned, an inverse pair, exclusive alternatives, commented), and
        within the test-code policy."""
        keys = self.ctx.keys
        out = []
        for reuse in keys.reuses:
            if (
                not reuse.definite
                or keys.compared(reuse)
                or keys.aligned(reuse)
                or keys.inverse_pair(reuse)
                or keys.exclusive(reuse)
            ):
                continue
            if self._test_code(reuse) and not self._reported_in_tests(reuse):
                continue
            if reuse.split_unused and not self._checker_on(reuse):
                continue  # no key of the split is read there: nothing shares the draw's bits
            if self._commented_on_purpose(reuse) or "dummy" in self._name(reuse).lower():
                continue  # the author says so, or names the key a placeholder
            if type(reuse.fn) is cst.FunctionDef and _WARM_UP.search(reuse.fn.name.value):
                continue  # ``def compile(self)``: draws made only to trigger compilation
            if reuse.how == "again" and any(
                self._only_awaited(use, reuse.fn) for use in (reuse.first, reuse.second)
            ):
                continue  # a run made to compile or to time: its draws are never used
            if (
                reuse.how == "again"
                and any(unused_result(self.ctx.model, u) for u in (reuse.first, reuse.second))
                and not self._checker_on(reuse)
            ):
                continue  # a smoke run whose value is thrown away: its draws reach nothing
            if (
                reuse.how == "again"
                and any(self._only_metadata(u, reuse.fn) for u in (reuse.first, reuse.second))
                and self._split_key_unused(reuse) is None
            ):
                continue  # only a shape read from one: unless a split key was meant there
            if reuse.how == "again" and self._stages_of_one_step(reuse):
                continue  # ``k2 = f(x + dt / 2 * k1, key)``: one noise held over a step
            if all(self._runs_a_test(u) for u in (reuse.first, reuse.second)):
                continue  # ``test_a(); test_b()`` under ``__main__``: each test on its own
            if reuse.how in _LOOP_WORDS and self._configurations_compared(reuse):
                continue  # each configuration built or run from the same key, on purpose
            out.append(reuse)
        return out

    def _only_metadata(self, use: Use, fn: cst.FunctionDef | cst.Lambda | None) -> bool:
        """Only the shape of the consuming call's result is read, at once, and the result
        is never kept: ``f(key).shape`` (or ``.ndim``, ``.dtype``, ``.size``,
        ``len(f(key))``; vpet-abc's ``sample_prior(key, 1).shape[-1]``, the number of
        parameters): the values drawn reach nothing. A result bound to a name counts as
        used (a test's inputs, whose assertions may read only their shapes)."""
        del fn
        model = self.ctx.model
        return _reads_metadata(model, model.parents, use.call)

    def _runs_a_test(self, use: Use) -> bool:
        """``use`` calls a test function of this module (``test_prepare()``, as a test
        file's ``if __name__ == "__main__":`` block runs its tests by hand): each test
        builds its own fixtures from the module's key, as it does under pytest, and no
        value of one test meets another's (jxpinn's ``KEY``, fresh-2026-12o)."""
        func = use.call.func
        if type(func) is not cst.Name:
            return False
        found = self.ctx.model.lookup(func.value, self.ctx.model.scope_for(func))
        if not found or len(found[1]) != 1 or found[1][0].kind != "def":
            return False
        fn = found[1][0].node
        return type(fn) is cst.FunctionDef and is_test_function(fn) and not fn.params.params

    def _configurations_compared(self, reuse: Reuse) -> bool:
        """``for name, cfg in CONFIGS: run(key, **cfg)``: a loop over configurations
        (:func:`jaxlint.analysis.cases.configurations`) that gives the same key to a
        function building or running each one, with the configuration: every run
        starts from the same random state, so the runs differ only by their
        configuration, the controlled comparison such a loop makes (xwm's examples
        compare masking presets and collapse strategies "on identical data and
        architecture"). A key drawn from directly (``normal(key, shape)`` for each layer
        size) is still reported."""
        loop, use = reuse.loop, reuse.second
        if use.kind == RANDOM or not configurations(loop, self.ctx.model):
            return False
        if isinstance(loop, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            loop = loop.for_in
        targets = {n.value for n in _names(loop.target)}  # type: ignore[union-attr]
        return any(n.value in targets for n in _names(use.call))

    def _only_awaited(self, use: Use, fn: cst.FunctionDef | cst.Lambda | None) -> bool:
        """The result of the consuming call is only waited for, never read: the call is
        ``f(key).block_until_ready()`` or ``jax.block_until_ready(f(key))`` on its own
        line, or ``out = f(key)`` where ``out`` is only waited for until it is bound again
        (a warm-up run that compiles, then a timed run: morphix's benchmark). Its draws
        can correlate with nothing that is used."""
        model = self.ctx.model
        parents = model.parents
        node: cst.CSTNode = use.call
        parent = parents.get(id(node))
        if _awaits(model, parent, node):
            holder = parents.get(id(parent))
            if type(holder) is cst.Attribute:  # ``f(key).block_until_ready()``
                holder = parents.get(id(holder))
            return type(parents.get(id(holder))) is cst.Expr
        if type(parent) is not cst.Assign or len(parent.targets) != 1:
            return False
        target = parent.targets[0].target
        if type(target) is not cst.Name:
            return False
        body = model.body_nodes(fn) if fn is not None else [n for n, e in model.events if e]
        start = next((i for i, n in enumerate(body) if n is target), None)
        if start is None:
            return False
        waited = False
        for n in body[start + 1 :]:
            if type(n) is not cst.Name or n.value != target.value:
                continue
            up = parents.get(id(n))
            if type(up) is cst.AssignTarget:
                return waited  # bound again: the first result was never read
            if not _awaits(model, up, n):
                return False
            waited = True
        return waited

    def _report_reuses(self, contract: bool) -> None:
        """Report the reuses of :meth:`_findings` that share no bits (``contract``,
        JAX306) or the others (JAX301)."""
        text = self.ctx.text
        if (
            "random" not in text
            and "rng" not in text
            and not ("key=" in text and "equinox" in text)
        ):
            return  # no sampler, no key stream, no Equinox layer given a key (``key=k``)
        for reuse in self._findings():
            if self._contract_only(reuse) == contract:
                self.report(reuse.second.arg, key=self._name(reuse), detail=self._detail(reuse))

    def _contract_only(self, reuse: Reuse) -> bool:
        """The pair breaks JAX's contract (a key used once) but no value shares random
        bits with another on JAX 0.12 (measured: tests/test_prng_split_runtime.py): a key
        drawn from by a sampler that draws from the key itself (``normal``, ``uniform``,
        ``bernoulli``...) and split, by ``split`` or by a sampler that splits its key
        itself (``randint``, ``choice``, ``permutation``), with every key the split made
        used. JAX306 reports these; JAX301 the pairs whose values share bits."""
        first, second = reuse.first, reuse.second
        if INERT_SPLIT in first.draws or INERT_SPLIT in second.draws:
            return True  # a loop that splits the key and draws from none of the keys
        if reuse.array is not None:
            return (_own_draws_only(first) and _splits_only(second)) or (
                _splits_only(first) and _own_draws_only(second)
            )
        if reuse.how == "stored-split":
            return _own_draws_only(first) and self._split_key_unused(reuse) is None
        if reuse.how != "again":
            return False
        model = self.ctx.model
        families = [layer_family(model.call_name(u.call)) for u in (first, second)]
        if all(families) and families[0] != families[1]:
            # two Equinox layers that split one key their own ways (``MLP`` and ``Linear``):
            # each draws from keys of the split only after splitting them again, or
            # directly, and no draw of one meets a draw of the other
            return True
        if SPLIT in (first.qualname, second.qualname):
            draw = second if first.qualname == SPLIT else first
            return _own_draws_only(draw) and self._split_key_unused(reuse) is None
        # (``None``: a function of this file that only splits, jax-moseq's
        # ``sample_invwishart``, and a draw from the key itself)
        return reuse.split_and_own_draw and self.ctx.keys.draws_compared(reuse) in ("other", None)

    def _commented_on_purpose(self, reuse: Reuse) -> bool:
        """A comment in the paragraph of either use (its line and the lines above it up
        to a blank line, at most 30) says the key is used again on purpose: the author
        knows, and says why (``# Use the same rng as events are mutually exclusive``
        above a run of draws)."""
        from jaxlint.engine import split_lines  # the engine imports the rules

        text = self.__dict__.get("_lines")
        if text is None:
            text = self.__dict__["_lines"] = split_lines(self.ctx.text)
        for use in (reuse.first, reuse.second):
            at = line(self, use.arg if use.arg is not None else use.call) - 1
            for row in range(at, max(-1, at - 30), -1):
                if row >= len(text) or not text[row].strip():
                    break
                comment = text[row].partition("#")[2]
                if comment and _REUSE_WORDS.search(comment) and _INTENT_WORDS.search(comment):
                    return True
        return False

    def _test_code(self, reuse: Reuse) -> bool:
        return (
            self.ctx.is_test_file
            or self.ctx.keys.in_test_function(reuse.fn)
            or self_test_block(
                self.ctx.project.module.name if self.ctx.project is not None else None,
                self.ctx.model,
                reuse.second.call,
            )
        )

    def _reported_in_tests(self, reuse: Reuse) -> bool:
        """In test code: a key also given to a function the file cannot see (the code
        under test) is not reported, nor a method that draws from ``self.<attr>`` on every
        call (each test runs once on its own object), nor a loop whose iterations each draw
        their own case from one key (each iteration is a test case of its own); draws
        that are used together as different data are, and so is a ``for ... in
        range(n)`` loop whose consuming call does not read the loop variable: every
        iteration then repeats the same "random" case."""
        if reuse.how == "attr":
            return False  # each test builds its object (``setUp``) and runs once
        fn = reuse.fn
        if type(fn) is cst.FunctionDef and any(
            p.name.value == "doctest_namespace" for p in fn.params.params
        ):
            return False  # a doctest fixture: example values for the docs, not test inputs
        if reuse.second.through is not None:
            return False  # handed on to the code under test, which the file cannot see
        if reuse.how == "loop" and _repeats_one_case(reuse, self.ctx.model):
            return True
        if CALL in (reuse.first.kind, reuse.second.kind):
            return False
        if self._checker_on(reuse):
            return True  # JAX raises KeyReuseError: the test fails
        if reuse.how == "loop":
            return self.ctx.keys.collected(reuse.second.call, reuse.fn)
        if reuse.how == "again" and not reuse.split_and_own_draw:
            # two draws (or splits) of one key as a test's inputs: they share values, but
            # what a test asserts rarely depends on its inputs being independent (3 of 185
            # such findings in test files were bugs in the held-out reads, all stacked
            # data: docs/precision/test-code.md). Reported when they make one dataset (the
            # columns of ``jnp.stack([rate, prob])`` are then dependent) or a key split
            # with the reused one is never used (the one meant for the second draw)
            return self._sibling_unused(reuse) is not None or self._stacked(reuse)
        # a key drawn from and split: the split keys' draws are not correlated with the
        # draw (measured on JAX 0.12), so the test's data are as independent as it means
        # them to be; only ``jax_debug_key_reuse`` objects. Unless a key the split made
        # is never used: then the draw most likely took the key where that one was meant
        # (``key1, key2 = split(key)``, ``bernoulli(key1)``, ``uniform(key)``)
        return not reuse.split_and_own_draw or self._split_key_unused(reuse) is not None

    def _stages_of_one_step(self, reuse: Reuse) -> bool:
        return stages_of_one_step(self.ctx.model, reuse)

    def _checker_on(self, reuse: Reuse) -> bool:
        """JAX's key-reuse checker is on where the second use runs (the module switches it
        on, or a ``with jax.debug_key_reuse(True):`` holds it)."""
        checker: KeyChecker | None = getattr(self, "_key_checker", None)
        if checker is None:
            checker = KeyChecker(self.ctx.model, self.ctx.text)
            self._key_checker = checker
        return checker.on_at(reuse.second.call)

    def _sibling_unused(self, reuse: Reuse) -> str | None:
        return sibling_unused(self.ctx.model, reuse)

    def _stacked(self, reuse: Reuse) -> bool:
        return stacked(self.ctx.model, reuse)

    def _split_key_unused(self, reuse: Reuse) -> str | None:
        """The ``split`` of the pair is unpacked into names (``k1, k2 = split(key)``) and one
        of them (not ``_``-named) is never read in the function: that name."""
        use = reuse.first if reuse.first.qualname == SPLIT else reuse.second
        return unread_target(self.ctx.model, reuse.fn, self.ctx.model.parents.get(id(use.call)))

    def _name(self, reuse: Reuse) -> str:
        arg = reuse.second.arg
        if reuse.array is not None:  # ``keys[0]``, not the array the map was given
            alone = reuse.second if reuse.mapped_first else reuse.first
            return " ".join(self.ctx.code(alone.arg).split())
        if reuse.second.key_name is not None:  # consumed by a function that closes over it
            return reuse.second.key_name
        if isinstance(arg, cst.Call):
            return reuse.value.name
        return " ".join(self.ctx.code(arg).split())

    def _detail(self, reuse: Reuse) -> str:
        first, second = reuse.first, reuse.second
        where = line(self, second.arg)
        if reuse.array is not None:
            return self._element_detail(reuse)
        if reuse.how == "again":
            sibling = self._sibling_unused(reuse) if not reuse.split_and_own_draw else None
            advice = (
                f"`{sibling}`, split with it, is never used: was it meant for `{second.by}`?"
                if sibling is not None
                else "split it (`k1, k2 = jax.random.split(key)`) and use each key once"
            )
            return (
                f"is consumed {_by(first, self.ctx.model)} at line {line(self, first.arg)} and again"
                f" {_by(second, self.ctx.model)} at line {where}: {self._why(reuse)}; {advice}"
            )
        if reuse.how in _LOOP_WORDS:
            assert reuse.loop is not None
            by, same = f"`{second.by}`", "every iteration draws the same random bits"
            if second.passed_to is not None:
                by += f" (which passes it on to `{second.passed_to}`, which may draw from it)"
                same = f"if it draws, {same}"
            return (
                f"is consumed by {by} at line {where} on every iteration of the"
                f" {_LOOP_WORDS[reuse.how]} at line {line(self, reuse.loop)} and never rebound:"
                f" {same}; split it in the loop"
                " (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`"
            )
        if reuse.how == "attr":
            method = reuse.fn.name.value if isinstance(reuse.fn, cst.FunctionDef) else "?"
            return (
                f"is consumed {_by(second, self.ctx.model)} at line {where} in `{method}`, and no method but"
                " the constructor assigns it: it is the same key on every call of"
                f" `{method}`, which draws the same random bits each time; split it and store"
                f" the new key (`{self._name(reuse)}, sub = jax.random.split({self._name(reuse)})`)"
                " or take a key argument"
            )
        assert reuse.loop is not None and reuse.body is not None
        body = reuse.body
        fn = body.name.value if isinstance(body, cst.FunctionDef) else "<lambda>"
        prim = self.ctx.code(reuse.loop.func) if isinstance(reuse.loop, cst.Call) else "?"
        if reuse.how == "stored-split":
            unused = self._split_key_unused(reuse)
            tail = (
                f"`{unused}`, split from it, is never used: was it meant for `{first.by}`?"
                f" ({_rejects(reuse, 'a key both drawn from and split')})"
                if unused is not None
                else _draw_and_split(first, _raw(reuse))
            )
            return (
                f"is consumed {_by(first, self.ctx.model)} at line {line(self, first.arg)} and"
                f" returned in the carry of `{fn}`, the body of"
                f" `lax.{prim.split('.')[-1]}` at line {line(self, reuse.loop)}, whose next"
                f" iteration splits it at line {line(self, reuse.second.arg)}: {tail}"
            )
        if reuse.how == "stored":
            return (
                f"is consumed {_by(first, self.ctx.model)} at line {line(self, first.arg)} and returned"
                f" unchanged in the carry of `{fn}`, the body of `lax.{prim.split('.')[-1]}`"
                f" at line {line(self, reuse.loop)}: the next iteration draws the same"
                " random bits; split it and return the new key"
                " (`key, sub = jax.random.split(key)`)"
            )
        if reuse.how == "mapped":
            return self._mapped(reuse, fn, prim)
        prim = prim.split(".")[-1]
        return (
            f"is captured by `{fn}`, the body of `lax.{prim}` at line"
            f" {line(self, reuse.loop)}, and consumed by `{second.by}` at line {where} on every"
            " iteration; thread the key through the carry and split it there, or use"
            " `jax.random.fold_in(key, i)`"
        )

    def _element_detail(self, reuse: Reuse) -> str:
        """``keys[0]`` consumed on its own, and ``keys`` mapped over (``jax.vmap(f)(keys)``):
        the mapped call for ``keys[0]`` gets the same key."""
        first, second = reuse.first, reuse.second
        mapped, alone = (first, second) if reuse.mapped_first else (second, first)
        element, array = self.ctx.code(alone.arg), self.ctx.code(mapped.arg)
        index = reuse.value.name.rpartition("[")[2].rstrip("]")
        verb = "scans" if self.ctx.model.call_name(mapped.call) == "jax.lax.scan" else "maps"
        if self._contract_only(reuse):
            relation = (
                "draws values not correlated with it on JAX 0.12, but `jax_debug_key_reuse`"
                " rejects the pair"
            )
        else:
            relation = "draws from the same random bits"
        step = f"its step for `{element}` {relation}"
        if mapped.kind == CALL and not mapped.draws:
            step = f"if it draws, {step}"
        advice = f"give it `{array}[1:]`" if index == "0" else f"give it keys without `{element}`"
        return (
            f"is consumed {_by(alone, self.ctx.model)} at line {line(self, alone.arg)}, and"
            f" `{mapped.by}` at line {line(self, mapped.arg)} {verb} over every key of"
            f" `{array}`, `{element}` included: {step}; {advice}, or split one key more"
        )

    def _mapped(self, reuse: Reuse, fn: str, prim: str) -> str:
        """A function mapped over a tree (or a sequence) draws from one key it closes over."""
        call = reuse.loop
        assert isinstance(call, cst.Call) and reuse.body is not None
        if fn == "<lambda>":
            first = call.args[0].value if call.args else None
            fn = first.value if type(first) is cst.Name else fn  # ``tree_map(noise_, tree)``
        drawn = f"is drawn from by `{fn}` (line {line(self, reuse.body)})"
        if self.ctx.model.call_name(call) == "builtins.map":
            return (
                f"{drawn}, which `{prim}` at line {line(self, call)} calls once for every"
                " element: every element gets the same random bits; split it into one key"
                " per element"
            )
        return (
            f"{drawn}, which `{prim}` at line {line(self, call)} calls once for every leaf"
            " of the tree: the key is reused for every leaf, so every leaf draws the same"
            " random bits (identical noise on leaves of the same shape); split it into one"
            " key per leaf (`jax.random.split(key, len(leaves))`, then `jax.tree.unflatten`)"
        )

    def _why(self, reuse: Reuse) -> str:
        """The shortest true consequence, as sure as the evidence."""
        inert = next((u for u in (reuse.first, reuse.second) if INERT_SPLIT in u.draws), None)
        if inert is not None:
            return (
                f"the body of `{inert.by}` splits it but draws from none of the keys it splits"
                f" off, so no value comes from it; {_rejects(reuse, 'the pair')}"
            )
        relation = self.ctx.keys.draws_compared(reuse)
        model = self.ctx.model
        layers = [model.call_name(u.call) in LIBRARY_SPLITTERS for u in (reuse.first, reuse.second)]
        families = {layer_family(model.call_name(u.call)) for u in (reuse.first, reuse.second)}
        if all(layers) and len(families) > 1:
            return (
                "both split it, each its own way, so on JAX 0.12 no value of one shares bits"
                f" with the other; {_rejects(reuse, 'a key used twice')}"
            )
        if relation == "same" and all(layers):
            return "both calls have the same arguments, so they build identical values"
        if relation == "split" and any(layers):
            return "both split it the same way, so what they draw comes from the same keys"
        if relation == "same" and reuse.first.qualname == SPLIT:
            return "both calls have the same arguments, so they return the same keys"
        if relation == "same":
            return "the same function with the same arguments, so the two draws are identical"
        if relation == "prefix":
            return (
                "only the shape differs, so the smaller draw repeats the first values of the"
                " larger one"
            )
        if relation == "split":
            return "both splits return the same first keys"
        if relation in _DECIDED:
            return _decided_why(relation, reuse)
        if relation == "other" and SPLIT in (reuse.first.qualname, reuse.second.qualname):
            draw = reuse.second if reuse.first.qualname == SPLIT else reuse.first
            unused = self._split_key_unused(reuse) if draw.draws_from_key else None
            if unused is not None:
                return (
                    f"`{unused}`, split from it, is never used: was it meant for `{draw.by}`?"
                    f" ({_rejects(reuse, 'a key both drawn from and split')})"
                )
            return _draw_and_split(draw, _raw(reuse))
        splits = SPLIT in (reuse.first.qualname, reuse.second.qualname)
        if (relation == "other" or (relation is None and not splits)) and reuse.split_and_own_draw:
            splitter, draw = (
                (reuse.first, reuse.second)
                if reuse.first.splits_key
                else (reuse.second, reuse.first)
            )
            return (
                f"{_rejects(reuse, 'the pair')} (`{splitter.by}` splits its key"
                f" itself and `{draw.by}` draws from the key itself, so on JAX 0.12 the two"
                " are not correlated, but JAX promises independence only to keys used once)"
            )
        if relation == "other":
            return "both draws come from the same random bits, so they are correlated"
        if SPLIT in (reuse.first.qualname, reuse.second.qualname):
            draw = reuse.second if reuse.first.qualname == SPLIT else reuse.first
            if _own_draws_only(draw):  # a function of this file that draws from the key
                samplers = ", ".join(f"`{d.rsplit('.', 1)[-1]}`" for d in sorted(draw.draws))
                return (
                    f"{_rejects(reuse, 'a key both drawn from and split')} (`{draw.by}`"
                    f" draws from the key itself, with {samplers}, so on JAX 0.12 the split"
                    " keys' draws are not correlated with it, but JAX promises independence"
                    " only to keys used once)"
                )
        model = self.ctx.model
        if _passes_on(reuse.first, model) or _passes_on(reuse.second, model):
            return (
                "if the key it passes on is drawn from, that draw reuses the random bits of"
                " the other use"
            )
        if CALL in (reuse.first.kind, reuse.second.kind):
            if SPLIT in (reuse.first.qualname, reuse.second.qualname):
                return (
                    f"if it draws from the key, {_rejects(reuse, 'the pair')}; if it"
                    " splits it, both splits return the same first keys"
                )
            return "if it draws, both draws come from the same random bits"
        return "both draw from the same random bits, so the results are correlated"


_DECIDED = frozenset({"bernoulli-normal", "bernoulli-uniform", "normal-uniform"})


def _decided_why(relation: str, reuse: Reuse) -> str:
    """Two samplers that turn the same random bits into values position by position, so
    that one draw decides the other (measured on JAX 0.12: ``tests/test_prng_runtime.py``)."""
    by = {(u.qualname or "").rsplit(".", 1)[-1]: u.by for u in (reuse.first, reuse.second)}
    if relation == "normal-uniform":
        return (
            f"each value of `{by['normal']}` is an increasing function of the value of"
            f" `{by['uniform']}` at the same position (the same random bits), so the two"
            " draws are not independent"
        )
    other = "uniform" if relation == "bernoulli-uniform" else "normal"
    bern = reuse.first if reuse.first.qualname == "jax.random.bernoulli" else reuse.second
    p = "0.5"  # bernoulli's default
    for i, arg in enumerate(bern.call.args):
        if (arg.keyword is None and i == 1) or (
            arg.keyword is not None and arg.keyword.value == "p"
        ):
            p = cst.Module([]).code_for_node(arg.value)  # a number literal (``_decided``)
    threshold = p if other == "uniform" else f"norm.ppf({p})"
    return (
        f"`{by['bernoulli']}` is exactly `{by[other]}(...) < {threshold}` at every position"
        " (the same random bits), so one draw decides the other"
    )


def _raw(reuse: Reuse) -> bool:
    """The key is raw ``uint32`` data made by ``PRNGKey`` (checked on JAX 0.12:
    ``jax_debug_key_reuse`` tracks typed keys only, so it accepts a raw key used twice)."""
    return bool(reuse.value.raw_roots)


def _rejects(reuse: Reuse | bool, what: str) -> str:
    """What JAX's key-reuse checker says of ``what``: for a raw ``PRNGKey`` it says
    nothing, so the message says which keys it checks."""
    raw = reuse if isinstance(reuse, bool) else _raw(reuse)
    if raw:
        return (
            f"for a typed key (`jax.random.key`), `jax_debug_key_reuse` rejects {what}; it"
            " does not check this raw `PRNGKey`"
        )
    return f"`jax_debug_key_reuse` rejects {what}"


def _draw_and_split(draw: Use, raw: bool = False) -> str:
    """A draw and a split of one key: what the split's keys share with the draw, as
    measured on JAX 0.12 (``tests/test_prng_split_runtime.py``)."""
    rejects = _rejects(raw, "a key both drawn from and split")
    if draw.draws_from_key:
        # measured on JAX 0.12: draws from the keys split off a key are not correlated
        # with a draw from the key itself, for every PRNG implementation
        return (
            f"{rejects} (`{draw.by}` draws from the key itself, so on JAX 0.12 the split"
            " keys' draws are not correlated with it, but JAX promises independence only"
            " to keys used once)"
        )
    if draw.qualname in SPLITS_ITS_KEY:
        return (
            f"`{draw.by}` splits its key itself, so the split returns the keys it draws"
            f" with ({rejects})"
        )
    return f"{rejects}; if `{draw.by}` splits its key itself, the split returns keys it draws with"
