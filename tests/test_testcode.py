"""Which code is test code (the test-code policy's question)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.analysis.testcode import is_test_function, is_test_path


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
