"""JAX403 jit-method-self: `@jax.jit` on a method of a plain class, whose `self` (or `cls`)
is neither an array nor a pytree, so every call raises TypeError."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.tracing import positional_params
from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.compilation.helpers import Jitted, Queries, short

EXAMPLES = Examples(__file__)

_PLAIN_JIT = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
_HARMLESS_CLASS_DECORATORS = frozenset(
    {"dataclasses.dataclass", "functools.total_ordering", "typing.final"}
)


class JitMethodSelf(Queries, Rule):
    _module_classes: list[cst.ClassDef] | None = None
    """The module's classes, listed on the first question (a rule is made per file)."""

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
any class with an unknown base or decorator, classes registered anywhere in
the module, and a base or mixin that a class of the module which may be a pytree
derives from (`self` is then that subclass's instance); on `@staticmethod`; when `self` is static
(`static_argnums=0`, `static_argnames="self"`); and on a function of the class whose first
parameter is not `self` or `cls` and that the module calls only through the class
(`Quad.K_quad(x)`: a jitted function read from the class does not bind).

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
        EXAMPLES.valid(
            "valid_fix_registered_pytree_class.py",
            note="the fix: a registered pytree class",
            runs=True,
        ),
        EXAMPLES.valid("valid_namedtuple_pytree.py", note="a NamedTuple is a pytree", runs=True),
        EXAMPLES.valid(
            "valid_mixin_of_pytree_subclasses.py",
            note="a mixin whose subclass in the module is a registered dataclass: `self` may"
            " be that pytree",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_self_static_number_name_frozen.py",
            note="self static by number and by name (a frozen, hashable dataclass)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_staticmethod_has_self.py", note="a staticmethod has no self", runs=True
        ),
        EXAMPLES.valid(
            "valid_class_function_called_through_class.py",
            note="no `self` and called through the class: a jitted function does not bind",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jit_bound_method_self_closed.py",
            note="jit of a bound method: self is closed over, not traced",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_registered_call_after_class.py",
            note="registered by a call after the class",
            runs=True,
        ),
        EXAMPLES.valid("valid_equinox_module_pytree.py", note="an equinox Module is a pytree"),
        EXAMPLES.valid(
            "valid_flax_struct_dataclass_registers_pytree.py",
            note="flax.struct.dataclass registers a pytree",
        ),
        EXAMPLES.valid(
            "valid_unknown_base_class_may_pytree.py", note="an unknown base class may be a pytree"
        ),
        EXAMPLES.valid(
            "valid_function_method_parameter_called_self.py",
            note="a function, not a method, with a parameter called self",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_jax_jit.py",
            line=8,
            column=5,
            raises="TypeError",
            message_contains="`@jax.jit` on method `Model.apply` traces its first argument `self`",
        ),
        EXAMPLES.invalid(
            "invalid_class_function_called_on_instance.py",
            line=6,
            raises="TypeError",
            note="no `self`, but called on an instance: the instance binds to `node_crds`",
        ),
        EXAMPLES.invalid(
            "invalid_dataclass_pytree_unless_registered.py",
            line=9,
            raises="TypeError",
            note="a dataclass is not a pytree unless registered",
        ),
        EXAMPLES.invalid(
            "invalid_static_arguments_do_include_self.py",
            line=9,
            raises="TypeError",
            message_contains="`@partial(jit, static_argnames=('n',))`",
            note="static arguments that do not include self",
        ),
        EXAMPLES.invalid(
            "invalid_jax_jit_2.py",
            line=6,
            raises="TypeError",
            message_contains="`cls`, the class `Factory` itself",
        ),
        EXAMPLES.invalid(
            "invalid_plain_base_class_same_module.py",
            line=8,
            raises="TypeError",
            note="a plain base class of the same module; jit's decorator-factory form",
        ),
        EXAMPLES.invalid(
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
        statics = Jitted(got[0].qualname, dict(got[1]), node).chosen(
            ("static_argnums",), "static_argnames"
        )
        if statics is None or first in statics:
            return
        if not self._plain(cls, set()) or self._pytree_subclass(cls, set()):
            return
        if first not in ("self", "cls") and not self._called_on_instance(node, cls):
            return  # a function of the class, called through it (``Quad.K_quad(x)``)
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
            decorator=short(f"@{self.ctx.code(deco.decorator)}", 60),
            cls=name,
            method=node.name.value,
            self_name=first,
            what=what,
            advice=advice,
        )

    def _called_on_instance(self, node: cst.FunctionDef, cls: cst.ClassDef) -> bool:
        """A function of the class whose first parameter is not ``self``: it is a method
        only if the module calls it through something other than the class
        (``self.K_quad(...)``, ``quad.K_quad(...)``). Called through the class
        (``Quad.K_quad(node_crds, ...)``), a jitted function does not bind, and nothing
        fails (jaxsso's ``element.py``, fresh-2026-12p, checked on JAX 0.12)."""
        name, owner = node.name.value, cls.name.value
        for other, entering in self.ctx.model.events:
            if not entering or type(other) is not cst.Call:
                continue
            func = other.func
            if type(func) is cst.Attribute and func.attr.value == name:
                if not (type(func.value) is cst.Name and func.value.value == owner):
                    return True
        return False

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

    def _pytree_subclass(self, cls: cst.ClassDef, seen: set[int]) -> bool:
        """A class of the module derives from ``cls`` (a base or mixin) and may be a
        pytree (a dataclass decorator, a registration...): then ``self`` may be one."""
        model = self.ctx.model
        seen.add(id(cls))
        if self._module_classes is None:  # one walk of the module, for every question
            self._module_classes = [
                n for n in self.index.nodes_in(self.ctx.module) if isinstance(n, cst.ClassDef)
            ]
        for node in self._module_classes:
            if id(node) in seen:
                continue
            for base in node.bases:
                value = base.value
                if not isinstance(value, cst.Name) or value.value != cls.name.value:
                    continue
                found = model.lookup(value.value, model.scope_for(value))
                if found is None or not any(b.node is cls for b in found[1]):
                    continue
                if not self._plain(node, set()) or self._pytree_subclass(node, seen):
                    return True
        return False

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
