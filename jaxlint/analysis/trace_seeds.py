"""Where tracing starts in a module (the seeds of :class:`jaxlint.analysis.tracing.
TraceAnalysis`): functions under a transform's decorator, functions another module's
traced code calls (its summary's calls), and functions passed to a transform or a lax
body. A mixin of ``TraceAnalysis``, which holds the state these methods read
(``_defs``, ``_calls``, ``_eager_calls``, ``functions``, ``model``, ``project``) and
``_mark``/``_transform_of``/``_resolve_callable``/``_resolve_transformed``/``_is_dead``."""

from __future__ import annotations

from typing import Any

import libcst as cst

from jaxlint.analysis.trace_values import (
    Level,
    Reason,
    TracedFunction,
    _Wrap,
    all_param_names,
    positional_params,
)
from jaxlint.analysis.transforms import (
    BODY_ARGS,
    BODY_KEYWORDS,
    EAGER_BODIES,
    NONDIFF_TRANSFORMS,
    PASSED_AS_IS_SPECS,
    POSITIONAL_OPTIONS,
    SWITCH,
    TRANSFORMS,
    Transform,
)


class _Seeds:
    def _find_seeds(self) -> None:
        for fn in self._defs:
            if isinstance(fn, cst.FunctionDef):
                for dec in reversed(fn.decorators):
                    wrap = self._transform_of(dec.decorator)
                    if wrap is not None and wrap.transform.qualname not in NONDIFF_TRANSFORMS:
                        self._mark(fn, wrap, dec)
        for call in self._calls:
            self._seed_from_call(call)
        if self.project is not None:
            for call in self.project.traced_calls():
                self._seed_from_module(call)

    def _seed_from_module(self, call: dict[str, Any]) -> None:
        """A function of this module called from a traced function of another module
        (``step.py``'s jitted ``train_step`` calls ``helper`` imported from here): it is
        traced there, with the arguments that call passes."""
        found = self.model.module_scope.bindings.get(call.get("name", ""))
        if not found or len(found) != 1 or found[0].kind != "def":
            return
        fn = found[0].node
        if type(fn) is not cst.FunctionDef:
            return
        transform = TRANSFORMS.get(call.get("transform") or "")
        if transform is not None:
            kwargs: dict[str, cst.BaseExpression] = {}
            for key in ("static_argnums", "static_argnames", "argnums", "in_axes"):
                if key in call:
                    kwargs[key] = cst.parse_expression(repr(call[key]))
            as_is = [i for i in call.get("passed_as_is", ()) if isinstance(i, int) and i >= 0]
            if as_is and transform.qualname in PASSED_AS_IS_SPECS:  # shard_map's None specs
                specs = ["None" if i in as_is else "0" for i in range(max(as_is) + 1)]
                kwargs[PASSED_AS_IS_SPECS[transform.qualname]] = cst.parse_expression(
                    f"({', '.join(specs)},)"
                )
            existed = id(fn) in self.functions
            self._mark(fn, _Wrap(transform, kwargs), fn)
            info = self.functions[id(fn)]
            if not existed:
                info.external = True
            last = info.own[-1]
            info.own[-1] = Reason(
                f"{last.verb} in {call.get('where', '?')}",
                fn, last.staging, last.abstract, last.params, located=True,
            )  # fmt: skip
            return
        staging = bool(call.get("staging"))
        abstract = bool(call.get("abstract"))
        verb = (
            f"called from `{call.get('caller', '?')}` ({call.get('where', '?')}), which is"
            f" {call.get('caller_how') or 'traced'}"
        )
        info = self.functions.get(id(fn))
        if info is None:
            info = TracedFunction(
                node=fn, name=fn.name.value, verb=verb, site=fn, staging=staging,
                abstract=abstract, external=True,
            )  # fmt: skip
            for pname in all_param_names(fn):
                info.param_levels[pname] = Level.STATIC
            self.functions[id(fn)] = info
        else:
            info.staging = info.staging or staging
            info.abstract = info.abstract or abstract
        positional = positional_params(fn)
        traced: set[str] = set()
        i = 0
        nones = set(call.get("none_args", ()))
        literals = {i: bool(t) for i, t in call.get("literal_args", ())}
        for index, (keyword, level) in enumerate(call.get("args", [])):
            lvl = Level(min(max(int(level), 0), 2))
            names: list[str] = []
            if keyword is None:
                if i < len(positional):
                    names = [positional[i]]
                i += 1
            elif keyword in ("*", "**"):
                lvl = min(lvl, Level.MAYBE)
                names = positional[i:] if keyword == "*" else all_param_names(fn)
                info.external_passed = None
            elif keyword in info.param_levels:
                names = [keyword]
            if index in nones:  # ``grid=None``: the same as the default ``None``
                info.external_none.update(names)
            elif info.external_passed is not None:
                info.external_passed.update(names)
                truth = literals.get(index)
                for pname in names:  # the same literal from every call, or unknown
                    seen = info.external_literal.get(pname, truth)
                    info.external_literal[pname] = truth if seen is truth else None
            for pname in names:
                if pname in info.static_params:
                    continue
                info.param_levels[pname] = max(info.param_levels.get(pname, Level.STATIC), lvl)
                if lvl is Level.TRACED:
                    traced.add(pname)
        presumed = bool(call.get("presumed"))
        info.own.append(
            Reason(verb, fn, staging, abstract, frozenset(traced), located=True, presumed=presumed)
        )

    def _expects_raise(self, call: cst.Call) -> bool:
        """``call`` runs inside ``with pytest.raises(...):`` (or ``self.assertRaises``) in
        the same function: a test that checks the transform fails (rfx's
        ``jax.grad(bad_gather)`` under ``pytest.raises(TracerArrayConversionError)``).
        What the traced function does wrong there is the point of the test."""
        parents = self.model.parents
        child: cst.CSTNode = call
        current = parents.get(id(call))
        while current is not None:
            kind = type(current)
            if kind in (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Module):
                return False
            if kind is cst.With and child is current.body:  # type: ignore[attr-defined]
                for item in current.items:  # type: ignore[attr-defined]
                    expr = item.item
                    if type(expr) is not cst.Call:
                        continue
                    func = expr.func
                    if self.model.call_name(expr) == "pytest.raises" or (
                        type(func) is cst.Attribute
                        and func.attr.value in ("assertRaises", "assertRaisesRegex")
                    ):
                        return True
            child, current = current, parents.get(id(current))
        return False

    def _seed_from_call(self, call: cst.Call) -> None:
        if id(call) in self._eager_calls:
            return
        wrap = self._transform_of(call.func)
        if wrap is not None and wrap.transform.qualname in NONDIFF_TRANSFORMS:
            return  # ``custom_vjp(f)``: traces nothing itself (see ``NONDIFF_TRANSFORMS``)
        positional = [a for a in call.args if a.keyword is None and not a.star]
        kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if wrap is not None and positional:
            if self._is_dead(call) or self._expects_raise(call):
                return
            target = self._resolve_callable(positional[0].value)
            if target is None:
                # ``jax.jit(jax.grad(loss))``: the outer transform traces the function
                # the inner one wraps (the inner call seeds its own transform)
                target = self._resolve_transformed(positional[0].value)
            if target is None and self.project is not None:
                names = POSITIONAL_OPTIONS.get(wrap.transform.qualname, ())
                by_position = {k: a.value for k, a in zip(names, positional[1:], strict=False)}
                self.foreign_seeds.append(
                    (_Wrap(wrap.transform, {**wrap.kwargs, **by_position, **kwargs}), call)
                )
            if target is not None:
                node, nb, kb = target
                names = POSITIONAL_OPTIONS.get(wrap.transform.qualname, ())
                by_position = {k: a.value for k, a in zip(names, positional[1:], strict=False)}
                merged = _Wrap(wrap.transform, {**wrap.kwargs, **by_position, **kwargs})
                self._mark(node, merged, call, bound_positional=nb, bound_keywords=kb)
            return
        qn = self.model.call_name(call)
        if qn is None:
            return
        bodies: list[cst.BaseExpression] = []
        if qn in BODY_ARGS:
            for idx in BODY_ARGS[qn]:
                if idx < len(positional):
                    bodies.append(positional[idx].value)
            for key in BODY_KEYWORDS.get(qn, ()):
                if key in kwargs:
                    bodies.append(kwargs[key])
        elif qn == SWITCH and len(positional) >= 2:
            branches = positional[1].value
            if isinstance(branches, (cst.List, cst.Tuple)):
                bodies.extend(el.value for el in branches.elements)
        if not bodies or self._is_dead(call):
            return
        short = qn.replace("jax.lax.", "lax.")
        body_t = Transform(qn, short, f"the body of `{short}`")
        for body in bodies:
            target = self._resolve_callable(body)
            if target is not None:
                node, nb, kb = target
                self._mark(
                    node,
                    _Wrap(body_t, {}),
                    call,
                    verb=f"traced as a body of `{short}`",
                    bound_positional=nb,
                    bound_keywords=kb,
                )
                eager = qn in EAGER_BODIES
                info = self.functions[id(node)]
                info.staging = not eager
                info.abstract = not eager
                info.bodies.append(
                    Reason(f"traced as a body of `{short}`", call, not eager, not eager)
                )
