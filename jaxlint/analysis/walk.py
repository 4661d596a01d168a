"""A fast, read-only walk over a libcst tree.

``CSTNode.visit`` rebuilds every node it passes (``_visit_and_replace_children``
constructs a new dataclass per node), which costs about as much as the parse.
jaxlint never changes the tree while linting, so it walks the fields itself, in
the order libcst visits them (read once per node class from libcst's own
``_visit_and_replace_children``), and skips trivia: whitespace, comments,
commas, brackets and operator tokens, which no rule inspects on its own.
"""

from __future__ import annotations

import inspect
import re
import typing

import libcst as cst

TRIVIA: tuple[type, ...] = (
    cst.BaseParenthesizableWhitespace,
    cst.Comment,
    cst.Newline,
    cst.EmptyLine,
    cst.TrailingWhitespace,
    cst.Comma,
    cst.Dot,
    cst.Colon,
    cst.Semicolon,
    cst.AssignEqual,
    cst.LeftParen,
    cst.RightParen,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
    cst.BaseBinaryOp,
    cst.BaseUnaryOp,
    cst.BaseBooleanOp,
    cst.BaseCompOp,
    cst.BaseAugOp,
    cst.Asynchronous,
    cst.ImportStar,
)

_TRIVIA_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "comma",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "semicolon",
        "equal",
        "colon",
        "dot",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "trailing_whitespace",
        "newline",
        "asynchronous",
        "operator",
        "star",
        "import_star",
    }
)
"""Fields that only ever hold trivia (``whitespace_*`` fields are skipped too)."""

_FIELD_RE = re.compile(
    r"visit_(?:required|optional|sequence|body_sequence|iterable)\(\s*self\s*,\s*\"(\w+)\""
)
_ORDER: dict[type, tuple[str, ...]] = {}
CHILD_FIELDS = _ORDER
"""Node class -> its non-trivia child fields, for the classes seen so far (``()``: a leaf)."""
_TRIVIA_CACHE: dict[type, bool] = {}


BLOCK_EXITS = (cst.Return, cst.Raise, cst.Break, cst.Continue)
"""Simple statements after which nothing of their block runs."""


def field_order(cls: type) -> tuple[str, ...]:
    """The child fields of ``cls`` in the order libcst visits them (non-trivia only)."""
    order = _ORDER.get(cls)
    if order is None:
        try:
            source = inspect.getsource(cls._visit_and_replace_children)  # type: ignore[attr-defined]
            order = tuple(_FIELD_RE.findall(source))
        except (OSError, TypeError):
            order = ()
        declared = tuple(
            f.name
            for f in cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
            if not f.name.startswith("__")
        )
        # keep libcst's visiting order, drop repeats, and never lose a declared field
        order = tuple(dict.fromkeys((*order, *declared)))
        order = tuple(
            f for f in order if f not in _TRIVIA_FIELDS and not f.startswith("whitespace")
        )
        # fields that hold plain text (``Name.value``) never hold a node: leaves get ()
        plain = _plain_fields(cls)
        order = tuple(f for f in order if f not in plain)
        _ORDER[cls] = order
    return order


def is_trivia(node: object) -> bool:
    cls = type(node)
    cached = _TRIVIA_CACHE.get(cls)
    if cached is None:
        cached = issubclass(cls, TRIVIA)
        _TRIVIA_CACHE[cls] = cached
    return cached


_CHILD, _SEQUENCE, _OTHER = 1, 2, 0
_KIND: dict[type, int] = {tuple: _SEQUENCE, list: _SEQUENCE}
"""Per class: a non-trivia node (kept), a sequence (looked into), or anything else.

``isinstance(x, cst.CSTNode)`` goes through ``ABCMeta.__instancecheck__``, which
costs more than the rest of the walk; one dict lookup per value replaces it.
"""


def _kind(cls: type) -> int:
    kind = _KIND.get(cls)
    if kind is None:
        kind = _CHILD if issubclass(cls, cst.CSTNode) and not issubclass(cls, TRIVIA) else _OTHER
        _KIND[cls] = kind
    return kind


def _plain_fields(cls: type) -> frozenset[str]:
    """Fields annotated ``str``, ``bool`` or ``int`` (none if the hints cannot be read)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return frozenset()
    return frozenset(name for name, hint in hints.items() if hint in (str, bool, int))


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The non-trivia direct children of ``node`` in source order."""
    found = _CHILDREN.get(type(node))
    if found is None:
        found = _children_of(type(node))
    return found(node)


_CHILDREN: dict[type, typing.Callable[[cst.CSTNode], list[cst.CSTNode]]] = {}
"""Node class -> a function made for it that lists a node's children (its fields read
as attributes, not with ``getattr`` in a loop: about a third faster, and the walks call
it for every node)."""


def _no_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    return []


def _children_of(cls: type) -> typing.Callable[[cst.CSTNode], list[cst.CSTNode]]:
    order = _ORDER.get(cls)
    if order is None:
        order = field_order(cls)
    if not order:
        _CHILDREN[cls] = _no_children
        return _no_children
    lines = ["def children(node):", "    out = []"]
    for name in order:
        assert name.isidentifier()  # a dataclass field name
        lines += [
            f"    value = node.{name}",
            "    kind = kinds.get(type(value))",
            "    if kind is None:",
            "        kind = kind_of(type(value))",
            f"    if kind == {_CHILD}:",
            "        out.append(value)",
            f"    elif kind == {_SEQUENCE}:",
            "        for item in value:",
            "            item_kind = kinds.get(type(item))",
            "            if item_kind is None:",
            "                item_kind = kind_of(type(item))",
            f"            if item_kind == {_CHILD}:",
            "                out.append(item)",
        ]
    lines.append("    return out")
    namespace: dict[str, typing.Any] = {"kinds": _KIND, "kind_of": _kind}
    exec(compile("\n".join(lines), f"<children of {cls.__name__}>", "exec"), namespace)
    made = namespace["children"]
    _CHILDREN[cls] = made
    return made


def descendants(node: cst.CSTNode) -> typing.Iterator[cst.CSTNode]:
    """``node`` and every non-trivia node under it (an explicit stack, not recursion)."""
    stack = [node]
    pop, extend, order = stack.pop, stack.extend, _ORDER
    while stack:
        current = pop()
        yield current
        if order.get(type(current)) != ():  # leaves (names, numbers, strings): no children
            extend(children(current))


_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


def own_nodes(fn: cst.FunctionDef | cst.Lambda) -> typing.Iterator[cst.CSTNode]:
    """The non-trivia nodes of ``fn``'s body that ``fn`` itself runs: nested functions,
    lambdas and classes left out (their ``return``s and calls are theirs)."""
    stack: list[cst.CSTNode] = [fn.body]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if type(node) in _SCOPES:
            continue
        yield node
        extend(children(node))
