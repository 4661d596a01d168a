"""Which code is test code (the test-code policy's question)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.analysis.testcode import is_test_function, is_test_path, program_module


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/model_test.py", True),
        ("tests/helpers.py", True),
        ("pkg/test/util.py", True),
        ("test_model.py", True),
        ("src/pkg/model_test.py", True),
        ("conftest.py", True),
        ("C:\\proj\\tests\\a.py", True),
        ("src/pkg/model.py", False),
        ("src/pkg/contest.py", False),
        ("src/latest/model.py", False),
        ("src/pkg/testing_utils.py", False),
        ("example.py", False),
        ("-", False),
    ],
)
def test_is_test_path(path: str, expected: bool) -> None:
    assert is_test_path(path) is expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def test_model(): pass", True),
        ("def testModel(self): pass", True),
        ("@pytest.fixture\ndef key(): pass", True),
        ("@pytest.fixture(scope='module')\ndef key(): pass", True),
        ("def train_step(): pass", False),
        ("@jax.jit\ndef step(): pass", False),
    ],
)
def test_is_test_function(source: str, expected: bool) -> None:
    fn = cst.parse_module(source).body[0]
    assert isinstance(fn, cst.FunctionDef)
    assert is_test_function(fn) is expected


# Which modules are programs (run, not imported): JAX402 asks before taking a function
# its ``__main__`` block calls once as run once.


@pytest.mark.parametrize(
    ("module", "program"),
    [
        ("train", True),  # a script outside any package
        ("examples.three_body_jpsi", True),  # a folder of programs
        ("pkg.scripts.fit", True),
        ("pkg.utils.coeff_index", False),  # a library module of a package
        ("pkg.__init__", False),
        ("-", False),  # standard input: unknown
        ("train-model", False),  # a name no import can spell: unknown
        (None, False),  # outside a project: unknown
    ],
)
def test_program_module(module: str | None, program: bool) -> None:
    assert program_module(module) is program
