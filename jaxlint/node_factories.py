"""Plain functions that build libcst nodes, for the parser to call instead of the classes.

libcst's native parser builds every node by looking its class up on the ``libcst`` module
and calling it with keyword arguments (``libcst.Name(value="x", lpar=[], rpar=[])``).
A node class is a frozen, slotted dataclass: the call goes through ``type.__call__``,
the generated ``__init__`` sets each field with ``object.__setattr__`` (a frozen class
refuses plain assignment) and then calls ``__post_init__``. The function made here for
each concrete class does what that ``__init__`` does, minus ``__post_init__`` (which only
validates; the unvalidated parse skips it anyway): it makes the object with
``object.__new__`` and stores each field through the class's own slot descriptor, with the
same parameters, the same defaults and the same default factories.

On the bench's 553 files this takes 8% off the parse's CPU time (7.9 s -> 7.3 s); the
trees are the same (``deep_equals`` and the code they print, checked on those files and
by the tests). The functions are put on the ``libcst`` module only for the length of one
parse (``engine._parse_unvalidated``), so code that builds nodes anywhere else (fixes,
tests, other plugins) calls the classes and gets validated nodes.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import libcst as cst

_MISSING = object()

_factories: dict[str, Callable[..., cst.CSTNode]] | None = None

WORTH_IT_CHARS = 250_000
"""Making the functions costs about 25 ms once per process (compiling them), which the
parse wins back after about 250,000 characters of source: a run that parses less (one
file in pre-commit or the editor) parses with the classes."""

_parsed_chars = 0


def node_factories(chars: int) -> dict[str, Callable[..., cst.CSTNode]]:
    """Name on the ``libcst`` module -> the function that builds that node, or an empty
    table while this process has parsed less than :data:`WORTH_IT_CHARS` characters
    (``chars``: the size of the text about to be parsed). A class whose fields are not all
    slots keeps its class."""
    global _factories, _parsed_chars
    if _factories is None:
        _parsed_chars += chars
        if _parsed_chars < WORTH_IT_CHARS:
            return {}
        _factories = _make_all()
    return _factories


def _concrete_classes() -> dict[str, type[cst.CSTNode]]:
    return {
        name: cls
        for name, cls in vars(cst).items()
        if isinstance(cls, type)
        and issubclass(cls, cst.CSTNode)
        and not inspect.isabstract(cls)
        and dataclasses.is_dataclass(cls)
        and cls.__name__ == name
    }


def _make_all() -> dict[str, Callable[..., cst.CSTNode]]:
    sources: list[str] = []
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_new": object.__new__}
    names: list[str] = []
    for name, cls in _concrete_classes().items():
        source = _source(name, cls, namespace)
        if source is not None:
            sources.append(source)
            names.append(name)
    exec(compile("\n".join(sources), "<jaxlint node factories>", "exec"), namespace)  # noqa: S102
    return {name: namespace[f"make_{name}"] for name in names}


def _source(name: str, cls: type[cst.CSTNode], namespace: dict[str, Any]) -> str | None:
    """The ``def`` of ``make_<name>``, with what it needs put in ``namespace``; ``None``
    when the class has a field that is not a slot, or a ``__new__``, ``__init__`` or
    ``__post_init__`` of its own beyond the dataclass's and ``CSTNode``'s."""
    if cls.__new__ is not object.__new__:
        return None
    if any("__post_init__" in vars(c) for c in cls.__mro__ if c is not cst.CSTNode):
        return None  # a ``__post_init__`` that may do more than validate: keep the class
    init = cls.__init__
    if getattr(init, "__qualname__", "") != f"{cls.__qualname__}.__init__":
        return None  # not the dataclass's generated ``__init__``
    prefix = f"_{name}_"
    namespace[f"{prefix}cls"] = cls
    params: list[str] = []
    body = [f"    self = _new({prefix}cls)"]
    keyword_only = False
    for f in dataclasses.fields(cls):
        if not f.init:
            return None
        descriptor = next((c.__dict__[f.name] for c in cls.__mro__ if f.name in c.__dict__), None)
        if not inspect.ismemberdescriptor(descriptor):
            return None
        namespace[f"{prefix}set_{f.name}"] = descriptor.__set__  # type: ignore[union-attr]
        if f.kw_only and not keyword_only:
            params.append("*")
            keyword_only = True
        value = f.name
        if f.default is not dataclasses.MISSING:
            namespace[f"{prefix}default_{f.name}"] = f.default
            params.append(f"{f.name}={prefix}default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"{prefix}factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            value = f"{prefix}factory_{f.name}() if {f.name} is _MISSING else {f.name}"
        else:
            params.append(f.name)
        body.append(f"    {prefix}set_{f.name}(self, {value})")
    body.append("    return self")
    return f"def make_{name}({', '.join(params)}):\n" + "\n".join(body) + "\n"
