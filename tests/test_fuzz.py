"""Fuzzing: on generated programs jaxlint never crashes, fixes parse, and fixing is idempotent.

Two sources of programs: ``hypothesmith.from_grammar()`` (any syntactically valid
Python), and JAX-shaped programs built here (jitted functions with branches on
their arguments, PRNG keys split and reused, loops, ``.at`` updates, host
conversions, removed APIs, ...) with generated programs spliced into them.

For every program, with every rule on (``--select ALL``) and unsafe fixes
allowed:

* jaxlint's node positions equal libcst's ``PositionProvider``;
* linting raises nothing and no rule crashes (no internal error);
* every diagnostic lies inside the text;
* the fix loop converges, its output parses (with Python's own parser when the
  input did), and fixing that output again changes nothing.

``make test`` runs a bounded number of examples; ``make fuzz`` runs 10,000 per
test (``JAXLINT_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import os
import textwrap

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.config import Settings
from jaxlint.engine import lint_text, split_lines
from jaxlint.fixers.fixpoint import fix_text, python_parses
from jaxlint.positions import compute_positions
from jaxlint.rules import all_rules

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # generated code is odd

EXAMPLES = int(os.environ.get("JAXLINT_FUZZ_EXAMPLES", "0"))
"""Examples per test; 0 means each test's bounded default (for ``make test``)."""

GRAMMAR = hypothesmith.from_grammar()
"""Built once: building it compiles the grammar, which costs about a second."""

SETTINGS = Settings(select=("ALL",), unsafe_fixes=True, target_jax=(0, 12, 0))
RULES = SETTINGS.enabled_rules(all_rules())


def fuzz_settings(default: int):
    return settings(
        max_examples=EXAMPLES or default,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not EXAMPLES,  # make test: the same examples every run
    )


def check_positions(text: str) -> None:
    """jaxlint's positions equal libcst's ``PositionProvider`` for every node."""
    try:
        module = cst.parse_module(text)
    except Exception:
        return
    ours = compute_positions(module, text)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert set(ours) == set(theirs)
    if module.code != text:
        # libcst drops some blank lines (before a last line of blanks, ``pass\n\n ``): its
        # positions are those of its own code, ours follow the text (positions._align), so
        # they must only lie inside the text
        lines = text.splitlines() or [""]
        for node, got in ours.items():
            assert 1 <= got.start.line <= got.end.line <= len(lines) + 1, (node, got, text)
        return
    for node, expected in theirs.items():
        assert ours[node] == expected, (type(node).__name__, expected, ours[node], text)


def check_program(text: str) -> None:
    check_positions(text)
    result = lint_text(text, "fuzz.py", SETTINGS, RULES, want_fixes=True)
    crashes = [f"{e.describe()}\n{e.traceback}" for e in result.internal_errors]
    assert not crashes, "\n".join(crashes) + "\n--- program ---\n" + text
    lines = split_lines(text)
    for d in result.diagnostics:
        assert 1 <= d.start.row <= len(lines), (d, text)
        assert (d.start.row, d.start.column) <= (d.end.row, d.end.column), (d, text)
    if not result.parsed:
        return

    errors: list[str] = []

    def lint(t: str):
        r = lint_text(t, "fuzz.py", SETTINGS, RULES, want_fixes=True)
        errors.extend(e.describe() + "\n" + e.traceback for e in r.internal_errors)
        return r.diagnostics

    once = fix_text(text, lint, unsafe=True)
    assert not errors, "\n".join(errors) + "\n--- program ---\n" + text
    assert once.converged, text
    if python_parses(text):
        assert python_parses(once.text), f"fix output does not parse:\n{once.text}\nfrom:\n{text}"
    twice = fix_text(once.text, lint, unsafe=True)
    assert not errors, "\n".join(errors)
    assert twice.text == once.text, f"fixing twice differs:\n{once.text}\n---\n{twice.text}"


# -- JAX-shaped programs ------------------------------------------------------------------------

IMPORTS = [
    "import jax",
    "import jax.numpy as jnp",
    "import numpy as np",
    "from jax import random",
    "import jax.random as jr",
    "from functools import partial",
    "from jax import lax",
    "from jax import tree_map",
    "from jax.numpy import empty",
    "import time",
    "import equinox as eqx",
    "import flax.linen as nn",
    "from jax.experimental import pjit",
    "from jax.experimental.shard_map import shard_map",
]
DECORATORS = [
    "",
    "@jax.jit",
    "@partial(jax.jit, static_argnums=(1,))",
    "@partial(jax.jit, static_argnames=('n',))",
    "@jax.vmap",
    "@jax.grad",
    "@eqx.filter_jit",
    "@jax.checkpoint",
    "@jax.pmap",
    "@partial(jax.jit, donate_argnums=0)",
]
NAMES = ["x", "y", "key", "n", "params", "state", "sub", "carry", "i", "self"]
EXPRS = [
    "{a} + 1",
    "{a} * {b}",
    "jnp.sum({a})",
    "jnp.empty(3)",
    "jnp.empty_like({a})",
    "jnp.zeros(({a}, 2))",
    "jax.random.normal({a}, (3,))",
    "random.uniform({a})",
    "jr.split({a})",
    "jax.random.PRNGKey(0)",
    "jax.random.key({a})",
    "jax.random.fold_in({a}, {b})",
    "np.asarray({a})",
    "float({a})",
    "int({a}.sum())",
    "{a}.item()",
    "{a}.at[0].set({b})",
    "{a}[0]",
    "{a}.shape[0]",
    "jax.tree_map(lambda t: t, {a})",
    "tree_map(lambda t: t * 2, {a})",
    "jax.jit(lambda t: t)({a})",
    "lax.fori_loop(0, 3, lambda j, c: c + {a}, {b})",
    "lax.scan(lambda c, t: (c, t), {a}, {b})",
    "lax.cond({a} > 0, lambda: {b}, lambda: {a})",
    "time.time()",
    "{a}.block_until_ready()",
    "jnp.array([1.0], dtype=jnp.float64)",
    "jax.device_get({a})",
    "empty(2)",
    "pjit.pjit(lambda t: t)({a})",
    "jax.numpy.empty(4)",
    "[{a} for _ in range(3)]",
    "{{'k': {a}}}",
    "lambda: {a}",
    # calls of the program's own functions with literals in every integer spelling
    # (a literal argument decides a branch of a helper: fresh-2026-12k's 0xA24BAED4)
    "g({a}, salt=0xA24BAED4)",
    "step({a}, 0o17)",
    "loss({a}, n=0b101)",
    "f({a}, 1_000, 1e-3)",
]
STATEMENTS = [
    "{t} = {e}",
    "{t}, {u} = jax.random.split({a})",
    "{t} += {e}",
    "{a}[0] = {e}",
    "print({e})",
    "assert {e}",
    "return {e}",
    "yield {e}",
    "del {t}",
    "jax.config.update('jax_enable_x64', True)",
    "{t}: jax.Array = {e}",
    "global {t}",
    "pass",
    "raise ValueError({e})",
]
BLOCKS = [
    "if {e} > 0:",
    "if {a}:",
    "if jax.__version_info__ >= (0x0, 4, 0b1):",
    "elif {a} is None:",
    "else:",
    "for {t} in range({a}):",
    "for {t} in {a}:",
    "while {a} < 10:",
    "with jax.default_device(None):",
    "try:",
    "except Exception:",
    "def inner({a}):",
    "class C:",
]


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    template = draw(st.sampled_from(EXPRS))
    a = (
        draw(st.sampled_from(NAMES))
        if depth > 1
        else draw(st.one_of(st.sampled_from(NAMES), expressions(depth + 1)))
    )
    b = draw(st.sampled_from(NAMES))
    return template.format(a=a, b=b)


@st.composite
def bodies(draw: st.DrawFn, depth: int = 0) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        if depth < 3 and draw(st.integers(0, 3)) == 0:
            header = draw(st.sampled_from(BLOCKS)).format(
                e=draw(expressions()),
                a=draw(st.sampled_from(NAMES)),
                t=draw(st.sampled_from(NAMES)),
            )
            lines.append(header)
            lines.extend("    " + line for line in draw(bodies(depth + 1)))
        else:
            lines.append(
                draw(st.sampled_from(STATEMENTS)).format(
                    t=draw(st.sampled_from(NAMES)),
                    u=draw(st.sampled_from(NAMES)),
                    a=draw(st.sampled_from(NAMES)),
                    e=draw(expressions()),
                )
            )
    return lines


@st.composite
def jax_programs(draw: st.DrawFn, splice: bool = False) -> str:
    parts = list(draw(st.lists(st.sampled_from(IMPORTS), min_size=1, max_size=6, unique=True)))
    spliced = draw(GRAMMAR) if splice else ""
    for _ in range(draw(st.integers(1, 4))):
        decorator = draw(st.sampled_from(DECORATORS))
        params = draw(st.lists(st.sampled_from(NAMES), min_size=0, max_size=3, unique=True))
        body = draw(bodies())
        if spliced and draw(st.booleans()):
            body = body + textwrap.indent(spliced, "    ").splitlines()
        func = [decorator] if decorator else []
        func.append(
            f"def {draw(st.sampled_from(['f', 'g', 'step', 'loss']))}({', '.join(params)}):"
        )
        func.extend("    " + line for line in body)
        parts.append("\n".join(func))
    if draw(st.booleans()):
        parts.append("\n".join(draw(bodies())))
    if spliced and draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), spliced)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = "\n\n".join(parts) + "\n"
    return text.replace("\n", newline) if newline != "\n" else text


# -- the properties ------------------------------------------------------------------------------


@fuzz_settings(default=150)
@given(GRAMMAR)
def test_generated_programs(source: str) -> None:
    check_program(source)


@fuzz_settings(default=250)
@given(jax_programs())
def test_jax_shaped_programs(source: str) -> None:
    check_program(source)


@fuzz_settings(default=100)
@given(jax_programs(splice=True))
def test_jax_shaped_programs_with_generated_code_spliced_in(source: str) -> None:
    assume(python_parses(source))
    check_program(source)


@pytest.mark.parametrize(
    "source",
    [
        "",
        "jax",
        "import jax\n@jax.jit\ndef f(x):\n    if x:\n        pass\n",
        "import jax.numpy as jnp\nx = jnp.empty(3)\r\ny = jnp.empty_like(x)\r\n",
        "from jax import tree_map as tm\nimport jax.numpy as jnp\nx = tm(lambda t: t, jnp.empty(2))",
        "import jax\nk = jax.random.PRNGKey(0)\na = jax.random.normal(k)\nb = jax.random.normal(k)\n",
        # found by this fuzzer: `global` at module level made name lookup loop forever
        "import jax.numpy as jnp\nglobal x\nx = jnp.empty(3)\nx[0] = 1\n",
    ],
)
def test_seed_programs(source: str) -> None:
    check_program(source)
