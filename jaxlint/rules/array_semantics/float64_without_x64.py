"""JAX603 float64-without-x64: a float64 request from JAX in a script, notebook or test file
that never enables x64 (a library module leaves x64 to the application that imports it)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import libcst as cst

from jaxlint.analysis.arrays import ArrayEvidence
from jaxlint.analysis.testcode import is_main_guard, is_test_function
from jaxlint.analysis.transforms import ARRAY_MODULES, STATIC_CALLS
from jaxlint.rules.array_semantics.float64_without_x64_analysis import X64Checks
from jaxlint.rules.base import Examples, Option, Raises, Rule

EXAMPLES = Examples(__file__)

_FLOAT64_NAMES = frozenset(
    {"jax.numpy.float64", "jax.numpy.double", "numpy.float64", "numpy.double", "numpy.float_"}
)
_FLOAT64_STRINGS = frozenset({"float64", "f8", "<f8", "=f8", "double"})
_DTYPE_CALLS = frozenset({"numpy.dtype", "jax.numpy.dtype"})
_CONVERT_METHODS = frozenset({"astype", "view"})


_NOTEBOOK_CELLS = re.compile(r"^# (?:%%|In\[[ 0-9]*\]:)", re.MULTILINE)

# Where x64 is known to be off, and what the message says about it. A library module
# (anything else) is silent by default: the application that imports it decides on x64.
_TEST, _NOTEBOOK, _SCRIPT, _LIBRARY = "test", "notebook", "script", "library"
_WHY = {
    _TEST: (
        "but this test file never enables x64, nor does a `conftest.py` above it, the pytest"
        " configuration or a project module it imports or calls: JAX warns and makes"
        " float32, so the test"
        " runs in float32 unless the environment sets `JAX_ENABLE_X64`; use"
        " `with jax.enable_x64(True):` in the test or ask for float32"
    ),
    _NOTEBOOK: (
        "but this notebook never enables x64: JAX warns and makes float32 instead;"
        " enable `jax_enable_x64` in its first cell or ask for float32"
    ),
    _SCRIPT: (
        "but this script never enables x64: JAX warns and makes float32 instead;"
        " enable `jax_enable_x64` at startup or ask for float32"
    ),
    _LIBRARY: (
        "which needs x64: the application that imports this module must enable"
        " `jax_enable_x64`, or JAX warns and makes float32"
    ),
}


def _top_level(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The statements that run at import: the module's, and those of its top-level
    ``if``/``for``/``while``/``with``/``try`` blocks (not of functions or classes)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
            yield from _top_level(stmt.body.body)
            blocks = [getattr(stmt, "orelse", None), getattr(stmt, "finalbody", None)]
            blocks += list(getattr(stmt, "handlers", ()))
            for block in blocks:
                if isinstance(block, cst.If):
                    yield from _top_level([block])
                elif block is not None:
                    yield from _top_level(block.body.body)


def _prints(stmt: cst.BaseStatement) -> bool:
    """``print(...)`` as a statement."""
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Expr)
        and isinstance(small.value, cst.Call)
        and isinstance(small.value.func, cst.Name)
        and small.value.func.value == "print"
        for small in stmt.body
    )


def _test_class(cls: cst.ClassDef) -> bool:
    """A class whose methods pytest may collect: named ``Test*``, or with a base class (a
    ``unittest.TestCase`` subclass, collected whatever its name). A record such as a
    dataclass ``LargeScaleTestResult`` with a ``testable`` property is neither."""
    return cls.name.value.startswith("Test") or bool(cls.bases)


def _is_property(fn: cst.FunctionDef) -> bool:
    return any(
        isinstance(d.decorator, cst.Name) and d.decorator.value in ("property", "cached_property")
        for d in fn.decorators
    )


def _defines_tests(body: Sequence[cst.BaseStatement]) -> bool:
    """A test or fixture at the top level or in a top-level test class (``TestCase``
    methods): pytest runs this file itself, it is not only a helper the tests import."""
    for stmt in body:
        if isinstance(stmt, cst.FunctionDef) and is_test_function(stmt):
            return True
        if (
            isinstance(stmt, cst.ClassDef)
            and isinstance(stmt.body, cst.IndentedBlock)
            and _test_class(stmt)
        ):
            if any(
                isinstance(inner, cst.FunctionDef)
                and is_test_function(inner)
                and not _is_property(inner)
                for inner in stmt.body.body
            ):
                return True
    return False


def _module_kind(ctx) -> str:  # type: ignore[no-untyped-def]
    """Is this module known to run with x64 off unless it enables it (see the docs)?"""
    if ctx.is_test_file and _defines_tests(ctx.module.body):
        return _TEST
    filename = ctx.filename.replace("\\", "/")
    basename = filename.rsplit("/", 1)[-1]
    if basename.endswith(".ipynb") or _NOTEBOOK_CELLS.search(ctx.text):
        return _NOTEBOOK
    if basename == "__main__.py" or ctx.text.startswith("#!"):
        return _SCRIPT
    body = ctx.module.body
    if any(is_main_guard(stmt) for stmt in body):
        return _SCRIPT
    if any(_prints(stmt) for stmt in _top_level(body)):
        return _SCRIPT  # prints when run: libraries do not print on import
    if (
        basename != "__init__.py"
        and not any(isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) for stmt in body)
        and not (_in_package(ctx) and _data_only(body))
    ):
        return _SCRIPT  # top-level code and nothing to import: run, not imported
    return _LIBRARY


def _in_package(ctx) -> bool:  # type: ignore[no-untyped-def]
    """The module belongs to a package (its folder has an ``__init__.py``)."""
    return ctx.project is not None and "." in ctx.project.module.name


def _data_only(body) -> bool:  # type: ignore[no-untyped-def]
    """Only imports, assignments and docstrings at the top level: in a package, a module
    of constants that other modules import (clm-ml-jax's ``TowerDataMod.py``,
    fresh-2026-12q), not a script, which does something when run."""
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            return False
        for small in stmt.body:
            if isinstance(small, (cst.Import, cst.ImportFrom, cst.Assign, cst.AnnAssign)):
                continue
            if isinstance(small, cst.Expr) and isinstance(
                small.value, (cst.SimpleString, cst.ConcatenatedString)
            ):
                continue
            return False
    return True


class Float64WithoutX64(X64Checks, Rule):
    code = "JAX603"
    name = "float64-without-x64"
    message = "{request}, {why}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("UserWarning", message_contains="will be truncated to dtype"),)
    options = {
        "library-modules": Option(
            bool,
            False,
            "also report in library modules (not a script, notebook or test file), worded"
            " as the requirement the module places on the application that imports it",
        ),
    }
    docs = """\
## What it does
Flags a request for float64 from JAX in a script, notebook or test file that
never enables 64-bit mode: `jnp.float64(x)`, a float64 dtype (`jnp.float64`,
`np.float64`, `jnp.double`, `"float64"`, `"f8"`, `np.dtype("float64")`) passed to a
`jax.numpy`/`jax.lax`/`jax.random`/`jax.nn`/`jax.scipy` function
(`jnp.zeros(n, dtype=jnp.float64)`, `jnp.asarray(x, np.float64)`,
`lax.convert_element_type(x, jnp.float64)`), and `x.astype(jnp.float64)` or
`x.view(jnp.float64)` on a JAX array.

A module enables x64, and the rule stays silent in it, when it calls
`jax.config.update("jax_enable_x64", True)` (or with a value that is not a
literal false), uses `jax.enable_x64(...)` (or a project's own `enable_x64`) other
than as a bare statement (`with`, decorator, assigned), sets or reads the flag by name (`os.environ["JAX_ENABLE_X64"]`,
`jax.config.jax_enable_x64`, `jax.config.x64_enabled`, a `jax_enable_x64=` keyword),
updates a config option whose name is not a literal, or parses JAX flags from the
command line (`jax.config.parse_flags_with_absl()`). Reading the flag counts
because such code usually picks the dtype from it
(`jnp.float64 if jax.config.jax_enable_x64 else jnp.float32`).

x64 is a process-wide setting that belongs to the application, so the rule
reports only where the file it checks is where x64 would have to be turned on,
and shows that it is not:

- a script: a module with an `if __name__ == "__main__":` block, a `#!` first
  line, a `__main__.py`, a module that calls `print(...)` at its top level
  (outside functions and classes: libraries do not print when imported), or a
  module that defines no function or class and does something at its top level
  (a package's `__init__.py` does not count, nor a module of a package that holds
  only imports and assignments: constants that other modules import);
- a notebook: an `.ipynb`, or a `.py` with `# %%` (or nbconvert's `# In[ ]:`) cells;
- a test file (see "In tests" below).

Anywhere else the module is a library module, imported by an application that
may enable x64 (many numerical libraries tell their users to), and the rule is
silent: a library cannot enable x64 for its users and should not. With the
option `library-modules` (`[tool.jaxlint.rules.JAX603] library-modules = true`)
it also reports there, worded as the requirement the module places on its
application ("..., which needs x64: the application that imports this module
must enable `jax_enable_x64`, or JAX warns and makes float32"), for a library
that wants to keep working in float32.

**In tests.** A test file (`tests/`, `test_*.py`, `*_test.py`, `conftest.py`)
that defines tests or fixtures (a `test*` function, or a `test*` method, not a
property, of a class pytest collects: one named `Test*` or derived from a base
such as `unittest.TestCase`) is reported like a script when nothing in it
enables x64: pytest starts with x64 off, so such a test computes and checks
float32 while it says float64. A helper module under `tests/` that defines no
test is judged like any other module (usually a library: the tests that import
it may enable x64). Enabling x64 anywhere
in the test file counts (`@jax.enable_x64(True)` or `with jax.enable_x64(True):`
on a test, a fixture that calls `jax.config.update("jax_enable_x64", True)`,
absltest's `jax.config.parse_flags_with_absl()`).

**x64 switched on outside the file.** The rule also reads, as text (the
project's code is never imported or run), the places that switch x64 on for a
file before it runs, each with the scope where that is true:

- for a test file, a `conftest.py` in its folder or any folder above it up to
  the project root (without a `pyproject.toml`, `setup.cfg`, `setup.py` or `.git`:
  up through its packages, and at least up to the folder that holds its `tests`
  folder): pytest imports it before the tests below it. It counts when
  it switches x64 on when imported (`jax.config.update("jax_enable_x64", True)`
  at its top level, or `os.environ["JAX_ENABLE_X64"] = "1"` there before it
  imports JAX, which reads the variable once), in
  `pytest_configure`/`pytest_sessionstart`, or in an autouse fixture
  (`with jax.enable_x64(True): yield`), always with a literal true value (a
  fixture that restores a saved value, `jax.config.update("jax_enable_x64",
  saved)`, does not switch x64 on). A fixture that tests request by name
  enables x64 only for those tests and does not count. A `conftest.py` does not
  apply to library code, scripts or notebooks (they do not run under pytest;
  the message of a script that one would cover says so: "this script never
  enables x64 (`tests/conftest.py:5` switches it on only for the tests that
  pytest runs, not when this script runs)");
- for a test file, the pytest configuration in those folders: `pytest.ini`,
  `pyproject.toml` (`[tool.pytest.ini_options]`, `[tool.pytest_env]`), `setup.cfg`
  (`[tool:pytest]`), `tox.ini` (`[pytest]`, and `setenv` of a `[testenv]`), when it
  sets `JAX_ENABLE_X64` to a value other than `0`/`false` (pytest-env's
  `env = JAX_ENABLE_X64=1`) or passes `--jax_enable_x64`;
- for any file, the `__init__.py` of each package the module belongs to, and
  the project's modules it imports (also in a function) (`from pkg.gpu import f`
  runs `pkg/__init__.py`, then `pkg/gpu.py`), when they switch x64 on when
  imported (at their top level, with any value but a literal false, or in what a
  top-level call runs, four calls deep: nlsq's `_config = JAXConfig()`), and those
  they import, and so on (not under `if TYPE_CHECKING:`): importing runs them first;
- for any file, a function of the project that it calls and that switches x64
  on with any value but a literal false (`configure_jax_platform()`, whose body
  runs `jax.config.update("jax_enable_x64", double_precision)`), also through a
  package that re-exports it (`gv.enable_float64()`, imported into the package's
  `__init__.py` from `core/config.py`: gridvoting-jax), or a project context manager
  that enters `jax.enable_x64(True)`, also as `ctx = getattr(jax, "enable_x64", None)`.

Each folder and `__init__.py` is read once per run. What they say is recorded
with the file's result like the project's other facts, so a cached result is
checked again when one of them changes (code read from stdin without
`--stdin-filename` has no folder and is judged alone). The CI environment (`JAX_ENABLE_X64` set
by a workflow or a shell) is not read; a project whose tests all run that way
turns the rule off for them with `per-file-ignores` (`"tests/**" = ["JAX603"]`).

Only JAX's own functions are checked: a library that passes the dtype on to
JAX (`nnx.Linear(2, 3, param_dtype=jnp.float64)`) truncates too, but is not
flagged.

It does not flag dtype introspection (`jnp.finfo(jnp.float64)`,
`jnp.issubdtype(x.dtype, jnp.float64)`, `x.dtype == jnp.float64`),
`jax.ShapeDtypeStruct(..., jnp.float64)` (which keeps float64), NumPy calls
(`np.zeros(3, np.float64)`), nor `dtype=float`, which JAX maps to its default
float type without a warning.

## Why is this bad
JAX is 32-bit by default. Without x64, a float64 request makes a float32 array
and emits a `UserWarning` that is easy to miss (shown once per call site, hidden
by many test runners and notebooks):

```text
UserWarning: Explicitly requested dtype float64 requested in zeros is not
available, and will be truncated to dtype float32. To enable more dtypes, set
the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment
variable.
```

Code that needs double precision (accumulations, ill-conditioned solves,
finite-difference checks) then silently computes in single precision.

## Example
```python
# sums.py, a script (`python sums.py`)
import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float32
```

## Use instead
```python
# sums.py
import jax

jax.config.update("jax_enable_x64", True)  # at startup, before any array is made

import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float64
```

Or, when float32 is what the program gets anyway, say so: `dtype=jnp.float32`.

`jax.enable_x64(True)` as a bare statement does nothing: it is a context
manager (`with jax.enable_x64(True): ...`).

## Fix safety
No fix. Enabling x64 changes the default dtype of the whole program (every
`jnp.arange`, every Python float becomes 64-bit, doubling memory and slowing
accelerators), so it is a decision for the program's entry point, not for this
line; replacing `float64` by `float32` would make the code match what it does
today but drop the precision the author asked for. The rule sees x64 switched on
in the module, in the `conftest.py` files and pytest configuration above a test,
and in the packages a module belongs to or imports (see above); a project that
enables it only through the environment (`JAX_ENABLE_X64` set by CI or a shell
script) can turn the rule off for those files with `per-file-ignores`.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports its output
dtypes (`float32[...]` where float64 was asked for) and, under the stage that
emitted it, JAX's `Explicitly requested dtype float64 ... truncated to dtype
float32` warning (`stages.eval_shape.warnings` in the JSON; add `--format text`
to read it). `jaxlint probe env` shows `jax_enable_x64`.
"""
    VALID = [
        EXAMPLES.valid("valid_x64_enabled_module.py", runs=True, note="x64 enabled in the module"),
        EXAMPLES.valid(
            "valid_context_manager_used.py", runs=True, note="the context manager, used with `with`"
        ),
        EXAMPLES.valid(
            "valid_environment_variable_set_before_jax.py",
            note="the environment variable, set before JAX is imported",
        ),
        EXAMPLES.valid(
            "valid_x64_aware_code_reads_flag.py", runs=True, note="x64-aware code reads the flag"
        ),
        EXAMPLES.valid(
            "valid_numpy_keeps_float64_float32_float.py",
            runs=True,
            note="NumPy keeps float64; float32 and `float` are not float64 requests",
        ),
        EXAMPLES.valid(
            "valid_dtype_introspection_shapedtypestruct_make_array.py",
            runs=True,
            note="dtype introspection and ShapeDtypeStruct make no array",
        ),
        EXAMPLES.valid(
            "valid_leaves_may_numpy_arrays_which.py",
            runs=True,
            note="the leaves may be NumPy arrays, which keep float64",
        ),
        EXAMPLES.valid(
            "valid_flags_command_line_may_enable.py",
            filename="tests/dtypes_test.py",
            note="flags from the command line may enable x64",
        ),
        EXAMPLES.valid(
            "valid_library_module_leaves_x64_to_application.py",
            runs=True,
            note="a library module: the application that imports it decides on x64",
        ),
        EXAMPLES.valid(
            "valid_package_init_constant.py",
            filename="mypkg/__init__.py",
            note="a package's `__init__.py` is imported, not run, even with no functions",
        ),
        EXAMPLES.valid(
            "valid_test_enables_x64_decorator.py",
            runs=True,
            filename="tests/test_sums.py",
            note="the test enables x64 with `@jax.enable_x64(True)`",
        ),
        EXAMPLES.valid(
            "valid_test_helper_module.py",
            runs=True,
            filename="tests/helpers.py",
            note="a helper under `tests/` that defines no test: the tests that import it decide",
        ),
        EXAMPLES.valid(
            "valid_test_fixture_enables_x64.py",
            runs=True,
            filename="tests/test_cumsum.py",
            note="an autouse fixture of the test file enables x64",
        ),
        EXAMPLES.valid(
            "valid_config_updated_through_variables.py",
            runs=True,
            note="config updated through variables",
        ),
        EXAMPLES.valid(
            "valid_test_helper_with_testable_property.py",
            runs=True,
            filename="tests/sweep_runner.py",
            note="a helper under `tests/` whose record class has a `testable` property: no"
            " test pytest collects, so the tests that import it decide",
        ),
        EXAMPLES.valid("valid_suppressed.py", note="suppressed"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_acc_jnp_zeros_3_dtype_jnp.py",
            line=2,
            column=26,
            message_contains="`jnp.zeros` is asked for `jnp.float64`, but this script never enables x64",
        ),
        EXAMPLES.invalid(
            "invalid_x_jnp_asarray_np_linspace_0.py",
            message_contains="`jnp.asarray` is asked for `np.float64`",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_astype_float64_mean.py",
            line=6,
            message_contains='`x.astype` is asked for `"float64"`',
        ),
        EXAMPLES.invalid(
            "invalid_bare_enable_x64_call_does.py",
            message_contains="`jnp.float64(...)` makes a float64 scalar",
            note="a bare enable_x64(...) call does nothing",
        ),
        EXAMPLES.invalid("invalid_x64_explicitly_disabled.py", note="x64 explicitly disabled"),
        EXAMPLES.invalid("invalid_z_jnp_ones_3_view_jnp.py", count=2),
        EXAMPLES.invalid(
            "invalid_grid_zeros_2_2_float64.py", message_contains="`zeros` is asked for `float64`"
        ),
        EXAMPLES.invalid(
            "invalid_main_guard_helper_function.py",
            line=5,
            column=42,
            message_contains="`jnp.linspace` is asked for `jnp.float64`, but this script never",
            note='an entry point (`if __name__ == "__main__":`), asked in its own function',
        ),
        EXAMPLES.invalid(
            "invalid_shebang_script.py",
            line=7,
            message_contains="but this script never enables x64",
            note="a script run from its `#!` line",
        ),
        EXAMPLES.invalid(
            "invalid_script_prints_at_top_level.py",
            line=10,
            message_contains="`jnp.zeros` is asked for `jnp.float64`, but this script never",
            note="a script without `__main__` guard: it prints when run",
        ),
        EXAMPLES.invalid(
            "invalid_notebook_cells.py",
            line=10,
            message_contains="but this notebook never enables x64",
            note="a notebook saved as `.py` (`# %%` cells)",
        ),
        EXAMPLES.invalid(
            "invalid_test_never_enables_x64.py",
            filename="tests/test_cumsum.py",
            line=6,
            message_contains="but this test file never enables x64",
            note="a test file that never enables x64 tests float32",
        ),
        EXAMPLES.invalid(
            "invalid_test_class_never_enables_x64.py",
            filename="tests/test_cumsum.py",
            line=7,
            message_contains="but this test file never enables x64",
            note="a test in a `Test*` class, which pytest collects",
        ),
        EXAMPLES.invalid(
            "invalid_library_module_option.py",
            options={"library-modules": True},
            line=5,
            message_contains=(
                "`jnp.asarray` is asked for `jnp.float64`, which needs x64: the application"
                " that imports this module must enable `jax_enable_x64`"
            ),
            note="a library module, with the option `library-modules`",
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._kind: str | None = None
        self.evidence = ArrayEvidence(self)

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.model.call_name(node)
        if qualname in ("jax.numpy.float64", "jax.numpy.double"):
            self._flag(node.func, f"`{self.ctx.code(node.func)}(...)` makes a float64 scalar")
            return
        if qualname is not None:
            if not qualname.startswith(ARRAY_MODULES) or qualname in STATIC_CALLS:
                return
            for arg in node.args:
                if self._is_float64(arg.value):
                    self._flag(arg.value, self._asked(node, arg.value))
            return
        func = node.func
        if type(func) is cst.Attribute and func.attr.value in _CONVERT_METHODS:
            dtype = next(
                (
                    a.value
                    for a in node.args
                    if (a.keyword is None and not a.star)
                    or (a.keyword is not None and a.keyword.value == "dtype")
                ),
                None,
            )
            if dtype is None or not self._is_float64(dtype):
                return
            val = self.ctx.trace.value(func.value)
            traced = val is not None and val.traced
            if traced or self.evidence.of(func.value) is not None:
                self._flag(dtype, self._asked(node, dtype))

    def _is_float64(self, expr: cst.BaseExpression) -> bool:
        if type(expr) is cst.SimpleString:
            return expr.evaluated_value in _FLOAT64_STRINGS
        if type(expr) is cst.Call:
            if self.model.call_name(expr) in _DTYPE_CALLS and len(expr.args) == 1:
                return self._is_float64(expr.args[0].value)
            return False
        return self.model.qualified_name(expr) in _FLOAT64_NAMES

    def _asked(self, call: cst.Call, dtype: cst.BaseExpression) -> str:
        return f"`{self.ctx.code(call.func)}` is asked for `{self.ctx.code(dtype)}`"

    def _flag(self, node: cst.BaseExpression, request: str) -> None:
        if self._kind is None:
            self._kind = _module_kind(self.ctx)
        if self._kind == _LIBRARY and not self.settings["library-modules"]:
            return
        if self._enables_x64() or self._enabled_elsewhere(self._kind == _TEST):
            return
        why = _WHY[self._kind]
        if self._kind in (_SCRIPT, _NOTEBOOK):
            # a script among the tests: their ``conftest.py`` does not run with it
            where = self._x64_enabled_for("test")
            if where is not None:
                why = why.replace(
                    " never enables x64",
                    f" never enables x64 (`{where}` switches it on only for the tests that"
                    f" pytest runs, not when this {self._kind} runs)",
                    1,
                )
        self.report(node, request=request, why=why)
