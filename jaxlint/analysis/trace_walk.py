"""The flow-sensitive walk of one function (or the module body) that gives every
expression its :class:`~jaxlint.analysis.trace_values.Val`: statements, branches,
loops, bindings and the evaluation of each kind of expression (calls included); run
by :class:`jaxlint.analysis.tracing.TraceAnalysis`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.flags import python_scalars
from jaxlint.analysis.methods import method_call
from jaxlint.analysis.trace_values import (
    DICT_CHANGES,
    MAYBE,
    STATIC,
    Level,
    Origin,
    TracedFunction,
    Val,
    _against_strings,
    _array_annotation,
    _by_position,
    _display_parts,
    _entry_named,
    _if_exp_parts,
    _params,
    _string_annotation,
    _test_key,
    dict_get,
    join,
    one_string,
    positions,
    sequence_positions,
    string_key,
    with_entry,
)
from jaxlint.analysis.transforms import (
    ARRAY_ATTRIBUTES,
    ARRAY_MODULES,
    COMPILE_TIME_EVAL,
    CONSTANT_COLLECTIVES,
    JAX_ARRAY_ATTRIBUTES,
    JAX_RESULT_ATTRIBUTES,
    NUMPY_ARRAY_METHODS,
    PARTIAL,
    STATIC_ATTRIBUTES,
    STATIC_CALLS,
    TRANSFORMS,
    metadata_call,
)
from jaxlint.analysis.walk import own_nodes

if TYPE_CHECKING:
    from jaxlint.analysis.tracing import TraceAnalysis


Env = dict[str, Val]


def _join_env(a: Env, b: Env) -> Env:
    out = dict(a)
    for k, v in b.items():
        out[k] = join(out[k], v) if k in out else v
    return out


class _FunctionWalker:
    """Evaluates one function body (or the module body) statement by statement."""

    def __init__(self, analysis: TraceAnalysis, fn: cst.FunctionDef | cst.Lambda | None) -> None:
        self.a = analysis
        self.fn = fn
        self.info = analysis.functions.get(id(fn)) if fn is not None else None
        self.env: Env = {}
        self.merged: Env = {}
        self.local_names: set[str] = set()
        self.compile_time = 0
        """Inside ``with jax.ensure_compile_time_eval():`` blocks (their depth): JAX
        computes there eagerly, so what is made from static values is concrete."""
        if fn is not None:
            scope = analysis.model.scope_of_node.get(id(fn))
            if scope is not None:
                self.local_names = set(scope.bindings) - scope.global_names - scope.nonlocal_names
        # what this walk read of other functions' results and left for the analysis (see
        # ``TraceAnalysis._walk``: a function is walked again only when they changed)
        self.reads: list[tuple[cst.FunctionDef, object]] = []
        """(helper, what was read of it): its results from traced code, or whether host
        code calls it jitted (see ``TraceAnalysis.helper_seen``)."""
        self.parts_read: list[tuple[int, tuple[Level, ...]]] = []
        self.parts_calls: list[int] = []
        self.foreign: list[tuple[TracedFunction, cst.Call, list[tuple[str | None, Val]]]] = []
        self._branches: dict[str, tuple[Env, Env, Env, list[str]]] = {}
        """An ``if`` test's code -> the environments after its two branches and after the
        ``if`` (see ``_same_test``)."""

    # entry points -------------------------------------------------------------------

    def run_module(self) -> None:
        self._block(self.a.model.module.body)

    def run(self) -> None:
        fn = self.fn
        assert fn is not None
        for param in _params(fn):
            name = param.name.value
            if param.default is not None:
                self._eval(param.default)
            self.env[name] = self._param_val(name)
        if type(fn) is cst.Lambda:
            val = self._eval(fn.body)
            self.a.returns[id(fn)] = val
        else:
            self._block(fn.body.body if isinstance(fn.body, cst.IndentedBlock) else [fn.body])
        self.a.merged_env[id(fn)] = self.merged

    def _param_val(self, name: str) -> Val:
        info = self.info
        if info is None:
            return STATIC
        level = info.param_levels.get(name, Level.STATIC)
        if level is Level.STATIC or _string_annotation(self.fn, name):
            return STATIC
        if info.caller is not None:
            role = f"parameter of `{info.name}`"
        elif "body of" in info.verb:
            role = f"parameter of `{info.name}`"
        else:
            role = f"parameter of `{info.name}`"
        computed = level is Level.TRACED and _array_annotation(self.fn, name)
        origin = Origin(name, role, info, name)
        return Val(level, origin, array=level is Level.TRACED, computed=computed)

    # bookkeeping -------------------------------------------------------------------------

    def _own(self, node: cst.CSTNode) -> None:
        if self.info is not None:
            self.a.owner[id(node)] = self.info

    def _set(self, name: str, val: Val) -> None:
        self.env[name] = val
        self.merged[name] = join(self.merged[name], val) if name in self.merged else val

    def _bind(self, target: cst.BaseExpression, val: Val) -> None:
        if type(target) is cst.Name:
            if val.origin is not None and val.level > Level.STATIC:
                origin = val.origin
                if origin.name != target.value:
                    origin = Origin(
                        target.value,
                        f"computed from `{origin.name}` ({origin.role})",
                        origin.func,
                        origin.param,
                    )
                val = Val(val.level, origin, val.container, val.array, val.computed, val.keys)
            self._set(target.value, val)
            self.a.values[id(target)] = val
        elif type(target) in (cst.Tuple, cst.List):
            for el in target.elements:
                inner = el.value
                starred = type(inner) is cst.StarredElement
                self._bind(inner, Val(val.level, val.origin, starred, val.array, val.computed))
        elif type(target) is cst.StarredElement:
            self._bind(target.value, Val(val.level, val.origin, True, val.array, val.computed))
        else:
            # attribute / subscript targets: evaluate their parts
            self._eval(target)
            if type(target) is cst.Subscript and type(target.value) is cst.Name:
                self._set_entry(target.value.value, string_key(target), val)

    def _set_entry(self, name: str, key: str | None, val: Val = STATIC) -> None:
        """``p["k"] = v`` or ``p.update(...)`` (``key`` ``None``) on a dict of known keys."""
        current = self.env.get(name)
        if current is not None and current.keys is not None:
            self.env[name] = with_entry(current, key, val)

    # statements ------------------------------------------------------------------------

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            self._stmt(stmt)

    def _stmt(self, stmt: cst.CSTNode) -> None:
        self._own(stmt)
        kind = type(stmt)  # ``kind is``: concrete libcst classes have no subclasses
        if kind is cst.SimpleStatementLine:
            for small in stmt.body:
                self._small(small)
            return
        if kind is cst.If:
            self._if(stmt)
        elif kind is cst.For:
            self._for(stmt)
        elif kind is cst.While:
            self._own(stmt)
            self._eval(stmt.test)
            before = dict(self.env)
            for _ in range(2):
                self._block(stmt.body.body)
                self.env = _join_env(before, self.env)
                self._eval(stmt.test)
            if stmt.orelse is not None:
                self._block(stmt.orelse.body.body)
        elif kind is cst.With:
            concrete = False
            for item in stmt.items:
                v = self._eval(item.item)
                if item.asname is not None:
                    self._bind(item.asname.name, v)
                if type(item.item) is cst.Call and self.a.model.call_name(item.item) in (
                    COMPILE_TIME_EVAL
                ):
                    concrete = True
            self.compile_time += concrete
            self._block(stmt.body.body)
            self.compile_time -= concrete
        elif kind is cst.Try or kind is cst.TryStar:
            before = dict(self.env)
            self._block(stmt.body.body)
            after_body = dict(self.env)
            envs = [after_body]
            for handler in stmt.handlers:
                self.env = _join_env(before, after_body)
                if handler.type is not None:
                    self._eval(handler.type)
                if handler.name is not None and isinstance(handler.name.name, cst.Name):
                    self._set(handler.name.name.value, STATIC)
                self._block(handler.body.body)
                envs.append(dict(self.env))
            self.env = envs[0]
            for e in envs[1:]:
                self.env = _join_env(self.env, e)
            if stmt.orelse is not None:
                self._block(stmt.orelse.body.body)
            if stmt.finalbody is not None:
                self._block(stmt.finalbody.body.body)
        elif kind is cst.FunctionDef:
            for dec in stmt.decorators:
                self._eval(dec.decorator)
                self.a.seeded_inside(dec, self.info)
            self._set(stmt.name.value, STATIC)
        elif kind is cst.ClassDef:
            self._set(stmt.name.value, STATIC)
        elif kind is cst.Match:
            self._eval(stmt.subject)
            before = dict(self.env)
            result = dict(before)
            for case in stmt.cases:
                self.env = dict(before)
                if case.guard is not None:
                    self._eval(case.guard)
                self._block(case.body.body)
                result = _join_env(result, self.env)
            self.env = result
        elif kind is cst.IndentedBlock:
            self._block(stmt.body)

    def _if(self, stmt: cst.If) -> None:
        self._own(stmt)
        self._eval(stmt.test)
        truth = self.a.flag_truth(stmt.test)
        if truth is not None:  # ``if DEBUG_CHECKS:``: the other branch never runs
            if truth:
                self._block(stmt.body.body)
            elif type(stmt.orelse) is cst.If:
                self._if(stmt.orelse)
            elif type(stmt.orelse) is cst.Else:
                self._block(stmt.orelse.body.body)
            return
        before = dict(self.env)
        # (in traced code only: host code holds no traced value to tell apart)
        key = _test_key(self.a.model.module, stmt.test) if self.info is not None else None
        earlier = self._same_test(key) if key is not None else None
        for name in python_scalars(self.a.model, stmt.test):
            self.env[name] = STATIC  # ``if isinstance(e, (int, float)):``
        if earlier is not None:
            self._as_in(earlier[0], earlier[2])
        self._block(stmt.body.body)
        then_env = self.env
        self.env = dict(before)
        if earlier is not None:
            self._as_in(earlier[1], earlier[2])
        if type(stmt.orelse) is cst.If:
            self._if(stmt.orelse)
        elif type(stmt.orelse) is cst.Else:
            self._block(stmt.orelse.body.body)
        else_env = self.env
        self.env = _join_env(then_env, self.env)
        if key is not None:
            self._branches[key[0]] = (then_env, else_env, dict(self.env), key[1])

    def _same_test(self, key: tuple[str, list[str]]) -> tuple[Env, Env, Env, list[str]] | None:
        """An earlier ``if`` of this walk with the same test (the same code, made of names,
        attributes, literals and operators, none of its names bound again since): its
        branch taken again is the branch taken then (clm-ml-jax's two ``if acclim_type ==
        0:``, where ``vcmaxse`` is a module constant in the first branch and traced in the
        other; fresh-2026-12q)."""
        earlier = self._branches.get(key[0])
        if earlier is None:
            return None
        after = earlier[2]
        if any(self.env.get(n) is not after.get(n) for n in key[1]):
            return None
        return earlier

    def _as_in(self, branch: Env, after: Env) -> None:
        """The values a branch of an earlier ``if`` on the same test left, for the names
        not bound again since that ``if``."""
        for name, val in branch.items():
            if name in after and self.env.get(name) is after[name]:
                self.env[name] = val

    def _for(self, stmt: cst.For) -> None:
        self._own(stmt)
        it = self._eval(stmt.iter)
        element = self._element_of(stmt.iter, it)
        before = dict(self.env)
        for _ in range(2):
            self._bind_element(stmt.target, stmt.iter, element)
            self._block(stmt.body.body)
            self.env = _join_env(before, self.env)
        if stmt.orelse is not None:
            self._block(stmt.orelse.body.body)

    def _bind_element(
        self, target: cst.BaseExpression, iterable: cst.BaseExpression, element: Val
    ) -> None:
        """Bind a loop target to the elements of ``iterable``, position by position for
        ``enumerate``/``zip`` unpacked into a tuple: the index of ``enumerate(params)``
        is a Python int, and ``size`` in ``zip(SIZES, keys)`` comes from ``SIZES`` only."""
        parts = self._unpacked_parts(target, iterable)
        if parts is None:
            self._bind(target, element)
            return
        for el, val in parts:
            self._bind(el, val)

    def _unpacked_parts(
        self, target: cst.BaseExpression, iterable: cst.BaseExpression
    ) -> list[tuple[cst.BaseExpression, Val]] | None:
        if type(target) not in (cst.Tuple, cst.List):
            return None
        elements = target.elements  # type: ignore[attr-defined]
        if any(type(el) is cst.StarredElement for el in elements):
            return None
        if type(iterable) in (cst.Tuple, cst.List):
            return self._rows_by_position(elements, iterable)
        if type(iterable) is not cst.Call:
            return None
        args = iterable.args
        if any(a.star for a in args):
            return None
        qn = self.a.model.call_name(iterable)
        positional = [a.value for a in args if a.keyword is None]
        if qn == "builtins.enumerate" and positional and len(elements) == 2:
            seq = positional[0]
            inner = self._element_of(seq, self.a.values.get(id(seq), STATIC))
            start = [a.value for a in args[1:] if a.keyword is None or a.keyword.value == "start"]
            index = self.a.values.get(id(start[0]), STATIC) if start else STATIC
            return [(elements[0].value, index), (elements[1].value, inner)]
        if (
            qn == "builtins.zip"
            and len(positional) == len(elements)
            and all(a.keyword is None or a.keyword.value == "strict" for a in args)
        ):
            return [
                (el.value, self._element_of(seq, self.a.values.get(id(seq), STATIC)))
                for el, seq in zip(elements, positional, strict=True)
            ]
        return None

    def _rows_by_position(
        self, elements: Sequence[cst.BaseElement], iterable: cst.Tuple | cst.List
    ) -> list[tuple[cst.BaseExpression, Val]] | None:
        """``for name, value, dtype in (("a", a, jnp.int32), ("b", b, jnp.bool_)):``: each
        name takes the join of its own position over the rows, so ``dtype`` stays static
        when ``value`` is traced."""
        rows = []
        for row in iterable.elements:
            value = row.value
            if type(row) is not cst.Element or type(value) not in (cst.Tuple, cst.List):
                return None
            cells = value.elements  # type: ignore[attr-defined]
            if len(cells) != len(elements) or any(type(c) is not cst.Element for c in cells):
                return None
            rows.append(cells)
        if not rows:
            return None
        out = []
        for i, el in enumerate(elements):
            vals = [self.a.values.get(id(row[i].value), MAYBE) for row in rows]
            joined = vals[0]
            for v in vals[1:]:
                joined = join(joined, v)
            out.append((el.value, joined))
        return out

    def _element_of(self, iterable: cst.BaseExpression, it: Val) -> Val:
        if isinstance(iterable, cst.Call):
            qn = self.a.model.call_name(iterable)
            if qn == "builtins.range":
                return STATIC
            if qn in ("builtins.enumerate", "builtins.zip") and iterable.args:
                parts = [
                    self._element_of(a.value, self.a.values.get(id(a.value), STATIC))
                    for a in iterable.args
                ]
                val = join(*parts)
                return Val(val.level, val.origin, True, val.array, val.computed)
        if type(iterable) in (cst.Tuple, cst.List, cst.Set):
            vals = [self.a.values.get(id(el.value), STATIC) for el in iterable.elements]
            if not vals:
                return STATIC
            val = join(*vals)
            return Val(val.level, val.origin, False, val.array, val.computed)
        if it.container:
            return Val(it.level, it.origin, False, it.array, it.computed)
        return it

    def _small(self, small: cst.BaseSmallStatement) -> None:
        self._own(small)
        kind = type(small)
        if kind is cst.Assign:
            val = self._eval(small.value)
            parts = self.a.call_parts.get(id(small.value))
            star = self.a.call_star.get(id(small.value))
            if parts is None and type(small.value) in (cst.Tuple, cst.List):
                # ``Ma, dim = _pad(up), up.shape[1]``: ``dim`` is the static shape
                parts, star = _display_parts(self.a.values, small.value, val)
            elif parts is None and type(small.value) is cst.IfExp:
                # ``v, kind = (a, k2) if k1 == K else (b, k1)``: by position in both
                parts, star = _if_exp_parts(self.a.values, small.value, val)
            elif parts is None:
                parts, star = positions(val), None  # ``a, n = t`` for ``t = (x, 3)``
            for t in small.targets:
                target = t.target
                placed = _by_position(target, parts, star) if parts is not None else None
                if placed is not None:
                    # ``n, y = helper(x)`` for ``return x.shape[0], x * 2``: by position
                    for el, part in placed:
                        self._bind(el, part)
                else:
                    self._bind(target, val)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                self._bind(small.target, self._eval(small.value))
        elif kind is cst.AugAssign:
            current = self._eval(small.target)
            val = join(current, self._eval(small.value))
            if isinstance(small.target, cst.Name):
                self._set(small.target.value, val)
        elif kind is cst.Expr:
            self._eval(small.value)
        elif kind is cst.Return:
            if small.value is not None and self.fn is not None:
                val = self._eval(small.value)
                prev = self.a.returns.get(id(self.fn))
                self.a.returns[id(self.fn)] = join(prev, val) if prev else val
                self._return_parts(small.value)
        elif kind is cst.Assert:
            self._eval(small.test)
            if small.msg is not None:
                self._eval(small.msg)
        elif kind is cst.Raise:
            if small.exc is not None:
                self._eval(small.exc)
        elif kind is cst.Del:
            self._eval(small.target)

    def _return_parts(self, value: cst.BaseExpression) -> None:
        """Record each position of a returned tuple display (see ``return_parts``)."""
        key = id(self.fn)
        parts_of = self.a.return_parts
        if key in parts_of and parts_of[key] is None:
            return
        if type(value) is not cst.Tuple:
            parts_of[key] = None
            return
        stars = [i for i, el in enumerate(value.elements) if type(el) is cst.StarredElement]
        star = stars[0] if len(stars) == 1 else None
        if len(stars) > 1 or (key in parts_of and self.a.return_star.get(key) != star):
            parts_of[key] = None  # two stars, or tuples that do not line up
            return
        parts = [self.a.values.get(id(el.value), MAYBE) for el in value.elements]
        prev = parts_of.get(key)
        if prev is None:
            parts_of[key] = parts
            if star is not None:
                self.a.return_star[key] = star
        elif len(prev) == len(parts):
            parts_of[key] = [join(a, b) for a, b in zip(prev, parts, strict=True)]
        else:
            parts_of[key] = None

    # expressions -----------------------------------------------------------------------

    def _eval(self, expr: cst.BaseExpression) -> Val:
        # one dict lookup on the exact class picks the handler: an ``isinstance`` chain
        # costs up to 20 ABCMeta checks per expression (libcst classes are ABCs)
        handler = _EVAL_HANDLERS.get(type(expr))
        if handler is None:
            handler = _eval_handler(type(expr))
        val = handler(self, expr)
        self.a.values[id(expr)] = val
        if self.info is not None:
            self.a.owner[id(expr)] = self.info
        return val

    def _lookup(self, name: str) -> Val:
        if name in self.env:
            return self.env[name]
        if name in self.local_names:
            return STATIC  # assigned later in the function (loop back-edge handled above)
        # a closure: the enclosing function's values
        parent = self.a._parent_fn.get(id(self.fn)) if self.fn is not None else None
        while parent is not None:
            merged = self.a.merged_env.get(id(parent))
            if merged is not None and name in merged:
                val = merged[name]
                if val.level > Level.STATIC and val.origin is not None:
                    origin = val.origin
                    val = Val(
                        val.level,
                        Origin(
                            origin.name,
                            f"{origin.role}, captured by `{_fn_name(self.fn)}`",
                            origin.func,
                            origin.param,
                        ),
                        val.container,
                        val.array,
                        val.computed,
                    )
                return val
            parent = self.a._parent_fn.get(id(parent))
        return STATIC

    # Handlers of ``_eval``, one per kind of expression (see ``_EVAL_KINDS``). A new
    # ``Val`` is built with all five fields (level, origin, container, array, computed)
    # rather than with ``dataclasses.replace``, which costs several times more.

    def _eval_static(self, expr: cst.BaseExpression) -> Val:
        """Literals, lambdas and anything else: known at trace time."""
        return STATIC

    def _eval_name(self, expr: cst.Name) -> Val:
        if expr.value in ("True", "False", "None"):
            return STATIC
        return self._lookup(expr.value)

    def _eval_concatenated(self, expr: cst.ConcatenatedString) -> Val:
        self._eval(expr.left)
        self._eval(expr.right)
        return STATIC

    def _eval_formatted(self, expr: cst.FormattedString) -> Val:
        for part in expr.parts:
            if type(part) is cst.FormattedStringExpression:
                self._eval(part.expression)
        return STATIC

    def _eval_attribute(self, expr: cst.Attribute) -> Val:
        base = self._eval(expr.value)
        if expr.attr.value in STATIC_ATTRIBUTES:
            return STATIC
        if base.level > Level.STATIC:
            attr = expr.attr.value
            if (
                type(expr.value) is cst.Name
                and expr.value.value == "self"
                and self.fn is not None
                and id(self.fn) in self.a._class_of
                and self.a.static_field(self.a._class_of[id(self.fn)], attr)
            ):
                return STATIC  # a Linen module's field: a Python value under ``jit``
            if attr in ARRAY_ATTRIBUTES:
                return Val(base.level, base.origin, False, base.array, True)
            if not base.computed:
                # pytree navigation (``state.step``, ``model.depth``): the leaf may be
                # static metadata of the node (a static field, a module attribute)
                return Val(Level.MAYBE, base.origin, False, base.array, base.computed)
            if attr not in JAX_ARRAY_ATTRIBUTES and attr not in JAX_RESULT_ATTRIBUTES:
                # an attribute no value of JAX has (``x.reshape(...).irreps``): the base
                # is an object of another class after all, whatever its methods looked
                # like, so this is pytree navigation too
                return Val(Level.MAYBE, base.origin, False, base.array, False)
            return Val(base.level, base.origin, False, base.array, base.computed)
        return STATIC

    def _eval_subscript(self, expr: cst.Subscript) -> Val:
        base = self._eval(expr.value)
        index = STATIC
        for el in expr.slice:
            sl = el.slice
            if type(sl) is cst.Index:
                index = join(index, self._eval(sl.value))
            elif type(sl) is cst.Slice:
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        index = join(index, self._eval(part))
        if base.keys is not None:
            key = string_key(expr)
            entry = base.entry(key) if key is not None else None
            if entry is not None:  # ``p["steps"]`` in a dict of known keys: that entry
                return _entry_named(entry, expr.value, key)
        if base.level > Level.STATIC:
            if len(expr.slice) == 1 and self._static_keyword(expr.value, expr.slice[0].slice):
                return STATIC
            return Val(base.level, base.origin, False, base.array, base.computed)
        if index.level > Level.STATIC:
            return Val(Level.MAYBE, index.origin, False, index.array, index.computed)
        return STATIC

    def _static_keyword(self, base: cst.BaseExpression, key: cst.CSTNode) -> bool:
        """``hierarchy["mem_limit"]`` where ``hierarchy`` is the ``**`` parameter of a
        function jitted with ``static_argnames=[..., "mem_limit"]``: JAX treats that
        keyword as static, so the value is the caller's Python value (jaxfmm's
        ``eval_strayfield``, fresh-2026-12r)."""
        info, fn = self.info, self.fn
        if info is None or type(fn) is not cst.FunctionDef or type(base) is not cst.Name:
            return False
        star = fn.params.star_kwarg
        if star is None or star.name.value != base.value:
            return False
        if type(key) is cst.Index:
            key = key.value
        name = one_string(key)
        if name is None or name not in info.static_params:
            return False
        val = self.env.get(base.value)
        return val is None or val.origin is None or val.origin.param == base.value

    def _eval_binary(self, expr: cst.BinaryOperation) -> Val:
        val = join(self._eval(expr.left), self._eval(expr.right))
        return Val(val.level, val.origin, False, val.array, val.level > Level.STATIC)

    def _eval_unary(self, expr: cst.UnaryOperation) -> Val:
        inner = self._eval(expr.expression)
        if type(expr.operator) is cst.Not:
            if inner.container:
                return STATIC
            return Val(inner.level, inner.origin, False, inner.array, inner.computed)
        return Val(inner.level, inner.origin, False, inner.array, inner.level > Level.STATIC)

    def _eval_boolean(self, expr: cst.BooleanOperation) -> Val:
        return join(self._eval(expr.left), self._eval(expr.right))

    def _eval_comparison(self, expr: cst.Comparison) -> Val:
        vals = [self._eval(expr.left)]
        identity = False
        membership = False
        for comp in expr.comparisons:
            vals.append(self._eval(comp.comparator))
            op = type(comp.operator)
            if op is cst.Is or op is cst.IsNot:
                identity = True
            if (op is cst.In or op is cst.NotIn) and type(comp.comparator) not in _LITERAL_SEQS:
                membership = True
        if identity or _against_strings(expr):
            return STATIC
        val = join(*vals)
        if membership:
            # ``"w" in params`` looks up a key of a pytree: a Python bool
            return Val(min(val.level, Level.MAYBE), val.origin, False, val.array, val.computed)
        return Val(val.level, val.origin, False, val.array, val.level > Level.STATIC)

    def _eval_if_exp(self, expr: cst.IfExp) -> Val:
        self._eval(expr.test)
        return join(self._eval(expr.body), self._eval(expr.orelse))

    def _eval_sequence(self, expr: cst.Tuple | cst.List | cst.Set) -> Val:
        vals = [self._eval(el.value) for el in expr.elements]
        if not vals:
            return Val(container=True)
        val = join(*vals)
        keys = sequence_positions(expr, vals, val)
        return Val(val.level, val.origin, True, False, val.computed, keys)

    def _eval_dict(self, expr: cst.Dict) -> Val:
        vals = []
        entries: dict[str, Val] | None = {}
        for el in expr.elements:
            if type(el) is cst.DictElement:
                self._eval(el.key)
                vals.append(self._eval(el.value))
                name = one_string(el.key)
                if entries is not None and name is not None:
                    entries[name] = vals[-1]
                    continue
                entries = None
            else:
                vals.append(self._eval(el.value))
                entries = None  # ``**other``: keys not known
        keys = tuple(entries.items()) if entries is not None else None
        if not vals:
            return Val(container=True, keys=keys)
        val = join(*vals)
        return Val(val.level, val.origin, True, False, val.computed, keys)

    def _eval_named(self, expr: cst.NamedExpr) -> Val:
        val = self._eval(expr.value)
        self._bind(expr.target, val)
        return val

    def _eval_starred(self, expr: cst.StarredElement) -> Val:
        return self._eval(expr.value)

    def _eval_await_yield(self, expr: cst.Await | cst.Yield) -> Val:
        inner = getattr(expr, "expression", None) or getattr(expr, "value", None)
        if isinstance(inner, cst.BaseExpression):
            self._eval(inner)
        return MAYBE

    def _comprehension(self, expr: cst.BaseComprehension) -> Val:
        saved = dict(self.env)
        comp: cst.CompFor | None = expr.for_in
        while comp is not None:
            it = self._eval(comp.iter)
            self._bind_element(comp.target, comp.iter, self._element_of(comp.iter, it))
            for cond in comp.ifs:
                self._eval(cond.test)
            comp = comp.inner_for_in
        if isinstance(expr, cst.DictComp):
            self._eval(expr.key)
            val = self._eval(expr.value)
        else:
            val = self._eval(expr.elt)  # type: ignore[attr-defined]
        self.env = saved
        return Val(val.level, val.origin, True, False, val.computed)

    def _call(self, call: cst.Call) -> Val:
        model = self.a.model
        func = call.func
        args: list[tuple[str | None, Val]] = []
        for arg in call.args:
            v = self._eval(arg.value)
            key = (
                arg.keyword.value
                if arg.keyword is not None
                else ("*" if arg.star == "*" else "**" if arg.star == "**" else None)
            )
            args.append((key, v))
        if args:
            joined = join(*[v for _, v in args])
            joined = Val(joined.level, joined.origin, False, joined.array, joined.computed)
        else:
            joined = STATIC
        qn = model.call_name(call)
        info = self.info
        staging = info is not None and info.staging
        self.a.seeded_inside(call, info)
        if qn is not None:
            if qn in STATIC_CALLS:
                return STATIC
            if qn in ("builtins.float", "builtins.int", "builtins.bool", "builtins.complex"):
                return STATIC
            if qn in CONSTANT_COLLECTIVES and args and args[0][1].level is Level.STATIC:
                return STATIC  # ``lax.psum(1, "i")``: the axis size, a Python int
            if qn.startswith(ARRAY_MODULES):
                if metadata_call(qn):
                    return joined  # ``lax.ConvDimensionNumbers(*spec)``: Python values
                if self.compile_time and not joined.traced:
                    # ``jnp.arange(3)`` under ``ensure_compile_time_eval``: a concrete
                    # array (made from traced operands it would still be a tracer)
                    return Val(joined.level, joined.origin, False, True, joined.computed)
                if staging and info is not None:
                    if joined.traced:
                        return Val(joined.level, joined.origin, False, True, True)
                    short = _short(qn)
                    return Val(
                        Level.TRACED,
                        Origin(
                            cst.Module([]).code_for_node(call)[:40],
                            f"made by `{short}` inside `{info.name}`",
                            info,
                        ),
                        array=True,
                        computed=True,
                    )
                return Val(joined.level, joined.origin, False, True, joined.level > Level.STATIC)
            if qn in TRANSFORMS or qn in PARTIAL:
                return STATIC  # builds a function
            if qn in NUMPY_ARRAY_METHODS and args and args[0][0] is None:
                first = args[0][1]
                if first.traced and not first.container:
                    # ``np.mean(x)`` is ``x.mean()``: a tracer of a tracer
                    return Val(first.level, first.origin, False, True, True)
        if type(func) is cst.Call:
            # ``jax.jit(f)(x)``, ``jax.vmap(f)(x)``: the wrapped function's results
            self._eval(func)
            inner = self.a._transform_of(func.func)
            if inner is not None:
                if joined.level > Level.STATIC:
                    return Val(joined.level, joined.origin, False, True, joined.computed)
                if info is None:  # host code: a concrete jax.Array
                    return Val(Level.STATIC, array=True)
                return Val(Level.MAYBE if not staging else Level.TRACED, joined.origin, array=True)
        else:
            attribute = type(func) is cst.Attribute
            base = self._eval(func) if attribute else None
            if (
                attribute
                and base is not None
                and base.level > Level.STATIC
                # ``self.helper(x)`` with a maybe-traced ``self``: the method is resolved below
                and not (self._local_target(call) is not None and self.info is not None)
            ):
                method = func.attr.value
                if method in ("item", "tolist", "__bool__", "__float__", "__int__", "__index__"):
                    return STATIC
                if method in ("get", "pop") and args and args[0][0] is None:
                    if self._static_keyword(func.value, call.args[0].value):
                        return STATIC  # ``hierarchy.get("mem_limit")``, a static keyword
                    entry = dict_get(
                        self.a.values.get(id(func.value)), method, func.value, call, args
                    )
                    if entry is not None:  # ``p.get("steps", n)``: the entry (or the default)
                        return entry
                if method in DICT_CHANGES and type(func.value) is cst.Name:
                    self._set_entry(func.value.value, None)
                array = base.array or base.traced
                return Val(base.level, base.origin, False, array, base.computed)
        if info is None and self.a.transformed_callee(call, self.fn) is not None:
            # host code calls a jitted/vmapped function: its results are jax.Arrays
            # (unless the function returns nothing)
            local = self._local_target(call)
            if local is not None and not _returns_value(local[0]):
                return STATIC
            return Val(Level.STATIC, array=True)
        target = self._local_target(call)
        if target is not None and info is not None and self.compile_time and not joined.traced:
            # under ``ensure_compile_time_eval`` a helper given no tracer runs eagerly:
            # it is not traced here, and what it returns is concrete
            return Val(joined.level, joined.origin, False, joined.array, joined.computed)
        if target is None and info is not None and self.a.project is not None:
            if type(func) in (cst.Name, cst.Attribute) and (qn is None or "." in qn):
                self.foreign.append((info, call, args))
        if target is not None and info is not None:
            fn, skip_first = target
            self.a.call_helper(info, call, fn, args, skip_first)
            seen = self.a.helper_seen(fn, True)
            self.reads.append((fn, seen))
            ret, parts, star = seen  # type: ignore[misc]
            if ret is not None and parts is not None and not _yields(fn):
                self.a.call_parts[id(call)] = parts
                if star is not None:
                    self.a.call_star[id(call)] = star
                self.parts_calls.append(id(call))
                self.parts_read.append((id(fn), tuple(p.level for p in parts)))
            if (
                ret is not None
                and staging
                and ret.traced
                and ret.origin is not None
                and ret.origin.func is not info
                and self.a.transformed_callee(call, self.fn) is not None
            ):
                # a jitted function called under this trace is inlined: what it returns is
                # a tracer because this function is traced, whatever its body computes
                # (difftb's ``fermi_dirac``, fresh-2026-12p: the message named its body)
                return Val(
                    ret.level,
                    Origin(
                        cst.Module([]).code_for_node(call)[:40],
                        f"returned by `{cst.Module([]).code_for_node(func)}` (jitted)"
                        f" inside `{info.name}`",
                        info,
                    ),
                    ret.container,
                    ret.array,
                    ret.computed,
                )
            if ret is not None:
                return ret if ret.level <= joined.level or ret.origin is None else ret
            level = min(joined.level, Level.MAYBE)
            return Val(level, joined.origin, False, joined.array, joined.computed)
        if target is not None:
            fn, _ = target
            jitted = self.a.helper_seen(fn, False)
            self.reads.append((fn, jitted))
            if (
                jitted
                and not fn.decorators  # decorated: transformed_callee decided above
                and _returns_value(fn)
            ):
                # calling a jitted function from host code returns jax.Arrays
                return Val(Level.STATIC, array=True)
        if joined.traced and staging and type(func) is cst.Name:
            callee = self._lookup(func.value)
            origin = callee.origin
            if (
                callee.traced
                and origin is not None
                and origin.func is info
                and origin.param == func.value
                and origin.name == func.value
            ):
                # ``model(x)`` for a traced parameter ``model`` of a jit-like function
                # (an NNX/Equinox module under ``nnx.jit``/``eqx.filter_jit``, a
                # ``tree_util.Partial``): its leaves are tracers and so is what it
                # computes from a traced argument (one array or a pytree of them)
                return Val(Level.TRACED, joined.origin, False, True, False)
        if joined.level > Level.STATIC:
            return Val(Level.MAYBE, joined.origin, False, joined.array, joined.computed)
        return STATIC

    def _local_target(self, call: cst.Call) -> tuple[cst.FunctionDef, bool] | None:
        func = call.func
        if type(func) is cst.Name:
            resolved = self.a._resolve_callable(func)
            if resolved is not None and type(resolved[0]) is cst.FunctionDef:
                return resolved[0], False
            made = self.a.factory_product(func)
            return (made, False) if made is not None else None
        if type(func) is cst.Attribute:
            # ``self.m(...)`` in a method, or ``Cls.m(...)`` for a class of this module
            # (a ``@staticmethod`` is given no ``self``: its first parameter is the
            # call's first argument)
            own = self.a._class_of.get(id(self.fn)) if type(self.fn) is cst.FunctionDef else None
            return method_call(self.a.model, func, own)
        return None


_LITERAL_SEQS = frozenset({cst.Tuple, cst.List, cst.Set})

_EvalHandler = Callable[[_FunctionWalker, cst.BaseExpression], Val]

_EVAL_KINDS: tuple[tuple[tuple[type[cst.CSTNode], ...], _EvalHandler], ...] = (
    ((cst.Name,), _FunctionWalker._eval_name),
    (
        (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis),
        _FunctionWalker._eval_static,
    ),
    ((cst.ConcatenatedString,), _FunctionWalker._eval_concatenated),
    ((cst.FormattedString,), _FunctionWalker._eval_formatted),
    ((cst.Attribute,), _FunctionWalker._eval_attribute),
    ((cst.Subscript,), _FunctionWalker._eval_subscript),
    ((cst.Call,), _FunctionWalker._call),
    ((cst.BinaryOperation,), _FunctionWalker._eval_binary),
    ((cst.UnaryOperation,), _FunctionWalker._eval_unary),
    ((cst.BooleanOperation,), _FunctionWalker._eval_boolean),
    ((cst.Comparison,), _FunctionWalker._eval_comparison),
    ((cst.IfExp,), _FunctionWalker._eval_if_exp),
    ((cst.Tuple, cst.List, cst.Set), _FunctionWalker._eval_sequence),
    ((cst.Dict,), _FunctionWalker._eval_dict),
    (
        (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp),
        _FunctionWalker._comprehension,
    ),
    ((cst.Lambda,), _FunctionWalker._eval_static),
    ((cst.NamedExpr,), _FunctionWalker._eval_named),
    ((cst.StarredElement,), _FunctionWalker._eval_starred),
    ((cst.Await, cst.Yield), _FunctionWalker._eval_await_yield),
)  # type: ignore[assignment]
"""Which handler evaluates an expression: the first entry it is an instance of."""

_EVAL_HANDLERS: dict[type, _EvalHandler] = {}
"""The handler of each expression class seen so far (filled by ``_eval_handler``)."""


def _eval_handler(cls: type) -> _EvalHandler:
    handler = next(
        (h for classes, h in _EVAL_KINDS if issubclass(cls, classes)),
        _FunctionWalker._eval_static,
    )
    _EVAL_HANDLERS[cls] = handler
    return handler


def _returns_value(fn: cst.FunctionDef) -> bool:
    """``fn`` has a ``return <value>`` (nested functions aside)."""
    return any(type(n) is cst.Return and n.value is not None for n in own_nodes(fn))  # type: ignore[attr-defined]


def _yields(fn: cst.FunctionDef) -> bool:
    """``fn`` is a generator (nested functions aside): a call returns the generator."""
    return any(type(n) is cst.Yield for n in own_nodes(fn))


def _fn_name(fn: cst.CSTNode | None) -> str:
    if isinstance(fn, cst.FunctionDef):
        return fn.name.value
    return "<lambda>"


def _short(qn: str) -> str:
    for long, short in (
        ("jax.numpy.", "jnp."),
        ("jax.lax.", "lax."),
        ("jax.random.", "jax.random."),
    ):
        if qn.startswith(long):
            return short + qn[len(long) :]
    return qn
