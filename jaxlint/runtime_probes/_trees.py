"""Describe pytrees of inputs and outputs: shape, dtype, weak type, sharding, per leaf.

Every function takes the imported ``jax`` module, so this module does not import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

_SCALARS = (bool, int, float, complex)


def leaf_info(jax: ModuleType, leaf: Any) -> dict[str, Any]:
    """shape/dtype/weak_type (and sharding for arrays) of one leaf."""
    info: dict[str, Any] = {"type": _type_name(leaf)}
    try:
        aval = jax.typeof(leaf)
    except Exception:
        info["repr"] = _short_repr(leaf)
        return info
    shape = getattr(aval, "shape", None)
    dtype = getattr(aval, "dtype", None)
    info["shape"] = list(shape) if shape is not None else None
    info["dtype"] = str(dtype) if dtype is not None else None
    info["weak_type"] = bool(getattr(aval, "weak_type", False))
    info["aval"] = aval.str_short() if hasattr(aval, "str_short") else str(aval)
    sharding = getattr(leaf, "sharding", None)
    if sharding is not None:
        info["sharding"] = str(sharding)
    return info


def _type_name(obj: Any) -> str:
    cls = type(obj)
    module = cls.__module__
    if module == "builtins":
        return cls.__qualname__
    if module.startswith("jaxlib") or module.startswith("jax."):
        return "jax.Array" if "Array" in cls.__name__ else f"{module}.{cls.__qualname__}"
    return f"{module}.{cls.__qualname__}"


def _short_repr(obj: Any, limit: int = 200) -> str:
    try:
        text = repr(obj)
    except Exception as exc:  # a user's __repr__ may raise
        text = f"<{type(obj).__name__}: repr raised {type(exc).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_tree(jax: ModuleType, tree: Any, root: str) -> list[dict[str, Any]]:
    """One entry per leaf, with its path (``x['w'][0]``) from ``root``."""
    leaves, _ = jax.tree_util.tree_flatten_with_path(tree)
    out = []
    for path, leaf in leaves:
        out.append({"path": root + jax.tree_util.keystr(path), **leaf_info(jax, leaf)})
    return out


def arg_names(
    args: Sequence[Any], kwargs: dict[str, Any], params: list[str] | None
) -> list[tuple[str, int | str, Any]]:
    """(display name, position or keyword, value) for every argument."""
    named: list[tuple[str, int | str, Any]] = []
    for i, value in enumerate(args):
        name = params[i] if params is not None and i < len(params) else f"args[{i}]"
        named.append((name, i, value))
    for key, value in kwargs.items():
        named.append((key, key, value))
    return named


def describe_args(
    jax: ModuleType,
    args: Sequence[Any],
    kwargs: dict[str, Any],
    params: list[str] | None,
    static: set[int | str],
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, key, value in arg_names(args, kwargs, params):
        if key in static:
            out.append(
                {"argument": name, "path": name, "static": True, "value": _short_repr(value)}
            )
            continue
        for leaf in describe_tree(jax, value, name):
            out.append({"argument": name, "static": False, **leaf})
    return out


# -- signatures and what changed between two calls -------------------------------------------


@dataclass
class ArgSignature:
    static: bool
    passed: str = "position"  # or "keyword": part of the pytree JAX caches on
    value: Any = None
    value_repr: str = ""
    structure: str = ""
    leaves: dict[str, dict[str, Any]] = field(default_factory=dict)


Signature = dict[str, ArgSignature]

# The leaf fields compared, and the name of the change reported for each.
_LEAF_FIELDS = (("shape", "shape"), ("dtype", "dtype"), ("weak_type", "weak type"))


def signature(
    jax: ModuleType,
    args: Sequence[Any],
    kwargs: dict[str, Any],
    params: list[str] | None,
    static: set[int | str],
) -> Signature:
    sig: Signature = {}
    for name, key, value in arg_names(args, kwargs, params):
        passed = "keyword" if isinstance(key, str) else "position"
        if key in static:
            sig[name] = ArgSignature(
                static=True, passed=passed, value=value, value_repr=_short_repr(value)
            )
            continue
        leaves, treedef = jax.tree_util.tree_flatten_with_path(value)
        sig[name] = ArgSignature(
            static=False,
            passed=passed,
            structure=str(treedef),
            leaves={
                name + jax.tree_util.keystr(path): leaf_info(jax, leaf) for path, leaf in leaves
            },
        )
    return sig


def _static_equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) and hash(a) == hash(b)
    except Exception:
        return a is b


def diff_signatures(before: Signature, now: Signature) -> list[dict[str, Any]]:
    """The argument changes that make JAX retrace/recompile, one entry per change."""
    changes: list[dict[str, Any]] = []
    for name in sorted(set(before) | set(now), key=lambda n: (n not in now, n)):
        if name not in before or name not in now:
            changes.append(
                {
                    "argument": name,
                    "path": name,
                    "kind": "pytree structure",
                    "before": "present" if name in before else "absent",
                    "now": "present" if name in now else "absent",
                }
            )
            continue
        b, n = before[name], now[name]
        if b.passed != n.passed:  # f(x, y) then f(x, y=y): another pytree of (args, kwargs)
            changes.append(
                {
                    "argument": name,
                    "path": name,
                    "kind": "pytree structure",
                    "before": f"passed by {b.passed}",
                    "now": f"passed by {n.passed}",
                }
            )
        if b.static or n.static:
            if b.static != n.static or not _static_equal(b.value, n.value):
                changes.append(
                    {
                        "argument": name,
                        "path": name,
                        "kind": "static value",
                        "before": b.value_repr,
                        "now": n.value_repr,
                    }
                )
            continue
        if b.structure != n.structure:
            changes.append(
                {
                    "argument": name,
                    "path": name,
                    "kind": "pytree structure",
                    "before": b.structure,
                    "now": n.structure,
                }
            )
            continue
        for path, leaf in n.leaves.items():
            old = b.leaves.get(path, {})
            for key, kind in _LEAF_FIELDS:
                if old.get(key) != leaf.get(key):
                    changes.append(
                        {
                            "argument": name,
                            "path": path,
                            "kind": kind,
                            "before": old.get(key),
                            "now": leaf.get(key),
                        }
                    )
            both = old.get("sharding") is not None and leaf.get("sharding") is not None
            if both and old["sharding"] != leaf["sharding"]:
                changes.append(
                    {
                        "argument": name,
                        "path": path,
                        "kind": "sharding",
                        "before": old.get("sharding"),
                        "now": leaf.get("sharding"),
                    }
                )
            if "repr" in leaf and old.get("repr") != leaf.get("repr"):
                changes.append(
                    {
                        "argument": name,
                        "path": path,
                        "kind": "value",
                        "before": old.get("repr"),
                        "now": leaf.get("repr"),
                    }
                )
    return changes


def closest_changes(
    history: list[Signature], now: Signature
) -> tuple[int | None, list[dict[str, Any]]]:
    """Index of the previous signature with the fewest changes, and those changes."""
    best: tuple[int | None, list[dict[str, Any]]] = (None, [])
    for i, previous in enumerate(history):
        changes = diff_signatures(previous, now)
        if best[0] is None or len(changes) < len(best[1]):
            best = (i, changes)
    return best


def summary(sig: Signature) -> dict[str, str]:
    """``{"x": "float32[3]", "n": "static 3"}`` for text output."""
    out: dict[str, str] = {}
    for name, arg in sig.items():
        if arg.static:
            out[name] = f"static {arg.value_repr}"
            continue
        parts = []
        for leaf in arg.leaves.values():
            text = leaf.get("aval") or leaf.get("repr") or leaf.get("type", "?")
            if leaf.get("weak_type"):
                text += "{weak}"
            parts.append(text)
        out[name] = (
            parts[0]
            if len(parts) == 1 and arg.structure == "PyTreeDef(*)"
            else (f"{arg.structure} [{', '.join(parts)}]")
        )
    return out
