"""JAX401's analysis: what a wrapper built in a loop depends on, whether the loop changes
it, and whether hoisting is possible (a mixin of :class:`JitInLoop`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.cases import case_like, literal_cases, sweep
from jaxlint.analysis.growing import growing_argument
from jaxlint.analysis.names import Binding, Scope, dotted
from jaxlint.analysis.testcode import is_benchmark_function, is_test_function
from jaxlint.analysis.transforms import (
    COLLECTIVE_AXIS_NAME_AT,
    EQUINOX_CACHED_BY_VALUE,
    EQUINOX_WRAPPERS_BY_VALUE,
    PARTIAL,
)
from jaxlint.analysis.trips import (
    SHORT_LOOP,
    rare_test,
    retry_attempt,
    runs_steps,
    skips_unless_every_n,
    trip_count,
)
from jaxlint.analysis.walk import descendants
from jaxlint.diagnostics import Applicability
from jaxlint.rules.compilation.helpers import COMPILING, COMPREHENSIONS, Queries, positional, short
from jaxlint.rules.compilation.jit_in_loop_fix import clear_path, hoist_fix, pure

if TYPE_CHECKING:
    from jaxlint.rules.compilation.jit_in_loop import JitInLoop

_ARRAY_LIBS = ("jax.numpy.", "numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
"""Calls whose result is array data."""
_ARRAY_ATTRS = frozenset(
    {
        "T", "at", "shape", "dtype", "ndim", "size", "real", "imag", "mT",
        "sum", "mean", "max", "min", "prod", "std", "var", "dot", "clip", "round",
        "transpose", "squeeze", "ravel", "flatten", "conj", "argmax", "argmin",
        "cumsum", "all", "any", "set", "add", "multiply", "get",
    }
)  # fmt: skip
"""Attributes and methods of arrays: reading one is still a use of array data."""
_STATIC_KEYWORDS = frozenset(
    {
        "dtype", "shape", "axis", "axes", "axis_name", "num", "precision",
        "preferred_element_type", "mode",
    }
)  # fmt: skip
"""Keywords that JAX takes as static configuration, not as array data."""


class Callable:
    """How the wrapped callable behaves from one evaluation to the next."""

    FRESH = "fresh"
    STABLE = "stable"
    UNKNOWN = "unknown"


class LoopDependencies(Queries):
    """The loop analysis of JAX401 (methods of the rule, kept apart from its docs and examples)."""

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None:
            return
        transform, fexpr = found
        loops = self.hot_loops(node)
        if not loops or self.staged(node) or self.ahead_of_time(node) or self.benchmarked(node):
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
        kind, what = self._kind(
            fexpr, loops[0], scope, scope_node, transform in EQUINOX_CACHED_BY_VALUE
        )
        reused = self._reused(node, loops[0], scope)
        roots: list[str] = []
        if hoist_to is None:
            # depends on the innermost loop: a new function per iteration is expected when
            # the loop sweeps cases, when the wrapper then serves many calls (built once per
            # sample, reused by an inner loop), and when what changes is a function, an
            # object built in the loop or static configuration (no argument can carry it)
            if kind == Callable.STABLE or self._sweep(loops[0]) or reused:
                return
            roots = self._roots(deps, loops[0], scope, node, fexpr)
            if roots is None:
                return
        elif kind == Callable.STABLE and (reused or all(self._sweep(loop) for loop in loops)):
            # the same function: no recompilation, only a wrapper per iteration of a loop
            # over a few cases, or per outer iteration around an inner loop that reuses it
            return
        elif kind != Callable.FRESH and self._cheap(node, loops, kind):
            return
        wrapper_text = short(self.ctx.code(node))
        consequence = self._consequence(kind, what)
        grows = self._growing(node, fexpr, loops[0]) if kind == Callable.STABLE else None
        if grows is not None:
            name, join = grows
            consequence = (
                f"`{name}` grows on every iteration (`{short(self.ctx.code(join), 40)}` at"
                f" line {self.ctx.positions[join].start.line}), so each call has a new"
                f" shape and JAX traces and compiles `{what}` again every time, whatever"
                " the wrapper"
            )
        fix = None
        if hoist_to is not None:
            loop_line = self.ctx.positions[hoist_to].start.line
            advice = f"build it once above the loop at line {loop_line}"
            if grows is not None:
                advice = (
                    f"give `{grows[0]}` a fixed size (pad it) to compile once, and build the"
                    f" wrapper once above the loop at line {loop_line}"
                )
            if pure(self, node) and clear_path(self, node, hoist_to):
                fix = hoist_fix(self, node, transform, fexpr, hoist_to, scope)
        else:
            loop_line = self.ctx.positions[loops[0]].start.line
            advice = self._dependency_advice(deps, roots)
        # Around the same function, the original reuses the first trace too: hoisting keeps
        # behaviour. Around a new function per iteration, the original traced again each
        # time, re-reading any Python state the function reads at trace time.
        safe = kind == Callable.STABLE
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
            # a new function per iteration is traced and compiled again (tests/
            # test_compilation_runtime.py counts it); around the same function only the
            # dispatch is slower, and around an unknown one neither is known
            severity="error" if kind == Callable.FRESH or grows is not None else "warning",
        )

    def _growing(
        self, wrapper: cst.Call, fexpr: cst.BaseExpression, loop: cst.CSTNode
    ) -> tuple[str, cst.Call] | None:
        """An argument that grows on every iteration of ``loop``, in a call of the wrapper
        made there (``jax.jit(f)(x)``, or ``g = jax.jit(f)`` then ``g(x)``)."""
        model = self.ctx.model
        parent = model.parents.get(id(wrapper))
        calls: list[cst.Call] = []
        if type(parent) is cst.Call and parent.func is wrapper:
            calls.append(parent)
        elif type(parent) is cst.Assign and parent.value is wrapper and len(parent.targets) == 1:
            target = parent.targets[0].target
            if type(target) is cst.Name:
                calls.extend(
                    n
                    for n in descendants(loop)
                    if type(n) is cst.Call
                    and type(n.func) is cst.Name
                    and n.func.value == target.value
                )
        for call in calls:
            found = growing_argument(model, self.ctx.trace.resolve_callable, fexpr, call, loop)
            if found is not None:
                return found
        return None

    # -- analysis ----------------------------------------------------------------------

    def _bound_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> list[Binding]:
        return [b for b in scope.bindings.get(name, ()) if self.index.inside(b.node, loop)]

    def _dependencies(self, wrapper: cst.Call, loop: cst.CSTNode, scope: Scope) -> list[str]:
        """What the wrapper uses that the loop changes: names it (re)binds, and attributes
        or items it assigns (``self.fn = ...``), in order of appearance."""
        model = self.ctx.model
        out: list[str] = []
        mutated = _mutated_paths(self, loop)
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
                path = dotted(node.value if isinstance(node, cst.Subscript) else node)
                if path is None:
                    continue
                for m in mutated:
                    if (path == m or path.startswith(m + ".")) and m not in out:
                        out.append(m)
        return out

    def _is_def_in(self, name: str, loop: cst.CSTNode, scope: Scope) -> bool:
        bound = self._bound_in(name, loop, scope)
        return bool(bound) and all(b.kind == "def" for b in bound)

    def _cheap(self, wrapper: cst.Call, loops: list[cst.For | cst.While], kind: str) -> bool:
        """A wrapper that JAX does not compile again (the same function), or may not (an
        unknown callable), rebuilt where a slower call costs nothing that matters: in test
        code (the test policy: a test's speed over a few steps is not what it checks), and,
        around the same function, in loops the code bounds to a few dozen iterations in all
        (``range(50)``) or under a guard that runs one iteration in N
        (``if step % N == 0:``)."""
        if self.ctx.is_test_file or any(
            isinstance(fn, cst.FunctionDef) and is_test_function(fn)
            for _, fn in self.index.ancestors(wrapper)
        ):
            return True
        if kind != Callable.STABLE:
            return False
        if self._wrapped_runs_steps(wrapper):
            return True  # one call runs a whole chain or epoch: the slower call is nothing
        total = 1
        for loop in loops:
            count = trip_count(self.ctx.model, loop.iter) if isinstance(loop, cst.For) else None
            if count is None:
                total = SHORT_LOOP + 1
                break
            total *= count
        if total <= SHORT_LOOP:
            return True
        for child, parent in self.index.ancestors(wrapper):
            if parent is loops[0]:
                break
            if isinstance(parent, cst.If) and child is parent.body and rare_test(parent.test):
                return True
            if isinstance(parent, cst.IndentedBlock) and isinstance(child, cst.BaseStatement):
                for stmt in parent.body:
                    if stmt is child:
                        break
                    if skips_unless_every_n(stmt):
                        return True
        return False

    def hot_loops(self, node: cst.CSTNode) -> list[cst.For | cst.While]:
        """The loops around ``node`` (innermost first) that evaluate it once per iteration:
        not a retry loop whose ``try`` body holds ``node`` and ends, on success, with a
        ``return`` or ``break`` (``while True: try: f = jax.jit(...); return f(x) except
        MemoryError: batch //= 2``): it comes round only when an attempt fails; and not
        a loop around an ``except`` handler that holds ``node``, which runs only when the
        loop's work fails (``except Exception as err: ... fn = jax.jit(...)`` after halving
        a batch that ran out of memory)."""
        attempts: list[cst.Try] = []
        hot: list[cst.For | cst.While] = []
        handled = False
        loops = self.loops_around(node)
        for child, parent in self.index.ancestors(node):
            if not loops:
                break
            if isinstance(parent, cst.Try) and child is parent.body:
                attempts.append(parent)
            elif type(parent) in (cst.ExceptHandler, cst.ExceptStarHandler):
                handled = True
            elif parent is loops[0]:
                if not handled and not any(retry_attempt(parent, t) for t in attempts):
                    hot.append(parent)
                loops = loops[1:]
        return hot

    def benchmarked(self, node: cst.CSTNode) -> bool:
        """``node`` is in a registered benchmark (``@google_benchmark.register``): its loop
        repeats what it measures, tracing and compiling included, on purpose."""
        return any(
            isinstance(fn, cst.FunctionDef) and is_benchmark_function(fn)
            for _, fn in self.index.ancestors(node)
        )

    def _wrapped_runs_steps(self, wrapper: cst.Call) -> bool:
        """The wrapped function loops over many steps itself (a ``lax.scan``/``fori_loop``
        or a ``for`` over ``range``, here or in a function of the module it calls, or an
        imported function its module says loops): one call is a whole chain or epoch."""
        args = positional(wrapper)
        if not args:
            return False
        fexpr = args[0].value
        trace = self.ctx.trace
        resolved = trace.resolve_callable(fexpr)
        if resolved is not None:
            return runs_steps(
                self.ctx.model,
                resolved[0],
                trace.resolve_callable,
                imported=trace.imported_function,
            )
        fact = trace.imported_function(fexpr)
        return fact is not None and bool(fact.get("loops"))

    def _consequence(self, kind: Callable, what: str) -> str:
        """What rebuilding the wrapper costs, by the kind of the wrapped callable."""
        return {
            Callable.FRESH: (
                f"the wrapped {what} is a new function on every iteration, "
                "so JAX traces and compiles it again each time"
            ),
            Callable.STABLE: (
                "each iteration makes a new wrapper around the same function: JAX reuses "
                "the trace and compiled code it cached on the function, but each call "
                "through a new wrapper misses the fast dispatch path"
            ),
            Callable.UNKNOWN: (
                f"each iteration makes a new wrapper, and if `{what}` is a new object each "
                "time, JAX also traces and compiles it again"
            ),
        }[kind]

    def _dependency_advice(self, deps: list[str], roots: list[str]) -> str:
        """Where to build a wrapper that depends on the loop, and what to pass."""
        defs = [d for d in deps if d not in roots]
        names = ", ".join(f"`{d}`" for d in defs)
        passed = ", ".join(f"`{r}`" for r in roots)
        plural = "as arguments" if len(roots) > 1 else "as an argument"
        if defs and not roots:
            advice = f"define {names} and build the wrapper once above the loop"
        elif defs:
            advice = (
                f"define {names} above the loop with {passed} {plural}, "
                "and build the wrapper once there"
            )
        else:
            advice = f"build it once above the loop and pass {passed} {plural}"
        return advice

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``@jax.jit def step(...)`` in a loop body: a new function, traced and compiled
        again, on every iteration."""
        jitted = None
        for decorator in node.decorators:
            found = self.ctx.trace.transform_of(decorator.decorator)
            if found is not None and found[0].qualname in COMPILING:
                jitted = decorator
                break
        if jitted is None:
            return
        loops = self.hot_loops(node)
        if not loops or self.staged(jitted.decorator) or self.benchmarked(node):
            return
        scope_node, _ = self.function_scope(node)
        model = self.ctx.model
        scope = (
            model.scope_of_node.get(id(scope_node)) if scope_node is not None else None
        ) or model.module_scope
        name = node.name.value
        deps = self._def_dependencies(node, loops[0], scope)
        if deps and (self._sweep(loops[0]) or self._def_reused(name, loops[0], scope)):
            return
        loop_line = self.ctx.positions[loops[0]].start.line
        if deps:
            names = ", ".join(f"`{d}`" for d in deps)
            advice = f"define `{name}` once above the loop and pass {names} as " + (
                "arguments" if len(deps) > 1 else "an argument"
            )
        else:
            advice = f"define `{name}` once above the loop at line {loop_line}"
        self.report(
            jitted,
            wrapper=f"@{short(self.ctx.code(jitted.decorator))} def {name}",
            loop_line=loop_line,
            consequence=(
                f"the `def` makes a new function `{name}` on every iteration, "
                "so JAX traces and compiles it again each time"
            ),
            advice=advice,
        )

    def _def_dependencies(self, fn: cst.FunctionDef, loop: cst.CSTNode, scope: Scope) -> list[str]:
        """The names of the enclosing scope, bound in ``loop``, that ``fn`` reads."""
        model = self.ctx.model
        deps: list[str] = []
        for ref in self.index.nodes_in(fn):
            if not isinstance(ref, cst.Name) or ref is fn.name or ref.value in deps:
                continue
            found = model.lookup(ref.value, model.scope_for(ref))
            if found is None or found[0] is not scope or ref.value == fn.name.value:
                continue
            if self._bound_in(ref.value, loop, scope):
                deps.append(ref.value)
        return deps

    def _def_reused(self, name: str, loop: cst.For | cst.While, scope: Scope) -> bool:
        """The function defined in the loop then serves many calls in one iteration: it
        is called in an inner loop or comprehension, or handed to another function."""
        model = self.ctx.model
        for use in self.index.nodes_in(loop.body):
            if not isinstance(use, cst.Name) or use.value != name:
                continue
            found = model.lookup(name, model.scope_for(use))
            if found is None or found[0] is not scope:
                continue
            parent = self.index.parent.get(id(use))
            if isinstance(parent, cst.Arg) and parent.value is use:
                return True
            for child, above in self.index.ancestors(use):
                if above is loop:
                    break
                if isinstance(above, COMPREHENSIONS) or (
                    isinstance(above, (cst.For, cst.While)) and child is above.body
                ):
                    return True
        return False

    def _reused(self, wrapper: cst.Call, loop: cst.For | cst.While, scope: Scope) -> bool:
        """``step = jax.jit(...)`` whose ``step`` then serves many calls in the same
        iteration: used in a loop or comprehension nested in ``loop``, or handed to
        another function."""
        assign = self.index.parent.get(id(wrapper))
        if not (
            isinstance(assign, (cst.Assign, cst.AnnAssign))
            and assign.value is wrapper
            and (isinstance(assign, cst.AnnAssign) or (len(assign.targets) == 1))
        ):
            return False
        target = assign.target if isinstance(assign, cst.AnnAssign) else assign.targets[0].target
        if not isinstance(target, cst.Name):
            return False
        name = target.value
        model = self.ctx.model
        for use in self.index.nodes_in(loop.body):
            if not isinstance(use, cst.Name) or use.value != name or use is target:
                continue
            found = model.lookup(name, model.scope_for(use))
            if found is None or found[0] is not scope:
                continue
            parent = self.index.parent.get(id(use))
            if isinstance(parent, cst.Arg) and parent.value is use:
                return True  # handed on: the callee may call it many times
            for child, above in self.index.ancestors(use):
                if above is loop:
                    break
                if isinstance(above, COMPREHENSIONS) or (
                    isinstance(above, (cst.For, cst.While))
                    and child is above.body
                    and not self.index.inside(wrapper, above)
                ):
                    return True
        return False

    def _roots(
        self,
        deps: list[str],
        loop: cst.For | cst.While,
        scope: Scope,
        wrapper: cst.Call,
        fexpr: cst.BaseExpression,
    ) -> list[str] | None:
        """The values the loop changes under the wrapper, found through the functions
        defined in the loop (``def``, ``lambda``, ``partial``) that refer to them: the
        names to pass as arguments. ``None`` when one of them cannot be an argument (a
        function, an object built in the loop, static configuration, a case of a sweep):
        then the wrapped function really changes with the iteration."""
        model = self.ctx.model
        roots: list[str] = []
        seen: set[str] = set()
        # each name with the nodes that use it, from the wrapper down into the functions
        work: list[tuple[str, list[cst.CSTNode]]] = [
            (d, self._uses(d, wrapper, scope)) for d in deps
        ]
        while work:
            name, uses = work.pop(0)
            if name in seen:
                continue
            seen.add(name)
            bound = self._bound_in(name, loop, scope)
            inner: cst.CSTNode | None = None
            if bound and all(b.kind == "def" for b in bound) and len(bound) == 1:
                inner = bound[0].node
            elif bound and all(b.kind == "assign" for b in bound) and len(bound) == 1:
                value = self.index.assigned.get(id(bound[0].node))
                if isinstance(value, cst.Lambda) or (
                    isinstance(value, cst.Call) and model.call_name(value) in PARTIAL
                ):
                    inner = value
            if inner is not None:
                # a function (re)defined in the loop: it changes with what it refers to
                for other in self._loop_names(inner, loop, scope):
                    if other != name:
                        work.append((other, self._uses(other, inner, scope)))
                continue
            if not self._passable(name, bound, uses, wrapper, fexpr):
                return None
            roots.append(name)
        return roots

    def _uses(self, name: str, within: cst.CSTNode, scope: Scope) -> list[cst.CSTNode]:
        """The nodes in ``within`` that read ``name`` (a dotted path: ``self.lr``)."""
        model = self.ctx.model
        out: list[cst.CSTNode] = []
        if "." in name:
            return [
                n
                for n in self.index.nodes_in(within)
                if isinstance(n, cst.Attribute) and dotted(n) == name
            ]
        for node in self.index.nodes_in(within):
            if isinstance(node, cst.Name) and node.value == name:
                found = model.lookup(name, model.scope_for(node))
                if found is not None and found[0] is scope:
                    out.append(node)
        return out

    def _loop_names(self, within: cst.CSTNode, loop: cst.CSTNode, scope: Scope) -> list[str]:
        """Names used in ``within`` that resolve to ``scope`` and that ``loop`` binds."""
        model = self.ctx.model
        out: list[str] = []
        for node in self.index.nodes_in(within):
            if not isinstance(node, cst.Name) or node.value in out:
                continue
            parent = self.index.parent.get(id(node))
            if isinstance(parent, cst.Arg) and parent.keyword is node:
                continue
            if isinstance(parent, cst.FunctionDef) and parent.name is node:
                continue
            found = model.lookup(node.value, model.scope_for(node))
            if found is not None and found[0] is scope and self._bound_in(node.value, loop, scope):
                out.append(node.value)
        return out

    def _passable(
        self,
        name: str,
        bound: list[Binding],
        uses: list[cst.CSTNode],
        wrapper: cst.Call,
        fexpr: cst.BaseExpression,
    ) -> bool:
        """Could ``name`` be passed to the jitted function as an argument: a value (an
        array, a number), not a function, an object built in the loop or static
        configuration (a dtype, a shape, a case)? Judged from how the loop binds it and
        how the wrapped function uses it; in doubt, not passable (no finding)."""
        if case_like(name.rsplit(".", 1)[-1]):
            return False
        for use in uses:
            if use is fexpr or not self._value_use(use, wrapper):
                return False
        for b in bound:
            if b.kind != "assign":
                return False  # def, class, import, ...
            origin = self._origin(b.node)
            if origin is None:
                return False
            if isinstance(origin, cst.For):
                if literal_cases(origin.iter, self.ctx.model):
                    return False  # a case of a sweep
                continue
            if isinstance(origin, cst.AugAssign):
                continue
            if not self._value_expr(origin, name):
                return False
        return True

    def _origin(self, target: cst.CSTNode) -> cst.CSTNode | None:
        """What binds a target name: the ``For`` it is the target of, the ``AugAssign``, or
        the value assigned (also to a tuple of names); ``None`` for anything else."""
        assigned = self.index.assigned.get(id(target))
        if assigned is not None:
            return assigned
        child = target
        parent = self.index.parent.get(id(child))
        while isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            child, parent = parent, self.index.parent.get(id(parent))
        if isinstance(parent, cst.For) and parent.target is child:
            return parent
        if isinstance(parent, cst.AugAssign):
            return parent
        if isinstance(parent, cst.AssignTarget):
            assign = self.index.parent.get(id(parent))
            if isinstance(assign, cst.Assign):
                return assign.value
        return None

    def _value_expr(self, value: cst.BaseExpression, name: str) -> bool:
        """An expression whose result is array data: arithmetic, indexing, a number, a call
        to an array library or ``next`` (a batch), or an update of ``name`` itself (``params = step(params, g)``,
        carried from one iteration to the next). A call to anything else (``load(spec)``,
        ``make_env(cfg)``) builds an object each iteration."""
        if isinstance(
            value,
            (cst.BinaryOperation, cst.UnaryOperation, cst.Subscript, cst.Integer, cst.Float),
        ):
            return True
        if isinstance(value, cst.Call):
            qn = self.ctx.model.call_name(value) or ""
            if qn.startswith(_ARRAY_LIBS) or qn == "builtins.next":
                return True
            return any(
                isinstance(n, cst.Name) and n.value == name for n in self.index.nodes_in(value)
            )
        return False

    def _value_use(self, use: cst.CSTNode, wrapper: cst.Call, depth: int = 2) -> bool:
        """A use that an argument could serve: in arithmetic or as a positional argument,
        not called, not read for a non-array attribute or a string key, not unpacked, not
        a transform option, not a dtype/shape/axis, not the axis name of a collective
        (``lax.psum(x, axes)``: JAX needs it when it traces). The default of a parameter
        (``lambda x, axes=axes: ...``) is used as that parameter is."""
        parent = self.index.parent.get(id(use))
        if isinstance(parent, cst.Param) and parent.default is use:
            return depth > 0 and all(
                self._value_use(inner, wrapper, depth - 1) for inner in self._param_uses(parent)
            )
        if isinstance(parent, cst.Call) and parent.func is use:
            return False
        if isinstance(parent, cst.Attribute) and parent.value is use:
            return parent.attr.value in _ARRAY_ATTRS
        if isinstance(parent, cst.Subscript) and parent.value is use:
            return not any(
                isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.SimpleString)
                for e in parent.slice
            )
        if isinstance(parent, cst.Arg):
            if parent.star or (
                parent.keyword is not None and parent.keyword.value in _STATIC_KEYWORDS
            ):
                return False
            call = self.index.parent.get(id(parent))
            if call is wrapper:
                return False  # ``jax.jit(f, static_argnums=n)``: the transform's option
            if isinstance(call, cst.Call) and not parent.keyword:
                axis_at = COLLECTIVE_AXIS_NAME_AT.get(self.ctx.model.call_name(call) or "")
                if (
                    axis_at is not None
                    and axis_at < len(call.args)
                    and call.args[axis_at] is parent
                ):
                    return False
            if (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value in ("astype", "reshape", "view")
            ):
                return False
        return True

    def _param_uses(self, param: cst.Param) -> list[cst.CSTNode]:
        """The reads of ``param`` in the body of its function or lambda."""
        fn = self.index.parent.get(id(param))
        while fn is not None and not isinstance(fn, (cst.Lambda, cst.FunctionDef)):
            fn = self.index.parent.get(id(fn))
        inner = self.ctx.model.scope_of_node.get(id(fn)) if fn is not None else None
        if fn is None or inner is None:
            return []
        return self._uses(param.name.value, fn.body, inner)

    def _kind(
        self,
        fexpr: cst.BaseExpression,
        loop: cst.CSTNode,
        scope: Scope,
        scope_node: cst.CSTNode | None,
        by_value: bool = False,
    ) -> tuple[str, str]:
        """The kind of the wrapped callable; ``by_value``: under ``eqx.filter_jit``, which
        compares an Equinox wrapper (``eqx.filter_vmap(f)``) by value, so a new one around
        the same ``f`` hits its cache (one trace in four iterations, measured on Equinox
        0.13: jaxqtl's ``map/trans.py``, fresh-2026-12t): its kind is ``f``'s."""
        model = self.ctx.model
        if isinstance(fexpr, cst.Lambda):
            return Callable.FRESH, "lambda"
        if isinstance(fexpr, cst.Call):
            text = short(self.ctx.code(fexpr), 32)
            if model.call_name(fexpr) in PARTIAL:
                return Callable.FRESH, f"`{text}`"
            args = positional(fexpr)
            if by_value and args and model.call_name(fexpr) in EQUINOX_WRAPPERS_BY_VALUE:
                return self._kind(args[0].value, loop, scope, scope_node)[0], f"`{text}`"
            if self.ctx.trace.transform_of(fexpr.func) is not None:
                return Callable.FRESH, f"`{text}` result"
            # a wrapper built around a function that is itself new on every iteration
            # (``checkify.checkify(lambda ...)``): whatever it returns wraps a new function
            args = positional(fexpr)
            if args and self._kind(args[0].value, loop, scope, scope_node)[0] == Callable.FRESH:
                return Callable.FRESH, f"`{text}` result"
            return Callable.UNKNOWN, text
        if isinstance(fexpr, cst.Name):
            found = model.lookup(fexpr.value, model.scope_for(fexpr))
            if found is None:
                return Callable.UNKNOWN, fexpr.value
            in_loop = [b for b in found[1] if self.index.inside(b.node, loop)]
            if found[0] is not scope or not in_loop:
                return Callable.STABLE, fexpr.value
            if all(b.kind == "def" for b in in_loop):
                return Callable.FRESH, f"function `{fexpr.value}`"
            values = [self.index.assigned.get(id(b.node)) for b in in_loop]
            if all(
                isinstance(v, cst.Lambda)
                or (isinstance(v, cst.Call) and model.call_name(v) in PARTIAL)
                for v in values
            ):
                return Callable.FRESH, f"`{fexpr.value}`"
            return Callable.UNKNOWN, fexpr.value
        if isinstance(fexpr, cst.Attribute):
            method = self.bound_method(fexpr, scope_node) or self.instance_method(fexpr)
            if method is not None:
                return Callable.FRESH, f"bound method `{method}`"
            qn = model.qualified_name(fexpr)
            if qn is not None:
                return Callable.STABLE, qn
        return Callable.UNKNOWN, short(self.ctx.code(fexpr), 32)

    def _sweep(self, loop: cst.For | cst.While) -> bool:
        """A ``for`` over a list of cases (:func:`jaxlint.analysis.cases.sweep`): a few
        different functions, each compiled once."""
        return sweep(loop, self.ctx.model)


def _mutated_paths(rule: JitInLoop, loop: cst.CSTNode) -> set[str]:
    """Dotted paths whose attributes or items the loop assigns or deletes:
    ``self.fn = ...`` gives ``self.fn``, ``cfg["lr"] = ...`` gives ``cfg``."""
    out: set[str] = set()
    for node in rule.index.nodes_in(loop):
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
                path = dotted(t.value if isinstance(t, cst.Subscript) else t)
                if path is not None:
                    out.add(path)
    return out
