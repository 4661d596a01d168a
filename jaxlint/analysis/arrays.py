"""Which expressions are certainly one immutable ``jax.Array`` (:class:`ArrayEvidence`):
asked by the JAX6xx rules and by JAX701/702 before they rewrite an array method."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import libcst as cst

from jaxlint.analysis.names import Binding, Scope, SemanticModel
from jaxlint.analysis.tracing import Level, TracedFunction
from jaxlint.analysis.transforms import (
    ARRAY_MODULES,
    JAX_ARRAY_ATTRIBUTES,
    STATIC_CALLS,
)
from jaxlint.analysis.walk import own_nodes


class _Context(Protocol):
    """What :class:`ArrayEvidence` reads of a file's context (the engine's ``FileContext``
    has these; the analysis layer never imports the engine)."""

    @property
    def trace(self) -> Any: ...

    @property
    def positions(self) -> Mapping[cst.CSTNode, Any]: ...

    def code(self, node: cst.CSTNode) -> str: ...


class _Asker(Protocol):
    """A rule (or anything) with the file's model and context."""

    model: SemanticModel
    ctx: Any


# -- which expressions are certainly one immutable jax.Array ------------------------------

# Functions of JAX's array modules that return a tuple, a list, a pytree, a function or
# a Python value rather than one array.
_NOT_ONE_ARRAY = frozenset(
    {
        *(
            f"jax.numpy.{n}"
            for n in (
                "split array_split hsplit vsplit dsplit unstack meshgrid broadcast_arrays"
                " atleast_1d atleast_2d atleast_3d nonzero unique_all unique_counts"
                " unique_inverse histogram histogram2d histogramdd ix_ tril_indices"
                " triu_indices tril_indices_from triu_indices_from diag_indices"
                " diag_indices_from mask_indices unravel_index divmod frexp modf polyfit"
                " einsum_path broadcast_shapes load vectorize frompyfunc printoptions"
                " get_printoptions set_printoptions linalg.eig linalg.eigh linalg.svd"
                " linalg.qr linalg.slogdet linalg.lstsq"
            ).split()
        ),
        *(
            f"jax.lax.{n}"
            for n in (
                "scan fori_loop while_loop cond switch map associative_scan custom_root"
                " custom_linear_solve reduce sort sort_key_val top_k approx_max_k"
                " approx_min_k psum pmean pmax pmin all_gather all_to_all ppermute pshuffle"
                " psum_scatter pbroadcast optimization_barrier stop_gradient"
                " with_sharding_constraint pcast pvary platform_dependent composite"
            ).split()
        ),
    }
)
_NOT_ONE_ARRAY_PREFIXES = ("jax.nn.initializers.", "jax.lax.linalg.")
_REMOVED_ONE_ARRAY = frozenset(f"jax.ops.index_{n}" for n in ("update", "add", "mul", "min", "max"))
"""Removed in JAX 0.3.2, each returned the updated array (``x.at[i].set(v)`` now)."""
_ONE_ARRAY_SCIPY = ("jax.scipy.special.", "jax.scipy.stats.")

# Array methods whose result is a new array, whatever array-like object they are
# called on (a list, a dict or a pytree has none of them).
_ARRAY_METHODS = frozenset(
    "astype reshape transpose ravel flatten squeeze sum mean max min prod cumsum cumprod"
    " clip round conj conjugate swapaxes argmax argmin argsort sort std var dot".split()
)
# ... and these, only on a value already known to be one array (``list.copy()``).
_COPY_METHODS = frozenset({"copy", "block_until_ready"})
_ARRAY_VIEWS = frozenset({"T", "mT", "real", "imag"})
_AT_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)
# The output of these transforms is the output of the function they wrap.
_SAME_OUTPUT_VERBS = frozenset(
    {"jitted", "vmapped", "pmapped", "shard_mapped", "rematerialized", "scanned"}
)
_ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array"})


def _one_array_call(qualname: str, call: cst.Call) -> bool:
    """``qualname(...)`` returns one JAX array."""
    if qualname in _REMOVED_ONE_ARRAY:
        return True
    if not qualname.startswith(ARRAY_MODULES) or qualname in STATIC_CALLS:
        return False
    if qualname in _NOT_ONE_ARRAY or qualname.startswith(_NOT_ONE_ARRAY_PREFIXES):
        return False
    if qualname.startswith("jax.scipy.") and not qualname.startswith(_ONE_ARRAY_SCIPY):
        return False
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    positional = [a for a in call.args if a.keyword is None]
    if qualname == "jax.numpy.where" and len(positional) < 3 and not keywords & {"x", "y"}:
        return False  # ``jnp.where(cond)`` is ``jnp.nonzero``: a tuple
    if qualname == "jax.numpy.unique" and any(k.startswith("return_") for k in keywords):
        return False
    if qualname == "jax.numpy.indices" and "sparse" in keywords:
        return False
    return True


def _short(qualname: str) -> str:
    for long, short in (("jax.numpy.", "jnp."), ("jax.lax.", "lax.")):
        if qualname.startswith(long):
            return short + qualname[len(long) :]
    return qualname


def _derived(evidence: str | None) -> str | None:
    """Evidence for a value computed from an array with that evidence."""
    if evidence is None or evidence.startswith(("derived from", "computed from")):
        return evidence
    return f"derived from an array {evidence}"


def is_number(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary))


_ASSIGNED: weakref.WeakKeyDictionary[SemanticModel, dict[int, tuple[str, cst.BaseExpression]]] = (
    weakref.WeakKeyDictionary()
)
"""``ArrayEvidence.assigned`` of each module, shared by the rules that use it."""


class ArrayEvidence:
    """Why an expression is certainly one immutable ``jax.Array``, or ``None``.

    The trace analysis's ``Val.array``/``Val.traced`` say that a value is, or holds,
    JAX arrays: a traced parameter may be a pytree (a dict of parameters, a list of
    caches), a mutable ``jax.Ref`` or a Flax NNX ``Variable``, and all of these accept
    ``v[i] = x``. So an item assignment is flagged only with positive evidence of one
    array: a ``jnp``/``lax``/``jax.random`` call that returns one array, an ``.at[]``
    update, array arithmetic or an array method on such a value or on a tracer, a
    traced parameter annotated ``jax.Array``, or the result of a jitted function of
    this module whose every ``return`` is such a value. A name qualifies when *every*
    assignment to it in its scope does (``x += v`` keeps what ``x`` was).
    """

    def __init__(self, rule: _Asker) -> None:
        self.model: SemanticModel = rule.model
        self.ctx: _Context = rule.ctx
        self._assigned: dict[int, tuple[str, cst.BaseExpression]] | None = None
        self._returns: dict[int, list[cst.Return]] = {}
        self._uses: dict[tuple[int, str], tuple[str, int] | None] = {}

    # bookkeeping ------------------------------------------------------------------

    @property
    def assigned(self) -> dict[int, tuple[str, cst.BaseExpression]]:
        """``id(target Name)`` -> (``value``/``aug``/``for``, the expression)."""
        if self._assigned is None:
            shared = _ASSIGNED.get(self.model)
            if shared is not None:  # the other rule of this module already built it
                self._assigned = shared
                return shared
            found: dict[int, tuple[str, cst.BaseExpression]] = {}
            # every node of the module: ``type() is`` (concrete libcst classes have no
            # subclasses) instead of ``isinstance``, which goes through ABCMeta
            name = cst.Name
            for node, entering in self.model.events:
                if not entering:
                    continue
                kind = type(node)
                if kind is cst.Assign:
                    for t in node.targets:
                        if type(t.target) is name:
                            found[id(t.target)] = ("value", node.value)
                        elif type(t.target) is cst.Tuple:  # ``a, b = carry``
                            for i, el in enumerate(t.target.elements):
                                if type(el) is cst.Element and type(el.value) is name:
                                    found[id(el.value)] = (f"unpack{i}", node.value)
                elif kind is cst.AnnAssign:
                    if node.value is not None and type(node.target) is name:
                        found[id(node.target)] = ("value", node.value)
                elif kind is cst.AugAssign:
                    if type(node.target) is name:
                        found[id(node.target)] = ("aug", node.value)
                elif kind is cst.For and type(node.target) is name:
                    found[id(node.target)] = ("for", node.iter)
            self._assigned = found
            _ASSIGNED[self.model] = found
        return self._assigned

    def line(self, node: cst.CSTNode) -> int:
        return self.ctx.positions[node].start.line

    def bindings(self, name: cst.Name) -> tuple[Scope, list[Binding]] | None:
        return self.model.lookup(name.value, self.model.scope_for(name))

    # evidence ---------------------------------------------------------------------

    def of(self, expr: cst.BaseExpression, depth: int = 0) -> str | None:
        if depth > 8:
            return None
        if isinstance(expr, cst.Name):
            return self._name(expr, depth)
        if isinstance(expr, cst.Call):
            return self._call(expr, depth)
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(expr, depth)
        if isinstance(expr, cst.UnaryOperation) and not isinstance(expr.operator, cst.Not):
            return _derived(self.of(expr.expression, depth + 1))
        if isinstance(expr, cst.Subscript):
            return _derived(self.of(expr.value, depth + 1))
        if isinstance(expr, cst.Attribute) and expr.attr.value in _ARRAY_VIEWS:
            return _derived(self.of(expr.value, depth + 1))
        if isinstance(expr, cst.IfExp):
            body = self.of(expr.body, depth + 1)
            return body if body and self.of(expr.orelse, depth + 1) else None
        return None

    def _traced(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.trace.value(expr)
        return val is not None and val.traced and not val.container

    def _binary(self, expr: cst.BinaryOperation, depth: int) -> str | None:
        left, right = expr.left, expr.right
        for side in (left, right):
            found = self.of(side, depth + 1)
            if found:
                return _derived(found)
        if isinstance(left, (cst.List, cst.Tuple, cst.SimpleString, cst.FormattedString)):
            return None
        if isinstance(right, (cst.List, cst.Tuple)):
            return None
        flags = [(side, self._traced(side)) for side in (left, right)]
        traced = [side for side, is_traced in flags if is_traced]
        if not traced:
            return None
        if isinstance(expr.operator, (cst.Add, cst.Multiply)):
            # ``xs + ys`` / ``xs * 2`` may concatenate or repeat a list of arrays
            for side, is_traced in flags:
                if is_traced:
                    continue
                whole = side.expression if isinstance(side, cst.UnaryOperation) else side
                if not is_number(side) or (
                    isinstance(expr.operator, cst.Multiply) and isinstance(whole, cst.Integer)
                ):
                    return None
        val = self.ctx.trace.value(traced[0])
        assert val is not None
        return f"computed from a tracer ({self.ctx.trace.why(val)})"

    def _call(self, call: cst.Call, depth: int) -> str | None:
        qualname = self.model.call_name(call)
        if qualname is not None:
            if _one_array_call(qualname, call):
                return f"made by `{_short(qualname)}` at line {self.line(call)}"
            return None
        func = call.func
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            inner = func.value
            if (
                method in _AT_METHODS
                and isinstance(inner, cst.Subscript)
                and isinstance(inner.value, cst.Attribute)
                and inner.value.attr.value == "at"
            ):
                return f"made by `.at[].{method}` at line {self.line(call)}"
            if method in _ARRAY_METHODS or method in _COPY_METHODS:
                found = self.of(inner, depth + 1)
                if found:
                    return _derived(found)
                if method in _ARRAY_METHODS and self._traced(inner):
                    why = self.ctx.trace.why(self.ctx.trace.value(inner))  # type: ignore[arg-type]
                    return f"made by `.{method}()` on a tracer ({why})"
            return None
        return self._jitted_result(call, depth)

    def _jitted_result(self, call: cst.Call, depth: int) -> str | None:
        """``step(x)`` for a jitted ``step`` of this module that returns one array."""
        transform = self.ctx.trace.transformed_callee(call)
        if transform is None or transform.verb not in _SAME_OUTPUT_VERBS:
            return None
        fn = self._callee_def(call.func)
        if fn is None:
            return None
        returns = self._returns_of(fn)
        if not returns or any(r.value is None or not self.of(r.value, depth + 1) for r in returns):
            return None
        return f"returned by `{fn.name.value}`, {transform.verb} by `{transform.short}`"

    def _callee_def(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        if isinstance(func, cst.Call):  # ``jax.jit(f)(x)``
            positional = [a for a in func.args if a.keyword is None and not a.star]
            return self._callee_def(positional[0].value) if positional else None
        if not isinstance(func, cst.Name):
            return None
        found = self.bindings(func)
        if found is None or len(found[1]) != 1:
            return None
        binding = found[1][0]
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return binding.node
        if binding.kind == "assign":  # ``step = jax.jit(train_step)``
            kind, value = self.assigned.get(id(binding.node), ("", cst.Name("None")))
            if kind == "value" and isinstance(value, cst.Call):
                return self._callee_def(value)
        return None

    def _returns_of(self, fn: cst.FunctionDef) -> list[cst.Return]:
        if id(fn) not in self._returns:
            self._returns[id(fn)] = [n for n in own_nodes(fn) if type(n) is cst.Return]  # type: ignore[misc]
        return self._returns[id(fn)]

    def _name(self, name: cst.Name, depth: int) -> str | None:
        found = self.bindings(name)
        if found is None:
            return None
        scope, bindings = found
        evidence: str | None = None
        for binding in bindings:
            if binding.kind == "param" and isinstance(binding.node, cst.Param):
                got = self._param(scope, binding.node)
            elif binding.kind == "assign":
                kind, value = self.assigned.get(id(binding.node), ("", name))
                if kind == "aug":
                    continue  # ``x += v`` keeps the kind of ``x``
                if kind.startswith("unpack"):
                    got = self._element(value, int(kind[6:]), depth + 1)
                else:
                    got = self.of(value, depth + 1) if kind == "value" else None
            else:
                got = None
            if got is None:
                return None
            evidence = evidence or got
        return evidence

    def _param(self, scope: Scope, param: cst.Param) -> str | None:
        """A traced parameter annotated as one ``jax.Array``."""
        info = self.ctx.trace.info(scope.node)
        if info is None or info.param_levels.get(param.name.value) is not Level.TRACED:
            return None
        if param.annotation is None:
            return self._loop_carry(info, param) or self._used_as_array(scope, info, param)
        ann = param.annotation.annotation
        qualname = self.model.qualified_name(ann)
        if qualname is None and isinstance(ann, cst.Subscript) and ann.slice:
            # jaxtyping: ``Float[Array, "n"]``
            base = self.model.qualified_name(ann.value)
            first = ann.slice[0].slice
            if base is not None and base.startswith("jaxtyping.") and isinstance(first, cst.Index):
                qualname = self.model.qualified_name(first.value)
        if qualname not in _ARRAY_ANNOTATIONS:
            return None
        text = self.ctx.code(ann)
        return (
            f"parameter of `{info.name}` annotated `{text}`,"
            f" {info.how(lambda n: self.ctx.positions[n].start.line)}"
        )

    def _used_as_array(self, scope: Scope, info: TracedFunction, param: cst.Param) -> str | None:
        """An unannotated traced parameter that the function itself uses in a way only one
        array allows (``x - 1``, ``x.sum()``, ``jnp.sqrt(x)``), with no other binding in
        its scope than augmented assignments. A dict or list of arrays (a pytree), a
        mutable ``jax.Ref`` and a tuple all fail those uses: see ``_array_use``."""
        name = param.name.value
        bindings = scope.bindings.get(name, [])
        for binding in bindings:
            if binding.node is param or binding.kind == "param":
                continue
            kind, _ = self.assigned.get(id(binding.node), ("", param))
            if kind != "aug":
                return None
        key = (id(scope.node), name)
        if key not in self._uses:
            self._uses[key] = self._find_array_use(scope, name)
        use = self._uses[key]
        if use is None:
            return None
        return (
            f"a parameter of `{info.name}` used as an array (`{use[0]}` at line {use[1]}),"
            f" {info.how(lambda n: self.ctx.positions[n].start.line, name)}"
        )

    def _find_array_use(self, scope: Scope, name: str) -> tuple[str, int] | None:
        """The first use of ``name`` (bound in ``scope``) in ``scope.node`` that only one
        array allows: its code (shortened) and line."""
        evidence = self
        found: list[cst.CSTNode] = []
        disproved: list[cst.CSTNode] = []

        def is_it(expr: cst.BaseExpression) -> bool:
            if not isinstance(expr, cst.Name) or expr.value != name:
                return False
            got = evidence.model.lookup(name, evidence.model.scope_for(expr))
            return got is not None and got[0] is scope

        class _Uses(cst.CSTVisitor):
            def visit_ClassDef(self, node: cst.ClassDef) -> bool:
                return False

            def on_visit(self, node: cst.CSTNode) -> bool:
                if disproved:
                    return False
                if _not_an_array(node, is_it):
                    disproved.append(node)
                    return False
                if not found and evidence._array_use(node, is_it):
                    found.append(node)
                return super().on_visit(node)

        body = scope.node.body if isinstance(scope.node, (cst.FunctionDef, cst.Lambda)) else None
        if body is None:
            return None
        body.visit(_Uses())
        if not found or disproved:
            return None
        text = " ".join(self.ctx.code(found[0]).split())
        if len(text) > 40:
            text = text[:37] + "..."
        return text, self.line(found[0])

    def _array_use(self, node: cst.CSTNode, is_it: Callable[[cst.BaseExpression], bool]) -> bool:
        """``node`` uses the name ``is_it`` accepts as one array: arithmetic that a list,
        a tuple, a dict and a ``jax.Ref`` reject (``x - y``, ``x / 2``, ``-x``, ``x + 1``,
        ``x * 0.5``, ``x > 0``), an array method a ``jax.Ref`` lacks (``x.sum()``,
        ``x.astype(...)``, ``x.at[i].add(v)``), ``x.real``/``x.imag``, or an argument of
        a ``jnp`` function that rejects lists (checked on JAX 0.12: every ``jnp``
        function but the sequence and shape ones raises on a list, and on a Ref). Not
        ``x.shape``/``.dtype``/``.ndim``/``.T``/``.reshape``/``.at[i].set``, which a
        ``jax.Ref`` has too."""
        if isinstance(node, cst.BinaryOperation):
            op = node.operator
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if not is_it(side):
                    continue
                if isinstance(op, _ARITH_OPERATORS):
                    return True
                if isinstance(op, cst.Add) and is_number(other):
                    return True
                if isinstance(op, cst.Multiply) and is_number(other):
                    whole = other.expression if isinstance(other, cst.UnaryOperation) else other
                    if not isinstance(whole, cst.Integer):  # ``xs * 2`` repeats a list
                        return True
            return False
        if isinstance(node, cst.UnaryOperation):
            return isinstance(node.operator, cst.Minus) and is_it(node.expression)
        if isinstance(node, cst.Comparison):
            left = node.left
            for target in node.comparisons:
                right = target.comparator
                if isinstance(target.operator, _ORDER_OPERATORS) and (
                    (is_it(left) and is_number(right)) or (is_it(right) and is_number(left))
                ):
                    return True
                left = right
            return False
        if isinstance(node, cst.Attribute):
            return node.attr.value in _REF_LACKS_VIEWS and is_it(node.value)
        if isinstance(node, cst.Call):
            qualname = self.model.call_name(node)
            if qualname is not None:
                if not _rejects_lists(qualname):
                    return False
                positional = [a for a in node.args if a.keyword is None and not a.star]
                return bool(positional) and is_it(positional[0].value)
            func = node.func
            if isinstance(func, cst.Attribute):
                method = func.attr.value
                inner = func.value
                if method in _REF_LACKS_METHODS and is_it(inner):
                    return True
                return (
                    method in _AT_UPDATES
                    and isinstance(inner, cst.Subscript)
                    and isinstance(inner.value, cst.Attribute)
                    and inner.value.attr.value == "at"
                    and is_it(inner.value.value)
                )
        return False

    def _loop_inits(
        self, info: TracedFunction, param: cst.Param
    ) -> list[tuple[cst.Call, cst.BaseExpression]] | None:
        """Each ``lax.scan``/``fori_loop``/``while_loop`` call that passes this function
        as its body, with the initial value of ``param`` there (``scan``'s ``xs`` for its
        second parameter); ``None`` unless every traced use is such a call, passing the
        function by name."""
        fn = info.node
        if not info.bodies or not isinstance(fn, cst.FunctionDef) or fn.params.posonly_params:
            return None
        params = [p.name.value for p in fn.params.params]
        if param.name.value not in params:
            return None
        index = params.index(param.name.value)
        out: list[tuple[cst.Call, cst.BaseExpression]] = []
        for reason in info.bodies:
            call = reason.site
            slots = (
                _CARRY_SLOTS.get(self.model.call_name(call) or "")
                if isinstance(call, cst.Call)
                else None
            )
            if slots is None or index not in slots["params"]:
                return None
            assert isinstance(call, cst.Call)
            positional = [a.value for a in call.args if a.keyword is None and not a.star]
            keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
            at = slots["body"]
            body = positional[at] if at < len(positional) else keywords.get(slots["body_kw"])
            if not isinstance(body, cst.Name) or body.value != fn.name.value:
                return None
            at, key = slots["params"][index]
            init = positional[at] if at < len(positional) else keywords.get(key)
            if init is None:
                return None
            out.append((call, init))
        return out

    def _loop_carry(self, info: TracedFunction, param: cst.Param) -> str | None:
        """An unannotated parameter of a lax loop body whose initial value is certainly
        one array at every call that passes the body (``scan``'s slices of ``xs`` too)."""
        inits = self._loop_inits(info, param)
        if not inits:
            return None
        evidence: str | None = None
        for _, init in inits:
            got = self.of(init, 1)
            if got is None:
                return None
            evidence = evidence or got
        call = inits[0][0]
        return (
            f"`{param.name.value}` of the body of `{_short(self.model.call_name(call) or '')}`"
            f" at line {self.line(call)}, whose initial value is an array {evidence}"
        )

    def _element(self, expr: cst.BaseExpression, index: int, depth: int) -> str | None:
        """Evidence for element ``index`` of a tuple: a tuple literal, or a loop carry
        parameter whose initial value is one at every call."""
        if depth > 8:
            return None
        if isinstance(expr, cst.Tuple):
            elements = expr.elements
            if any(not isinstance(e, cst.Element) for e in elements) or index >= len(elements):
                return None
            return self.of(elements[index].value, depth + 1)
        if not isinstance(expr, cst.Name):
            return None
        found = self.bindings(expr)
        if found is None or len(found[1]) != 1 or found[1][0].kind != "param":
            return None
        param = found[1][0].node
        info = self.ctx.trace.info(found[0].node)
        if info is None or not isinstance(param, cst.Param) or param.annotation is not None:
            return None
        inits = self._loop_inits(info, param)
        if not inits:
            return None
        evidence: str | None = None
        for _, init in inits:
            got = self._element(init, index, depth + 1)
            if got is None:
                return None
            evidence = evidence or got
        return evidence


# Binary operators whose use on a name proves one array: a list, a tuple, a dict and a
# ``jax.Ref`` all raise (``+``/``*`` concatenate or repeat lists: only with a number).
_ARITH_OPERATORS = (
    cst.Subtract,
    cst.Divide,
    cst.FloorDivide,
    cst.Power,
    cst.MatrixMultiply,
)
_ORDER_OPERATORS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
# Array methods a ``jax.Ref`` lacks (checked on JAX 0.12: ``AttributeError``), and lists
# and dicts too (``sort`` and ``copy`` are list methods, ``reshape``/``transpose`` Ref ones).
_REF_LACKS_METHODS = frozenset(
    "astype sum mean max min prod cumsum cumprod clip round conj conjugate swapaxes argmax"
    " argmin argsort std var dot squeeze ravel flatten".split()
)
_REF_LACKS_VIEWS = frozenset({"real", "imag"})
# ``x.at[i].METHOD(v)``: a Ref's ``.at[i]`` has ``set`` (and ``get``), not these.
_AT_UPDATES = frozenset({"add", "subtract", "multiply", "mul", "divide", "power", "min", "max"})
# ``jnp`` functions that accept a list (checked on JAX 0.12 by calling each with a list of
# arrays), take a shape or a dtype first, or build an array from scratch.
_ACCEPT_LISTS = frozenset(
    f"jax.numpy.{n}"
    for n in (
        "array asarray asanyarray block column_stack concat concatenate dstack hstack vstack"
        " row_stack stack iscomplexobj isrealobj isscalar iterable lexsort ndim shape size"
        " printoptions vectorize select piecewise result_type promote_types dtype can_cast"
        " issubdtype broadcast_shapes broadcast_arrays ix_ meshgrid einsum einsum_path zeros"
        " ones empty full arange linspace logspace geomspace eye identity tri indices"
        " frombuffer fromiter fromfunction fromstring from_dlpack load save savez copy"
    ).split()
)
_LAX_ARRAY_FIRST = frozenset(
    f"jax.lax.{n}"
    for n in (
        "dynamic_slice dynamic_slice_in_dim dynamic_index_in_dim dynamic_update_slice"
        " dynamic_update_slice_in_dim dynamic_update_index_in_dim slice slice_in_dim"
        " index_in_dim convert_element_type broadcast_in_dim rev squeeze expand_dims"
        " dot dot_general"
    ).split()
)


def _not_an_array(node: cst.CSTNode, is_it: Callable[[cst.BaseExpression], bool]) -> bool:
    """``node`` treats the name as something other than one array: an attribute a
    ``jax.Array`` lacks (``v.ref``, ``v.value``: a Flax NNX ``Variable``, a module),
    or the whole-value index ``x[...]`` of a ``jax.Ref`` or an NNX ``Variable``."""
    if isinstance(node, cst.Attribute):
        return is_it(node.value) and node.attr.value not in JAX_ARRAY_ATTRIBUTES
    if isinstance(node, cst.Subscript) and is_it(node.value) and len(node.slice) == 1:
        part = node.slice[0].slice
        return isinstance(part, cst.Index) and isinstance(part.value, cst.Ellipsis)
    return False


def _rejects_lists(qualname: str) -> bool:
    """``qualname(x, ...)`` raises unless ``x`` is an array (or a scalar)."""
    if qualname in _LAX_ARRAY_FIRST:
        return True
    if not qualname.startswith("jax.numpy.") or qualname in _ACCEPT_LISTS:
        return False
    return qualname.count(".") == 2 or qualname.startswith("jax.numpy.linalg.")


# Where a lax loop passes its body and what each body parameter starts from:
# {"body": positional index of the body, "body_kw": its keyword,
#  "params": {body parameter index: (positional index, keyword) of its initial value}}.
_CARRY_SLOTS: dict[str, dict] = {
    "jax.lax.scan": {"body": 0, "body_kw": "f", "params": {0: (1, "init"), 1: (2, "xs")}},
    "jax.lax.fori_loop": {"body": 2, "body_kw": "body_fun", "params": {1: (3, "init_val")}},
    "jax.lax.while_loop": {"body": 1, "body_kw": "body_fun", "params": {0: (2, "init_val")}},
}
