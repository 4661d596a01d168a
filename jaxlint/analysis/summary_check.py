"""Whether a module summary read back from the cache has the shape the analyses expect.

A cache entry's checksum proves only that its bytes are the ones written, not that
whoever wrote them wrote a summary: a summary with a valid checksum but a number
where a list belongs ended a run with a ``TypeError`` inside the project analysis
(issue 28), although a cache problem must never fail a run. :func:`is_summary`
checks every field that ``jaxlint.analysis.summary`` writes and the analyses read
(``jaxlint.analysis.project``, ``jaxlint.analysis.tracing``); anything else is a
miss, and the summary is made again from the module's text.
"""

from __future__ import annotations

from typing import Any

_MAX_LITERAL_DEPTH = 16
_LITERAL_ARGS = ("static_argnums", "static_argnames", "argnums", "in_axes")


def _str(v: Any) -> bool:
    return type(v) is str


def _opt_str(v: Any) -> bool:
    return v is None or type(v) is str


def _int(v: Any) -> bool:
    return type(v) is int


def _bool(v: Any) -> bool:
    return type(v) is bool


def _strs(v: Any) -> bool:
    return type(v) is list and all(type(x) is str for x in v)


def _str_map(v: Any) -> bool:
    return type(v) is dict and all(type(x) is str for x in v.values())


def _literal(v: Any, depth: int = 0) -> bool:
    """A value ``ast.literal_eval`` gave and JSON kept: it is turned back into code."""
    if depth > _MAX_LITERAL_DEPTH:
        return False
    if v is None or type(v) in (int, float, str, bool):
        return True
    if type(v) is list:
        return all(_literal(x, depth + 1) for x in v)
    if type(v) is dict:
        return all(_literal(x, depth + 1) for x in v.values())
    return False


def _fields(entry: Any, required: dict[str, Any], optional: dict[str, Any]) -> bool:
    if type(entry) is not dict:
        return False
    for key, check in required.items():
        if key not in entry or not check(entry[key]):
            return False
    for key, check in optional.items():
        if key in entry and not check(entry[key]):
            return False
    return True


_FUNCTION = (
    {
        "line": _int,
        "params": _strs,
        "transform": _opt_str,
        "static": _strs,
        "loops": _bool,
        "returns": _opt_str,
    },
    {"unknown_static": _bool, "keys": _str_map, "draws": _strs, "jits": lambda v: _jits(v)},
)


def _opt_int(v: Any) -> bool:
    return v is None or type(v) is int


_JIT_FACT = (
    {"param": _str, "index": _opt_int, "how": _str, "through": _opt_str, "transform": _str},
    {},
)


def _jits(v: Any) -> bool:
    return type(v) is list and all(_fields(x, *_JIT_FACT) for x in v)


_CLASS = (
    {"line": _int, "bases": _strs, "attrs": _str_map},
    {"init": _bool, "post_init_reads": _strs},
)
_VALUE = ({"line": _int, "kind": _str}, {})


def _args(v: Any) -> bool:
    return type(v) is list and all(
        type(a) is list and len(a) == 2 and _opt_str(a[0]) and type(a[1]) is int for a in v
    )


_CALL = (
    {"target": _str, "caller": _str, "caller_how": _opt_str, "line": _int, "args": _args},
    {
        "staging": _bool,
        "abstract": _bool,
        "presumed": _bool,
        "none_args": lambda v: type(v) is list and all(type(i) is int for i in v),
        "literal_args": lambda v: (
            type(v) is list
            and all(type(p) is list and len(p) == 2 and all(type(i) is int for i in p) for p in v)
        ),
    },
)
_SEED = (
    {"target": _str, "caller": lambda v: v is None, "transform": _str, "line": _int},
    {
        **dict.fromkeys(_LITERAL_ARGS, _literal),
        "passed_as_is": lambda v: type(v) is list and all(type(i) is int for i in v),
    },
)


def _named(v: Any, shape: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    return type(v) is dict and all(type(k) is str and _fields(e, *shape) for k, e in v.items())


def is_summary(blob: Any, summary_format: int) -> bool:
    """Whether ``blob`` is a module summary of ``summary_format`` in every field."""
    try:
        return (
            type(blob) is dict
            and blob.get("format") == summary_format
            and type(blob.get("format")) is int
            and _str(blob.get("module"))
            and type(blob.get("imports")) is dict
            and all(type(k) is str for k in blob["imports"])
            and _str_map(blob["imports"])
            and _named(blob.get("functions"), _FUNCTION)
            and _named(blob.get("classes"), _CLASS)
            and _named(blob.get("values"), _VALUE)
            and type(blob.get("calls")) is list
            and type(blob.get("host_calls", [])) is list
            and all(type(t) is str for t in blob.get("host_calls", []))
            and type(blob.get("host_local", [])) is list
            and all(type(t) is str for t in blob.get("host_local", []))
            and all(
                _fields(c, *(_SEED if type(c) is dict and c.get("caller") is None else _CALL))
                for c in blob["calls"]
            )
        )
    except RecursionError:
        return False
