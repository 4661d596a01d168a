"""JAX104 side-effect-in-traced: side effects in jit-traced code (file I/O, logging of
tracers, global and outside-container updates, ``self`` attributes), which run once at trace time.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxlint.analysis.names import Scope
from jaxlint.analysis.tracing import TracedFunction
from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.host_device.helpers import LOG_METHODS, Shared, short_code
from jaxlint.rules.host_device.side_effect_in_traced_analysis import AssignmentChecks

EXAMPLES = Examples(__file__)

_LOGGING_MODULES = ("logging.", "absl.logging.")
_MUTATORS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"}
)
_CONTAINER_CALLS = frozenset(
    {
        "builtins.list",
        "builtins.dict",
        "builtins.set",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.deque",
        "collections.Counter",
    }
)


# -- JAX104 ----------------------------------------------------------------------------------


def _shown(code: Callable[[cst.CSTNode], str], call: cst.Call) -> str:
    """The call as a message shows it (made only for a finding: code generation per call
    of traced code cost more than the rule's checks)."""
    return short_code(code(call), code(call.func), limit=40)


class SideEffectInTraced(AssignmentChecks, Shared, Rule):
    code = "JAX104"
    name = "side-effect-in-traced"
    message = "{what} runs once, when JAX traces `{fn}` ({how}), not on every call{extra}; {hint}"
    fix_availability = "none"
    probe = "jaxlint probe recompile FILE.py:FUNC"
    confirmed_by = (Raises("UnexpectedTracerError"),)  # a leaked tracer used later
    docs = """\
## What it does
Flags side effects in code traced by a `jit`-like transform (`jax.jit`, `pjit`,
`pmap`, `nnx.jit`, `eqx.filter_jit`, and lax bodies such as `lax.scan`'s):

- `open(...)` for writing or appending (a file opened only to read, such as pretrained
  weights loaded in a Linen `setup`, is read once at trace time, which is what loading
  constants means);
- a logging call (`logging.info`, `logger.warning` for a `logging.getLogger`
  logger, `absl.logging`) that logs a traced value;
- assigning a `global` or `nonlocal` name a traced value, or one that the function
  also reads (`step += 1` then `lr = base / step`);
- storing a traced value into a list, dict or set defined outside every traced
  function (`cache.append(x)`, `results[k] = x`, `seen.add(x)`);
- `self.attr = ...` in a method jitted with `jax.jit`/`pjit`/`pmap`, in a plain
  class.

## Why is this bad
JAX runs the Python body once, to trace it, and then reuses the compiled
computation for every call with the same shapes: these statements run once, at
trace time, not on every call (and again whenever the function recompiles). A
logged value is a tracer, not a number. A tracer stored outside the function
outlives its trace: using it later raises `UnexpectedTracerError`. A counter
incremented in a jitted method counts compilations, not calls, and a `self`
attribute assigned there holds a tracer. A global the function reads after
updating it is baked into the compiled code with the value it had at trace time.

To stay precise, the rule does not flag: logging of static values at trace time
(`logging.info("compiling for %s", x.shape)` is a common, deliberate pattern);
a `nonlocal` that belongs to a traced function and is set by a helper traced only
because that function calls it (the name is made again on every trace, and set and read
within it); a global cache filled once under `if G is None:` (or `if not G:`) with a
static value (an optional import); a one-time flag, a global set to a constant and read only in `if` tests
(`if _WARNED: return` ... `_WARNED = True` around a warning: set at the first trace, which
is what "once" asks for; checked: two traces, one warning); write-only
`global`/`nonlocal` counters (`n += 1`) and appending static values
(shapes, names) to an outside list, which count or record traces on purpose (tests
do this to check how often a function compiles); containers local to the traced
function; `self.x = ...` in
`__init__`, `setup` or `__post_init__`, and in any class deriving from a
framework module (Flax linen and NNX modules, whose state updates `nnx.jit`
propagates, Equinox, Haiku) or from a class the module cannot see; a static value
stored by a setup guarded by the attribute it sets (`if not self.ready: ...;
self.ready = True`, `if self.table is None: self.table = np.arange(n)`), which runs
once per object on purpose (a traced value stored there is still reported: it
escapes the first trace); functions traced only by `grad` or `vmap`, which run their
Python body on every call.

## Example
```python
steps = 0
history = []


@jax.jit
def step(w, x):
    global steps
    steps += 1
    lr = 0.1 / steps
    loss = jnp.sum((w - x) ** 2)
    history.append(loss)
    logger.info("loss %s", loss)
    return w - lr * x
```

## Use instead
```python
@jax.jit
def step(w, x, steps):
    lr = 0.1 / steps
    loss = jnp.sum((w - x) ** 2)
    jax.debug.print("loss {}", loss)
    return w - lr * x, loss


for x in batches:
    steps += 1
    w, loss = step(w, x, steps)
    history.append(loss)
```

## Fix safety
No fix: the value has to be returned from the traced function (or the effect moved
into `jax.debug.callback`), which changes the function's interface.

## Verify at runtime
`jaxlint probe recompile FILE.py:FUNC` calls the function once per case and shows
which calls compiled (`--format text` for a readable report): the side effect
happens with those calls only. tests/test_host_device_runtime.py checks this on JAX 0.12: a `global`
counter in a jitted function counts one after three calls, a global read after the
update keeps its trace-time value, and a tracer appended to an outside list raises
`UnexpectedTracerError` when used.
"""
    VALID = [
        EXAMPLES.valid("valid_self_x_init.py", note="self.x = ... in __init__", runs=True),
        EXAMPLES.valid(
            "valid_setup_reads_pretrained_weights.py",
            note="a file opened only to read constants in a Linen `setup` (jax-fid's"
            " pretrained Inception weights): read once at trace time, as meant; opened for"
            " appending, it is reported (`invalid_open_log_txt_fh.py`)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_nonlocal_of_a_traced_enclosing_function.py",
            note="a nonlocal of a traced enclosing function: set and read in one trace",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_setup_once_guarded_by_its_flag.py",
            note="a setup guarded by the flag it sets (`if not self.ready: ...; self.ready ="
            " True`), storing static values: once per object, on purpose",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_nnx_modules_nnx_jit_propagates.py",
            note="NNX modules: nnx.jit propagates state updates",
        ),
        EXAMPLES.valid(
            "valid_linen_modules_assign_submodules_setup.py",
            note="linen modules assign submodules in setup",
        ),
        EXAMPLES.valid(
            "valid_trace_time_logging_static_values.py",
            note="trace-time logging of static values; logging in host code",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_containers_local_traced_function.py",
            note="containers local to the traced function",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_recording_static_values_per_trace.py",
            note="recording static values per trace is deliberate",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_file_i_o_host_callback.py",
            note="file I/O in a host callback and in host code",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_grad_alone_runs_python_body.py",
            note="grad alone runs the Python body on every call",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_base_class_elsewhere_may_framework.py",
            note="a base class from elsewhere may be a framework module",
        ),
        EXAMPLES.valid(
            "valid_warn_once_flag_set_at_trace.py",
            note="a one-time warning's flag, set to a constant and read only in `if` tests: set"
            " at the first trace, which is what once means",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_global_assignment_host_code.py", note="global assignment in host code"
        ),
        EXAMPLES.valid(
            "valid_global_cache_filled_once.py",
            note="a global cache filled once under `if _sqrt is None:` with a static value"
            " (zlynx's optional scikit-learn import)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_write_only_counter_counts_traces.py",
            note="a write-only counter counts traces, as tests do on purpose",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_global_cache_filled_with_a_tracer.py",
            line=10,
            message_contains="the stored tracer escapes the trace",
            note="a cache under `if _scale is None:` filled with a traced value: reported",
        ),
        EXAMPLES.invalid(
            "invalid_global_in_loss_under_jit_of_grad.py",
            line=9,
            message_contains="jitted by `jax.jit` at line 12",
            note="`jax.jit(jax.grad(loss_fn))`: the global gets a tracer",
        ),
        EXAMPLES.invalid(
            "invalid_guarded_setup_stores_a_tracer.py",
            line=14,
            raises="UnexpectedTracerError",
            note="the guarded setup stores a tracer: it escapes the first trace",
        ),
        EXAMPLES.invalid(
            "invalid_open_log_txt_fh.py",
            line=6,
            column=10,
            message_contains="`open('log.txt', 'a')` runs once, when JAX traces `f` (jitted by `jax.jit` at line 4)",
        ),
        EXAMPLES.invalid(
            "invalid_logger_info_loss_s_loss.py", line=11, message_contains="it logs a tracer"
        ),
        EXAMPLES.invalid(
            "invalid_step_1.py",
            line=10,
            column=5,
            message_contains="assigning global `step` runs once, when JAX traces `update`"
            " (jitted by `jax.jit` at line 7), not on every call, and `update` uses the value",
        ),
        EXAMPLES.invalid(
            "invalid_tracer_stored_closure_variable.py",
            message_contains="assigning nonlocal `last`",
            note="a tracer stored in a closure variable",
        ),
        EXAMPLES.invalid(
            "invalid_leaked_append_x_2.py",
            line=9,
            message_contains="the stored tracer escapes the trace",
            raises="UnexpectedTracerError",
        ),
        EXAMPLES.invalid(
            "invalid_return_lax_scan_body_0_0.py", message_contains="storing into `seen`"
        ),
        EXAMPLES.invalid(
            "invalid_assert_m_calls_1.py",
            count=2,
            message_contains="`self.calls = ...` in jitted method `apply`",
        ),
        EXAMPLES.invalid(
            "invalid_f_string_formats_tracer.py", note="an f-string formats the tracer"
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._classes: list[cst.ClassDef] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def _owner(self, node: cst.CSTNode) -> TracedFunction | None:
        owner = self.ctx.trace.traced_function_of(node)
        return owner if owner is not None and owner.staging else None

    def _emit(
        self, node: cst.CSTNode, owner: TracedFunction, what: str, hint: str, extra: str = ""
    ) -> None:
        self.report(
            node,
            what=what,
            fn=owner.name,
            how=owner.how(self.ctx.trace.line_of),
            extra=extra,
            hint=hint,
        )

    # calls: open, logging, container mutators ---------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        func = node.func
        if qn is None and type(func) is not cst.Attribute:
            return
        owner = self._owner(node)
        if owner is None:
            return
        code = self.ctx.code
        if qn in ("builtins.open", "io.open", "pathlib.Path.open"):
            if _reads_only(node, qn):
                return  # reading constants (pretrained weights) once, at trace time
            self._emit(
                node,
                owner,
                f"`{_shown(code, node)}`",
                "do file I/O outside the traced function, or in `jax.debug.callback`",
            )
            return
        if self._is_logging(node, qn):
            for arg in node.args:
                if self._traced_inside(arg.value) is not None:
                    self._emit(
                        node,
                        owner,
                        f"`{_shown(code, node)}`",
                        "it logs a tracer, not the value; use `jax.debug.print` or log"
                        " outside the traced function",
                    )
                    return
            return
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in _MUTATORS
            and isinstance(func.value, cst.Name)
        ):
            outside = self._outside_container(func.value, owner)
            if outside is None:
                return
            for arg in node.args:
                if self._traced_inside(arg.value) is not None:
                    self._emit(
                        node,
                        owner,
                        f"`{_shown(code, node)}` on `{func.value.value}` (defined outside `{owner.name}`)",
                        "return the values instead",
                        extra=", and the stored tracer escapes the trace",
                    )
                    return

    def _is_logging(self, node: cst.Call, qn: str | None) -> bool:
        if qn is not None:
            return qn.startswith(_LOGGING_MODULES) and qn.rsplit(".", 1)[-1] in LOG_METHODS
        func = node.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value in LOG_METHODS
            and isinstance(func.value, cst.Name)
        ):
            return False
        found = self.model.lookup(func.value.value, self.model.scope_for(func.value))
        if found is None:
            return False
        for binding in found[1]:
            value = self._value_of_binding(binding.node) if binding.kind == "assign" else None
            if not isinstance(value, cst.Call):
                return False
            vq = self.model.call_name(value)
            if vq not in ("logging.getLogger", "absl.logging.get_absl_logger"):
                return False
        return True

    def _outside_container(self, name: cst.Name, owner: TracedFunction) -> Scope | None:
        """The scope defining ``name`` as a list/dict/set, when it is outside every
        traced function (module level or a host function)."""
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None:
            return None
        scope, bindings = found
        trace = self.ctx.trace
        s: Scope | None = scope
        while s is not None:
            if s.kind in ("function", "lambda") and trace.info(s.node) is not None:
                return None
            if s.kind == "class":
                return None
            s = s.parent
        for binding in bindings:
            if binding.kind != "assign":
                return None
            value = self._value_of_binding(binding.node)
            if value is None:
                return None
            if isinstance(
                value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
            ):
                continue
            if isinstance(value, cst.Call) and self.model.call_name(value) in _CONTAINER_CALLS:
                continue
            return None
        return scope

    # assignments: global/nonlocal names, outside containers, self attributes ----------------

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._assignment(node, target.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assignment(node, node.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._assignment(node, node.target, node.value)


def _reads_only(call: cst.Call, qn: str) -> bool:
    """``open(path)``, ``open(path, "rb")``: a literal mode (or none) that neither writes,
    appends, creates nor updates."""
    position = 0 if qn == "pathlib.Path.open" else 1
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keyword = [a for a in call.args if a.keyword is not None and a.keyword.value == "mode"]
    if any(a.star for a in call.args):
        return False
    mode = (
        keyword[0].value
        if keyword
        else (positional[position].value if len(positional) > position else None)
    )
    if mode is None:
        return True
    if type(mode) is not cst.SimpleString:
        return False
    return not set(mode.evaluated_value) & set("wax+")
