"""The engine's shortcuts change no result: rules skipped on files that never spell
what they look for, libcst's parse without re-validating its own nodes, memoised
qualified names."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import ClassVar

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.walk import descendants
from jaxlint.config import Settings
from jaxlint.engine import _SHARED_TRIVIA, _parse_unvalidated, lint_text, parse_module
from jaxlint.positions import compute_positions
from jaxlint.rules import all_rules
from jaxlint.rules.base import Invalid, Rule, Valid

ROOT = Path(__file__).resolve().parent.parent
GATED = [r for r in all_rules() if r.required_names is not None]


def test_some_rules_are_gated_and_their_names_are_identifiers() -> None:
    assert {"JAX501", "JAX503", "JAX504", "JAX701", "JAX702"} <= {r.code for r in GATED}
    for rule in GATED:
        assert rule.required_names, rule.code
        for word in rule.required_names:
            assert word.isidentifier(), (rule.code, word)


@pytest.mark.parametrize("rule", GATED, ids=lambda r: r.code)
def test_every_invalid_example_spells_a_required_name(rule: type[Rule]) -> None:
    """The gate can only skip a rule on a file where it would not fire."""
    assert rule.required_names is not None
    for example in rule.INVALID:
        model = SemanticModel(cst.parse_module(example.code))
        assert not rule.required_names.isdisjoint(model.identifiers), example.code


def test_identifiers_cover_names_attributes_imports_and_keywords() -> None:
    code = (
        "import jax.experimental.maps as m\n"
        "from jax.sharding import PositionalSharding as PS\n"
        "def f(a, *, b: Mesh = None):\n"
        "    return m.xmap(g, in_axes=a).run\n"
    )
    ids = SemanticModel(cst.parse_module(code)).identifiers
    expected = {"jax", "experimental", "maps", "m", "sharding", "PositionalSharding", "PS"}
    expected |= {"f", "a", "b", "Mesh", "xmap", "g", "in_axes", "run"}
    assert expected <= ids
    assert "return" not in ids and "def" not in ids


class _EveryModule(Rule):
    code = "JAX999"
    name = "every-module"
    message = "module seen"
    docs = ""
    probe = "jaxlint probe env"
    required_names: ClassVar[frozenset[str] | None] = frozenset({"needle"})
    VALID = [Valid("import jax\n")]
    INVALID = [Invalid("import jax\nneedle = 1\n")]

    def visit_Module(self, node: cst.Module) -> None:
        self.report(node)


@pytest.mark.parametrize(
    ("code", "fires"),
    [
        ("import jax\nx = 1\n", False),
        ("import jax\n# needle in a comment\ns = 'needle'\n", False),
        ("import jax\nneedle = 1\n", True),
        ("import jax\nx = jax.needle\n", True),
        ("from jax import needle as n\n", True),
        ("import jax\nf(needle=1)\n", True),
    ],
)
def test_gate_skips_a_rule_only_when_its_names_are_absent(code: str, fires: bool) -> None:
    result = lint_text(code, "t.py", Settings(), [_EveryModule])
    assert [d.code for d in result.diagnostics] == (["JAX999"] if fires else [])


def _sample_texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    texts += [r.INVALID[0].code for r in all_rules()]
    return texts


def test_unvalidated_parse_builds_the_same_tree() -> None:
    for text in _sample_texts():
        fast = _parse_unvalidated(text)
        assert fast.deep_equals(cst.parse_module(text))
        assert fast.code == text


def test_validation_is_back_on_after_every_parse() -> None:
    parse_module("import jax\nx = jax.numpy.ones(3)\n", "ok.py")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
    with pytest.raises(cst.ParserSyntaxError):
        _parse_unvalidated("def (:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")


def _every_node(node: cst.CSTNode) -> list[cst.CSTNode]:
    out = [node]
    for child in node.children:
        out += _every_node(child)
    return out


def test_a_parse_shares_whitespace_and_nothing_the_walk_gives() -> None:
    text = "import jax\n\n\ndef f(x, y):\n    a = x + y  # sum\n    b = x + y\n    return a, b\n"
    module = _parse_unvalidated(text)
    every = _every_node(module)
    ids = [id(n) for n in every]
    shared = {type(n) for n in every if ids.count(id(n)) > 1}
    assert shared and shared <= {cst.SimpleWhitespace, cst.Newline, cst.TrailingWhitespace}
    walked = list(descendants(module))  # what the rules and the model see: each once
    assert len({id(n) for n in walked}) == len(walked)
    trailing = [n for n in every if type(n) is cst.TrailingWhitespace]
    assert len({id(n) for n in trailing if n.comment is not None}) == 1  # ``# sum``: its own
    assert module.deep_equals(cst.parse_module(text)) and module.code == text
    # positions of every node the walk gives are libcst's own, on an unshared tree
    plain = cst.parse_module(text)
    theirs = MetadataWrapper(plain, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = compute_positions(module, text)
    for mine, other in zip(walked, descendants(plain), strict=True):
        assert ours[mine] == theirs[other]


def test_the_shared_classes_are_put_back_after_every_parse() -> None:
    before = {name: getattr(cst, name) for name in _SHARED_TRIVIA}
    _parse_unvalidated("x = 1\n")
    with pytest.raises(cst.ParserSyntaxError):
        _parse_unvalidated("def (:\n")
    assert {name: getattr(cst, name) for name in _SHARED_TRIVIA} == before
    assert all(isinstance(cls, type) for cls in before.values())
    assert cst.SimpleWhitespace(" ") is not cst.SimpleWhitespace(" ")


def test_no_concrete_libcst_class_has_subclasses() -> None:
    """jaxlint tests a node's class with ``type(node) is cst.Call`` where speed matters
    (libcst's classes are ABCs, so a missed ``isinstance`` costs a Python-level
    ``ABCMeta.__instancecheck__``); that is the same test only while no concrete node
    class is subclassed."""
    concrete = [
        c
        for c in vars(cst).values()
        if isinstance(c, type) and issubclass(c, cst.CSTNode) and not inspect.isabstract(c)
    ]
    assert len(concrete) > 150
    assert [c.__name__ for c in concrete if c.__subclasses__()] == []


def test_code_python_rejects_is_parsed_with_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr("jaxlint.engine._parse_unvalidated", lambda text: calls.append(text))
    parse_module("x = (\n", "bad.py")
    assert calls == []
    parse_module("x = 1\n", "good.py")
    assert calls == ["x = 1\n"]


def test_qualified_names_are_memoised_per_node() -> None:
    module = cst.parse_module("import jax.numpy as jnp\nx = jnp.zeros(3)\ny = jnp\n")
    model = SemanticModel(module)
    call = module.body[1].body[0].value
    assert model.call_name(call) == "jax.numpy.zeros"
    assert model.call_name(call) == "jax.numpy.zeros"
    assert model.qualified_name(module.body[2].body[0].value) == "jax.numpy"
    assert model.qualified_name(cst.Integer("1")) is None


def test_gc_paused_pauses_then_collects_the_cycles_of_the_file() -> None:
    import gc
    import weakref

    from jaxlint.gc_pause import gc_paused

    class Node:
        pass

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: still paused, and no collection in between
            assert not gc.isenabled()
        assert not gc.isenabled()
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle, like a rule and its file context
        ref = weakref.ref(a)
        del a, b
        assert ref() is not None
    assert gc.isenabled()
    assert ref() is None  # collected on the way out


def test_gc_paused_leaves_a_disabled_collector_alone() -> None:
    import gc

    from jaxlint.gc_pause import gc_paused

    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_linted_file_is_freed_by_reference_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """No reference cycle keeps a file's model (and so its tree) alive after lint_text:
    a cycle would leave the whole tree to the garbage collector, or leak it through a
    weak-keyed cache whose value holds its key."""
    import gc
    import weakref

    import jaxlint.engine
    from jaxlint.rules import all_rules

    made: list[weakref.ref] = []
    real = jaxlint.engine.SemanticModel

    def tracked(module: cst.Module) -> SemanticModel:
        model = real(module)
        made.append(weakref.ref(model))
        return model

    monkeypatch.setattr(jaxlint.engine, "SemanticModel", tracked)
    settings = Settings(select=("ALL",))
    rules = settings.enabled_rules(all_rules())
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))]
    gc.collect()
    gc.disable()
    try:
        found = 0
        for text in texts:
            found += len(lint_text(text, "f.py", settings, rules, want_fixes=True).diagnostics)
        assert found > 10  # files with findings, fixes and messages, not only clean ones
        assert len(made) == len(texts)
        assert [ref() for ref in made] == [None] * len(texts)
    finally:
        gc.enable()


def test_every_node_class_gets_a_factory_with_its_own_signature() -> None:
    """The parser calls :mod:`jaxlint.node_factories`' functions with the keyword
    arguments it would give the classes: same parameters, kinds and plain defaults."""
    from jaxlint import node_factories

    made = node_factories._make_all()
    concrete = node_factories._concrete_classes()
    assert len(concrete) > 150 and set(made) == set(concrete)
    for name, make in made.items():
        theirs = inspect.signature(concrete[name]).parameters
        ours = inspect.signature(make).parameters
        assert list(ours) == list(theirs), name
        for pname, param in theirs.items():
            assert ours[pname].kind == param.kind, (name, pname)
            if param.default is not inspect.Parameter.empty and "factory" not in repr(
                param.default
            ):
                assert ours[pname].default is param.default, (name, pname)


def test_a_factory_builds_the_node_its_class_builds_from_defaults_alone() -> None:
    from jaxlint import node_factories

    made = node_factories._make_all()
    built = 0
    for name, cls in node_factories._concrete_classes().items():
        try:
            expected = cls()
        except (TypeError, cst.CSTValidationError):
            continue  # required fields
        node = made[name]()
        assert type(node) is cls and node.deep_equals(expected), name
        built += 1
    assert built > 30  # the default factories (``SimpleWhitespace.field(" ")``) ran


_EVERY_KIND_OF_SYNTAX = """\
#!/usr/bin/env python
\"\"\"Docstring.\"\"\"
from __future__ import annotations
import a.b as c, d
from .e import (f as g, h)
from .. import *
x: int = 1; y = 2 ; z = -x ** ~y // 3 @ m % 4 << 1 >> 2 & 3 | 4 ^ 5
w = x if y else z
v = [i for i in range(3) if i for j in range(i)] + [*a, *b]
u = {k: v for k, v in d.items()} | {**d} | {1, 2, *s}
t = (lambda q, /, r=1, *args, s, t=2, **kw: q)(1, s=2)
s = f"{x!r:>{w}} {y=} {'nested'}" "plain"; bb = rb'raw' b"bytes"
nums = (1j, 1.5e3, 0x1F, 1_000, ..., True, None)
r = a[1:2, ::3, ...][0]
async def co(p, *, q=None) -> list[int]:
    async with a as (b, c), d:
        async for e in f:
            await g
    return [x async for x in y]

@decorator
@other.attr(1)
class K(Base, metaclass=Meta):
    attr: ClassVar[int]
    def method(self, /, a, *b, c, **d) -> None:
        global G
        nonlocal_ = 1
        def inner():
            nonlocal nonlocal_
            nonlocal_ += 1
        del self.x, y[0]
        assert a, "msg"
        raise ValueError("x") from None

while (n := next(it)) is not None:
    if n in seq and not n or n > 1 < 2:
        continue
    elif n:
        break
    else:
        pass
else:
    pass
for i, (j, *k) in enumerate(z):
    pass
try:
    pass
except* (TypeError, ValueError) as eg:
    pass
try:
    x = 1
except Exception:
    pass
except:
    pass
else:
    pass
finally:
    pass
with open(p) as fh, \\
        open(q):
    print(x, sep="", end="\\n")
match command.split():
    case [action]:
        pass
    case [Point(x=0, y=0) | {"k": v, **rest} as whole, *others] if guard:
        pass
    case Color.RED | "s" | 1 | None | -1 + 2j:
        pass
    case _:
        pass
type Alias[T] = list[T]
def generic[T: int, *Ts, **P](a: T) -> T: yield a; yield from b
if x: pass
"""


def _classes(node: cst.CSTNode) -> list[type]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(type(n))
        stack.extend(n.children)
    return out


def test_a_parse_with_the_factories_gives_libcst_s_own_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text with every kind of syntax and the largest source files of jaxlint: the same
    tree, node classes and code as ``libcst.parse_module``, which calls the classes and
    validates every node."""
    from jaxlint import node_factories

    monkeypatch.setattr(node_factories, "_factories", node_factories._make_all())
    files = sorted((ROOT / "jaxlint").rglob("*.py"), key=lambda p: -p.stat().st_size)[:5]
    texts = [_EVERY_KIND_OF_SYNTAX] + [p.read_text(encoding="utf-8") for p in files]
    for text in texts:
        ours = _parse_unvalidated(text)
        theirs = cst.parse_module(text)
        assert ours.deep_equals(theirs)
        assert ours.code == text
        assert _classes(ours) == _classes(theirs)
    assert cst.Name in _classes(_parse_unvalidated(_EVERY_KIND_OF_SYNTAX))
    seen = {c.__name__ for t in texts for c in _classes(_parse_unvalidated(t))}
    assert len(seen & set(node_factories._factories)) > 120  # most factories ran


def test_the_factories_are_made_only_once_a_run_has_parsed_enough(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jaxlint import node_factories

    monkeypatch.setattr(node_factories, "_factories", None)
    monkeypatch.setattr(node_factories, "_parsed_chars", 0)
    assert node_factories.node_factories(1000) == {}
    _parse_unvalidated("x = 1\n")
    assert node_factories._factories is None  # a small run parses with the classes
    made = node_factories.node_factories(node_factories.WORTH_IT_CHARS)
    assert made and node_factories.node_factories(0) is made


def test_the_classes_are_put_back_after_a_parse_with_the_factories(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jaxlint import node_factories

    monkeypatch.setattr(node_factories, "_factories", node_factories._make_all())
    before = dict(vars(cst))
    _parse_unvalidated("def f(x):\n    return [x, {1: 2}]\n")
    with pytest.raises(cst.ParserSyntaxError):
        _parse_unvalidated("def (:\n")
    names = set(node_factories._make_all())
    assert {n: vars(cst)[n] for n in names} == {n: before[n] for n in names}
    assert all(isinstance(vars(cst)[n], type) for n in names)
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")  # built anywhere else, a node is validated


def test_a_class_with_its_own_post_init_keeps_its_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """A future libcst whose node class does more in ``__post_init__`` than validate would
    build a different node without it: such a class is called as usual."""
    from jaxlint import node_factories

    monkeypatch.setattr(cst.Name, "__post_init__", lambda self: None, raising=False)
    made = node_factories._make_all()
    assert "Name" not in made and "Attribute" in made
