"""Where a probe's inputs come from, when the user wrote no input factory.

In order: ``--args 'f32[128,784], f32[128]'`` (given on the command line), the
input factory (``--factory``, or ``make_inputs`` when the target's module has one),
the parameters' annotations (``x: "f32[4,8]"``, jaxtyping-style ``Float[Array, "4
8"]``, ``int``/``float``/``bool``), or a call site of the function found in its
file or project whose arguments can be evaluated (a module-level call, or one in an ``if
__name__ == "__main__":`` block or a function, after the simple assignments before
it in its block; a function's parameters from its own callers: ``_call_sites``). The
report says which (``inputs_from``).

Every source is a factory (``Target.obj() -> (args, kwargs)``) that builds fresh
inputs on each call, so ``bench``'s fresh-inputs rule holds for all of them. Arrays
built from a shape spec are deterministic: floating and complex ones standard normal
(NumPy ``default_rng(0)``), integer ones 0, boolean ones False; ``compile`` gets
``jax.ShapeDtypeStruct`` instead (nothing runs).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from jaxlint.runtime_probes._call_sites import (
    Skipped,
    Walk,
    call_sites,
    find_sites,
    function_node,
)
from jaxlint.runtime_probes._common import EXIT_ERROR, fail, usage_error
from jaxlint.runtime_probes._targets import (
    DEFAULT_FACTORY,
    Inputs,
    Loader,
    Target,
    factory_target,
    has_attr_path,
    parameter_names,
)

DTYPES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "bool": "bool",
    "pred": "bool",
    "c64": "complex64",
    "c128": "complex128",
}
DTYPES.update({name: name for name in set(DTYPES.values())})

#: jaxtyping-style annotation names -> dtype (``Float[Array, "4 8"]``)
JAXTYPING = {
    "Float": "float32",
    "Float16": "float16",
    "BFloat16": "bfloat16",
    "Float32": "float32",
    "Float64": "float64",
    "Int": "int32",
    "Int8": "int8",
    "Int16": "int16",
    "Int32": "int32",
    "Int64": "int64",
    "UInt": "uint32",
    "UInt8": "uint8",
    "UInt32": "uint32",
    "Bool": "bool",
    "Complex": "complex64",
    "Complex64": "complex64",
}
SCALARS: dict[str, Any] = {"int": 1, "float": 1.0, "bool": True}
VALUES = (
    "arrays from shape specs: floating and complex ones standard normal (NumPy default_rng(0)),"
    " integer ones 0, boolean ones False; the same values on every call"
)
ABSTRACT_VALUES = "jax.ShapeDtypeStruct from the shape specs (nothing is executed)"
ARGS_HELP = (
    "the inputs as shape specs instead of a factory: 'f32[128,784], f32[128]' (dtype f16,"
    " bf16, f32, f64, i8..i64, u8..u64, bool, c64, c128; f32[] is a scalar; key<fry>[] is a"
    " typed PRNG key, jax.random.key(0), also key<rbg>, key<urbg>), Python"
    " literals for static arguments (3, True, 'mean', (1, 2)), NAME=... for a keyword"
)

_SPEC = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*(?:<[a-z]+>)?)\s*\[\s*([0-9,\s]*)\]\s*$")
#: typed PRNG keys, as JAX prints their dtype (``key<fry>[]``): the impl of each
KEY_IMPLS = {"fry": "threefry2x32", "rbg": "rbg", "urbg": "unsafe_rbg"}


@dataclass(frozen=True)
class Spec:
    dtype: str
    shape: tuple[int, ...]

    def text(self) -> str:
        return f"{self.dtype}[{','.join(map(str, self.shape))}]"


Item = Spec | tuple[str, Any]  # a shape spec, or ("literal", value)


def add_args_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--args", metavar="SPECS", help=ARGS_HELP)


def parse_spec(text: str) -> Spec | None:
    m = _SPEC.match(text)
    if not m or (m.group(1) not in DTYPES and not _key_impl(m.group(1))):
        return None
    if _key_impl(m.group(1)):
        dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
        return Spec(m.group(1), tuple(int(d) for d in dims))
    dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
    return Spec(DTYPES[m.group(1)], tuple(int(d) for d in dims))


def _key_impl(dtype: str) -> str | None:
    """``key<fry>`` -> ``threefry2x32`` (a typed PRNG key's impl), else None."""
    if dtype.startswith("key<") and dtype.endswith(">"):
        return KEY_IMPLS.get(dtype[4:-1])
    return None


def _split_top(text: str) -> list[str]:
    """Split at commas outside brackets, parentheses and quotes."""
    parts, depth, quote, current = [], 0, "", []
    for ch in text:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "[({":
            depth += 1
        elif ch in "])}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current))
    return [p.strip() for p in parts]


def parse_args_text(text: str) -> tuple[list[Item], dict[str, Item]]:
    """``'f32[128,784], f32[128], 3, mode="mean"'`` -> positional and keyword items."""
    args: list[Item] = []
    kwargs: dict[str, Item] = {}
    for part in _split_top(text):
        if not part:
            usage_error(f"--args: empty item in {text!r}")
        name = None
        m = re.match(r"^([A-Za-z_]\w*)\s*=(?!=)\s*(.*)$", part, re.S)
        if m and not _SPEC.match(part):
            name, part = m.group(1), m.group(2)
        item: Item | None = parse_spec(part)
        if item is None:
            try:
                item = ("literal", ast.literal_eval(part))
            except (ValueError, SyntaxError):
                usage_error(
                    f"--args: {part!r} is neither a shape spec like f32[128,784] (dtypes:"
                    f" {', '.join(sorted(k for k in DTYPES if len(k) <= 4))}, or key<fry>[] for a"
                    " typed PRNG key) nor a Python literal"
                )
        if name is None:
            if kwargs:
                usage_error("--args: a positional item after a keyword one")
            args.append(item)
        else:
            kwargs[name] = item
    return args, kwargs


def _describe(item: Item) -> str:
    return item.text() if isinstance(item, Spec) else repr(item[1])


def _build(items: tuple[list[Item], dict[str, Item]], abstract: bool) -> Callable[[], Inputs]:
    def make(item: Item) -> Any:
        if not isinstance(item, Spec):
            return item[1]
        import jax
        import jax.numpy as jnp
        import numpy as np

        impl = _key_impl(item.dtype)
        if impl is not None:  # a typed key: key(0), split to the shape; the same every call
            key = jax.random.key(0, impl=impl)
            if abstract:
                return jax.ShapeDtypeStruct(item.shape, key.dtype)
            return jax.random.split(key, item.shape) if item.shape else key
        dtype = jnp.dtype(item.dtype)
        if abstract:
            return jax.ShapeDtypeStruct(item.shape, dtype)
        rng = np.random.default_rng(0)
        if jnp.issubdtype(dtype, jnp.floating) or jnp.issubdtype(dtype, jnp.complexfloating):
            return jnp.asarray(rng.standard_normal(item.shape), dtype=dtype)
        return jnp.zeros(item.shape, dtype)

    args, kwargs = items

    def factory() -> Inputs:
        return tuple(make(a) for a in args), {k: make(v) for k, v in kwargs.items()}

    return factory


# -- annotations -----------------------------------------------------------------------------


def annotation_item(annotation: ast.expr | None) -> Item | None:
    """The input an annotation describes, or None when it has no shape and dtype."""
    if annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        spec = parse_spec(annotation.value)
        if spec is not None:
            return spec
        try:  # from __future__ import annotations: the annotation is text
            return annotation_item(ast.parse(annotation.value, mode="eval").body)
        except SyntaxError:
            return None
    if isinstance(annotation, ast.Name) and annotation.id in SCALARS:
        return ("literal", SCALARS[annotation.id])
    if isinstance(annotation, ast.Subscript):
        base = annotation.value
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
        if name in JAXTYPING and isinstance(annotation.slice, ast.Tuple):
            elts = annotation.slice.elts
            if len(elts) == 2 and isinstance(elts[1], ast.Constant):
                dims = str(elts[1].value).split()
                if all(d.isdigit() for d in dims):
                    return Spec(JAXTYPING[name], tuple(int(d) for d in dims))
    return None


def from_annotations(
    tree: ast.Module, attr: str
) -> tuple[tuple[list[Item], dict[str, Item]], dict[str, str]] | str:
    """The items for the required parameters, or why the annotations cannot give them."""
    fn = function_node(tree, attr)
    if fn is None:
        return f"no `def {attr}` in the file"
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    required = positional[: len(positional) - len(a.defaults)]
    if "." in attr and required and required[0].arg in ("self", "cls"):
        return f"{attr} is a method: its `{required[0].arg}` has no annotation to build"
    args: list[Item] = []
    kwargs: dict[str, Item] = {}
    shown: dict[str, str] = {}
    missing = []
    for param in required:
        item = annotation_item(param.annotation)
        if item is None:
            missing.append(param.arg)
            continue
        args.append(item)
        shown[param.arg] = _describe(item)
    for param, default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        if default is None:
            item = annotation_item(param.annotation)
            if item is None:
                missing.append(param.arg)
                continue
            kwargs[param.arg] = item
            shown[param.arg] = _describe(item)
    if missing:
        return (
            f"parameter(s) {', '.join(missing)} of {attr} have no annotation with a shape and dtype"
        )
    return (args, kwargs), shown


# -- choosing --------------------------------------------------------------------------------


def _source(target: Target) -> tuple[ast.Module, str, str] | None:
    path = target.file
    if not path or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        return ast.parse(text, filename=path), text, path
    except (OSError, SyntaxError, ValueError):
        return None


def _not_found(
    target: Target, name: str, *, many: bool, tried: list[str], hint: str | None = None
) -> NoReturn:
    where = target.file or target.module.__name__
    role = "cases factory" if many else "factory"
    returns = "[(args, kwargs), ...]" if many else "(args, kwargs)"
    flag = "--cases" if many else "--factory"
    if hint is None or many:
        hint = (
            f"pass --args 'f32[128,784], f32[128]' (shape specs), define `def {name}():"
            f" return {returns}` in the file, or pass {flag} FILE.py:FUNCTION"
        )
    fail(
        EXIT_ERROR,
        "FactoryNotFound",
        f"no inputs for {target.spec}: no {role} {name!r} in {where}, no --args, "
        + "; ".join(tried),
        hint=hint,
    )


def input_factory(
    loader: Loader,
    target: Target,
    factory_spec: str | None,
    args_text: str | None,
    *,
    abstract: bool = False,
) -> tuple[Target, dict[str, Any]]:
    """The factory a probe calls for one call's inputs, and ``inputs_from``."""
    if args_text is not None:
        if factory_spec is not None:
            usage_error("give --args or --factory, not both")
        items = parse_args_text(args_text)
        shown = [*map(_describe, items[0]), *(f"{k}={_describe(v)}" for k, v in items[1].items())]
        info = {
            "source": "--args",
            "arguments": shown,
            "values": ABSTRACT_VALUES if abstract else VALUES,
        }
        return factory_target(target, "<--args>", _build(items, abstract)), info
    if factory_spec is not None or has_attr_path(target.module, DEFAULT_FACTORY):
        factory = loader.load_factory(factory_spec, target)
        return factory, {"source": "factory", "factory": factory.spec}
    found = _fallback(target, DEFAULT_FACTORY, abstract, many=False, loader=loader)
    return found[0], found[1]


def cases_factory(
    loader: Loader, target: Target, cases_spec: str | None, args_text: str | None, default: str
) -> tuple[Target, dict[str, Any]]:
    """The factory of a list of cases (``recompile``), and ``inputs_from``."""
    if args_text is not None:
        if cases_spec is not None:
            usage_error("give --args or --cases, not both")
        one, info = input_factory(loader, target, None, args_text)
        return factory_target(target, "<--args>", lambda: [one.obj()]), info
    if cases_spec is not None or has_attr_path(target.module, default):
        factory = loader.load_factory(cases_spec or default, target, role="cases")
        return factory, {"source": "cases factory", "factory": factory.spec}
    return _fallback(target, default, False, many=True, loader=loader)


def _fallback(
    target: Target, name: str, abstract: bool, *, many: bool, loader: Loader | None = None
) -> tuple[Target, dict[str, Any]]:
    """Inputs from the annotations or a call site; ``name`` is the factory not found."""
    parsed = _source(target)
    if parsed is None:
        _not_found(target, name, many=many, tried=["the target's source file cannot be read"])
    tree, text, path = parsed
    tried = []
    got = from_annotations(tree, target.attr)
    if isinstance(got, str):
        tried.append(got)
    else:
        items, shown = got
        build = _build(items, abstract)
        info = {
            "source": "annotations" if shown else "no parameters",
            "arguments": shown,
            "values": ABSTRACT_VALUES if abstract else VALUES,
        }
        if many:
            return factory_target(target, "<annotations>", lambda: [build()]), info
        return factory_target(target, "<annotations>", build), info
    walk = Walk(loader).deeper(path, target.attr)
    own = len(call_sites(tree, text, target.attr))
    found, skipped = find_sites(target.module, path, target.attr, walk, many=many)
    if not found:
        if own:
            tried.append(
                "no call site of it in the file has arguments that evaluate ("
                + "; ".join(map(str, skipped[:own]))
                + ")"
            )
        else:
            tried.append(f"no call of {target.attr} in the file")
        looked = [str(s) for s in skipped[own:]]
        tried.append(
            "no call of it in the project's other files whose arguments evaluate"
            + (f" ({'; '.join(looked)})" if looked else "")
        )
        _not_found(target, name, many=many, tried=tried, hint=_site_hint(target, name, skipped))
    from jaxlint.runtime_probes import _errors

    for got in found:
        for place in [got.describe(), *_vias(got.via)]:
            _errors.PROBE_SCOPES.add((os.path.abspath(place["file"]), place["line"], place["line"]))
    base = os.path.basename(found[0].file)
    info = {
        "source": "call sites" if many else "call site",
        "call_sites": [got.describe() for got in found],
        "skipped": [str(s) for s in skipped],
        "not_from_annotations": tried[0] if tried else None,
    }
    if many:
        makers = [got.factory for got in found]
        return factory_target(
            target, f"<call sites in {base}>", lambda: [m() for m in makers]
        ), info
    return factory_target(
        target, f"<call site {base}:{found[0].site.line}>", found[0].factory
    ), info


def _vias(via: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every call a site's parameters came from, innermost first."""
    out = []
    for place in via:
        out.append(place)
        out += _vias(place.get("via", []))
    return out


def _site_hint(target: Target, name: str, skipped: list[Skipped]) -> str | None:
    """For a call site that passes its function's parameters, which no caller gave: the
    factory to write, with the call's own arguments, and ``--args`` by parameter name."""
    first = next((s for s in skipped if s.missing and s.site is not None), None)
    if first is None or first.site is None or first.file is None:
        return None
    call = first.site.call
    args = [ast.get_source_segment(open_text(first.file), a) or ast.unparse(a) for a in call.args]
    kwargs = [f"{k.arg!r}: {ast.unparse(k.value)}" for k in call.keywords]
    returns = f"({', '.join(args)}{',' if len(args) == 1 else ''}), {{{', '.join(kwargs)}}}"
    where = target.file or target.module.__name__
    params = parameter_names(target.obj) or []
    spec = ", ".join(f"{p}=..." for p in params)
    return (
        f"{first.site.text} at {os.path.basename(first.file)}:{first.site.line} passes"
        f" {', '.join(first.missing)}, parameter(s) of {first.site.enclosing} that no call"
        f" gives: define in {where} `def {name}():` that builds {', '.join(first.missing)}"
        f" as {first.site.enclosing} gets them and ends with `return {returns}`, or pass"
        f" --args '{spec}' with a shape spec (f32[128,784]) or a Python literal for each"
        f" parameter of {target.attr}, or --factory FILE.py:FUNCTION"
    )


def open_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""


def inputs_text(info: dict[str, Any] | None) -> list[str]:
    """The ``inputs from:`` lines of a text report."""
    if not info:
        return []
    source = info.get("source")
    if source in ("factory", "cases factory"):
        return [f"inputs from: {source} {info.get('factory')}"]
    if source in ("call site", "call sites"):
        return [
            f"inputs from: {source[:9]} {os.path.basename(s['file'])}:{s['line']}: {s['call']}"
            + "".join(
                f", its function's parameters from {os.path.basename(v['file'])}:{v['line']}:"
                f" {v['call']}"
                for v in _vias(s.get("via", []))
            )
            + "".join(f", {k}: {v}" for k, v in s.get("parameters", {}).items())
            for s in info.get("call_sites", [])
        ]
    arguments = info.get("arguments") or []
    if isinstance(arguments, dict):
        arguments = [f"{k}: {v}" for k, v in arguments.items()]
    return [f"inputs from: {source}" + (f" ({', '.join(arguments)})" if arguments else "")]
