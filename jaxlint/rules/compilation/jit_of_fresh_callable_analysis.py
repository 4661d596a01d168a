"""JAX402's analysis: whether the function that builds the wrapper runs many times, and
whether what it wraps is new on every call (a mixin of :class:`JitOfFreshCallable`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.jit_params import argument_for
from jaxlint.analysis.summary import host_local
from jaxlint.analysis.transforms import EQUINOX_WRAPPERS_BY_VALUE, LAX_LOOPS, PARTIAL
from jaxlint.analysis.trips import SHORT_LOOP, trip_count
from jaxlint.rules.compilation.helpers import SCOPE_NODES, Queries, positional, short

if TYPE_CHECKING:
    from jaxlint.rules.compilation.jit_of_fresh_callable import JitOfFreshCallable

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
_DEVICE_LISTS = frozenset({"jax.devices", "jax.local_devices"})
_NUMPYRO_PRIMITIVES = frozenset(
    f"numpyro.{name}"
    for name in ("sample", "deterministic", "factor", "plate", "param", "subsample", "module")
)
_FUNCTION_WORDS = frozenset({"f", "g", "fn", "fun", "func", "function", "callable"})


def function_name(name: str) -> bool:
    """A parameter name that says it holds a function: ``f``, ``fn``, ``loss_fn``,
    ``apply_func``."""
    return any(part in _FUNCTION_WORDS for part in name.lower().strip("_").split("_"))


_SETUP_PREFIXES = ("init", "setup", "set_up", "create", "build", "make")
"""Initialisers and builders (``initialized``, ``setup_initial_state``): run once per model."""


class FreshCallableChecks(Queries):
    """The analysis behind :class:`JitOfFreshCallable`, and its report."""

    report: Callable[..., None]  # the rule's

    def _repeated(self, outer: cst.FunctionDef, node: cst.CSTNode) -> bool:
        """``outer`` may run many times, each run outside an enclosing trace."""
        if self.ctx.is_test_file or self.runs_once(outer) or self.caches_result(outer):
            return False  # in a test file every helper runs a few times per test run
        if self.program_entry(outer):
            return False  # a program's entry point, called once per run
        name = outer.name.value.lower()
        if any(part.startswith(_SETUP_PREFIXES) for part in name.split("_")):
            return False  # ``init_params``, ``sharded_init``: runs once per model
        cls = self.enclosing_class(outer)
        if cls is not None and any(
            self.ctx.model.qualified_name(b.value) != "builtins.object" for b in cls.bases
        ):
            return False  # a module-like class: its methods often run under a transform
        if any(
            type(n) in (cst.For, cst.While)
            and not self._minor_loop(n)
            and not self._other_branch(n, node, outer)
            for n in self._own_nodes(outer)
        ):
            return False  # a driver (a training loop): one compile per run is amortised
        if self._probabilistic_model(outer):
            return False  # numpyro's inference traces the model: an inner jit is inlined
        for _, parent in self.index.ancestors(outer):
            if isinstance(parent, cst.FunctionDef) and self.runs_once(parent):
                return False  # a helper of a test: runs a few times at most
        info = self.ctx.trace.info(outer)
        if info is not None and info.staging and info.external and not info.presumed():
            if not self._host_reached(outer):
                return False  # only other modules' staged code calls it: the jit is inlined
        return not (info is not None and info.staging and not info.external) and not self.staged(
            node
        )

    def _host_reached(self, fn: cst.FunctionDef) -> bool:
        """``fn`` (traced by other modules' jitted code) may also run on the host: this
        module names it outside a staged trace, or the project does
        (``ProjectFacts.host_reached``; pmpp's ``get_k_squared``, called only from
        ``laplace`` inside the jitted solver, is not)."""
        project = self.ctx.project
        if project is None or type(self.index.parent.get(id(fn))) is not cst.Module:
            return True
        local: list[str] | None = getattr(self, "_host_local", None)
        if local is None:  # one pass over the module, however many functions ask
            local = self._host_local = host_local(self.ctx.trace, project, self.ctx.model)
        return fn.name.value in local or project.host_reached(fn.name.value)

    def _other_branch(self, loop: cst.CSTNode, node: cst.CSTNode, outer: cst.FunctionDef) -> bool:
        """``loop`` and ``node`` are in two branches of one ``if`` (``if not progbar:``
        builds the wrapper, ``else:`` loops): a call that builds the wrapper never runs
        the loop, so nothing amortises the compilation (numpyro e10f6648)."""
        for child, parent in self.index.ancestors(node):
            if parent is outer:
                return False
            if isinstance(parent, cst.If):
                other = parent.orelse if child is parent.body else parent.body
                if other is not None and self.index.inside(loop, other):
                    return True
        return False

    def _passed_to_jitter(self, node: cst.Call) -> None:
        """``collect(x, transform=lambda v: ...)`` where the project function ``collect``
        jits (and runs) what it is given for ``transform``: the lambda is new on every
        call, so each call traces and compiles it again."""
        entries = [e for e in self.jit_facts(node) if e["how"] == "calls"]
        if not entries:
            return
        outer, looped = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or looped or not self._repeated(outer, node):
            return
        for entry in entries:
            arg = argument_for(node, entry)
            what = None if arg is None else self._fresh(arg, outer)
            if (
                arg is None
                or what is None
                or self._function_parameter(self._source(arg, outer), outer)
            ):
                continue
            if entry["transform"].endswith("pmap") and not self._host_side(outer):
                continue
            name = short(self.ctx.code(node.func))
            through = " (through a function that calls it)" if entry["through"] else ""
            verb = "jits" if not entry["transform"].endswith("pmap") else "pmaps"
            verb = f"{verb} its argument `{entry['param']}`{through}, here"
            self._report(arg, name, what, outer, entry["transform"], verb=verb)
            return

    def _fresh_static(self, node: cst.Call) -> None:
        """``jax.jit(fori_loop, static_argnums=(2,))(0, n, lambda i, x: ..., x)``: a static
        argument is hashed into the cache key, and a new function hashes by identity, so
        each call of the enclosing function traces and compiles again (numpyro 40442d08). Only
        in host code (it fetches values or runs from untraced code of the module): under an
        outer jit the static argument is hashed once per outer trace."""
        if type(node.func) not in (cst.Call, cst.Name):
            return
        jitted = self.jitted_call(node)
        if jitted is None:
            return
        statics = list(jitted.static_arguments(node))
        if not statics:
            return
        outer, looped = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or looped or not self._repeated(outer, node):
            return
        if not self._host_side(outer):
            return  # an array function (an energy, a loss) usually runs under its caller's jit
        for arg, param in statics:
            what = self._fresh(arg.value, outer)
            if what is None or self._function_parameter(self._source(arg.value, outer), outer):
                continue
            label = f"`{param}`" if isinstance(param, str) else str(param)
            verb = f"is given, as its static argument {label},"
            wrapper = self.ctx.code(node.func)
            self._report(arg.value, wrapper, what, outer, jitted.transform, verb=verb)
            return

    def _wrapper_param(self, node: cst.Call) -> str | None:
        """The parameter a project jit wrapper (``maybe_jit(fn, ...)``) jits, when the
        call is of one."""
        if self.ctx.trace.transform_of(node.func) is not None:
            return None
        for entry in self.jit_facts(node):
            if entry["how"] == "returns" and entry["through"] is None:
                return str(entry["param"])
        return None

    def _host_side(self, outer: cst.FunctionDef) -> bool:
        """Evidence that ``outer`` runs on the host, where a ``pmap`` compiles on every
        call (elsewhere it may be an inner map under an outer ``pmap``): it fetches values
        to the host, or this module calls it from code that is not traced."""
        return self._host_only(outer) or self._called_on_host(outer)

    def _source(self, fexpr: cst.BaseExpression, outer: cst.FunctionDef) -> cst.CSTNode:
        """The code of the wrapped callable: the nested ``def`` or the value a name is
        bound to in ``outer``, else the expression itself."""
        if isinstance(fexpr, cst.Name):
            found = self.bindings(fexpr)
            if found is not None and len(found[1]) == 1:
                binding = found[1][0]
                if binding.kind == "def":
                    return binding.node
                value = self.index.assigned.get(id(binding.node))
                if value is not None:
                    return value
        return fexpr

    def _minor_loop(self, loop: cst.For | cst.While) -> bool:
        """A loop that does not make its function a driver: one over the devices
        (``for d in jax.local_devices()``) or one the code bounds to a few dozen
        iterations (``range(8)``)."""
        if not isinstance(loop, cst.For):
            return False
        it = loop.iter
        if isinstance(it, cst.Call) and self.ctx.model.call_name(it) in _DEVICE_LISTS:
            return True
        count = trip_count(self.ctx.model, it)
        return count is not None and count <= SHORT_LOOP

    def _probabilistic_model(self, fn: cst.FunctionDef) -> bool:
        """``fn`` calls numpyro's primitives (``numpyro.sample``, ``deterministic``,
        ``plate``, ...): a model, which runs under the trace of the inference that uses
        it (MCMC and SVI jit it, Predictive vmaps it)."""
        return any(
            isinstance(n, cst.Call) and self.ctx.model.call_name(n) in _NUMPYRO_PRIMITIVES
            for n in self._own_nodes(fn)
        )

    def _called_on_host(self, fn: cst.FunctionDef) -> bool:
        """This module calls ``fn`` by name from code that is not traced: a ``pmap`` in it
        compiles on each of those calls rather than being an inner map."""
        model = self.ctx.model
        for name in self.index.nodes_in(self.ctx.module):
            if type(name) is not cst.Name or name.value != fn.name.value:  # type: ignore[attr-defined]
                continue
            parent = self.index.parent.get(id(name))
            if not (isinstance(parent, cst.Call) and parent.func is name):
                continue
            if self.index.inside(parent, fn):
                continue
            found = model.lookup(name.value, model.scope_for(name))  # type: ignore[attr-defined]
            if found is None or not any(b.node is fn for b in found[1]):
                continue
            if self.ctx.trace.traced_function_of(parent) is None:
                return True
        return False

    def _function_parameter(self, fresh: cst.CSTNode, outer: cst.FunctionDef) -> str | None:
        """A parameter of ``outer`` that the fresh callable uses as a function (it calls
        it, or the parameter's name says function: ``f``, ``fn``, ``loss_fn``): a new
        function per call of ``outer`` then comes from the caller, and no module-level
        function could take it as an array argument."""
        model = self.ctx.model
        scope = model.scope_of_node.get(id(outer))
        if scope is None:
            return None
        called = {
            n.func.value
            for n in self.index.nodes_in(outer)
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
        }
        for node in self.index.nodes_in(fresh) if not isinstance(fresh, cst.Name) else [fresh]:
            if not isinstance(node, cst.Name):
                continue
            found = model.lookup(node.value, model.scope_for(node))
            if found is None or found[0] is not scope:
                continue
            if any(b.kind == "param" for b in found[1]) and (
                node.value in called or function_name(node.value)
            ):
                return node.value
        return None

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
        nested = [n for n in self.index.nodes_in(fn.body) if type(n) in SCOPE_NODES]
        for node in self.index.nodes_in(fn.body):
            if not any(node is n or self.index.inside(node, n) for n in nested):
                yield node

    def _wrapped_fresh(
        self, fexpr: cst.BaseExpression, outer: cst.FunctionDef, what: str
    ) -> str | None:
        """Under ``eqx.filter_jit``: an Equinox wrapper (``eqx.filter_vmap(f, in_axes=...)``)
        is a Module compared by value, so a new one around the same ``f`` hits
        ``filter_jit``'s cache (measured on Equinox 0.13: one trace in four calls; jaxmat's
        ``loader.py``, fresh-2026-12p). It is new only when ``f`` is."""
        if type(fexpr) is not cst.Call:
            return what
        if self.ctx.model.call_name(fexpr) not in EQUINOX_WRAPPERS_BY_VALUE:
            return what
        args = positional(fexpr)
        inner = self._fresh(args[0].value, outer) if args else None
        return (
            None
            if inner is None
            else f"the `{short(self.ctx.code(fexpr), 40)}` result, built around {inner}"
        )

    def _fresh(self, fexpr: cst.BaseExpression, outer: cst.FunctionDef) -> str | None:
        """How to name the wrapped callable when it is a new object on each call of
        ``outer``; ``None`` when it may be the same object every time."""
        model = self.ctx.model
        if isinstance(fexpr, cst.Lambda):
            return "a lambda"
        if isinstance(fexpr, cst.Call):
            text = short(self.ctx.code(fexpr), 40)
            if model.call_name(fexpr) in PARTIAL:
                return f"`{text}`"
            if self.ctx.trace.transform_of(fexpr.func) is not None and positional(fexpr):
                return f"the `{text}` result"
            # a wrapper built around a new function (``checkify.checkify(lambda ...)``)
            args = positional(fexpr)
            inner = self._fresh(args[0].value, outer) if args else None
            if inner is not None:
                return f"the `{text}` result, built around {inner}"
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

    def _only_called(self, name: cst.Name, outer: cst.FunctionDef, depth: int = 0) -> bool:
        """``name``, bound once in ``outer``, is only ever called there, outside loops (never
        returned, stored, passed on or captured): the jitted function dies with the call,
        and its compilation serves a single use. Mapping it with ``jax.vmap`` and calling
        the result counts as a call (``jax.vmap(_uniform, in_axes=(0, None))(trials, n)``,
        or through a name bound to the map): the map traces the new jitted function again
        and compiles it once per call of ``outer`` (tests/test_compilation_runtime.py)."""
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
            if depth < 2 and self._mapped_and_called(node, parent, outer, depth):
                calls += 1
                continue
            return False
        return calls > 0

    def _mapped_and_called(
        self, node: cst.Name, arg: cst.CSTNode | None, outer: cst.FunctionDef, depth: int
    ) -> bool:
        """``node`` is the function ``jax.vmap`` maps (its first argument), and the map is
        called at once or bound once to a name only called (see :meth:`_only_called`)."""
        if not isinstance(arg, cst.Arg) or arg.keyword is not None or arg.star:
            return False
        vmap = self.index.parent.get(id(arg))
        if not isinstance(vmap, cst.Call) or not vmap.args or vmap.args[0] is not arg:
            return False
        if self.ctx.model.call_name(vmap) != "jax.vmap":
            return False
        if self.function_scope(vmap)[1]:
            return False
        parent = self.index.parent.get(id(vmap))
        if isinstance(parent, cst.Call) and parent.func is vmap:
            return True
        if not (isinstance(parent, cst.Assign) and parent.value is vmap):
            return False
        if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
            return False
        return self._only_called(parent.targets[0].target, outer, depth + 1)

    def _enclosing_function(self, fn: cst.FunctionDef) -> cst.FunctionDef | None:
        """The function whose body defines ``fn`` (a closure a factory returns), if any."""
        parent = self.index.parent.get(id(fn))
        while parent is not None and type(parent) is not cst.FunctionDef:
            if type(parent) in (cst.ClassDef, cst.Lambda):
                return None
            parent = self.index.parent.get(id(parent))
        return parent

    def _report(
        self,
        node: cst.CSTNode,
        wrapper: str,
        what: str,
        outer: cst.FunctionDef,
        transform: str,
        verb: str | None = None,
    ) -> None:
        name = outer.name.value
        given = verb
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
            enclosing = self._enclosing_function(outer)
            advice = (
                "build the wrapper once, at module level"
                if enclosing is None
                # a closure made by a factory: what it wraps may be the factory's own
                # (gradsolve's ``closure`` around ``solve_one``, fresh-2026-12p)
                else f"build the wrapper once in `{enclosing.name.value}`, outside `{name}`"
            )
        else:
            advice = (
                f"define it once outside `{outer.name.value}` and pass the values it uses "
                "as arguments (or build it in a functools.cache'd factory)"
            )
        self.report(
            node,
            wrapper=short(wrapper),
            verb=verb if given is None else given,
            what=what,
            outer=name,
            consequence=consequence,
            advice=advice,
        )


def inline(wrapper: cst.Call) -> bool:
    """``jax.jit(f, inline=True)``: meant to be inlined into an enclosing trace."""
    return any(
        a.keyword is not None
        and a.keyword.value == "inline"
        and not (isinstance(a.value, cst.Name) and a.value.value in ("False", "None"))
        for a in wrapper.args
    )


def compiled_loop(rule: JitOfFreshCallable, fexpr: cst.BaseExpression) -> bool:
    """``jax.jit(partial(lax.scan, step))``: the whole run is one compiled loop, and its
    compilation is amortised over the steps."""
    model = rule.ctx.model
    if not (isinstance(fexpr, cst.Call) and model.call_name(fexpr) in PARTIAL):
        return False
    inner = positional(fexpr)
    return bool(inner) and model.qualified_name(inner[0].value) in LAX_LOOPS
