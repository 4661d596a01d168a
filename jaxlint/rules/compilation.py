"""JAX4xx: recompilation and wasted compilation.

``jax.jit`` caches a compiled program on the identity of the function it wraps (and
on the static arguments, shapes and dtypes of a call). Code that builds a new
function to jit on every loop iteration or every call misses that cache and traces
and compiles again; code that rebuilds the wrapper around the same function hits
the cache but loses JAX's fast C++ dispatch path. Static arguments must be
hashable, ``self`` is not an array, and a donated argument's buffers are deleted
by the call. Each claim is checked on jax 0.12 (CPU): see the runtime-truth
examples and tests/test_compilation_runtime.py.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import Binding, Scope, SemanticModel
from jaxlint.analysis.tracing import _literal_ints, _literal_strs, positional_params
from jaxlint.analysis.transforms import (
    ARRAY_ATTRIBUTES,
    PARTIAL,
    STATIC_ATTRIBUTES,
    TRANSFORMS,
)
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixFactory, FixOp, ReplaceNode, Rule

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

# Transforms that compile and cache what they compile on the wrapped function.
_COMPILING = frozenset(
    {
        "jax.jit",
        "jax.experimental.pjit.pjit",
        "jax.pmap",
        "flax.nnx.jit",
        "equinox.filter_jit",
        "equinox.filter_pmap",
    }
)
# Transforms that take ``static_argnums``/``donate_argnums`` and hash the static ones.
_ARGNUM_TRANSFORMS = frozenset(q for q in _COMPILING if TRANSFORMS[q].has_static_args)
_PLAIN_JIT = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
_CACHING_DECORATORS = frozenset(
    {"functools.cache", "functools.lru_cache", "functools.cached_property"}
)
_RUN_ONCE = frozenset(
    {"main", "setUp", "setUpClass", "setUpModule", "setup_method", "setup_class", "setup"}
)
"""Functions that run once per program or test: re-jitting there costs one compile."""
_HOST_CALLS = frozenset(
    {
        "jax.device_get",
        "numpy.asarray",
        "numpy.array",
        "builtins.float",
        "builtins.int",
        "builtins.bool",
        "builtins.print",
        "jax.block_until_ready",
    }
)
_LAX_LOOPS = frozenset({"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map"})
_SETUP_PREFIXES = ("init", "setup", "set_up", "create", "build", "make")
"""Initialisers and builders (``initialized``, ``setup_initial_state``): run once per model."""
_HARMLESS_CLASS_DECORATORS = frozenset(
    {"dataclasses.dataclass", "functools.total_ordering", "typing.final"}
)
_NUMPY_ARRAY_MAKERS = frozenset(
    {
        "numpy.array",
        "numpy.asarray",
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "numpy.arange",
        "numpy.linspace",
    }
)
_SCOPE_NODES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _short(text: str, limit: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def _dotted(expr: cst.BaseExpression) -> str | None:
    """``self.fn`` -> "self.fn"; ``None`` for anything but names and attributes."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr.value}"
    return None


# -- a per-file index shared by the rules of this module -----------------------------------


class _Index:
    """Parents, event spans and every name used, for one module (built from the model's
    events on first use: many files only ever ask ``jitted_call``)."""

    def __init__(self, model: SemanticModel) -> None:
        self.events = model.events
        self.assigned = model.assigned
        """``name = value``: id of the target ``Name`` -> value."""
        self.jitted: dict[int, _Jitted | None] = {}
        """``_Queries.jitted_call`` of each call asked about (JAX404 and JAX405 ask for
        every call of the module)."""
        self._parent: dict[int, cst.CSTNode] | None = None
        self._start: dict[int, int] = {}
        self._end: dict[int, int] = {}
        self._names: set[str] = set()

    @property
    def parent(self) -> dict[int, cst.CSTNode]:
        if self._parent is None:
            self._build()
        assert self._parent is not None
        return self._parent

    @property
    def start(self) -> dict[int, int]:
        """id(node) -> the index of its entering event in ``model.events``."""
        if self._parent is None:
            self._build()
        return self._start

    @property
    def end(self) -> dict[int, int]:
        """id(node) -> the index of its leaving event."""
        if self._parent is None:
            self._build()
        return self._end

    @property
    def names(self) -> set[str]:
        if self._parent is None:
            self._build()
        return self._names

    def _build(self) -> None:
        # One pass over every event of the module: locals instead of attribute lookups,
        # and ``type(node) is`` (libcst's concrete node classes have no subclasses)
        # instead of ``isinstance``, which goes through ABCMeta for libcst classes.
        parent: dict[int, cst.CSTNode] = {}
        start = self._start
        end = self._end
        add_name = self._names.add
        name_cls = cst.Name
        stack: list[cst.CSTNode] = []
        push = stack.append
        pop = stack.pop
        for i, (node, entering) in enumerate(self.events):
            if entering:
                key = id(node)
                if stack:
                    parent.setdefault(key, stack[-1])
                start[key] = i
                push(node)
                if type(node) is name_cls:
                    add_name(node.value)
            else:
                pop()
                end[id(node)] = i
        self._parent = parent

    def inside(self, node: cst.CSTNode, container: cst.CSTNode) -> bool:
        inner = self.start.get(id(node))
        outer = self.start.get(id(container))
        if inner is None or outer is None:
            return False
        return outer < inner <= self.end[id(container)]

    def nodes_in(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        """Every node under ``node`` (entering events), in walk order."""
        key = id(node)
        first, last = self.start[key], self.end[key]
        for i in range(first + 1, last):
            child, entering = self.events[i]
            if entering:
                yield child

    def ancestors(self, node: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, cst.CSTNode]]:
        """``(child, parent)`` pairs from ``node`` up to the module."""
        get_parent = self.parent.get
        child = node
        parent = get_parent(id(child))
        while parent is not None:
            yield child, parent
            child = parent
            parent = get_parent(id(child))


_INDEXES: weakref.WeakKeyDictionary[SemanticModel, _Index] = weakref.WeakKeyDictionary()


@dataclass
class _Jitted:
    """What a call site calls: a function wrapped by a transform with ``*_argnums``."""

    transform: str
    options: dict[str, cst.BaseExpression]
    fn: cst.FunctionDef | cst.Lambda | None
    bound: int = 0
    """Positional parameters bound by ``functools.partial``."""
    bound_keywords: frozenset[str] = frozenset()
    method: bool = False
    """Called as ``self.m(...)``: the first parameter is bound."""

    def params(self) -> list[str] | None:
        if self.fn is None:
            return None
        return positional_params(self.fn)[self.bound :]

    def chosen(self, nums_keys: Sequence[str], names_key: str) -> set[str | int] | None:
        """The parameters named by ``*_argnums``/``*_argnames``: names where the function
        is known, else positions; ``None`` when an option is not a literal."""
        nums: list[int] = []
        for key in nums_keys:
            got = _literal_ints(self.options.get(key))
            if got is None:
                return None
            nums.extend(got)
        names = _literal_strs(self.options.get(names_key))
        if names is None:
            return None
        params = self.params()
        out: set[str | int] = set(names)
        for n in nums:
            if params is None:
                if n >= 0:
                    out.add(n)
                continue
            idx = n if n >= 0 else len(params) + n
            if 0 <= idx < len(params):
                out.add(params[idx])
        return out

    def argument_params(self, call: cst.Call) -> Iterator[tuple[cst.Arg, str | int]]:
        """Each argument of ``call`` with the parameter (name, else position) it binds."""
        params = self.params()
        shift = 1 if self.method else 0
        i = 0
        for arg in call.args:
            if arg.star:
                if arg.star == "*":
                    return  # positions after ``*args`` are unknown
                continue
            if arg.keyword is not None:
                yield arg, arg.keyword.value
                continue
            pos = i + shift
            i += 1
            if params is None:
                yield arg, pos
            elif pos < len(params):
                yield arg, params[pos]


class _Queries:
    """Common queries of the JAX4xx rules (a mixin: the registry takes every Rule
    subclass of this module for a rule)."""

    ctx: FileContext
    _index: tuple[SemanticModel, _Index] | None = None
    """This rule's last index (asked for ~100k times a file: skips the weak dict)."""

    @property
    def index(self) -> _Index:
        model = self.ctx.model
        mine = self._index
        if mine is not None and mine[0] is model:
            return mine[1]
        found = _INDEXES.get(model)
        if found is None:
            found = _Index(model)
            _INDEXES[model] = found
        self._index = (model, found)
        return found

    def wrapper(
        self, call: cst.Call, kinds: frozenset[str] = _COMPILING
    ) -> tuple[str, cst.BaseExpression] | None:
        """``jax.jit(f, ...)``: the transform's qualified name and the wrapped callable."""
        positional = _positional(call)
        if not positional:
            return None
        found = self.ctx.trace.transform_of(call.func)
        if found is None or found[0].qualname not in kinds:
            return None
        return found[0].qualname, positional[0].value

    def bindings(self, name: cst.Name) -> tuple[Scope, list[Binding]] | None:
        model = self.ctx.model
        return model.lookup(name.value, model.scope_for(name))

    def function_scope(self, node: cst.CSTNode) -> tuple[cst.CSTNode | None, bool]:
        """The innermost ``def`` (or ``None`` for the module) whose code evaluates
        ``node``, and whether a loop or comprehension of that code contains it."""
        looped = False
        for child, parent in self.index.ancestors(node):
            if isinstance(parent, cst.Lambda):
                return parent, looped
            if isinstance(parent, cst.FunctionDef):
                if child is parent.body:
                    return parent, looped
                continue  # decorators, defaults: evaluated by the enclosing code
            if isinstance(parent, cst.ClassDef) and child is parent.body:
                return parent, looped
            if isinstance(parent, (cst.For, cst.While)) and child is parent.body:
                looped = True
            if isinstance(parent, _COMPREHENSIONS):
                looped = True
        return None, looped

    def loops_around(self, node: cst.CSTNode) -> list[cst.For | cst.While]:
        """The loops whose body evaluates ``node``, innermost first, in the same scope.
        Empty when a comprehension or a nested scope comes first."""
        loops: list[cst.For | cst.While] = []
        for child, parent in self.index.ancestors(node):
            if isinstance(parent, (cst.Module, *_SCOPE_NODES, *_COMPREHENSIONS)):
                if isinstance(parent, _COMPREHENSIONS):
                    return []
                break
            if isinstance(parent, (cst.For, cst.While)) and child is parent.body:
                loops.append(parent)
        return loops

    def enclosing_class(self, fn: cst.CSTNode) -> cst.ClassDef | None:
        parents = self.index.parent
        parent = parents.get(id(fn))
        if type(parent) is cst.IndentedBlock:
            grand = parents.get(id(parent))
            if type(grand) is cst.ClassDef:
                return grand
        return None

    def enclosing_def(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        # called for most calls: a plain loop over the parents with ``type() is`` tests
        # (concrete libcst classes have no subclasses) rather than ``isinstance``
        get_parent = self.index.parent.get
        parent = get_parent(id(node))
        while parent is not None:
            if type(parent) is cst.FunctionDef:
                return parent
            if type(parent) is cst.Lambda or type(parent) is cst.ClassDef:
                return None
            parent = get_parent(id(parent))
        return None

    def bound_method(self, expr: cst.BaseExpression, within: cst.CSTNode | None) -> str | None:
        """``self.m`` where ``m`` is a method of the class of the enclosing method: a new
        bound-method object each time it is evaluated."""
        if not (
            type(expr) is cst.Attribute
            and type(expr.value) is cst.Name
            and type(within) is cst.FunctionDef
        ):
            return None
        # the first positional parameter, without building the list of all of them
        params = within.params
        first = params.posonly_params or params.params
        if not first or expr.value.value != first[0].name.value:
            return None
        cls = self.enclosing_class(within)
        if cls is None or any(
            self.ctx.model.qualified_name(d.decorator) in ("builtins.staticmethod",)
            for d in within.decorators
        ):
            return None
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == expr.attr.value:
                if any(
                    self.ctx.model.qualified_name(d.decorator)
                    in ("builtins.staticmethod", "builtins.property", "functools.cached_property")
                    for d in stmt.decorators
                ):
                    return None
                return f"{expr.value.value}.{expr.attr.value}"
        return None

    def jitted_call(self, call: cst.Call) -> _Jitted | None:
        """The wrapped function a call calls, when this module shows its ``jit``
        (shared by the rules: the callers only read it)."""
        cache = self.index.jitted
        key = id(call)
        if key in cache:
            return cache[key]
        found = cache[key] = self._jitted_call(call)
        return found

    def _jitted_call(self, call: cst.Call) -> _Jitted | None:
        func = call.func
        # ``type() is`` tests (concrete libcst classes have no subclasses): ``isinstance``
        # goes through ABCMeta, and this runs for every call
        if type(func) is cst.Call:
            return self._from_wrapper(func)
        if type(func) is cst.Name:
            found = self.bindings(func)
            if found is None or len(found[1]) != 1:
                return None
            binding = found[1][0]
            if binding.kind == "def" and type(binding.node) is cst.FunctionDef:
                return self._from_decorated(binding.node, method=False)
            if binding.kind == "assign":
                value = self.index.assigned.get(id(binding.node))
                if type(value) is cst.Call:
                    return self._from_wrapper(value)
            return None
        if type(func) is cst.Attribute and type(func.value) is cst.Name:
            if self.ctx.model.qualified_name(func.value) is not None:
                return None  # ``jnp.sum(x)``: an import, not the method's first parameter
            within = self.enclosing_def(call)
            if within is None or self.bound_method(func, within) is None:
                return None
            cls = self.enclosing_class(within)
            assert cls is not None
            for stmt in cls.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == func.attr.value:
                    return self._from_decorated(stmt, method=True)
        return None

    def _from_wrapper(self, wrapper: cst.Call) -> _Jitted | None:
        found = self.wrapper(wrapper, _ARGNUM_TRANSFORMS)
        if found is None:
            return None
        transform, fexpr = found
        got = self.ctx.trace.transform_of(wrapper.func)
        assert got is not None
        options = {**got[1]}
        for arg in wrapper.args:
            if arg.keyword is not None:
                options[arg.keyword.value] = arg.value
        resolved = self.ctx.trace.resolve_callable(fexpr)
        if resolved is None:
            return _Jitted(transform, options, None)
        fn, bound, bound_kw = resolved
        return _Jitted(transform, options, fn, bound, bound_kw)

    def _from_decorated(self, fn: cst.FunctionDef, method: bool) -> _Jitted | None:
        if not fn.decorators:
            return None
        got = self.ctx.trace.transform_of(fn.decorators[0].decorator)
        if got is None or got[0].qualname not in _ARGNUM_TRANSFORMS:
            return None
        return _Jitted(got[0].qualname, dict(got[1]), fn, method=method)

    def runs_once(self, fn: cst.FunctionDef) -> bool:
        """A test, ``main`` or set-up function: it runs once, so one compile is all it costs."""
        name = fn.name.value
        return name.startswith("test") or name in _RUN_ONCE

    def caches_result(self, fn: cst.FunctionDef) -> bool:
        model = self.ctx.model
        for dec in fn.decorators:
            expr = dec.decorator
            if isinstance(expr, cst.Call):
                expr = expr.func
            if model.qualified_name(expr) in _CACHING_DECORATORS:
                return True
        return False

    def ahead_of_time(self, wrapper: cst.Call) -> bool:
        """``jax.jit(f).lower(...)``, ``.trace(...)``: explicit ahead-of-time staging,
        done on purpose (benchmarks, inspection)."""
        parent = self.index.parent.get(id(wrapper))
        return isinstance(parent, cst.Attribute) and parent.value is wrapper

    def staged(self, node: cst.CSTNode) -> bool:
        """``node`` runs while an outer ``jit`` traces: an inner wrapper is traced inline."""
        info = self.ctx.trace.traced_function_of(node)
        return info is not None and info.staging


# -- source text helpers for fixes ---------------------------------------------------------


def _reindented(statement: str, old: str, new: str) -> str:
    """A statement's continuation lines moved from indentation ``old`` to ``new``.

    Inside brackets indentation means nothing to Python, so this is cosmetic; it is
    skipped where a line's leading space could be string content (a triple-quoted
    string, or a backslash continuation, which may be inside a string).
    """
    lines = statement.splitlines(keepends=True)
    if len(lines) < 2 or '"""' in statement or "'''" in statement:
        return statement
    if any(line.rstrip("\r\n").endswith("\\") for line in lines[:-1]):
        return statement
    if not all(line.startswith(old) or not line.strip() for line in lines[1:]):
        return statement
    rest = [new + line[len(old) :] if line.strip() else line for line in lines[1:]]
    return lines[0] + "".join(rest)


class _Text:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.text = ctx.text
        starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                starts.append(i + 1)
        self.starts = starts

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column

    def range(self, node: cst.CSTNode) -> tuple[int, int]:
        rng = self.ctx.positions[node]
        return (
            self.offset(rng.start.line, rng.start.column),
            self.offset(rng.end.line, rng.end.column),
        )

    def line_end(self, offset: int) -> int:
        """The offset of the end of the physical line containing ``offset`` (before \\n)."""
        end = self.text.find("\n", offset)
        end = len(self.text) if end < 0 else end
        if end > 0 and self.text[end - 1] == "\r":
            end -= 1
        return end


# -- JAX401 -----------------------------------------------------------------------------------


class _Callable:
    """How the wrapped callable behaves from one evaluation to the next."""

    FRESH = "fresh"
    STABLE = "stable"
    UNKNOWN = "unknown"


_EXAMPLES_JAX401 = Examples(Path(__file__).parent / "compilation" / "jit_in_loop.py")


class JitInLoop(_Queries, Rule):
    code = "JAX401"
    name = "jit-in-loop"
    message = "`{wrapper}` is built inside the loop at line {loop_line}: {consequence}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile --loop FILE.py:FUNC --steps 3"
    docs = """\
## What it does
Flags a compiling transform (`jax.jit`, `jax.pmap`, `pjit`, `flax.nnx.jit`,
`equinox.filter_jit`, `equinox.filter_pmap`, in any import spelling) applied to a
function inside the body of a Python `for` or `while` loop, whether the wrapper
is assigned (`step = jax.jit(train_step)`) or called inline
(`jax.jit(train_step)(state, batch)`).

It stays silent when the loop runs while an outer `jit` traces (the inner wrapper
is traced inline, once per outer compilation), on `jax.vmap`/`jax.grad` wrappers
(they cache nothing, so rebuilding them costs little), on ahead-of-time use
(`jax.jit(f).lower(x)` in a benchmark loop), and on loops over a literal list
of cases (`for dtype in (jnp.float32, jnp.bfloat16):`) when the wrapped function
changes with the case (one compilation per case is the point) or is the same
function (a few wrapper rebuilds cost nothing that matters).

## Why is this bad
`jax.jit` caches the compiled program on the identity of the function it wraps.
Measured on JAX 0.12 (CPU):

- When the wrapped function is a new object on every iteration (a `lambda`, a
  `functools.partial`, a function defined in the loop, a bound method
  `self.step`, the result of `jax.vmap(f)`), every iteration traces and compiles
  it again: four iterations gave four XLA compilations instead of one.
- When it is the same function every time (`jax.jit(train_step)`), the
  compilation is reused, but every call goes through a new wrapper, off JAX's
  fast C++ dispatch path: about 160 µs per call instead of 24 µs for a small
  function.

## Example
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
for i in range(100):
    step = jax.jit(train_step)
    w = step(w, jnp.full(3, i))
```

## Use instead
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
step = jax.jit(train_step)
for i in range(100):
    w = step(w, jnp.full(3, i))
```
When the wrapped function depends on the loop (`jax.jit(lambda w: w - lr * g)`
with `g` computed in the loop), jit it once outside the loop and pass the
changing values as arguments.

## Fix safety
Offered when the wrapper and everything it refers to (the wrapped function, the
transform's options) do not depend on the loop: no name it uses is assigned in
the loop body or by the loop target, no attribute or item of one is assigned
there, it calls nothing but the transform and `functools.partial` (so building it
once has no other effect), and no `try` or `with` lies between it and the loop.
The wrapper moves above the outermost loop it does not depend on: an assignment
`step = jax.jit(f)` moves as it is (with the comments just above it) when `step`
is bound nowhere else in the function; otherwise the wrapper is bound to a new
name above the loop (`train_step_jit = jax.jit(train_step)`) and used in its
place. A function defined inside the loop is never hoisted (the fix would wrap a
different object).

Safe when the wrapped function is the same object on every iteration (a
module-level function, an import, a name the loop does not rebind): the original
already reused its first trace, so only the dispatch changes. Unsafe when it is a
new object per iteration (a lambda, a `partial`, a bound method `self.step`): the
original traced it again on every iteration, re-reading every Python value the
function reads while tracing (an attribute of `self`, a closed-over dict, a
global); after the fix such values are read once, at the first call, so a loop
that changes them (`self.lr = schedule(epoch)`) computes with the first value.

## Verify at runtime
`jaxlint probe recompile --loop FILE.py:FUNC --steps 3` calls the function that
contains the loop three times and counts XLA compilations per call (from
`jax.monitoring` events): a wrapper around a new function compiles once per
iteration, in every call.
"""
    VALID = [
        _EXAMPLES_JAX401.valid(
            "valid_fix_jit_hoisted_above_loop.py",
            note="the fix: jit hoisted above the loop",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_jit_module_level_called_loop.py",
            note="jit at module level, called in the loop",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_inside_jit_inner_wrapper_traced.py",
            note="inside jit the inner wrapper is traced inline, once per outer compile",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_one_compilation_per_case_literal.py",
            note="one compilation per case of a literal sweep is the point",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_vmap_caches_nothing_rebuilding_costs.py",
            note="vmap caches nothing: rebuilding it costs little",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_wrapper_built_when_g_called.py",
            note="the wrapper is built when g is called, not by the loop",
        ),
        _EXAMPLES_JAX401.valid(
            "valid_wrappers_built_comprehension_called_loop.py",
            note="wrappers built in a comprehension, called in the loop",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_cache_wrappers_built_once.py", note="a cache of wrappers built once", runs=True
        ),
        _EXAMPLES_JAX401.valid(
            "valid_local_function_named_jit_jax.py",
            note="a local function named jit is not jax.jit",
        ),
        _EXAMPLES_JAX401.valid(
            "valid_loop_s_iterable_evaluated_once.py",
            note="the loop's iterable is evaluated once",
            runs=True,
        ),
        _EXAMPLES_JAX401.valid(
            "valid_ahead_time_lowering_purpose_same.py",
            note="ahead-of-time lowering on purpose; the same function over two literal cases",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX401.invalid(
            "invalid_step_jax_jit_train_step.py",
            line=9,
            column=12,
            message_contains="build it once above the loop at line 8",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_out_append_jax_jit_scale_static.py",
            line=11,
            message_contains="fast dispatch path",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_hoisted_above_outermost_loop_does.py",
            line=8,
            message_contains="traces and compiles it again",
            unsafe_fix=True,
            note="hoisted above the outermost loop it does not depend on, with its comment",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_statement_over_several_lines_moves.py",
            line=10,
            note="a statement over several lines moves whole (found on jax's own pallas code)",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_depends_outer_sweep_s_i.py",
            line=7,
            message_contains="build it once above the loop at line 6",
            unsafe_fix=True,
            note="depends on the outer sweep's i: hoisted above the inner loop only",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_depends_batch_fix_message_says.py",
            line=9,
            message_contains="pass `x` as an argument",
            note="depends on the batch: no fix, the message says what to pass",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_function_redefined_loop_hoisting_would.py",
            line=8,
            message_contains="define `double`",
            note="a function redefined in the loop: hoisting would wrap another object",
        ),
        _EXAMPLES_JAX401.invalid(
            "invalid_w_jax_jit_self_step_w.py",
            line=10,
            message_contains="bound method `self.step`",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX401.invalid("invalid_b_nnx_jit_f_i.py", count=2),
        _EXAMPLES_JAX401.invalid(
            "invalid_call_wrapper_fix_building_once.py",
            line=7,
            message_contains="if `make()` is a new object each time",
            note="a call in the wrapper: no fix (building it once would skip the call)",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None:
            return
        transform, fexpr = found
        loops = self.loops_around(node)
        if not loops or self.staged(node) or self.ahead_of_time(node):
            return
        scope_node, _ = self.function_scope(node)
        model = self.ctx.model
        scope = (
            model.scope_of_node.get(id(scope_node)) if scope_node is not None else None
        ) or model.module_scope
        hoist_to: cst.For | cst.While | None = None
        deps: list[str] = []
        for loop in loops:
            deps = self._dependencies(node, loop, scope)
            if deps:
                break
            hoist_to = loop
        kind, what = self._kind(fexpr, loops[0], scope, scope_node)
        if hoist_to is None:
            # depends on the innermost loop: a new function per iteration is expected only
            # when the loop sweeps a literal list of cases
            if kind == _Callable.STABLE or self._sweep(loops[0]):
                return
        elif kind == _Callable.STABLE and all(self._sweep(loop) for loop in loops):
            return  # a few cases: a few cheap wrapper rebuilds, no recompilation
        wrapper_text = _short(self.ctx.code(node))
        consequence = {
            _Callable.FRESH: (
                f"the wrapped {what} is a new function on every iteration, "
                "so JAX traces and compiles it again each time"
            ),
            _Callable.STABLE: (
                "each iteration makes a new wrapper whose calls miss JAX's fast dispatch "
                "path (the compiled code itself is reused)"
            ),
            _Callable.UNKNOWN: (
                f"each iteration makes a new wrapper, and if `{what}` is a new object each "
                "time, JAX also traces and compiles it again"
            ),
        }[kind]
        fix = None
        if hoist_to is not None:
            loop_line = self.ctx.positions[hoist_to].start.line
            advice = f"build it once above the loop at line {loop_line}"
            if self._pure(node) and self._clear_path(node, hoist_to):
                fix = self._hoist_fix(node, transform, fexpr, hoist_to, scope)
        else:
            loop_line = self.ctx.positions[loops[0]].start.line
            defs = [d for d in deps if self._is_def_in(d, loops[0], scope)]
            if defs and len(defs) == len(deps):
                names = ", ".join(f"`{d}`" for d in defs)
                advice = f"define {names} and build the wrapper once above the loop"
            else:
                rest = [f"`{d}`" for d in deps if d not in defs]
                plural = "as arguments" if len(rest) > 1 else "as an argument"
                advice = f"build it once above the loop and pass {', '.join(rest)} {plural}"
        # Around the same function, the original reuses the first trace too: hoisting keeps
        # behaviour. Around a new function per iteration, the original traced again each
        # time, re-reading any Python state the function reads at trace time.
        safe = kind == _Callable.STABLE
        self.report(
            node,
            fix=fix,
            applicability=(Applicability.SAFE if safe else Applicability.UNSAFE)
            if fix is not None
            else None,
            fix_message="Build the wrapper once, above the loop",
            wrapper=wrapper_text,
            loop_line=self.ctx.positions[loops[0]].start.line,
            consequence=consequence,
            advice=advice,
        )

    # -- analysis ----------------------------------------------------------------------

    def _bound_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> list[Binding]:
        return [b for b in scope.bindings.get(name, ()) if self.index.inside(b.node, loop)]

    def _dependencies(self, wrapper: cst.Call, loop: cst.CSTNode, scope: Scope) -> list[str]:
        """What the wrapper uses that the loop changes: names it (re)binds, and attributes
        or items it assigns (``self.fn = ...``), in order of appearance."""
        model = self.ctx.model
        out: list[str] = []
        mutated = self._mutated_paths(loop)
        for node in self.index.nodes_in(wrapper):
            if isinstance(node, cst.Name):
                parent = self.index.parent.get(id(node))
                if isinstance(parent, cst.Arg) and parent.keyword is node:
                    continue
                found = model.lookup(node.value, model.scope_for(node))
                if found is None or found[0] is not scope:
                    continue
                if self._bound_in(node.value, loop, scope) and node.value not in out:
                    out.append(node.value)
            elif isinstance(node, (cst.Attribute, cst.Subscript)) and mutated:
                path = _dotted(node.value if isinstance(node, cst.Subscript) else node)
                if path is None:
                    continue
                for m in mutated:
                    if (path == m or path.startswith(m + ".")) and m not in out:
                        out.append(m)
        return out

    def _mutated_paths(self, loop: cst.CSTNode) -> set[str]:
        """Dotted paths whose attributes or items the loop assigns or deletes:
        ``self.fn = ...`` gives ``self.fn``, ``cfg["lr"] = ...`` gives ``cfg``."""
        out: set[str] = set()
        for node in self.index.nodes_in(loop):
            targets: list[cst.BaseExpression] = []
            if isinstance(node, cst.Assign):
                targets = [t.target for t in node.targets]
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.Del, cst.For)):
                targets = [node.target]
            elif isinstance(node, cst.WithItem) and node.asname is not None:
                targets = [node.asname.name]
            stack = list(targets)
            while stack:
                t = stack.pop()
                if isinstance(t, (cst.Tuple, cst.List)):
                    stack.extend(el.value for el in t.elements)
                elif isinstance(t, cst.StarredElement):
                    stack.append(t.value)
                elif isinstance(t, (cst.Attribute, cst.Subscript)):
                    path = _dotted(t.value if isinstance(t, cst.Subscript) else t)
                    if path is not None:
                        out.add(path)
        return out

    def _clear_path(self, node: cst.CSTNode, hoist_to: cst.CSTNode) -> bool:
        """Between ``node`` and the loop it moves above, only blocks, loops and ``if``s:
        no ``try`` (an error would escape it) and no ``with`` (a context would be left)."""
        for _, parent in self.index.ancestors(node):
            if parent is hoist_to:
                return True
            if isinstance(parent, (cst.Try, cst.TryStar, cst.With, cst.Match)):
                return False
        return False

    def _pure(self, wrapper: cst.Call) -> bool:
        """Evaluating the wrapper calls nothing but transforms and ``functools.partial``
        (lambda bodies are not evaluated)."""
        trace = self.ctx.trace
        lambdas = [n for n in self.index.nodes_in(wrapper) if isinstance(n, cst.Lambda)]
        for node in self.index.nodes_in(wrapper):
            if not isinstance(node, cst.Call):
                continue
            if any(self.index.inside(node, lam) for lam in lambdas):
                continue
            if self.ctx.model.call_name(node) in PARTIAL:
                continue
            if trace.transform_of(node.func) is not None and _positional(node):
                continue
            return False
        return True

    def _is_def_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> bool:
        bound = self._bound_in(name, loop, scope)
        return bool(bound) and all(b.kind == "def" for b in bound)

    def _kind(
        self,
        fexpr: cst.BaseExpression,
        loop: cst.CSTNode,
        scope: Scope,
        scope_node: cst.CSTNode | None,
    ) -> tuple[str, str]:
        model = self.ctx.model
        if isinstance(fexpr, cst.Lambda):
            return _Callable.FRESH, "lambda"
        if isinstance(fexpr, cst.Call):
            text = _short(self.ctx.code(fexpr), 32)
            if model.call_name(fexpr) in PARTIAL:
                return _Callable.FRESH, f"`{text}`"
            if self.ctx.trace.transform_of(fexpr.func) is not None:
                return _Callable.FRESH, f"`{text}` result"
            return _Callable.UNKNOWN, text
        if isinstance(fexpr, cst.Name):
            found = model.lookup(fexpr.value, model.scope_for(fexpr))
            if found is None:
                return _Callable.UNKNOWN, fexpr.value
            in_loop = [b for b in found[1] if self.index.inside(b.node, loop)]
            if found[0] is not scope or not in_loop:
                return _Callable.STABLE, fexpr.value
            if all(b.kind == "def" for b in in_loop):
                return _Callable.FRESH, f"function `{fexpr.value}`"
            values = [self.index.assigned.get(id(b.node)) for b in in_loop]
            if all(
                isinstance(v, cst.Lambda)
                or (isinstance(v, cst.Call) and model.call_name(v) in PARTIAL)
                for v in values
            ):
                return _Callable.FRESH, f"`{fexpr.value}`"
            return _Callable.UNKNOWN, fexpr.value
        if isinstance(fexpr, cst.Attribute):
            method = self.bound_method(fexpr, scope_node)
            if method is not None:
                return _Callable.FRESH, f"bound method `{method}`"
            qn = model.qualified_name(fexpr)
            if qn is not None:
                return _Callable.STABLE, qn
        return _Callable.UNKNOWN, _short(self.ctx.code(fexpr), 32)

    def _sweep(self, loop: cst.For | cst.While) -> bool:
        """A ``for`` over a literal list of cases (or ``zip``/``enumerate``/``product`` of
        literal lists): a few different functions, each compiled once."""
        return isinstance(loop, cst.For) and self._literal_cases(loop.iter)

    def _literal_cases(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            return True
        if not isinstance(expr, cst.Call):
            return False
        args = _positional(expr)
        qn = self.ctx.model.call_name(expr)
        if qn in ("builtins.zip", "itertools.product"):
            return bool(args) and all(self._literal_cases(a.value) for a in args)
        if qn in ("builtins.enumerate", "builtins.reversed", "builtins.sorted"):
            return bool(args) and self._literal_cases(args[0].value)
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
            "items",
            "keys",
            "values",
        ):
            return self._literal_cases(expr.func.value)
        return False

    # -- the fix -----------------------------------------------------------------------

    def _hoist_fix(
        self,
        wrapper: cst.Call,
        transform: str,
        fexpr: cst.BaseExpression,
        hoist_to: cst.For | cst.While,
        scope: Scope,
    ) -> FixFactory:
        ctx = self.ctx
        src = _Text(ctx)
        loop_start, loop_end = src.range(hoist_to)
        indent = ctx.line_indent(hoist_to)
        newline = ctx.module.default_newline
        moved = self._movable_statement(wrapper, hoist_to, scope, src, loop_end)
        if moved is not None:
            remove_start, remove_end, replacement, hoisted = moved
            body = src.text[loop_start:remove_start] + replacement + src.text[remove_end:loop_end]
            new_text = f"{hoisted}{newline}{indent}{body}"
        else:
            name = self._fresh_name(fexpr, transform)
            w_start, w_end = src.range(wrapper)
            body = src.text[loop_start:w_start] + name + src.text[w_end:loop_end]
            new_text = f"{name} = {src.text[w_start:w_end]}{newline}{indent}{body}"

        def fix() -> list[FixOp]:
            return [ReplaceNode(hoist_to, new_text)]

        return fix

    def _movable_statement(
        self,
        wrapper: cst.Call,
        hoist_to: cst.CSTNode,
        scope: Scope,
        src: _Text,
        loop_end: int,
    ) -> tuple[int, int, str, str] | None:
        """``name = jax.jit(f)`` alone on its line, ``name`` bound only there: the text to
        remove from the loop, what to leave there, and the text to put above the loop."""
        assign = self.index.parent.get(id(wrapper))
        if not isinstance(assign, cst.Assign) or assign.value is not wrapper:
            return None
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return None
        target = assign.targets[0].target
        line = self.index.parent.get(id(assign))
        block = self.index.parent.get(id(line))
        if (
            not isinstance(line, cst.SimpleStatementLine)
            or len(line.body) != 1
            or not isinstance(block, cst.IndentedBlock)
        ):
            return None
        if target.value in scope.global_names or target.value in scope.nonlocal_names:
            return None
        if len(scope.bindings.get(target.value, ())) != 1:
            return None
        start, _ = src.range(line)
        # the end of the statement's last line: ``name = jax.jit(\n    f,\n)`` spans several
        _, value_end = src.range(assign)
        end = src.line_end(value_end)
        if end >= loop_end:
            return None  # the last line of the loop: its comment lies outside the loop's text
        # comment lines directly above the statement move with it
        comments: list[str] = []
        for empty in reversed(line.leading_lines):
            if empty.comment is None:
                break
            comments.insert(0, empty.comment.value)
        line_no = self.ctx.positions[line].start.line
        first_line = line_no - len(comments)
        remove_start = src.starts[first_line - 1]
        remove_end = end
        text = src.text
        if text.startswith("\r\n", remove_end):
            remove_end += 2
        elif remove_end < len(text) and text[remove_end] in "\r\n":
            remove_end += 1
        indent = self.ctx.line_indent(hoist_to)
        newline = self.ctx.module.default_newline
        statement = _reindented(text[start:end], self.ctx.line_indent(line), indent)
        hoisted = "".join(f"{c}{newline}{indent}" for c in comments) + statement
        replacement = ""
        if len(block.body) == 1:
            replacement = f"{self.ctx.line_indent(line)}pass{newline}"
        return remove_start, remove_end, replacement, hoisted

    def _fresh_name(self, fexpr: cst.BaseExpression, transform: str) -> str:
        suffix = "pmap" if transform.endswith("pmap") else "jit"
        if isinstance(fexpr, cst.Call) and self.ctx.model.call_name(fexpr) in PARTIAL:
            inner = _positional(fexpr)
            fexpr = inner[0].value if inner else fexpr
        if isinstance(fexpr, cst.Name):
            base = fexpr.value.lstrip("_") or "fn"
        elif isinstance(fexpr, cst.Attribute):
            base = fexpr.attr.value.lstrip("_") or "fn"
        else:
            base = "fn"
        stem = f"{base}_{suffix}"
        taken: set[str] = self.__dict__.setdefault("_taken_names", set())
        candidate = stem
        n = 2
        while candidate in self.index.names or candidate in taken:
            candidate = f"{stem}_{n}"
            n += 1
        taken.add(candidate)
        return candidate


_EXAMPLES_JAX402 = Examples(Path(__file__).parent / "compilation" / "jit_of_fresh_callable.py")


# -- JAX402 -----------------------------------------------------------------------------------


class JitOfFreshCallable(_Queries, Rule):
    code = "JAX402"
    name = "jit-of-fresh-callable"
    message = (
        "`{wrapper}` {verb} {what}, created anew on every call of `{outer}`: {consequence}; "
        "{advice}"
    )
    fix_availability = "none"
    probe = "jaxlint probe recompile --loop FILE.py:FUNC --steps 3"
    docs = """\
## What it does
Flags a compiling transform (`jax.jit`, `jax.pmap`, `pjit`, `flax.nnx.jit`,
`equinox.filter_jit`, `equinox.filter_pmap`) applied inside a function body to a
function that the body creates on every call, and then called there:

- `jax.jit(lambda x: ...)(x)` or `f = jax.jit(lambda ...)` followed by `f(...)`;
- `jax.jit(functools.partial(g, a))(x)`;
- `jax.jit(inner)(x)` where `inner` is defined in the function, and a nested
  `@jax.jit def inner(...)` called by the function;
- `jax.jit(self.method)(x)` (a new bound method each time) and
  `jax.jit(jax.vmap(g))(x)` (a new wrapper each time).

A `jax.pmap` counts only in a function that also fetches values to the host
(`jax.device_get`, `np.asarray`, `float`, `.item()`, `print`, `assert`): elsewhere
it may run under an outer `pmap`, where it is a meaningful inner map.

It stays silent on `jax.jit(..., inline=True)` (meant to be inlined into an
outer trace), on ahead-of-time use (`jax.jit(f).lower(x)`), on a jitted
`partial(lax.scan, step)` (the whole run is one compiled loop), on methods of
classes with a base class (modules, whose methods usually run under a
transform), on factories, which return or store the jitted function
(`return jax.jit(lambda ...)`, `self._step = jax.jit(...)`), on builders cached
with `functools.cache`/`lru_cache`, on module-level `jax.jit(lambda ...)`, on
`jax.jit(g)` of a function defined outside the body (JAX caches it on `g`), on
code that runs while an outer `jit` traces (the inner wrapper is inlined), on
functions that run once (`main`, `test_*`, `setUp`, and their nested helpers), on
initialisers and builders (names starting with `init`, `setup`, `create`,
`build`, `make`), on wrappers built in a loop (JAX401 reports those), and on
functions that contain a loop, such as a training driver that builds
`step = jax.jit(partial(train_step, cfg))` and runs it: one compilation per run
of such a function is amortised over its work.

## Why is this bad
`jax.jit` caches compiled code on the identity of the wrapped function. A lambda,
a `partial`, a nested function or a bound method is a new object on every call of
the enclosing function, so every call misses the cache: JAX traces and compiles
again, which usually costs far more than running the function (checked on JAX
0.12: three calls, three compilations, for each form above). When the enclosing
function itself runs under `jit`, the inner `jit` is inlined into the outer trace:
nothing is compiled again, but the inner `jit` does nothing either.

## Example
```python
import jax
import jax.numpy as jnp

def normalize(x, eps):
    return jax.jit(lambda v: v / (jnp.linalg.norm(v) + eps))(x)
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.jit
def _normalize(v, eps):
    return v / (jnp.linalg.norm(v) + eps)

def normalize(x, eps):
    return _normalize(x, eps)
```
Define the function once (module level) and pass what it closed over as
arguments (static ones with `static_argnames`), or build the jitted function once
in a factory cached with `functools.cache`.

## Fix safety
No automatic fix: moving the function out of its body means turning the values it
closes over into arguments, and deciding which of them must be static.

## Verify at runtime
`jaxlint probe recompile --loop FILE.py:FUNC --steps 3` calls the enclosing
function three times and counts XLA compilations per call (from `jax.monitoring`
events): a fresh function compiles on every call, not only the first.
"""
    VALID = [
        _EXAMPLES_JAX402.valid(
            "valid_fix_jit_module_level_closed.py",
            note="the fix: jit at module level, closed-over values as arguments",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_factory_returns_jitted_function_built.py",
            note="a factory returns the jitted function: built once by the caller",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_module_level_jax_jit_lambda.py",
            note="module-level jax.jit(lambda ...)",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid("valid_cached_builder.py", note="a cached builder", runs=True),
        _EXAMPLES_JAX402.valid(
            "valid_jit_module_level_function_cached.py",
            note="jit of a module-level function: cached on g",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_inside_jit_inner_wrapper_traced.py",
            note="inside jit the inner wrapper is traced inline",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_jitted_lambda_stored_object_built.py",
            note="the jitted lambda is stored on the object: built once per object",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_tests_their_helpers_main_run.py",
            note="tests, their helpers and main run once",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid("valid_loop_jax401_reports.py", note="in a loop: JAX401 reports it"),
        _EXAMPLES_JAX402.valid(
            "valid_returned_after_warm_up_call.py", note="returned after a warm-up call: a factory"
        ),
        _EXAMPLES_JAX402.valid(
            "valid_vmap_grad_compile_nothing_their.py",
            note="vmap and grad compile nothing on their own",
        ),
        _EXAMPLES_JAX402.valid(
            "valid_built_once_per_call_train.py",
            note="built once per call of train, called in its loop: the compile is amortised",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_initialiser_runs_once_per_model.py",
            note="an initialiser runs once per model",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_pmap_may_inner_map_under.py",
            note="a pmap that may be an inner map under an outer pmap (brax replay_buffers.py)",
        ),
        _EXAMPLES_JAX402.valid(
            "valid_compiled_scan_over_whole_run.py",
            note="a compiled scan over the whole run, inline=True, ahead-of-time lowering",
            runs=True,
        ),
        _EXAMPLES_JAX402.valid(
            "valid_module_s_method_usually_runs.py",
            note="a module's method usually runs under a transform",
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX402.invalid(
            "invalid_return_jax_jit_lambda_v_v.py",
            line=5,
            column=12,
            message_contains="jits a lambda, created anew on every call of `normalize`",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_f_jax_jit_functools_partial_scale.py",
            line=8,
            message_contains="`functools.partial(scale, k=k)`",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_return_jax_jit_inner_params.py",
            line=6,
            message_contains="the nested function `inner`",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_jit.py",
            line=4,
            column=5,
            message_contains="`@jit` jits the nested function `update`",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_return_jax_jit_self_step_w.py",
            line=8,
            message_contains="the bound method `self.step`",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_return_eqx_filter_jit_jax_vmap.py",
            line=8,
            message_contains="the `jax.vmap(g)` result",
        ),
        _EXAMPLES_JAX402.invalid(
            "invalid_host_code_device_get_assert.py",
            line=6,
            column=24,
            message_contains="pmaps a lambda, created anew on every call of `synchronize_hosts`",
            note="host code (device_get, assert): a new compilation per call (brax pmap.py)",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None:
            return
        transform, fexpr = found
        outer, looped = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or looped or not self._repeated(outer, node):
            return
        if transform.endswith("pmap") and not self._host_only(outer):
            return
        if self.ahead_of_time(node) or self._inline(node) or self._compiled_loop(fexpr):
            return
        what = self._fresh(fexpr, outer)
        if what is None:
            return
        parent = self.index.parent.get(id(node))
        called = isinstance(parent, cst.Call) and parent.func is node
        if not called:
            if not (isinstance(parent, cst.Assign) and parent.value is node):
                return
            if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
                return
            if not self._only_called(parent.targets[0].target, outer):
                return
        self._report(node, self.ctx.code(node), what, outer, transform)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not node.decorators:
            return
        deco = node.decorators[0]
        got = self.ctx.trace.transform_of(deco.decorator)
        if got is None or got[0].qualname not in _COMPILING:
            return
        transform = got[0].qualname
        outer, _ = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or not self._repeated(outer, node):
            return
        if transform.endswith("pmap") and not self._host_only(outer):
            return
        if not self._only_called(node.name, outer):
            return
        what = f"the nested function `{node.name.value}`"
        self._report(deco, f"@{self.ctx.code(deco.decorator)}", what, outer, transform)

    def _report(
        self, node: cst.CSTNode, wrapper: str, what: str, outer: cst.FunctionDef, transform: str
    ) -> None:
        name = outer.name.value
        if transform.endswith("pmap"):
            verb = "pmaps"
            consequence = f"each call of `{name}` traces and compiles it again"
        else:
            verb = "jits"
            consequence = (
                f"each call of `{name}` traces and compiles it again (when `{name}` itself "
                "runs under jit, the inner jit is only inlined and does nothing)"
            )
        if "bound method" in what:
            advice = "jit it once per object (in `__init__`) or jit a module-level function"
        elif what.endswith("result"):
            advice = "build the wrapper once, at module level"
        else:
            advice = (
                f"define it once outside `{outer.name.value}` and pass the values it uses "
                "as arguments (or build it in a functools.cache'd factory)"
            )
        self.report(
            node,
            wrapper=_short(wrapper),
            verb=verb,
            what=what,
            outer=name,
            consequence=consequence,
            advice=advice,
        )

    def _repeated(self, outer: cst.FunctionDef, node: cst.CSTNode) -> bool:
        """``outer`` may run many times, each run outside an enclosing trace."""
        if self.runs_once(outer) or self.caches_result(outer):
            return False
        name = outer.name.value.lstrip("_").lower()
        if name.startswith(_SETUP_PREFIXES):
            return False
        cls = self.enclosing_class(outer)
        if cls is not None and any(
            self.ctx.model.qualified_name(b.value) != "builtins.object" for b in cls.bases
        ):
            return False  # a module-like class: its methods often run under a transform
        if any(isinstance(n, (cst.For, cst.While)) for n in self._own_nodes(outer)):
            return False  # a driver (a training loop): one compile per run is amortised
        for _, parent in self.index.ancestors(outer):
            if isinstance(parent, cst.FunctionDef) and self.runs_once(parent):
                return False  # a helper of a test: runs a few times at most
        info = self.ctx.trace.info(outer)
        return not (info is not None and info.staging) and not self.staged(node)

    def _inline(self, wrapper: cst.Call) -> bool:
        """``jax.jit(f, inline=True)``: meant to be inlined into an enclosing trace."""
        return any(
            a.keyword is not None
            and a.keyword.value == "inline"
            and not (isinstance(a.value, cst.Name) and a.value.value in ("False", "None"))
            for a in wrapper.args
        )

    def _compiled_loop(self, fexpr: cst.BaseExpression) -> bool:
        """``jax.jit(partial(lax.scan, step))``: the whole run is one compiled loop, and its
        compilation is amortised over the steps."""
        model = self.ctx.model
        if not (isinstance(fexpr, cst.Call) and model.call_name(fexpr) in PARTIAL):
            return False
        inner = _positional(fexpr)
        return bool(inner) and model.qualified_name(inner[0].value) in _LAX_LOOPS

    def _host_only(self, fn: cst.FunctionDef) -> bool:
        """``fn`` fetches values to the host (``jax.device_get``, ``np.asarray``, ``float``,
        ``.item()``, ``print``, ``assert``): it cannot run under an outer trace, where a
        nested ``pmap`` would be a meaningful inner map rather than a new compilation."""
        for node in self._own_nodes(fn):
            if isinstance(node, cst.Assert):
                return True
            if isinstance(node, cst.Call):
                if self.ctx.model.call_name(node) in _HOST_CALLS:
                    return True
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value in (
                    "item",
                    "tolist",
                    "block_until_ready",
                ):
                    return True
        return False

    def _own_nodes(self, fn: cst.FunctionDef) -> Iterator[cst.CSTNode]:
        """The nodes of ``fn``'s body, nested functions and classes left out."""
        nested = [n for n in self.index.nodes_in(fn.body) if isinstance(n, (*_SCOPE_NODES,))]
        for node in self.index.nodes_in(fn.body):
            if not any(node is n or self.index.inside(node, n) for n in nested):
                yield node

    def _fresh(self, fexpr: cst.BaseExpression, outer: cst.FunctionDef) -> str | None:
        """How to name the wrapped callable when it is a new object on each call of
        ``outer``; ``None`` when it may be the same object every time."""
        model = self.ctx.model
        if isinstance(fexpr, cst.Lambda):
            return "a lambda"
        if isinstance(fexpr, cst.Call):
            text = _short(self.ctx.code(fexpr), 40)
            if model.call_name(fexpr) in PARTIAL:
                return f"`{text}`"
            if self.ctx.trace.transform_of(fexpr.func) is not None and _positional(fexpr):
                return f"the `{text}` result"
            return None
        if isinstance(fexpr, cst.Name):
            found = model.lookup(fexpr.value, model.scope_for(fexpr))
            scope = model.scope_of_node.get(id(outer))
            if found is None or found[0] is not scope:
                return None
            bindings = found[1]
            if all(b.kind == "def" for b in bindings):
                return f"the nested function `{fexpr.value}`"
            values = [self.index.assigned.get(id(b.node)) for b in bindings]
            if all(
                isinstance(v, cst.Lambda)
                or (isinstance(v, cst.Call) and model.call_name(v) in PARTIAL)
                for v in values
            ):
                return f"`{fexpr.value}`"
            return None
        if isinstance(fexpr, cst.Attribute):
            method = self.bound_method(fexpr, outer)
            if method is not None:
                return f"the bound method `{method}`"
        return None

    def _only_called(self, name: cst.Name, outer: cst.FunctionDef) -> bool:
        """``name``, bound once in ``outer``, is only ever called there, outside loops (never
        returned, stored, passed on or captured): the jitted function dies with the call,
        and its compilation serves a single use."""
        model = self.ctx.model
        scope = model.scope_of_node.get(id(outer))
        if scope is None:
            return False
        if name.value in scope.global_names or name.value in scope.nonlocal_names:
            return False
        if len(scope.bindings.get(name.value, ())) != 1:
            return False
        calls = 0
        for node in self.index.nodes_in(outer):
            if not isinstance(node, cst.Name) or node.value != name.value or node is name:
                continue
            found = model.lookup(node.value, model.scope_for(node))
            if found is None or found[0] is not scope:
                continue
            parent = self.index.parent.get(id(node))
            if isinstance(parent, cst.Call) and parent.func is node:
                if model.scope_for(node) is not scope:
                    return False  # called from a nested function that may outlive the call
                if self.function_scope(node)[1]:
                    return False  # called in a loop: one compile per call, used many times
                calls += 1
                continue
            return False
        return calls > 0


_EXAMPLES_JAX403 = Examples(Path(__file__).parent / "compilation" / "jit_method_self.py")


# -- JAX403 -----------------------------------------------------------------------------------


class JitMethodSelf(_Queries, Rule):
    code = "JAX403"
    name = "jit-method-self"
    message = (
        "`{decorator}` on method `{cls}.{method}` traces its first argument `{self_name}`, "
        "{what}, which is neither an array nor a pytree: calling it raises TypeError; {advice}"
    )
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags `@jax.jit` (or `pjit`, in any import spelling, bare or with options) used
directly on a method, or under `@classmethod`, when the first parameter (`self`,
`cls`) is not static and the class is a plain Python class: no base class other
than `object` or other plain classes of the same module, no decorator other than
`dataclasses.dataclass`, `functools.total_ordering` or `typing.final`, and never
passed to a pytree registration (`jax.tree_util.register_pytree_node_class`,
`register_pytree_node`, `register_dataclass`, `register_static`, ...).

It stays silent on classes that are pytrees or may be: `NamedTuple`s,
`flax.struct.dataclass`/`chex.dataclass`, `equinox.Module`, `flax.nnx.Module`,
any class with an unknown base or decorator, and classes registered anywhere in
the module; on `@staticmethod`; and when `self` is static
(`static_argnums=0`, `static_argnames="self"`).

## Why is this bad
`jax.jit` traces every non-static argument as an array, and `self` is the first
argument. A plain object is not an array or a pytree of arrays, so every call
fails before tracing (checked on JAX 0.12): `TypeError: Error interpreting
argument to <function Model.apply ...> as an abstract array. The problematic
value is of type <class 'Model'> and was passed to the function at path self.`

## Example
```python
import jax
import jax.numpy as jnp

class Model:
    def __init__(self, w):
        self.w = w

    @jax.jit
    def apply(self, x):
        return self.w * x

Model(jnp.ones(3)).apply(jnp.ones(3))
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.tree_util.register_pytree_node_class
class Model:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):
        return self.w * x

Model(jnp.ones(3)).apply(jnp.ones(3))
```
A pytree `self` is traced leaf by leaf, so its arrays are inputs and a new
value of `self.w` is used on the next call. Alternatives: jit a module-level
function of the arrays (`_apply(w, x)`), use `equinox.Module` or
`flax.struct.dataclass`, or, for an immutable object with a meaningful hash,
`@functools.partial(jax.jit, static_argnums=0)`. With the default identity hash
a static `self` caches the first trace: later changes to its attributes are
silently ignored.

## Fix safety
No automatic fix: registering the class as a pytree needs flatten/unflatten
functions that only the author can write, and `static_argnums=0` silently
freezes attribute values into the compiled code.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` with the method as target (`file.py:Model.apply`)
and a factory that passes the object as the first argument reports the
`TypeError` with your file and line.
"""
    VALID = [
        _EXAMPLES_JAX403.valid(
            "valid_fix_registered_pytree_class.py",
            note="the fix: a registered pytree class",
            runs=True,
        ),
        _EXAMPLES_JAX403.valid(
            "valid_namedtuple_pytree.py", note="a NamedTuple is a pytree", runs=True
        ),
        _EXAMPLES_JAX403.valid(
            "valid_self_static_number_name_frozen.py",
            note="self static by number and by name (a frozen, hashable dataclass)",
            runs=True,
        ),
        _EXAMPLES_JAX403.valid(
            "valid_staticmethod_has_self.py", note="a staticmethod has no self", runs=True
        ),
        _EXAMPLES_JAX403.valid(
            "valid_jit_bound_method_self_closed.py",
            note="jit of a bound method: self is closed over, not traced",
            runs=True,
        ),
        _EXAMPLES_JAX403.valid(
            "valid_registered_call_after_class.py",
            note="registered by a call after the class",
            runs=True,
        ),
        _EXAMPLES_JAX403.valid(
            "valid_equinox_module_pytree.py", note="an equinox Module is a pytree"
        ),
        _EXAMPLES_JAX403.valid(
            "valid_flax_struct_dataclass_registers_pytree.py",
            note="flax.struct.dataclass registers a pytree",
        ),
        _EXAMPLES_JAX403.valid(
            "valid_unknown_base_class_may_pytree.py", note="an unknown base class may be a pytree"
        ),
        _EXAMPLES_JAX403.valid(
            "valid_function_method_parameter_called_self.py",
            note="a function, not a method, with a parameter called self",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX403.invalid(
            "invalid_jax_jit.py",
            line=8,
            column=5,
            raises="TypeError",
            message_contains="`@jax.jit` on method `Model.apply` traces its first argument `self`",
        ),
        _EXAMPLES_JAX403.invalid(
            "invalid_dataclass_pytree_unless_registered.py",
            line=9,
            raises="TypeError",
            note="a dataclass is not a pytree unless registered",
        ),
        _EXAMPLES_JAX403.invalid(
            "invalid_static_arguments_do_include_self.py",
            line=9,
            raises="TypeError",
            message_contains="`@partial(jit, static_argnames=('n',))`",
            note="static arguments that do not include self",
        ),
        _EXAMPLES_JAX403.invalid(
            "invalid_jax_jit_2.py",
            line=6,
            raises="TypeError",
            message_contains="`cls`, the class `Factory` itself",
        ),
        _EXAMPLES_JAX403.invalid(
            "invalid_plain_base_class_same_module.py",
            line=8,
            raises="TypeError",
            note="a plain base class of the same module; jit's decorator-factory form",
        ),
        _EXAMPLES_JAX403.invalid(
            "invalid_jax_jit_3.py",
            line=4,
            message_contains="a `Model` instance, which is neither an array nor a pytree",
        ),
    ]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not node.decorators:
            return
        model = self.ctx.model
        decorators = [d.decorator for d in node.decorators]
        is_classmethod = model.qualified_name(decorators[0]) == "builtins.classmethod"
        if is_classmethod:
            decorators = decorators[1:]
        if len(decorators) != 1:
            return
        got = self.ctx.trace.transform_of(decorators[0])
        if got is None or got[0].qualname not in _PLAIN_JIT:
            return
        cls = self.enclosing_class(node)  # last: it needs the parent index
        if cls is None:
            return
        params = positional_params(node)
        if not params:
            return
        first = params[0]
        statics = _Jitted(got[0].qualname, dict(got[1]), node).chosen(
            ("static_argnums",), "static_argnames"
        )
        if statics is None or first in statics:
            return
        if not self._plain(cls, set()):
            return
        deco = next(d for d in node.decorators if d.decorator is decorators[0])
        name = cls.name.value
        if is_classmethod:
            what = f"the class `{name}` itself"
            advice = "make it a staticmethod or jit a module-level function"
        else:
            what = f"a `{name}` instance"
            advice = (
                f"register `{name}` as a pytree (register_pytree_node_class, "
                "register_dataclass) or jit a function of the arrays it needs"
            )
        self.report(
            deco,
            decorator=_short(f"@{self.ctx.code(deco.decorator)}", 60),
            cls=name,
            method=node.name.value,
            self_name=first,
            what=what,
            advice=advice,
        )

    def _plain(self, cls: cst.ClassDef, seen: set[int]) -> bool:
        """A class whose instances are certainly not pytrees."""
        if id(cls) in seen:
            return False
        seen.add(id(cls))
        model = self.ctx.model
        if cls.keywords:
            return False  # a metaclass may register it
        for dec in cls.decorators:
            expr = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
            if model.qualified_name(expr) not in _HARMLESS_CLASS_DECORATORS:
                return False
        for base in cls.bases:
            if base.star or base.keyword is not None:
                return False
            value = base.value
            if model.qualified_name(value) == "builtins.object":
                continue
            if not isinstance(value, cst.Name):
                return False
            found = model.lookup(value.value, model.scope_for(value))
            if found is None or len(found[1]) != 1 or found[1][0].kind != "class":
                return False
            base_cls = found[1][0].node
            if not isinstance(base_cls, cst.ClassDef) or not self._plain(base_cls, seen):
                return False
        return not self._registered(cls)

    def _registered(self, cls: cst.ClassDef) -> bool:
        """The module passes the class to something that registers it (any call whose
        name says ``register``)."""
        name = cls.name.value
        for node in self.index.nodes_in(self.ctx.module):
            if not isinstance(node, cst.Call):
                continue
            func = node.func
            callee = func.attr.value if isinstance(func, cst.Attribute) else None
            if isinstance(func, cst.Name):
                callee = func.value
            if callee is None or "register" not in callee.lower():
                continue
            for arg in node.args:
                if isinstance(arg.value, cst.Name) and arg.value.value == name:
                    return True
        return False


_EXAMPLES_JAX404 = Examples(Path(__file__).parent / "compilation" / "unhashable_static_arg.py")


# -- JAX404 -----------------------------------------------------------------------------------


class UnhashableStaticArg(_Queries, Rule):
    code = "JAX404"
    name = "unhashable-static-arg"
    message = (
        "`{value}` is passed to static parameter `{param}` of `{fn}`: {kind} is not "
        'hashable, and jit raises ValueError ("Non-hashable static arguments are not '
        'supported"); {advice}'
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile FILE.py:FUNC --static-argnums 0"
    docs = """\
## What it does
Flags a call of a jitted function (`@jax.jit`, `@partial(jax.jit, ...)`,
`@jax.jit(static_argnums=...)`, `f = jax.jit(g, ...)`, `jax.jit(g, ...)(...)`,
`jax.pmap`'s `static_broadcasted_argnums`, a jitted method called as
`self.m(...)`) that passes a list, dict or set (a literal or a comprehension), a
name bound to one in the same scope, or an array made by `jnp`/`np` to a
parameter named by `static_argnums`/`static_argnames`. Arguments map to
parameters by position and by keyword, as JAX maps them (a parameter named by
number is static by keyword too, and the reverse).

It stays silent on tuples, frozensets, strings, numbers and `None`, on unknown
values, and on an unhashable *default* of a static parameter: JAX hashes only the
arguments a call passes (checked on JAX 0.12: a list default runs).

## Why is this bad
JAX looks static arguments up in its compilation cache by hash. A list, dict, set
or array has no hash, so every such call fails before tracing (checked on JAX
0.12): `ValueError: Non-hashable static arguments are not supported. An error
occurred while trying to hash an object of type <class 'list'>, [1, 2].`

## Example
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("axes",))
def total(x, axes):
    return x.sum(axis=axes)

total(jnp.ones((2, 3)), axes=[0, 1])
```

## Use instead
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("axes",))
def total(x, axes):
    return x.sum(axis=axes)

total(jnp.ones((2, 3)), axes=(0, 1))
```

## Fix safety
Unsafe, offered for literals: a list literal becomes a tuple (`[0, 1]` ->
`(0, 1)`, `[a]` -> `(a,)`), a list comprehension a `tuple(...)` of the same
generator, and a set literal a `frozenset({...})`. The function then receives a
tuple or frozenset: code that appends to it, concatenates it with a list, or
checks `isinstance(axes, list)` behaves differently. Dicts and arrays have no
fix (make them hashable, e.g. a tuple of pairs, or pass them as traced
arguments).

## Verify at runtime
`jaxlint probe recompile FILE.py:FUNC --static-argnums 0` wraps the function once
in `jax.jit` with that argument static and calls it on each case of the cases
factory (`make_cases`): a case with an unhashable value stops the probe with the
`ValueError` above (exit code 3), and hashable values that differ between cases
are named as the reason for each recompilation ("static value").
"""
    VALID = [
        _EXAMPLES_JAX404.valid("valid_fix_tuple.py", note="the fix: a tuple", runs=True),
        _EXAMPLES_JAX404.valid(
            "valid_static_argnums_tuples_position_keyword.py",
            note="static_argnums with tuples, by position and by keyword",
            runs=True,
        ),
        _EXAMPLES_JAX404.valid(
            "valid_unhashable_default_never_hashed_jax.py",
            note="an unhashable default is never hashed: JAX hashes passed arguments only",
            runs=True,
        ),
        _EXAMPLES_JAX404.valid(
            "valid_array_traced_parameter.py", note="an array to a traced parameter", runs=True
        ),
        _EXAMPLES_JAX404.valid(
            "valid_strings_none_frozensets_list_traced.py",
            note="strings, None, frozensets; a list in a traced position",
            runs=True,
        ),
        _EXAMPLES_JAX404.valid("valid_unknown_value.py", note="an unknown value"),
        _EXAMPLES_JAX404.valid(
            "valid_jitted_or_static_arguments_list.py",
            note="not jitted, or no static arguments (a list is a pytree of traced leaves)",
            runs=True,
        ),
        _EXAMPLES_JAX404.valid(
            "valid_star_arguments_positions_unknown.py",
            note="star arguments: positions unknown",
            runs=True,
        ),
        _EXAMPLES_JAX404.valid(
            "valid_name_bound_twice_value_call.py",
            note="a name bound twice: its value at the call is unknown",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX404.invalid(
            "invalid_total_jnp_ones_2_3_axes.py",
            line=10,
            column=30,
            raises="ValueError",
            unsafe_fix=True,
            message_contains="`[0, 1]` is passed to static parameter `axes` of `total`: a list",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_static_number_passed_position_one.py",
            line=8,
            raises="ValueError",
            unsafe_fix=True,
            note="static by number, passed by position; a one-element tuple",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_static_name_passed_position_comprehension.py",
            raises="ValueError",
            unsafe_fix=True,
            note="static by name, passed by position; a comprehension",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_f_jnp_ones_3_1_2.py",
            raises="ValueError",
            unsafe_fix=True,
            message_contains="a set",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_fix_dict.py",
            raises="ValueError",
            message_contains="a dict",
            note="no fix for a dict",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_f_jnp_ones_3_jnp_array.py", raises="ValueError", message_contains="a JAX array"
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_jitted_method_name_bound_list.py",
            line=13,
            message_contains="`shape` is passed to static parameter `shape` of `apply`: a list",
            note="a jitted method; a name bound to a list",
        ),
        _EXAMPLES_JAX404.invalid(
            "invalid_jax_pmap_f_static_broadcasted_argnums.py", raises="ValueError", unsafe_fix=True
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        jitted = self.jitted_call(node)
        if jitted is None:
            return
        statics = jitted.chosen(("static_argnums", "static_broadcasted_argnums"), "static_argnames")
        if not statics:
            return
        for arg, param in jitted.argument_params(node):
            if param not in statics:
                continue
            found = self._unhashable(arg.value)
            if found is None:
                continue
            kind, literal = found
            fn_name = (
                jitted.fn.name.value if isinstance(jitted.fn, cst.FunctionDef) else "the function"
            )
            shown = f"parameter {param}" if isinstance(param, int) else param
            replacement = self._replacement(arg.value) if literal else None
            if replacement is not None:
                advice = f"pass `{_short(replacement, 40)}`"
            elif kind == "a dict":
                advice = "pass a hashable value (a tuple of pairs) or make it a traced argument"
            else:
                advice = "pass a tuple or make it a traced argument"
            value_node = arg.value

            def fix(
                value_node: cst.BaseExpression = value_node, text: str | None = replacement
            ) -> list[FixOp]:
                assert text is not None
                return [ReplaceNode(value_node, text)]

            self.report(
                value_node,
                fix=fix if replacement is not None else None,
                applicability=Applicability.UNSAFE if replacement is not None else None,
                fix_message="Pass a hashable tuple/frozenset",
                value=_short(self.ctx.code(value_node), 40),
                param=shown,
                fn=fn_name,
                kind=kind,
                advice=advice,
            )

    def _unhashable(self, expr: cst.BaseExpression) -> tuple[str, bool] | None:
        """What unhashable thing ``expr`` is, and whether it is written here as a literal."""
        if isinstance(expr, (cst.List, cst.ListComp)):
            return "a list", True
        if isinstance(expr, (cst.Set, cst.SetComp)):
            return "a set", True
        if isinstance(expr, (cst.Dict, cst.DictComp)):
            return "a dict", True
        if isinstance(expr, cst.Call):
            qn = self.ctx.model.call_name(expr)
            if qn is None:
                return None
            if qn in _NUMPY_ARRAY_MAKERS:
                return "a NumPy array", False
            if qn.startswith("jax.numpy.") and self._jax_array(expr):
                return "a JAX array", False
            if qn in ("builtins.list", "builtins.dict", "builtins.set"):
                return f"a {qn.split('.')[1]}", False
            return None
        if isinstance(expr, cst.Name):
            found = self.bindings(expr)
            if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
                return None
            value = self.index.assigned.get(id(found[1][0].node))
            if value is None or isinstance(value, cst.Name):
                return None
            got = self._unhashable(value)
            return None if got is None else (got[0], False)
        return None

    def _jax_array(self, call: cst.Call) -> bool:
        val = self.ctx.trace.value(call)
        return val is not None and val.array

    def _replacement(self, expr: cst.BaseExpression) -> str | None:
        model = self.ctx.model
        module = self.ctx.module
        scope = model.module_scope
        first = next((n for n in self.index.nodes_in(expr) if isinstance(n, cst.Name)), None)
        if first is not None:
            scope = model.scope_for(first)
        if isinstance(expr, cst.List):
            elements = list(expr.elements)
            if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
                elements[0] = elements[0].with_changes(comma=cst.Comma())
            node = cst.Tuple(
                elements=elements,
                lpar=[cst.LeftParen(whitespace_after=expr.lbracket.whitespace_after)],
                rpar=[cst.RightParen(whitespace_before=expr.rbracket.whitespace_before)],
            )
            return module.code_for_node(node)
        if isinstance(expr, cst.ListComp):
            if model.resolve_name("tuple", scope) != "builtins.tuple":
                return None
            gen = cst.GeneratorExp(elt=expr.elt, for_in=expr.for_in, lpar=[], rpar=[])
            return f"tuple({module.code_for_node(gen)})"
        if isinstance(expr, cst.Set):
            if model.resolve_name("frozenset", scope) != "builtins.frozenset":
                return None
            return f"frozenset({module.code_for_node(expr)})"
        return None


# -- JAX405 -----------------------------------------------------------------------------------

_READ = "read"
_STOP = "stop"
"""Rebound (or possibly rebound) or deleted: later reads may see another value."""
_EXIT = "exit"
"""``return``, ``raise``, ``break``, ``continue``: this path goes elsewhere."""
_FALL = "fall"

_DELETES_DONATED = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})
"""``flax.nnx.jit`` writes the new state back into donated modules and variables."""
_METADATA = STATIC_ATTRIBUTES | {"is_deleted", "delete", "devices", "committed", "format"}
"""Attributes readable on a deleted array (checked on jax 0.12: shape, dtype, sharding,
is_deleted() work; the data does not)."""
_METADATA_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.type",
        "builtins.id",
        "builtins.callable",
        "builtins.hasattr",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.typeof",
        "numpy.shape",
        "numpy.ndim",
    }
)
"""Calls that read only metadata (``len(x)`` and ``jnp.shape(x)`` work on a deleted
array; ``str(x)`` and ``repr(x)`` do not)."""
_EXAMPLES_JAX405 = Examples(Path(__file__).parent / "compilation" / "donated_buffer_reuse.py")


class DonatedBufferReuse(_Queries, Rule):
    code = "JAX405"
    name = "donated-buffer-reuse"
    message = "`{name}` {problem}; {advice}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --donate-argnums 0"
    docs = """\
## What it does
Flags a variable passed in a donated position of a jitted function
(`donate_argnums`/`donate_argnames` on `@jax.jit`, `@partial(jax.jit, ...)`,
`jax.jit(f, ...)`, `jax.pmap`) and then read again in the same function without
being rebound: later in the code (in any branch), or on the next iteration of the
loop that contains the call when the loop never rebinds it.

It stays silent when the variable is rebound from the result
(`state = step(state, batch)`, `state, metrics = step(state, batch)`), deleted,
or only its metadata is read (`x.shape`, `x.dtype`, `len(x)`, `x.is_deleted()`),
when it is a NumPy array or a Python literal (JAX donates its own device copy),
and on attribute reads of a value that may be a pytree with static fields
(`state.apply_fn`). `flax.nnx.jit` is not covered: it writes the new state back
into the donated modules and variables, so reading them afterwards is how NNX is
used.

## Why is this bad
Donation lets XLA reuse the argument's memory for the output, and JAX deletes the
donated array. CPU honours donation too (checked on JAX 0.12: no warning, and
`x.is_deleted()` is `True` after the call). Any later use of the data, such as
arithmetic, printing, `np.asarray`, or passing it to the jitted function again, raises
`RuntimeError: Array has been deleted with shape=float32[3].` (When XLA cannot
reuse the buffer, for instance because no output has its shape, JAX warns "Some
donated buffers were not usable" and keeps the array: then the donation was
useless.)

## Example
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w, g):
    return w - 0.1 * g

w = jnp.ones(3)
new_w = update(w, jnp.ones(3))
print(w.sum())
```

## Use instead
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w, g):
    return w - 0.1 * g

w = jnp.ones(3)
w = update(w, jnp.ones(3))
print(w.sum())
```

## Fix safety
No automatic fix: whether the code meant the old value (then it must not donate
it, or must copy it first) or the new one (then it should read the result) is a
decision for the author.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC --donate-argnums 0` compiles the function with
its first argument donated and lists which input leaves the compiled program
donates; reading such an argument after a real call raises `RuntimeError: Array
has been deleted`.
"""
    VALID = [
        _EXAMPLES_JAX405.valid(
            "valid_fix_rebound_result.py", note="the fix: rebound from the result", runs=True
        ),
        _EXAMPLES_JAX405.valid(
            "valid_rebound_result_every_iteration_tuple.py",
            note="rebound from the result on every iteration (tuple target)",
            runs=True,
        ),
        _EXAMPLES_JAX405.valid(
            "valid_reads_before_call_only_metadata.py",
            note="reads before the call; only metadata after it",
            runs=True,
        ),
        _EXAMPLES_JAX405.valid(
            "valid_numpy_input_jax_donates_own.py",
            note="a NumPy input: JAX donates its own device copy",
            runs=True,
        ),
        _EXAMPLES_JAX405.valid("valid_only_g_donated.py", note="only g is donated", runs=True),
        _EXAMPLES_JAX405.valid(
            "valid_attribute_possible_pytree_may_static.py",
            note="an attribute of a possible pytree may be static metadata",
        ),
        _EXAMPLES_JAX405.valid(
            "valid_read_other_branch.py", note="the read is in the other branch", runs=True
        ),
        _EXAMPLES_JAX405.valid(
            "valid_loop_exits_after_call_second.py",
            note="the loop exits after the call: no second iteration",
            runs=True,
        ),
        _EXAMPLES_JAX405.valid("valid_donation.py", note="no donation", runs=True),
        _EXAMPLES_JAX405.valid(
            "valid_nnx_jit_updates_donated_modules.py",
            note="nnx.jit updates donated modules in place",
        ),
        _EXAMPLES_JAX405.valid(
            "valid_new_array_loop_target_each.py",
            note="a new array from the loop target each iteration; a closure that is never called",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX405.invalid(
            "invalid_print_w_sum.py",
            line=12,
            column=7,
            raises="RuntimeError",
            message_contains="`w` is read after it was donated to `update` at line 11",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_new_state_train_step_state_x.py",
            line=11,
            column=32,
            raises="RuntimeError",
            message_contains=(
                "`state` is donated to `train_step` on every iteration of the loop at line 10 "
                "but never rebound"
            ),
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_donate_argnames_passed_keyword.py",
            line=11,
            column=15,
            raises="RuntimeError",
            note="donate_argnames, passed by keyword",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_inline_jit.py", line=6, raises="RuntimeError", note="an inline jit"
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_read_one_branch.py",
            line=13,
            raises="RuntimeError",
            note="a read in one branch",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_donated_twice.py",
            line=11,
            column=33,
            raises="RuntimeError",
            note="donated twice",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_jitted_method_donate_argnums_counts.py",
            line=13,
            column=22,
            message_contains="donated to `self.step`",
            note="a jitted method: donate_argnums counts self",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_conditional_break_does_end_loop.py",
            line=12,
            column=18,
            raises="RuntimeError",
            message_contains="on every iteration of the loop at line 11",
            note="a conditional break does not end the loop on every path",
        ),
        _EXAMPLES_JAX405.invalid(
            "invalid_call_if_header_inside_block.py",
            line=14,
            column=7,
            raises="RuntimeError",
            note="a call in an if header, inside a with block",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        jitted = self.jitted_call(node)
        if jitted is None or jitted.transform not in _DELETES_DONATED:
            return
        donated = jitted.chosen(("donate_argnums",), "donate_argnames")
        if not donated:
            return
        for arg, param in jitted.argument_params(node):
            if param not in donated or not isinstance(arg.value, cst.Name):
                continue
            self._check(node, arg.value, jitted)

    # -- one donated variable --------------------------------------------------------------

    def _check(self, call: cst.Call, name: cst.Name, jitted: _Jitted) -> None:
        model = self.ctx.model
        found = model.lookup(name.value, model.scope_for(name))
        if found is None:
            return
        scope = found[0]
        if model.scope_for(name) is not scope or self._host_value(found[1]):
            return
        val = self.ctx.trace.value(name)
        array = val is not None and val.array
        stmt = self._statement(call)
        if stmt is None:
            return
        fn = _short(self.ctx.code(call.func), 30)
        scan = _Scan(self, name.value, scope, array)
        status, read, loop = scan.after_call(call, stmt)
        line = self.ctx.positions[call].start.line
        if status == _READ and read is not None:
            self.report(
                read,
                name=name.value,
                problem=(
                    f"is read after it was donated to `{fn}` at line {line}: the call deleted "
                    'its buffers, so this raises RuntimeError ("Array has been deleted")'
                ),
                advice=f"read the call's result instead, or rebind `{name.value}` from it",
            )
        elif loop is not None:
            loop_line = self.ctx.positions[loop].start.line
            self.report(
                name,
                name=name.value,
                problem=(
                    f"is donated to `{fn}` on every iteration of the loop at line {loop_line} "
                    "but never rebound in it: from the second iteration on, the call gets a "
                    'deleted array (RuntimeError "Array has been deleted")'
                ),
                advice=f"rebind it from the result (`{name.value} = {fn}(...)`)",
            )

    def _host_value(self, bindings: list[Binding]) -> bool:
        """Every binding gives a NumPy array or a Python literal: JAX donates a copy."""
        values = []
        for b in bindings:
            if b.kind != "assign":
                return False
            value = self.index.assigned.get(id(b.node))
            if value is None:
                return False
            values.append(value)
        for value in values:
            if isinstance(
                value, (cst.Integer, cst.Float, cst.SimpleString, cst.List, cst.Tuple, cst.Dict)
            ):
                continue
            if isinstance(value, cst.Call):
                qn = self.ctx.model.call_name(value)
                if qn is not None and qn.startswith("numpy."):
                    continue
            return False
        return True

    def _statement(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The statement that evaluates ``node``, in the same scope."""
        for _, parent in self.index.ancestors(node):
            if isinstance(parent, (cst.Lambda, *_COMPREHENSIONS, cst.FunctionDef, cst.ClassDef)):
                return None
            if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return parent
        return None


class _Scan:
    """Where a donated variable is next read, along the code that runs after the call."""

    def __init__(self, rule: DonatedBufferReuse, name: str, scope: Scope, array: bool) -> None:
        self.rule = rule
        self.index = rule.index
        self.model = rule.ctx.model
        self.positions = rule.ctx.positions
        self.name = name
        self.scope = scope
        self.array = array

    # -- entry -----------------------------------------------------------------------------

    def after_call(
        self, call: cst.Call, stmt: cst.CSTNode
    ) -> tuple[str, cst.CSTNode | None, cst.CSTNode | None]:
        """(status, the read, a loop whose next iteration reads the donated value)."""
        status, read = self._rest_of_statement(call, stmt)
        if status != _FALL:
            return status, read, None
        if isinstance(stmt, cst.BaseCompoundStatement):
            # the call is in the header: the body runs next
            status, read = self._header_body(stmt)
            if status != _FALL:
                return status, read, None
        loop_hit: cst.CSTNode | None = None
        node: cst.CSTNode = stmt
        while True:
            parent = self.index.parent.get(id(node))
            if isinstance(parent, cst.SimpleStatementLine):
                siblings = list(parent.body)
                status, read = self._smalls(siblings[siblings.index(node) + 1 :])
                if status != _FALL:
                    return status, read, loop_hit
                node = parent
                continue
            if isinstance(parent, (cst.IndentedBlock, cst.Module)):
                body = list(parent.body)
                status, read = self._stmts(body[body.index(node) + 1 :])
                if status != _FALL:
                    return status, read, loop_hit
                owner = (
                    self.index.parent.get(id(parent))
                    if isinstance(parent, cst.IndentedBlock)
                    else None
                )
                if owner is None or isinstance(owner, (cst.FunctionDef, cst.ClassDef)):
                    return _FALL, None, loop_hit
                node, extra, loop = self._leave_block(owner, parent, node)
                if loop_hit is None and loop is not None:
                    loop_hit = loop
                if extra is not None:
                    status, read = extra
                    if status != _FALL:
                        return status, read, loop_hit
                continue
            return _FALL, None, loop_hit

    def _rest_of_statement(
        self, call: cst.Call, stmt: cst.CSTNode
    ) -> tuple[str, cst.CSTNode | None]:
        """Reads later in the statement that contains the call, then its own rebinding."""
        end = self.positions[call].end
        for _, parent in self.index.ancestors(call):
            if parent is stmt:
                break
            if isinstance(parent, (cst.IfExp, cst.BooleanOperation)):
                return _STOP, None  # evaluation order depends on a condition
        header = stmt
        if isinstance(stmt, cst.BaseCompoundStatement):
            header = self._header_of(stmt, call)
            if header is None:
                return _STOP, None
        for node in self._reads(header):
            pos = self.positions[node].start
            if (pos.line, pos.column) >= (end.line, end.column):
                return _READ, node
        if isinstance(stmt, cst.BaseSmallStatement):
            if isinstance(stmt, (cst.Return, cst.Raise)):
                return _STOP, None
            if self._binds_small(stmt):
                return _STOP, None
        if isinstance(stmt, cst.While):
            return _STOP, None  # the test runs again: too subtle to follow
        return _FALL, None

    def _header_of(self, stmt: cst.BaseCompoundStatement, call: cst.Call) -> cst.CSTNode | None:
        parts: list[cst.CSTNode] = []
        if isinstance(stmt, cst.If):
            parts = [stmt.test]
        elif isinstance(stmt, cst.For):
            parts = [stmt.iter]
        elif isinstance(stmt, cst.With):
            parts = [item.item for item in stmt.items]
        elif isinstance(stmt, cst.Match):
            parts = [stmt.subject]
        for part in parts:
            if part is call or self.index.inside(call, part):
                return part
        return None

    def _header_body(self, stmt: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        if isinstance(stmt, cst.If):
            return self._if_branches(stmt)
        if isinstance(stmt, cst.For):
            if self._binds_target(stmt.target):
                return _STOP, None
            status, read = self._stmts(stmt.body.body)
            return (
                (status, read)
                if status == _READ
                else (_STOP, None)
                if status == _STOP
                else (_FALL, None)
            )
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                if item.asname is not None and self._binds_target(item.asname.name):
                    return _STOP, None
            return self._stmts(stmt.body.body)
        return _STOP, None

    # -- leaving a block -------------------------------------------------------------------

    def _leave_block(
        self, owner: cst.CSTNode, block: cst.CSTNode, stmt: cst.CSTNode
    ) -> tuple[cst.CSTNode, tuple[str, cst.CSTNode | None] | None, cst.CSTNode | None]:
        """After the last statement of ``block``: the statement to continue after, what
        runs in between (else/finally blocks), and a loop that comes round again."""
        if isinstance(owner, cst.Else):
            owner = self.index.parent.get(id(owner)) or owner
        if isinstance(owner, (cst.If,)):
            top = owner
            while isinstance(self.index.parent.get(id(top)), cst.If):
                top = self.index.parent.get(id(top))  # type: ignore[assignment]
            return top, None, None
        if isinstance(owner, (cst.For, cst.While)):
            loop = None
            if (
                block is owner.body
                and not self._loop_rebinds(owner)
                and not self._exits_after(block, stmt)
            ):
                loop = owner
            extra = None
            if owner.orelse is not None:
                extra = self._stmts(owner.orelse.body.body)
            return owner, extra, loop
        if isinstance(owner, cst.Try):
            extra = None
            parts: list[Sequence[cst.BaseStatement]] = []
            if block is owner.body and owner.orelse is not None:
                parts.append(owner.orelse.body.body)
            if owner.finalbody is not None and block is not owner.finalbody.body:
                parts.append(owner.finalbody.body.body)
            for part in parts:
                extra = self._stmts(part)
                if extra[0] != _FALL:
                    break
            return owner, extra, None
        if isinstance(owner, (cst.ExceptHandler, cst.Finally)):
            try_node = self.index.parent.get(id(owner))
            extra = None
            if (
                isinstance(owner, cst.ExceptHandler)
                and isinstance(try_node, cst.Try)
                and try_node.finalbody is not None
            ):
                extra = self._stmts(try_node.finalbody.body.body)
            return try_node or owner, extra, None
        if isinstance(owner, cst.MatchCase):
            return self.index.parent.get(id(owner)) or owner, None, None
        return owner, None, None

    def _loop_rebinds(self, loop: cst.For | cst.While) -> bool:
        if isinstance(loop, cst.For) and self._binds_target(loop.target):
            return True
        for node in self.index.nodes_in(loop):
            if isinstance(node, cst.Name) and node.value == self.name:
                found = self.model.lookup(node.value, self.model.scope_for(node))
                if found is None or found[0] is not self.scope:
                    continue
                if any(b.node is node for b in found[1]):
                    return True
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.name.value == self.name:
                return True
        return False

    def _exits_after(self, block: cst.CSTNode, stmt: cst.CSTNode) -> bool:
        body = list(getattr(block, "body", ()))
        if stmt not in body:
            return False
        for later in body[body.index(stmt) :]:
            if isinstance(later, cst.SimpleStatementLine) and any(
                isinstance(s, (cst.Return, cst.Raise, cst.Break)) for s in later.body
            ):
                return True
        return False

    # -- scanning statements ---------------------------------------------------------------

    def _stmts(self, stmts: Sequence[cst.CSTNode]) -> tuple[str, cst.CSTNode | None]:
        for stmt in stmts:
            status, read = self._stmt(stmt)
            if status != _FALL:
                return status, read
        return _FALL, None

    def _smalls(self, smalls: Sequence[cst.CSTNode]) -> tuple[str, cst.CSTNode | None]:
        for small in smalls:
            status, read = self._small(small)
            if status != _FALL:
                return status, read
        return _FALL, None

    def _stmt(self, stmt: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        if isinstance(stmt, cst.SimpleStatementLine):
            return self._smalls(stmt.body)
        if isinstance(stmt, cst.If):
            read = self._first_read(stmt.test)
            if read is not None:
                return _READ, read
            return self._if_branches(stmt)
        if isinstance(stmt, (cst.For, cst.While)):
            head = stmt.iter if isinstance(stmt, cst.For) else stmt.test
            read = self._first_read(head)
            if read is not None:
                return _READ, read
            if isinstance(stmt, cst.For) and self._binds_target(stmt.target):
                return _STOP, None
            status, read = self._stmts(stmt.body.body)
            if status == _READ:
                return status, read
            if status == _STOP or self._loop_rebinds(stmt):
                return _STOP, None
            if stmt.orelse is not None:
                return self._stmts(stmt.orelse.body.body)
            return _FALL, None
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                read = self._first_read(item.item)
                if read is not None:
                    return _READ, read
                if item.asname is not None and self._binds_target(item.asname.name):
                    return _STOP, None
            return self._stmts(stmt.body.body)
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            blocks = [stmt.body.body, *(h.body.body for h in stmt.handlers)]
            if stmt.orelse is not None:
                blocks.append(stmt.orelse.body.body)
            if stmt.finalbody is not None:
                blocks.append(stmt.finalbody.body.body)
            stop = False
            for block in blocks:
                status, read = self._stmts(block)
                if status == _READ:
                    return status, read
                stop = stop or status == _STOP
            return (_STOP, None) if stop else (_FALL, None)
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            for dec in stmt.decorators:
                read = self._first_read(dec.decorator)
                if read is not None:
                    return _READ, read
            if stmt.name.value == self.name:
                return _STOP, None
            return _FALL, None
        if isinstance(stmt, cst.Match):
            read = self._first_read(stmt.subject)
            if read is not None:
                return _READ, read
            stop = False
            for case in stmt.cases:
                status, read = self._stmts(case.body.body)
                if status == _READ:
                    return status, read
                stop = stop or status == _STOP
            return (_STOP, None) if stop else (_FALL, None)
        return _FALL, None

    def _if_branches(self, stmt: cst.If) -> tuple[str, cst.CSTNode | None]:
        outcomes = [self._stmts(stmt.body.body)]
        if isinstance(stmt.orelse, cst.If):
            outcomes.append(self._stmt(stmt.orelse))
        elif isinstance(stmt.orelse, cst.Else):
            outcomes.append(self._stmts(stmt.orelse.body.body))
        else:
            outcomes.append((_FALL, None))
        for status, read in outcomes:
            if status == _READ:
                return status, read
        if any(status == _STOP for status, _ in outcomes):
            return _STOP, None  # rebound on some paths: later reads are uncertain
        if all(status == _EXIT for status, _ in outcomes):
            return _EXIT, None
        return _FALL, None  # the paths that go on have left the value alone

    def _small(self, small: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        read = self._first_read(small, skip_targets=True)
        if read is not None:
            return _READ, read
        if isinstance(small, cst.AugAssign) and self._is_ours(small.target):
            return _READ, small.target
        if isinstance(small, (cst.Return, cst.Raise, cst.Break, cst.Continue)):
            return _EXIT, None
        if self._binds_small(small):
            return _STOP, None
        return _FALL, None

    def _binds_small(self, small: cst.CSTNode) -> bool:
        if isinstance(small, cst.Assign):
            return any(self._binds_target(t.target) for t in small.targets)
        if isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            return self._binds_target(small.target)
        if isinstance(small, cst.Del):
            return self._binds_target(small.target)
        if isinstance(small, (cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)):
            return any(
                isinstance(n, cst.Name) and n.value == self.name for n in self.index.nodes_in(small)
            ) or isinstance(small, (cst.Import, cst.ImportFrom))
        return False

    def _binds_target(self, target: cst.BaseExpression) -> bool:
        if isinstance(target, cst.Name):
            return target.value == self.name
        if isinstance(target, (cst.Tuple, cst.List)):
            return any(self._binds_target(el.value) for el in target.elements)
        if isinstance(target, cst.StarredElement):
            return self._binds_target(target.value)
        return False

    # -- reads -----------------------------------------------------------------------------

    def _is_ours(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, cst.Name) or node.value != self.name:
            return False
        found = self.model.lookup(node.value, self.model.scope_for(node))
        if found is None or found[0] is not self.scope:
            return False
        scope: Scope | None = self.model.scope_for(node)
        while scope is not None and scope is not self.scope:
            if scope.kind in ("lambda", "function", "class"):
                return False  # runs later, if at all
            scope = scope.parent
        return True

    def _reads(self, root: cst.CSTNode, skip_targets: bool = False) -> Iterator[cst.Name]:
        targets: list[cst.CSTNode] = []
        if skip_targets and isinstance(root, cst.Assign):
            targets = [t.target for t in root.targets]
        elif skip_targets and isinstance(root, (cst.AnnAssign, cst.AugAssign, cst.Del)):
            targets = [root.target]
        for node in self.index.nodes_in(root):
            if not self._is_ours(node):
                continue
            if any(node is t or self.index.inside(node, t) for t in targets):
                continue
            assert isinstance(node, cst.Name)
            if self._metadata_only(node):
                continue
            yield node

    def _first_read(self, root: cst.CSTNode, skip_targets: bool = False) -> cst.Name | None:
        return next(self._reads(root, skip_targets), None)

    def _metadata_only(self, name: cst.Name) -> bool:
        """A use that does not touch the deleted buffers (or may not)."""
        parent = self.index.parent.get(id(name))
        if isinstance(parent, cst.Arg):
            if parent.keyword is name:
                return True
            call = self.index.parent.get(id(parent))
            if isinstance(call, cst.Call) and self.model.call_name(call) in _METADATA_CALLS:
                return True
        if isinstance(parent, cst.Attribute) and parent.value is name:
            attr = parent.attr.value
            if attr in _METADATA:
                return True
            # ``state.apply_fn``: an attribute of a pytree may be static metadata
            return not self.array and attr not in ARRAY_ATTRIBUTES
        if isinstance(parent, cst.Comparison):
            return any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons)
        return False
