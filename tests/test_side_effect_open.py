"""JAX104 and ``open``: a file opened to write, append, create or update at trace time is
a side effect that runs once; one opened only to read (constants, pretrained weights) is
not reported (``side_effect_in_traced._reads_only``)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.rules.host_device.side_effect_in_traced import _reads_only


@pytest.mark.parametrize(
    ("code", "qn", "reads"),
    [
        ("open(p)", "builtins.open", True),
        ("open(p, 'rb')", "builtins.open", True),
        ("open(p, mode='r')", "builtins.open", True),
        ("open(p, 'a')", "builtins.open", False),
        ("open(p, 'wb')", "builtins.open", False),
        ("open(p, 'r+')", "builtins.open", False),
        ("open(p, 'x')", "builtins.open", False),
        ("open(p, mode)", "builtins.open", False),  # not a literal: unknown
        ("open(*args)", "builtins.open", False),
        ("path.open()", "pathlib.Path.open", True),
        ("path.open('w')", "pathlib.Path.open", False),
    ],
)
def test_reads_only(code: str, qn: str, reads: bool) -> None:
    call = cst.parse_expression(code)
    assert isinstance(call, cst.Call)
    assert _reads_only(call, qn) is reads
