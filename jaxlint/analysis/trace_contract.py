"""Functions that JAX frameworks trace by contract: no ``jit`` is in sight, but the
framework's API says the function runs inside the user's transforms.

* a Flax Linen module's ``__call__``, its ``@nn.compact`` methods and ``setup`` (all run
  inside ``init``/``apply``); the legacy ``flax.nn`` module's ``apply`` (its first
  argument only: the hyperparameters that follow it are Python values by that API's
  convention, ``ResidualBlock(x, filters, strides)``);
* a Flax NNX, Equinox or Haiku module's ``__call__``;
* a function given to ``hk.transform``/``hk.transform_with_state``;
* the ``update`` function given to ``optax.GradientTransformation`` (or
  ``GradientTransformationExtraArgs``).

None of these frameworks traces the function itself: ``model.apply(params, x)``,
``f.apply(params, rng, x)``, ``model(x)`` and ``opt.update(g, state)`` run it eagerly on
concrete arrays (checked on flax 0.12.12, equinox 0.13.8, dm-haiku 0.0.17, optax 0.2.8
with jax 0.12: a Python ``if`` on an input works there). It is traced when the user's
training step is jitted, as training steps are, and that is what the messages say:
"traced whenever the model runs under `jax.jit`". Such a function is staged and abstract
(as under ``jit``), and its parameters are traced only where nothing says otherwise: an
annotation of a Python type (``bool``, ``int``, a dtype, a callable), a default that is a
Python literal (``deterministic: bool = False``, ``train=True``) make it static, a
default of ``None`` or of another expression makes it maybe-traced, and ``self`` is never
definitely traced (module fields are static metadata or parameters read by attribute).

Code traced only by contract, directly or through its callers in this module or another
(:meth:`TracedFunction.presumed`), keeps that mark: a rule may ask whether the code
itself says it runs eagerly (JAX101: a host generator seeded from a key).

A method whose every ``return`` gives a string or a pandas (or plotting) object is not
taken either: it is a report, not a model (apebench's ``BaseScenario.__call__`` runs a
whole experiment and returns a DataFrame); nor one whose loop calls a jitted step of its
class or module: it is a training loop (feedbax's ``TaskTrainer.__call__``).

An Equinox module's ``__init__`` is not taken: it usually runs eagerly, and under
``eqx.filter_vmap`` (the ensemble idiom) operations on constants stay concrete. An optax
``init`` is not taken either: ``opt.init(params)`` usually runs once, eagerly.

A mixin of :class:`jaxlint.analysis.tracing.TraceAnalysis` (``model``, ``project``,
``functions``, ``_defs``, ``_calls``, ``_class_of``, ``_eager_calls``,
``_resolve_callable``).
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.methods import assigned_self_attrs, module_class, self_attr
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.static_uses import size_params
from jaxlint.analysis.trace_values import (
    _STATIC_ANNOTATIONS,
    Level,
    Reason,
    TracedFunction,
    _annotation_text,
    _params,
    annotation_parts,
)
from jaxlint.analysis.walk import descendants, own_nodes

_STEP_JITS = frozenset(
    {"jax.jit", "equinox.filter_jit", "flax.nnx.jit", "jax.experimental.pjit.pjit", "jax.pmap"}
)
"""The transforms that compile a step a host loop calls (see ``_drives_jitted``)."""

FRAMEWORK_METHODS: dict[str, frozenset[str]] = {
    "flax.linen": frozenset({"__call__", "setup"}),
    "flax.nnx": frozenset({"__call__"}),
    "equinox": frozenset({"__call__"}),
    "haiku": frozenset({"__call__"}),
    "flax.nn": frozenset({"apply"}),
}
"""The methods each framework runs inside the user's ``init``/``apply``/call (Linen's
``@nn.compact`` methods too, see ``COMPACT``)."""

COMPACT = frozenset({"flax.linen.compact", "flax.linen.module.compact"})
NOT_WRAPPED = frozenset(
    {
        "flax.linen.nowrap",
        "flax.linen.module.nowrap",
        "builtins.staticmethod",
        "builtins.classmethod",
        "builtins.property",
        "functools.cached_property",
    }
)

_UNDER_JIT = "traced whenever the model runs under `{jit}` (as in a jitted training step)"
_WHAT: dict[str, tuple[str, str]] = {
    "flax.linen": ("a Flax Linen module method", "jax.jit"),
    "flax.nn": ("a Flax module's `apply`", "jax.jit"),
    "flax.nnx": ("a Flax NNX module's `__call__`", "nnx.jit"),
    "equinox": ("an Equinox module's `__call__`", "eqx.filter_jit"),
    "haiku": ("a Haiku module's `__call__`", "jax.jit"),
}

HAIKU_TRANSFORMS = frozenset({"transform", "transform_with_state"})
OPTAX_TRANSFORMATIONS = frozenset({"GradientTransformation", "GradientTransformationExtraArgs"})

_STATIC_TYPES = _STATIC_ANNOTATIONS | {
    "Dtype",
    "DType",
    "DTypeLike",
    "dtype",
    "PrecisionLike",
    "Precision",
    "Shape",
    "Axes",
    "Axis",
    "Iterable[int]",
    "Tuple[int, ...]",
    "tuple[int, ...]",
}


def contract_level(param: cst.Param) -> Level:
    """How traced a parameter of a function traced by contract is: static for a Python
    type's annotation or a literal default, maybe for ``None`` or another default and
    for an ``Optional`` annotation, traced otherwise."""
    ann = _annotation_text(param).replace(" ", "")
    default = param.default
    if ann:
        head = ann.split("[")[0].split(".")[-1]
        if ann in _STATIC_TYPES or head in _STATIC_TYPES:
            return Level.STATIC
        if head == "Optional" or "None" in ann.split("|"):
            return Level.MAYBE
        if head in ("Literal", "Type", "type"):
            return Level.STATIC
    if default is not None:
        if isinstance(default, (cst.Integer, cst.Float, cst.SimpleString)) or (
            isinstance(default, cst.Name) and default.value in ("True", "False")
        ):
            return Level.STATIC
        if (
            isinstance(default, cst.UnaryOperation)
            and isinstance(default.operator, cst.Minus)
            and isinstance(default.expression, (cst.Integer, cst.Float))
        ):
            return Level.STATIC
        return Level.MAYBE
    return Level.TRACED


class _Contract:
    def _find_contract_seeds(self) -> None:
        """Mark the functions traced by contract that no transform or lax body has
        already marked (their own transform is the better explanation)."""
        frameworks: dict[int, str | None] = {}
        for fn in self._defs:
            if type(fn) is not cst.FunctionDef:
                continue
            cls = self._class_of.get(id(fn))
            if cls is None:
                continue
            if id(cls) not in frameworks:
                frameworks[id(cls)] = self._framework(cls, 0)
            framework = frameworks[id(cls)]
            if framework is None or not self._contract_method(fn, framework):
                continue
            what, jit = _WHAT[framework]
            name = f"{cls.name.value}.{fn.name.value}"
            verb = f"{what}, {_UNDER_JIT.format(jit=jit)}"
            reason = Reason(verb, fn, True, True, located=True)
            # ``flax.nn``'s ``apply(self, x, features, ...)``: hyperparameters follow the input
            inputs = 1 if framework == "flax.nn" else None
            self._mark_contract(fn, name, verb, reason, inputs=inputs)
            info = self.functions.get(id(fn))
            if fn.name.value == "__call__" and info is not None and info.contract:
                self._called_modules.append((cls, fn, dict(info.param_levels)))
        for call in self._calls:
            if id(call) not in self._eager_calls:
                self._contract_call(call)

    def static_field(self, cls: cst.ClassDef, attr: str) -> bool:
        """``self.attr`` in a method of ``cls`` is a static field of a Flax Linen module:
        a class-level attribute annotated with a Python type (``block_size: int = 4``,
        ``dtype: Dtype``, ``Optional[int]``) of ``cls`` or of a base class of this module,
        that no method of the class assigns (``self.attr = ...`` in ``setup``). Linen
        modules are dataclasses: ``jax.jit(model.apply)`` closes over the module, so such a
        field is the Python value the module was built with (checked on flax 0.12.12)."""
        fields = self._static_fields.get(id(cls))
        if fields is None:
            fields = frozenset()
            if self._framework(cls, 0) == "flax.linen":
                fields = frozenset(_annotated_fields(self.model, cls, 0)) - assigned_self_attrs(cls)
            self._static_fields[id(cls)] = fields
        return attr in fields

    def _module_call_sites(self) -> None:
        """A module's ``__call__`` that this file calls only as ``Block(...)(x, 4)``: a
        parameter that every such call passes a static value is static (dopamine's
        ``NoisyNetwork()(x, features)``-style hyperparameters; gemma's
        ``Block(...)(x, self.block_size)``); a value only maybe traced or traced at one
        call leaves the contract's level (an input given a submodule's output). Only when
        every use of the class's name in this module is such a call (a class also kept in
        a variable, passed on, subclassed or named anywhere else may be called elsewhere)
        and at least one exists; a call from code that is not traced passes a static
        value only as a literal. Asked after each round of the walk, which gives each
        argument its value; callers in other modules and ``model.apply(...)`` are not
        seen, as everywhere in this file's view."""
        if not self._called_modules:
            return
        if self._module_sites is None:
            self._module_sites = _direct_calls(self.model, self._called_modules)
        for cls, fn, base in self._called_modules:
            sites = self._module_sites.get(id(cls))
            info = self.functions.get(id(fn))
            if not sites or info is None:
                continue
            passed = self._passed_levels(fn, sites)
            if passed is None:
                continue
            for pname, level in base.items():
                # a maybe-traced argument (``Block()(nn.Dense(4)(x))``) says nothing: the
                # parameter keeps the contract's level
                static = passed.get(pname) is Level.STATIC
                info.param_levels[pname] = Level.STATIC if static else level
            info.static_params = {p for p, lvl in info.param_levels.items() if lvl is Level.STATIC}

    def _passed_levels(self, fn: cst.FunctionDef, sites: list[cst.Call]) -> dict[str, Level] | None:
        """The highest level each parameter of ``fn`` (after ``self``) is given by the
        calls ``sites``: an argument's value in traced code, a literal's ``STATIC``
        elsewhere, a default's level where a call leaves it out (``None`` when a call
        spreads ``*args``/``**kwargs``)."""
        params = _params(fn)[1:]
        positional = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params][1:]]
        passed: dict[str, Level] = {}
        for call in sites:
            given: dict[str, Level] = {}
            traced_site = self.owner.get(id(call)) is not None
            i = 0
            for arg in call.args:
                if arg.star:
                    return None
                if traced_site:
                    val = self.values.get(id(arg.value))
                    level = Level.TRACED if val is None else val.level
                else:
                    level = Level.STATIC if _literal(arg.value) else Level.TRACED
                if arg.keyword is None:
                    if i >= len(positional):
                        return None
                    given[positional[i]] = level
                    i += 1
                else:
                    given[arg.keyword.value] = level
            for param in params:
                pname = param.name.value
                if pname not in given:
                    if param.star in ("*", "**"):
                        level = Level.MAYBE
                    elif param.default is None:
                        return None  # not a call that runs: cannot tell
                    else:
                        level = Level.STATIC if _literal(param.default) else Level.MAYBE
                    given[pname] = level
                passed[pname] = max(passed.get(pname, Level.STATIC), given[pname])
        return passed

    def _contract_method(self, fn: cst.FunctionDef, framework: str) -> bool:
        decorators = [self.model.qualified_name(d.decorator) for d in fn.decorators]
        if any(d in NOT_WRAPPED for d in decorators):
            return False
        if fn.name.value in FRAMEWORK_METHODS[framework]:
            return not _returns_host_objects(self.model, fn) and not self._drives_jitted(fn)
        return framework == "flax.linen" and any(d in COMPACT for d in decorators)

    def _drives_jitted(self, fn: cst.FunctionDef) -> bool:
        """A loop of ``fn``'s own body calls a jitted method of its class
        (``self._train_step`` under ``@eqx.filter_jit``, also through a name bound to it
        or to a wrapper of it in ``fn``) or a jitted function of this module: ``fn`` is a
        host loop that drives compiled steps (feedbax's ``TaskTrainer.__call__``, a
        training loop over batches with a progress bar; fresh-2026-12s), not a model
        that runs inside one."""
        cls = self._class_of.get(id(fn))
        jitted = {
            s.name.value
            for s in (cls.body.body if cls is not None else ())
            if type(s) is cst.FunctionDef and self._step_jitted(s)
        }
        aliases: set[str] = set()
        for node in own_nodes(fn):
            if type(node) is cst.Assign and any(
                self_attr(n) in jitted
                for n in descendants(node.value)  # type: ignore[attr-defined]
            ):
                aliases |= {
                    t.target.value
                    for t in node.targets  # type: ignore[attr-defined]
                    if type(t.target) is cst.Name
                }
        for node in own_nodes(fn):
            if type(node) not in (cst.For, cst.While):
                continue
            for inner in own_nodes(node):  # type: ignore[arg-type]
                if type(inner) is not cst.Call:
                    continue
                func = inner.func  # type: ignore[attr-defined]
                if self_attr(func) in jitted:
                    return True
                if type(func) is cst.Name:
                    if func.value in aliases:
                        return True
                    resolved = self._resolve_callable(func)
                    target = resolved[0] if resolved is not None else None
                    if type(target) is cst.FunctionDef and self._step_jitted(target):
                        return True
        return False

    def _step_jitted(self, fn: cst.FunctionDef) -> bool:
        return any(
            (wrap := self._transform_of(d.decorator)) is not None
            and wrap.transform.qualname in _STEP_JITS
            for d in fn.decorators
        )

    def _framework(self, cls: cst.ClassDef, depth: int) -> str | None:
        """The framework whose module ``cls`` is, through its bases (classes of this
        module, or of other modules of the project, whose summaries say)."""
        from jaxlint.analysis.project import FRAMEWORK_BASES

        for arg in cls.bases:
            value = arg.value
            if type(value) is cst.Name:
                found = self.model.lookup(value.value, self.model.scope_for(value))
                if found is not None and all(b.kind == "class" for b in found[1]):
                    if len(found[1]) == 1 and depth < 8:
                        inner = self._framework(found[1][0].node, depth + 1)  # type: ignore[arg-type]
                        if inner is not None:
                            return inner
                    continue
            value = self._class_namespace(value)
            if self.project is not None:
                qn = self.project.qualified_name(self.model, value)
            else:
                qn = self.model.qualified_name(value)
            if qn is None:
                continue
            if qn in FRAMEWORK_BASES:
                return FRAMEWORK_BASES[qn]
            if self.project is not None and not qn.startswith(("builtins.", "typing.", "jax.")):
                fact = self.project.class_(qn)
                if fact is not None and fact.get("framework"):
                    return str(fact["framework"])
        return None

    def _class_namespace(self, value: cst.BaseExpression) -> cst.BaseExpression:
        """``hk.Module`` where ``hk`` is a class of this module used as a namespace
        (``class hk: Module = module.Module``, as Haiku's own modules spell it): the
        expression assigned there."""
        if type(value) is not cst.Attribute or type(value.value) is not cst.Name:
            return value
        found = self.model.lookup(value.value.value, self.model.scope_for(value.value))
        if found is None or len(found[1]) != 1 or type(found[1][0].node) is not cst.ClassDef:
            return value
        for line in found[1][0].node.body.body:  # type: ignore[attr-defined]
            if type(line) is not cst.SimpleStatementLine:
                continue
            for small in line.body:
                if (
                    type(small) is cst.Assign
                    and len(small.targets) == 1
                    and type(small.targets[0].target) is cst.Name
                    and small.targets[0].target.value == value.attr.value  # type: ignore[attr-defined]
                ):
                    return small.value
        return value

    def _contract_call(self, call: cst.Call) -> None:
        """``hk.transform(f)`` and ``optax.GradientTransformation(init, update)``."""
        qn = self.model.call_name(call)
        if qn is None:
            return
        last = qn.rsplit(".", 1)[-1]
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if qn.startswith("haiku.") and last in HAIKU_TRANSFORMS:
            fn = positional[0] if positional else keywords.get("f")
            short = f"hk.{last}"
            tail = (
                ", traced whenever its `apply` runs under `jax.jit` (as in a jitted training step)"
            )
        elif qn.startswith("optax.") and last in OPTAX_TRANSFORMATIONS:
            fn = positional[1] if len(positional) > 1 else keywords.get("update")
            short = f"optax.{last}"
            tail = (
                ", traced whenever the optimizer's `update` runs under `jax.jit`"
                " (as in a jitted training step)"
            )
        else:
            return
        target = self._resolve_callable(fn) if fn is not None else None
        if target is None:
            return
        node, bound_positional, bound_keywords = target
        name = node.name.value if type(node) is cst.FunctionDef else "<lambda>"
        verb = f"given to `{short}`"
        reason = Reason(verb, call, True, True, tail=tail)
        self._mark_contract(
            node, name, verb + tail, reason, bound_positional, bound_keywords, method=False
        )

    def _mark_contract(
        self,
        fn: cst.FunctionDef | cst.Lambda,
        name: str,
        verb: str,
        reason: Reason,
        bound_positional: int = 0,
        bound_keywords: frozenset[str] = frozenset(),
        method: bool = True,
        inputs: int | None = None,
    ) -> None:
        """``inputs``: only that many leading parameters (after ``self``) may be traced;
        the others are at most maybe-traced."""
        if id(fn) in self.functions:
            return
        info = TracedFunction(
            node=fn, name=name, verb=verb, site=reason.site, staging=True, abstract=True,
            contract=True,
        )  # fmt: skip
        info.own.append(reason)
        params = _params(fn)
        levels: dict[str, Level] = {}
        for i, param in enumerate(params):
            pname = param.name.value
            if method and i == 0:
                levels[pname] = Level.MAYBE  # ``self``: static fields, parameters by name
            elif i < bound_positional + method or pname in bound_keywords:
                levels[pname] = Level.STATIC  # bound by ``functools.partial``
            elif param.star in ("*", "**"):
                levels[pname] = Level.MAYBE
            else:
                levels[pname] = contract_level(param)
                if inputs is not None and i >= inputs + method:
                    levels[pname] = min(levels[pname], Level.MAYBE)
        # a parameter the function gives as a shape or size (``jnp.zeros((n, 1))``) is a
        # Python value at every call that runs: a tracer there raises
        first = params[0].name.value if method and params else None
        maybe = {p for p, lvl in levels.items() if lvl is not Level.STATIC and p != first}
        for pname in size_params(self.model, fn, maybe):  # type: ignore[attr-defined]
            levels[pname] = Level.STATIC
        info.param_levels = levels
        info.static_params = {p for p, lvl in levels.items() if lvl is Level.STATIC}
        self.functions[id(fn)] = info


HOST_RESULT_MODULES = ("pandas.", "polars.", "matplotlib.", "seaborn.", "plotly.")
"""Libraries whose objects a traced function cannot return: JAX accepts only arrays and
pytrees of them as the result of a transformed function."""


def _returns_host_objects(model: SemanticModel, fn: cst.FunctionDef) -> bool:
    """Every ``return`` of ``fn`` (nested functions left out; at least one) gives, or
    holds in a tuple, what no model returns: a string (``f"..."``, ``str(...)``) or an
    object of a host library (``pd.DataFrame(...)``), directly or through a name bound
    once to it. A module's
    ``__call__`` that builds a report or a table runs eagerly: ``jax.jit`` rejects such a
    result (``TypeError: ... not a valid JAX type``) and ``eqx.filter_jit`` would fix it at
    trace time, so the framework's contract (traced whenever the model runs in a jitted
    step) does not hold (tests/test_contract_runtime.py runs both)."""
    if fn.returns is not None and _declares_string(fn.returns.annotation, 0):
        return True
    returns: list[cst.Return] = []
    for node in own_nodes(fn):
        if type(node) is cst.Return:
            if node.value is None:  # type: ignore[attr-defined]
                return False  # ``return`` alone: None is a valid result
            returns.append(node)  # type: ignore[arg-type]
    return bool(returns) and all(_host_object(model, r.value) for r in returns)  # type: ignore[arg-type]


_STRING_SEQUENCES = frozenset({"list", "List", "tuple", "Tuple", "Sequence"})


def _declares_string(ann: cst.BaseExpression, depth: int) -> bool:
    """A return annotation that gives a string, alone or as an element of the tuple
    returned (``-> tuple[Float[Array, "n 3"], str]``, ``-> tuple[Array, list[str]]``):
    cryojax-eo's ``SteeredMDSimulator.__call__`` runs OpenMM and returns the next state
    file's path. Under ``jax.jit`` a string result raises; under ``eqx.filter_jit`` it is a
    static output made when the function traces, so the host work runs at trace time, not
    on every call (tests/test_contract_runtime.py runs both)."""
    if type(ann) is cst.Name:
        return ann.value == "str"
    if type(ann) is not cst.Subscript or depth > 1:
        return False
    head = ann.value
    name = head.value if type(head) is cst.Name else getattr(head, "attr", None)
    name = name.value if isinstance(name, cst.Name) else name
    if name not in _STRING_SEQUENCES:
        return False
    elements = [el.slice.value for el in ann.slice if type(el.slice) is cst.Index]
    if name in ("tuple", "Tuple") and depth == 0:
        return any(_declares_string(el, depth + 1) for el in elements)
    return depth > 0 and any(type(el) is cst.Name and el.value == "str" for el in elements)


def _host_object(model: SemanticModel, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """``expr`` is, or holds (a tuple or list element, a dict value), a string or a host
    library's object. A dict with a string value (``"extension_type": "temporal"``) is not
    a valid result of ``jax.jit`` or ``nnx.jit`` either (checked on JAX 0.12: TypeError, a
    value of type str at that output component); traced code could only call the module
    and drop that entry."""
    if type(expr) is cst.Name:
        bound = model.bound_once(expr)
        if bound is None:
            return False
        expr = bound
    kind = type(expr)
    if kind in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString):
        return True
    if kind in (cst.Tuple, cst.List) and depth < 3:  # ``return table, model``
        return any(
            _host_object(model, el.value, depth + 1)
            for el in expr.elements  # type: ignore[attr-defined]
            if type(el) is cst.Element
        )
    if kind is cst.Dict and depth < 3:  # ``return {"features": f, "kind": "temporal"}``
        return any(
            _host_object(model, el.value, depth + 1)
            for el in expr.elements  # type: ignore[attr-defined]
            if type(el) is cst.DictElement
        )
    if kind is cst.Call:
        qualname = model.call_name(expr)  # type: ignore[arg-type]
        if qualname in ("builtins.str", "builtins.repr"):
            return True
        return qualname is not None and qualname.startswith(HOST_RESULT_MODULES)
    return False


def _literal(expr: cst.BaseExpression) -> bool:
    """A Python constant as written: a number, a string, ``True``/``False``/``None``, a
    negative number, or a tuple or list of them."""
    kind = type(expr)
    if kind in (cst.Integer, cst.Float, cst.SimpleString):
        return True
    if kind is cst.Name:
        return expr.value in ("True", "False", "None")  # type: ignore[attr-defined]
    if kind is cst.UnaryOperation:
        return type(expr.operator) is cst.Minus and _literal(expr.expression)  # type: ignore[attr-defined]
    if kind in (cst.Tuple, cst.List):
        return all(_literal(el.value) for el in expr.elements)  # type: ignore[attr-defined]
    return False


def _direct_calls(
    model: SemanticModel, modules: list[tuple[cst.ClassDef, cst.FunctionDef, dict[str, Level]]]
) -> dict[int, list[cst.Call]]:
    """Class -> its calls ``Cls(...)(...)`` in this module, for the classes whose name is
    used nowhere else (no entry for a class named in any other way)."""
    by_name: dict[str, cst.ClassDef] = {}
    for cls, _, _ in modules:
        if cls.name.value in by_name:
            by_name[cls.name.value] = None  # type: ignore[assignment]  # two classes
        else:
            by_name[cls.name.value] = cls
    stack: list[cst.CSTNode] = []  # the nodes around the current one
    sites: dict[int, list[cst.Call]] = {}
    spoilt: set[int] = set()
    names: list[tuple[cst.Name, cst.CSTNode | None, cst.CSTNode | None]] = []
    for node, entering in model.events:
        if not entering:
            if stack and stack[-1] is node:
                stack.pop()
            continue
        if type(node) is cst.Name and node.value in by_name:
            parent = stack[-1] if stack else None
            grand = stack[-2] if len(stack) > 1 else None
            names.append((node, parent, grand))
        stack.append(node)
    for name, parent, grand in names:
        cls = by_name[name.value]
        if cls is None:
            continue
        if name is cls.name:
            continue
        found = model.lookup(name.value, model.scope_for(name))
        bound_here = found is not None and len(found[1]) == 1 and found[1][0].node is cls
        if (
            bound_here
            and type(parent) is cst.Call
            and parent.func is name
            and type(grand) is cst.Call
            and grand.func is parent
        ):
            sites.setdefault(id(cls), []).append(grand)
        else:
            spoilt.add(id(cls))
    return {k: v for k, v in sites.items() if k not in spoilt}


def _static_type(ann: str) -> bool:
    """An annotation of a Python value: a Python type, a dtype, a callable, a literal,
    or ``Optional``/``| None`` of one (``None`` is a Python value too)."""
    parts = annotation_parts(ann)
    if not parts:
        return False
    for part in parts:
        head = part.split("[")[0].split(".")[-1]
        if part not in _STATIC_TYPES and head not in _STATIC_TYPES and head != "Literal":
            return False
    return True


def _annotated_fields(model: SemanticModel, cls: cst.ClassDef, depth: int) -> set[str]:
    """The class-level attributes of ``cls`` (and of its base classes of this module)
    annotated with a Python type."""
    fields: set[str] = set()
    for line in cls.body.body:
        if type(line) is not cst.SimpleStatementLine:
            continue
        for small in line.body:
            if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                ann = cst.Module([]).code_for_node(small.annotation.annotation)
                if _static_type(ann):
                    fields.add(small.target.value)
    if depth < 8:
        for arg in cls.bases:
            if type(arg.value) is not cst.Name:
                continue
            base = module_class(model, arg.value)
            if base is not None:
                fields |= _annotated_fields(model, base, depth + 1)
    return fields
