"""JAX405 donated-buffer-reuse: a variable read again after it was donated to a jitted
function, whose call deleted its buffers (RuntimeError)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from jaxlint.analysis.names import Binding, Scope
from jaxlint.analysis.transforms import ARRAY_ATTRIBUTES, STATIC_ATTRIBUTES
from jaxlint.analysis.walk import BLOCK_EXITS
from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.compilation.helpers import COMPREHENSIONS, Jitted, Queries, short

EXAMPLES = Examples(__file__)

_READ = "read"
_STOP = "stop"
"""Rebound (or possibly rebound) or deleted: later reads may see another value."""
_EXIT = "exit"
"""``return``, ``raise``, ``break``, ``continue``: this path goes elsewhere."""
_FALL = "fall"

_DELETES_DONATED = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})
"""``flax.nnx.jit`` writes the new state back into donated modules and variables."""
_METADATA = STATIC_ATTRIBUTES | {"is_deleted", "delete", "devices", "committed", "format"}
"""Attributes readable on a deleted array (checked on jax 0.12: shape, dtype, sharding,
is_deleted() work; the data does not)."""
_METADATA_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.type",
        "builtins.id",
        "builtins.callable",
        "builtins.hasattr",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.typeof",
        "numpy.shape",
        "numpy.ndim",
    }
)
"""Calls that read only metadata (``len(x)`` and ``jnp.shape(x)`` work on a deleted
array; ``str(x)`` and ``repr(x)`` do not)."""


class DonatedBufferReuse(Queries, Rule):
    code = "JAX405"
    name = "donated-buffer-reuse"
    message = "`{name}` {problem}; {advice}"
    fix_availability = "none"
    probe = "jaxlint probe bench FILE.py:FUNC"
    confirmed_by = (Raises("RuntimeError", message_startswith="Array has been deleted"),)
    docs = """\
## What it does
Flags a variable passed in a donated position of a jitted function
(`donate_argnums`/`donate_argnames` on `@jax.jit`, `@partial(jax.jit, ...)`,
`jax.jit(f, ...)`, `jax.pmap`) and then read again in the same function without
being rebound: later in the code (in any branch), or on the next iteration of the
loop that contains the call when the loop never rebinds it.

It stays silent when the variable is rebound from the result
(`state = step(state, batch)`, `state, metrics = step(state, batch)`), deleted,
or only its metadata is read (`x.shape`, `x.dtype`, `len(x)`, `x.is_deleted()`),
when it is a NumPy array or a Python literal (JAX donates its own device copy),
on attribute reads of a value that may be a pytree with static fields
(`state.apply_fn`), and where the call runs while an outer `jit` traces (in a jitted
function, or a helper that jitted code calls): donation applies to an eager call
only, and under a trace there is no buffer to delete (checked on JAX 0.12: the
argument is not deleted and reading it again works). `flax.nnx.jit` is not covered: it writes the new state back
into the donated modules and variables, so reading them afterwards is how NNX is
used.

## Why is this bad
Donation lets XLA reuse the argument's memory for the output, and JAX deletes the
donated array. CPU honours donation too (checked on JAX 0.12: no warning, and
`x.is_deleted()` is `True` after the call). Any later use of the data, such as
arithmetic, printing, `np.asarray`, or passing it to the jitted function again, raises
`RuntimeError: Array has been deleted with shape=float32[3].` (When XLA cannot
reuse the buffer, for instance because no output has its shape, JAX warns "Some
donated buffers were not usable" and keeps the array: then the donation was
useless.)

## Example
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w, g):
    return w - 0.1 * g

w = jnp.ones(3)
new_w = update(w, jnp.ones(3))
print(w.sum())
```

## Use instead
```python
from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w, g):
    return w - 0.1 * g

w = jnp.ones(3)
w = update(w, jnp.ones(3))
print(w.sum())
```

## Fix safety
No automatic fix: whether the code meant the old value (then it must not donate
it, or must copy it first) or the new one (then it should read the result) is a
decision for the author.

## Verify at runtime
`jaxlint probe bench FILE.py:FUNC` runs the function the finding is in (compiling
never runs the code, so it cannot show a deleted buffer being read): its first call
fails with `RuntimeError: Array has been deleted`, exit code 3, and the probe names
JAX405 (the finding on the failing line). A finding in module-level code has no
command: no probe runs a module's top level.
`jaxlint probe compile FILE.py:FUNC --donate-argnums 0` shows which input leaves a
compiled program donates.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_fix_rebound_result.py", note="the fix: rebound from the result", runs=True
        ),
        EXAMPLES.valid(
            "valid_rebound_result_every_iteration_tuple.py",
            note="rebound from the result on every iteration (tuple target)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_reads_before_call_only_metadata.py",
            note="reads before the call; only metadata after it",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_numpy_input_jax_donates_own.py",
            note="a NumPy input: JAX donates its own device copy",
            runs=True,
        ),
        EXAMPLES.valid("valid_only_g_donated.py", note="only g is donated", runs=True),
        EXAMPLES.valid(
            "valid_attribute_possible_pytree_may_static.py",
            note="an attribute of a possible pytree may be static metadata",
        ),
        EXAMPLES.valid(
            "valid_read_other_branch.py", note="the read is in the other branch", runs=True
        ),
        EXAMPLES.valid(
            "valid_loop_exits_after_call_second.py",
            note="the loop exits after the call: no second iteration",
            runs=True,
        ),
        EXAMPLES.valid("valid_donation.py", note="no donation", runs=True),
        EXAMPLES.valid(
            "valid_donated_inside_outer_jit.py",
            note="the donating call runs while the outer jit traces: nothing is deleted",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_nnx_jit_updates_donated_modules.py",
            note="nnx.jit updates donated modules in place",
        ),
        EXAMPLES.valid(
            "valid_new_array_loop_target_each.py",
            note="a new array from the loop target each iteration; a closure that is never called",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_print_w_sum.py",
            line=12,
            column=7,
            raises="RuntimeError",
            message_contains="`w` is read after it was donated to `update` at line 11",
        ),
        EXAMPLES.invalid(
            "invalid_new_state_train_step_state_x.py",
            line=11,
            column=32,
            raises="RuntimeError",
            message_contains=(
                "`state` is donated to `train_step` on every iteration of the loop at line 10 "
                "but never rebound"
            ),
        ),
        EXAMPLES.invalid(
            "invalid_donate_argnames_passed_keyword.py",
            line=11,
            column=15,
            raises="RuntimeError",
            note="donate_argnames, passed by keyword",
        ),
        EXAMPLES.invalid(
            "invalid_inline_jit.py", line=6, raises="RuntimeError", note="an inline jit"
        ),
        EXAMPLES.invalid(
            "invalid_read_one_branch.py",
            line=13,
            raises="RuntimeError",
            note="a read in one branch",
        ),
        EXAMPLES.invalid(
            "invalid_donated_twice.py",
            line=11,
            column=33,
            raises="RuntimeError",
            note="donated twice",
        ),
        EXAMPLES.invalid(
            "invalid_jitted_method_donate_argnums_counts.py",
            line=13,
            column=22,
            message_contains="donated to `self.step`",
            note="a jitted method: donate_argnums counts self",
        ),
        EXAMPLES.invalid(
            "invalid_conditional_break_does_end_loop.py",
            line=12,
            column=18,
            raises="RuntimeError",
            message_contains="on every iteration of the loop at line 11",
            note="a conditional break does not end the loop on every path",
        ),
        EXAMPLES.invalid(
            "invalid_call_if_header_inside_block.py",
            line=14,
            column=7,
            raises="RuntimeError",
            note="a call in an if header, inside a with block",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        jitted = self.jitted_call(node)
        if jitted is None or jitted.transform not in _DELETES_DONATED:
            return
        donated = jitted.chosen(("donate_argnums",), "donate_argnames")
        if not donated:
            return
        outer = self.ctx.trace.traced_function_of(node)
        if outer is not None and outer.staging:
            return  # called while an outer jit traces: nothing is donated (no buffer exists)
        for arg, param in jitted.argument_params(node):
            if param not in donated or not isinstance(arg.value, cst.Name):
                continue
            self._check(node, arg.value, jitted)

    # -- one donated variable --------------------------------------------------------------

    def _check(self, call: cst.Call, name: cst.Name, jitted: Jitted) -> None:
        model = self.ctx.model
        found = model.lookup(name.value, model.scope_for(name))
        if found is None:
            return
        scope = found[0]
        if model.scope_for(name) is not scope or self._host_value(found[1]):
            return
        val = self.ctx.trace.value(name)
        array = val is not None and val.array
        stmt = self._statement(call)
        if stmt is None:
            return
        fn = short(self.ctx.code(call.func), 30)
        scan = _Scan(self, name.value, scope, array)
        status, read, loop = scan.after_call(call, stmt)
        if status == _READ and read is not None:
            line = self.ctx.positions[call].start.line  # only for a finding: a codegen
            self.report(
                read,
                name=name.value,
                problem=(
                    f"is read after it was donated to `{fn}` at line {line}: the call deleted "
                    'its buffers, so this raises RuntimeError ("Array has been deleted")'
                ),
                advice=f"read the call's result instead, or rebind `{name.value}` from it",
            )
        elif loop is not None:
            loop_line = self.ctx.positions[loop].start.line
            self.report(
                name,
                name=name.value,
                problem=(
                    f"is donated to `{fn}` on every iteration of the loop at line {loop_line} "
                    "but never rebound in it: from the second iteration on, the call gets a "
                    'deleted array (RuntimeError "Array has been deleted")'
                ),
                advice=f"rebind it from the result (`{name.value} = {fn}(...)`)",
            )

    def _host_value(self, bindings: list[Binding]) -> bool:
        """Every binding gives a NumPy array or a Python literal: JAX donates a copy."""
        values = []
        for b in bindings:
            if b.kind != "assign":
                return False
            value = self.index.assigned.get(id(b.node))
            if value is None:
                return False
            values.append(value)
        for value in values:
            if isinstance(
                value, (cst.Integer, cst.Float, cst.SimpleString, cst.List, cst.Tuple, cst.Dict)
            ):
                continue
            if isinstance(value, cst.Call):
                qn = self.ctx.model.call_name(value)
                if qn is not None and qn.startswith("numpy."):
                    continue
            return False
        return True

    def _statement(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The statement that evaluates ``node``, in the same scope."""
        for _, parent in self.index.ancestors(node):
            if isinstance(parent, (cst.Lambda, *COMPREHENSIONS, cst.FunctionDef, cst.ClassDef)):
                return None
            if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                return parent
        return None


class _Scan:
    """Where a donated variable is next read, along the code that runs after the call."""

    def __init__(self, rule: DonatedBufferReuse, name: str, scope: Scope, array: bool) -> None:
        self.rule = rule
        self.index = rule.index
        self.model = rule.ctx.model
        self.name = name
        self.scope = scope
        self.array = array

    # -- entry -----------------------------------------------------------------------------

    def after_call(
        self, call: cst.Call, stmt: cst.CSTNode
    ) -> tuple[str, cst.CSTNode | None, cst.CSTNode | None]:
        """(status, the read, a loop whose next iteration reads the donated value)."""
        status, read = self._rest_of_statement(call, stmt)
        if status != _FALL:
            return status, read, None
        if isinstance(stmt, cst.BaseCompoundStatement):
            # the call is in the header: the body runs next
            status, read = self._header_body(stmt)
            if status != _FALL:
                return status, read, None
        loop_hit: cst.CSTNode | None = None
        node: cst.CSTNode = stmt
        while True:
            parent = self.index.parent.get(id(node))
            if isinstance(parent, cst.SimpleStatementLine):
                siblings = list(parent.body)
                status, read = self._smalls(siblings[siblings.index(node) + 1 :])
                if status != _FALL:
                    return status, read, loop_hit
                node = parent
                continue
            if isinstance(parent, (cst.IndentedBlock, cst.Module)):
                body = list(parent.body)
                status, read = self._stmts(body[body.index(node) + 1 :])
                if status != _FALL:
                    return status, read, loop_hit
                owner = (
                    self.index.parent.get(id(parent))
                    if isinstance(parent, cst.IndentedBlock)
                    else None
                )
                if owner is None or isinstance(owner, (cst.FunctionDef, cst.ClassDef)):
                    return _FALL, None, loop_hit
                node, extra, loop = self._leave_block(owner, parent, node)
                if loop_hit is None and loop is not None:
                    loop_hit = loop
                if extra is not None:
                    status, read = extra
                    if status != _FALL:
                        return status, read, loop_hit
                continue
            return _FALL, None, loop_hit

    def _rest_of_statement(
        self, call: cst.Call, stmt: cst.CSTNode
    ) -> tuple[str, cst.CSTNode | None]:
        """Reads later in the statement that contains the call, then its own rebinding."""
        end = self.rule.ctx.positions[call].end
        for _, parent in self.index.ancestors(call):
            if parent is stmt:
                break
            if isinstance(parent, (cst.IfExp, cst.BooleanOperation)):
                return _STOP, None  # evaluation order depends on a condition
        header = stmt
        if isinstance(stmt, cst.BaseCompoundStatement):
            header = self._header_of(stmt, call)
            if header is None:
                return _STOP, None
        for node in self._reads(header):
            pos = self.rule.ctx.positions[node].start
            if (pos.line, pos.column) >= (end.line, end.column):
                return _READ, node
        if isinstance(stmt, cst.BaseSmallStatement):
            if isinstance(stmt, (cst.Return, cst.Raise)):
                return _STOP, None
            if self._binds_small(stmt):
                return _STOP, None
        if isinstance(stmt, cst.While):
            return _STOP, None  # the test runs again: too subtle to follow
        return _FALL, None

    def _header_of(self, stmt: cst.BaseCompoundStatement, call: cst.Call) -> cst.CSTNode | None:
        parts: list[cst.CSTNode] = []
        if isinstance(stmt, cst.If):
            parts = [stmt.test]
        elif isinstance(stmt, cst.For):
            parts = [stmt.iter]
        elif isinstance(stmt, cst.With):
            parts = [item.item for item in stmt.items]
        elif isinstance(stmt, cst.Match):
            parts = [stmt.subject]
        for part in parts:
            if part is call or self.index.inside(call, part):
                return part
        return None

    def _header_body(self, stmt: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        if isinstance(stmt, cst.If):
            return self._if_branches(stmt)
        if isinstance(stmt, cst.For):
            if self._binds_target(stmt.target):
                return _STOP, None
            status, read = self._stmts(stmt.body.body)
            return (
                (status, read)
                if status == _READ
                else (_STOP, None)
                if status == _STOP
                else (_FALL, None)
            )
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                if item.asname is not None and self._binds_target(item.asname.name):
                    return _STOP, None
            return self._stmts(stmt.body.body)
        return _STOP, None

    # -- leaving a block -------------------------------------------------------------------

    def _leave_block(
        self, owner: cst.CSTNode, block: cst.CSTNode, stmt: cst.CSTNode
    ) -> tuple[cst.CSTNode, tuple[str, cst.CSTNode | None] | None, cst.CSTNode | None]:
        """After the last statement of ``block``: the statement to continue after, what
        runs in between (else/finally blocks), and a loop that comes round again."""
        if isinstance(owner, cst.Else):
            owner = self.index.parent.get(id(owner)) or owner
        if isinstance(owner, (cst.If,)):
            top = owner
            while isinstance(self.index.parent.get(id(top)), cst.If):
                top = self.index.parent.get(id(top))  # type: ignore[assignment]
            return top, None, None
        if isinstance(owner, (cst.For, cst.While)):
            loop = None
            if (
                block is owner.body
                and not self._loop_rebinds(owner)
                and not self._exits_after(block, stmt)
            ):
                loop = owner
            extra = None
            if owner.orelse is not None:
                extra = self._stmts(owner.orelse.body.body)
            return owner, extra, loop
        if isinstance(owner, cst.Try):
            extra = None
            parts: list[Sequence[cst.BaseStatement]] = []
            if block is owner.body and owner.orelse is not None:
                parts.append(owner.orelse.body.body)
            if owner.finalbody is not None and block is not owner.finalbody.body:
                parts.append(owner.finalbody.body.body)
            for part in parts:
                extra = self._stmts(part)
                if extra[0] != _FALL:
                    break
            return owner, extra, None
        if isinstance(owner, (cst.ExceptHandler, cst.Finally)):
            try_node = self.index.parent.get(id(owner))
            extra = None
            if (
                isinstance(owner, cst.ExceptHandler)
                and isinstance(try_node, cst.Try)
                and try_node.finalbody is not None
            ):
                extra = self._stmts(try_node.finalbody.body.body)
            return try_node or owner, extra, None
        if isinstance(owner, cst.MatchCase):
            return self.index.parent.get(id(owner)) or owner, None, None
        return owner, None, None

    def _loop_rebinds(self, loop: cst.For | cst.While) -> bool:
        if isinstance(loop, cst.For) and self._binds_target(loop.target):
            return True
        for node in self.index.nodes_in(loop):
            if isinstance(node, cst.Name) and node.value == self.name:
                found = self.model.lookup(node.value, self.model.scope_for(node))
                if found is None or found[0] is not self.scope:
                    continue
                if any(b.node is node for b in found[1]):
                    return True
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.name.value == self.name:
                return True
        return False

    def _exits_after(self, block: cst.CSTNode, stmt: cst.CSTNode) -> bool:
        body = list(getattr(block, "body", ()))
        if stmt not in body:
            return False
        for later in body[body.index(stmt) :]:
            if isinstance(later, cst.SimpleStatementLine) and any(
                isinstance(s, (cst.Return, cst.Raise, cst.Break)) for s in later.body
            ):
                return True
        return False

    # -- scanning statements ---------------------------------------------------------------

    def _stmts(self, stmts: Sequence[cst.CSTNode]) -> tuple[str, cst.CSTNode | None]:
        for stmt in stmts:
            status, read = self._stmt(stmt)
            if status != _FALL:
                return status, read
        return _FALL, None

    def _smalls(self, smalls: Sequence[cst.CSTNode]) -> tuple[str, cst.CSTNode | None]:
        for small in smalls:
            status, read = self._small(small)
            if status != _FALL:
                return status, read
        return _FALL, None

    def _stmt(self, stmt: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        if isinstance(stmt, cst.SimpleStatementLine):
            return self._smalls(stmt.body)
        if isinstance(stmt, cst.If):
            read = self._first_read(stmt.test)
            if read is not None:
                return _READ, read
            return self._if_branches(stmt)
        if isinstance(stmt, (cst.For, cst.While)):
            head = stmt.iter if isinstance(stmt, cst.For) else stmt.test
            read = self._first_read(head)
            if read is not None:
                return _READ, read
            if isinstance(stmt, cst.For) and self._binds_target(stmt.target):
                return _STOP, None
            status, read = self._stmts(stmt.body.body)
            if status == _READ:
                return status, read
            if status == _STOP or self._loop_rebinds(stmt):
                return _STOP, None
            if stmt.orelse is not None:
                return self._stmts(stmt.orelse.body.body)
            return _FALL, None
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                read = self._first_read(item.item)
                if read is not None:
                    return _READ, read
                if item.asname is not None and self._binds_target(item.asname.name):
                    return _STOP, None
            return self._stmts(stmt.body.body)
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            blocks = [stmt.body.body, *(h.body.body for h in stmt.handlers)]
            if stmt.orelse is not None:
                blocks.append(stmt.orelse.body.body)
            if stmt.finalbody is not None:
                blocks.append(stmt.finalbody.body.body)
            stop = False
            for block in blocks:
                status, read = self._stmts(block)
                if status == _READ:
                    return status, read
                stop = stop or status == _STOP
            return (_STOP, None) if stop else (_FALL, None)
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            for dec in stmt.decorators:
                read = self._first_read(dec.decorator)
                if read is not None:
                    return _READ, read
            if stmt.name.value == self.name:
                return _STOP, None
            return _FALL, None
        if isinstance(stmt, cst.Match):
            read = self._first_read(stmt.subject)
            if read is not None:
                return _READ, read
            stop = False
            for case in stmt.cases:
                status, read = self._stmts(case.body.body)
                if status == _READ:
                    return status, read
                stop = stop or status == _STOP
            return (_STOP, None) if stop else (_FALL, None)
        return _FALL, None

    def _if_branches(self, stmt: cst.If) -> tuple[str, cst.CSTNode | None]:
        outcomes = [self._stmts(stmt.body.body)]
        if isinstance(stmt.orelse, cst.If):
            outcomes.append(self._stmt(stmt.orelse))
        elif isinstance(stmt.orelse, cst.Else):
            outcomes.append(self._stmts(stmt.orelse.body.body))
        else:
            outcomes.append((_FALL, None))
        for status, read in outcomes:
            if status == _READ:
                return status, read
        if any(status == _STOP for status, _ in outcomes):
            return _STOP, None  # rebound on some paths: later reads are uncertain
        if all(status == _EXIT for status, _ in outcomes):
            return _EXIT, None
        return _FALL, None  # the paths that go on have left the value alone

    def _small(self, small: cst.CSTNode) -> tuple[str, cst.CSTNode | None]:
        read = self._first_read(small, skip_targets=True)
        if read is not None:
            return _READ, read
        if isinstance(small, cst.AugAssign) and self._is_ours(small.target):
            return _READ, small.target
        if isinstance(small, BLOCK_EXITS):
            return _EXIT, None
        if self._binds_small(small):
            return _STOP, None
        return _FALL, None

    def _binds_small(self, small: cst.CSTNode) -> bool:
        if isinstance(small, cst.Assign):
            return any(self._binds_target(t.target) for t in small.targets)
        if isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            return self._binds_target(small.target)
        if isinstance(small, cst.Del):
            return self._binds_target(small.target)
        if isinstance(small, (cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)):
            return any(
                isinstance(n, cst.Name) and n.value == self.name for n in self.index.nodes_in(small)
            ) or isinstance(small, (cst.Import, cst.ImportFrom))
        return False

    def _binds_target(self, target: cst.BaseExpression) -> bool:
        if isinstance(target, cst.Name):
            return target.value == self.name
        if isinstance(target, (cst.Tuple, cst.List)):
            return any(self._binds_target(el.value) for el in target.elements)
        if isinstance(target, cst.StarredElement):
            return self._binds_target(target.value)
        return False

    # -- reads -----------------------------------------------------------------------------

    def _is_ours(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, cst.Name) or node.value != self.name:
            return False
        found = self.model.lookup(node.value, self.model.scope_for(node))
        if found is None or found[0] is not self.scope:
            return False
        scope: Scope | None = self.model.scope_for(node)
        while scope is not None and scope is not self.scope:
            if scope.kind in ("lambda", "function", "class"):
                return False  # runs later, if at all
            scope = scope.parent
        return True

    def _reads(self, root: cst.CSTNode, skip_targets: bool = False) -> Iterator[cst.Name]:
        targets: list[cst.CSTNode] = []
        if skip_targets and isinstance(root, cst.Assign):
            targets = [t.target for t in root.targets]
        elif skip_targets and isinstance(root, (cst.AnnAssign, cst.AugAssign, cst.Del)):
            targets = [root.target]
        for node in self.index.nodes_in(root):
            if not self._is_ours(node):
                continue
            if any(node is t or self.index.inside(node, t) for t in targets):
                continue
            assert isinstance(node, cst.Name)
            if self._metadata_only(node):
                continue
            yield node

    def _first_read(self, root: cst.CSTNode, skip_targets: bool = False) -> cst.Name | None:
        return next(self._reads(root, skip_targets), None)

    def _metadata_only(self, name: cst.Name) -> bool:
        """A use that does not touch the deleted buffers (or may not)."""
        parent = self.index.parent.get(id(name))
        if isinstance(parent, cst.Arg):
            if parent.keyword is name:
                return True
            call = self.index.parent.get(id(parent))
            if isinstance(call, cst.Call) and self.model.call_name(call) in _METADATA_CALLS:
                return True
        if isinstance(parent, cst.Attribute) and parent.value is name:
            attr = parent.attr.value
            if attr in _METADATA:
                return True
            # ``state.apply_fn``: an attribute of a pytree may be static metadata
            return not self.array and attr not in ARRAY_ATTRIBUTES
        if isinstance(parent, cst.Comparison):
            return any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons)
        return False
