"""jaxlint's positions are libcst's ``PositionProvider`` positions, for every node."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import jaxlint.positions
from jaxlint.positions import compute_positions

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

SOURCES = {
    "empty": "",
    "newline only": "\n",
    "no final newline": "import jax\nx = jax.numpy.empty(3)",
    "crlf": "import jax\r\n\r\ndef f(x):\r\n    return x\r\n",
    "cr": "import jax\rx = 1\r",
    "mixed": "a = 1\r\nb = 2\nc = 3\rd = 4",
    "tabs": "if True:\n\tif x:\n\t\ty = 1\n",
    "comments only": "# one\n# two",
    "unicode": "s = '🦊 ünïcödé'\nt = s + '𝔘'  # 𝔘\n",
    "continuation": "x = 1 + \\\n    2\ny = (\n    3,\n)\n",
    "decorators": "@jax.jit\n@partial(f, a=1)\ndef g(x, /, y=2, *a, k, **kw) -> int:\n    '''doc'''\n    return x\n",
    "fstrings": "x = f'{a!r:>{w}} {b=}'\ny = f'''{\n  c\n}'''\n",
    "classes and lambdas": "class A(B, metaclass=M):\n    f = lambda self, *a: [i for i in a if i]\n",
    "semicolons": "a = 1; b = 2;\nif a: b = 3\nelse: b = 4\n",
    "match": "match x:\n    case [1, *rest] if rest:\n        pass\n    case {'k': v, **kw}:\n        pass\n",
    "trailing whitespace": "x = 1   \n   \n",
    "async": "async def f():\n    async with a as b:\n        await b\n    async for i in c:\n        yield i\n",
}


def assert_same(text: str) -> None:
    module = cst.parse_module(text)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = compute_positions(module, text)
    assert set(ours) == set(theirs)
    for node, expected in theirs.items():
        assert ours[node] == expected, (type(node).__name__, expected, ours[node])


@pytest.mark.parametrize("text", list(SOURCES.values()), ids=list(SOURCES))
def test_same_positions_as_libcst(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize("path", sorted(EXAMPLES.rglob("*.py")), ids=lambda p: p.name)
def test_same_positions_on_the_examples(path: Path) -> None:
    assert_same(path.read_text())


def test_lines_libcst_leaves_out_are_counted_as_the_text_has_them() -> None:
    """libcst 1.9 gives ``x = 1   \\n\\n   \\n`` back without its empty line, and its own
    provider puts the last line's blanks on line 2; they are on line 3 of the text."""
    text = "x = 1   \n\n   \n"
    module = cst.parse_module(text)
    assert module.code == "x = 1   \n   \n"
    ours = compute_positions(module, text)
    assert ours.exact
    blanks = module.footer[-1].whitespace
    assert ours[blanks].start.line == 3
    assert (
        ours[module.body[0]]
        == MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[module.body[0]]
    )


def test_text_that_does_not_match_the_tree_falls_back_to_libcst(monkeypatch) -> None:
    used = []
    real = jaxlint.positions._libcst_positions
    monkeypatch.setattr(jaxlint.positions, "_libcst_positions", lambda m: used.append(m) or real(m))
    module = cst.parse_module("x = 1\n")
    positions = compute_positions(module, "x = 10\n")  # not the module's text
    assert used == [module]
    assert positions[module.body[0]].start.line == 1


def test_file_context_source_keeps_the_text_as_written() -> None:
    """``FileContext.source`` is the node's text in the file: continuation lines keep their
    indentation and line endings (``code_for_node`` drops the enclosing block's indent)."""
    import libcst as cst

    from jaxlint.config import Settings
    from jaxlint.engine import FileContext

    for nl in ("\n", "\r\n"):
        text = nl.join(
            ["def f(x):", "    if x:", "        print(", "            x,", "        )", ""]
        )
        module = cst.parse_module(text)
        ctx = FileContext(module, text, "a.py", Settings())
        stmt = module.body[0].body.body[0].body.body[0].body[0]
        assert ctx.source(stmt) == nl.join(["print(", "            x,", "        )"])
        assert ctx.code(stmt) != ctx.source(stmt)
