"""JAX102 host-sync-in-loop: a host loop that converts a jitted call's result to a host
value on every iteration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.trips import rare_test
from jaxlint.rules.base import Examples, HostSyncEveryRun, Rule
from jaxlint.rules.host_device.helpers import walk
from jaxlint.rules.host_device.host_sync_in_loop_analysis import HostSyncInLoopChecks

if TYPE_CHECKING:
    from jaxlint.engine import FileContext


EXAMPLES = Examples(__file__)


VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_host_environment_feeds_the_policy.py",
        note="the action goes to a host environment whose observation is the policy's next"
        " input: the device needs the host's answer every step",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_host_simulator_runs_planned_actions.py",
        note="the plan goes to a host simulator whose other rollout gives the encoder's"
        " input: the host runs each plan (xwm's closed-loop planning)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_explicit_wait_to_time_each_call.py",
        note="a result waited for explicitly each iteration (to time it), then printed",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_elif_test_runs_sometimes.py",
        note="an `elif` test runs only when the `if` before it fails (every 10 steps here)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_one_conversion_after_loop.py", note="one conversion after the loop", runs=True
    ),
    EXAMPLES.valid(
        "valid_logging_every_n_steps_under.py",
        note="logging every N steps under an if",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_accumulated_device_fetched_once.py",
        note="accumulated on device, fetched once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_once_per_epoch_after_inner.py",
        note="once per epoch, after the inner training loop",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_loop_over_literal_list_few.py",
        note="a loop over a literal list of a few settings",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_metadata_result_value_computed_before.py",
        note="metadata of the result, and a value computed before the loop",
        runs=True,
    ),
    EXAMPLES.valid("valid_callee_known_jitted.py", note="the callee is not known to be jitted"),
    EXAMPLES.valid(
        "valid_loop_inside_traced_code_host.py",
        note="a loop inside traced code is not a host loop",
    ),
    EXAMPLES.valid(
        "valid_waiting_without_copying_host_user.py",
        note="waiting without copying to the host is the user's explicit choice",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_checks_every_step_value.py",
        note="a test checks every step: the value is needed on the host",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_unknown_outermost_decorator_decides_what.py",
        note="an unknown outermost decorator decides what the call returns",
    ),
    EXAMPLES.valid(
        "valid_epoch_inside_jitted_scan.py",
        note="the jitted callee runs a whole epoch in `lax.scan`: one sync per epoch",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_epoch_fori_loop_in_helper.py",
        note="`jax.jit(run_epoch)` loops with `fori_loop` in a helper it calls",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_walk_over_settings_items.py",
        note="a walk over a settings mapping's `.items()`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_walk_over_config_constant.py",
        note="`enumerate` of a module constant bound to a literal tuple",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_walk_over_config_attribute.py",
        note="a loop over a configuration attribute (`cfg.model_sizes`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_eval_pass_every_n_steps.py",
        note="a loop over eval batches under `if step % 100 == 0:`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_eval_pass_every_n_steps_or_first.py",
        note="`if step % N == 0 or step == 1:`: a counter equal to one number is true once"
        " (nano-moe-jax's eval pass)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_report_after_continue_guard.py",
        note="a report after `if (step + 1) % 250 != 0: continue`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_eval_once_per_epoch.py",
        note="an epoch loop around the step loop evaluates once per epoch",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_collects_values_in_loop.py",
        note="in a test file, a helper collects per-step values to compare (test policy)",
        filename="tests/test_training.py",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_function_outside_test_file.py",
        note="a `test_*` function checks every step's value (test policy)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_short_literal_loop.py",
        note="a tutorial's 50 steps, printed: the code bounds the loop to a few dozen syncs",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_short_sweep_over_arange.py",
        note="a scan over 37 angles of `jnp.arange(0, 181, STEP)`: a short sweep",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_epoch_call_beside_metric.py",
        note="each iteration runs a whole epoch (`update_epoch` scans the batches): the "
        "metric is once per epoch (jax-md's neural_networks example)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_conversion_after_and_in_if_test.py",
        note="`if not pending and bool(finished):` converts only when nothing is pending "
        "(jaxns distributed_core.py)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_benchmark_loop_measures_sync.py",
        note="a registered benchmark repeats the sync it measures (jax's api_benchmark.py)",
    ),
    EXAMPLES.valid(
        "valid_check_that_raises.py",
        note="`if not bool(ok): raise ...` is an assertion: it needs the value every step",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_while_test_reads_step_result.py",
        note="the `while` test needs the step's temperature to go on (jimgw's adaptive"
        " tempering): the wait is the loop's own logic; the body's copies of that step's"
        " results add none",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_break_test_reads_step_result.py",
        note="an `if ...: break` convergence test needs the residual every step; logging the"
        " same residual adds no sync",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_early_stopping_if_test.py",
        note="an early-stopping test decides whether the loop goes on",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_while_condition_float.py",
        note="a `while` condition on the loss decides whether the loop goes on",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_conversion_before_and_in_if_test.py",
        note="`if bool(finished) and not pending: return` decides whether the loop goes on",
    ),
    EXAMPLES.valid(
        "valid_patience_early_stop_through_host_value.py",
        note="`float(loss)` feeds a patience counter whose test breaks the loop (bunobee's MAP"
        " fit, ace-jax's L-BFGS acceptance, jaxonomy's Newton test: fresh-2026-12l)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_eval_loop_item_per_batch.py",
        note="a pass over eval batches with fixed parameters: the iterations are independent,"
        " a walk over data, not a chain of steps",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_exit_test_every_n_steps.py",
        note="the convergence test runs every 100 steps (`step % 100 == 0 and ...`)",
        runs=True,
    ),
]
INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_loss_logged_beside_host_loader.py",
        line=27,
        note="a host loader feeds the step, but the loss goes to a logger, which gives the"
        " device nothing",
    ),
    EXAMPLES.invalid(
        "invalid_host_call_result_not_fed_back.py",
        line=20,
        note="a host call whose result never goes back to the device (a log line)",
    ),
    EXAMPLES.invalid(
        "invalid_nnx_step_updates_model_in_place.py",
        line=22,
        message_contains="`loss.item()` in `for batch in batches` waits for `train_step`",
        note="an `nnx.jit` step updates the model it is given in place: a chain of steps"
        " with nothing reassigned",
    ),
    EXAMPLES.invalid(
        "invalid_exit_test_reads_only_the_counter.py",
        line=17,
        message_contains="`float(loss)` in `for _ in range(n_iter)` waits for `step`",
        note="the exit test reads a count the host already has: the history's per-step copy"
        " could be fetched after the loop",
    ),
    EXAMPLES.invalid(
        "invalid_read_of_other_value_than_while_test.py",
        line=30,
        message_contains="waits for `spread_of`",
        note="the `while` test waits for `adaptive_step`, not for `spread_of`: a sync of its own",
    ),
    EXAMPLES.invalid(
        "invalid_history_append_loss_item.py",
        line=15,
        column=24,
        message_contains=(
            "`loss.item()` in `for batch in batches` waits for `train_step` and copies"
            " `loss` to the host"
        ),
    ),
    EXAMPLES.invalid("invalid_total_float_params_loss.py", message_contains="waits for `step`"),
    EXAMPLES.invalid(
        "invalid_print_f_step_i_loss_4f.py",
        line=13,
        message_contains="`print(f'step {i}: {loss:.4f}')`",
    ),
    EXAMPLES.invalid("invalid_preds_append_np_asarray_out.py"),
    EXAMPLES.invalid("invalid_while_loop_pmap.py", note="a while loop, pmap"),
    EXAMPLES.invalid(
        "invalid_inside_block_through_array_method.py",
        note="inside a with block, through an array method",
    ),
    EXAMPLES.invalid("invalid_return_state.py", message_contains="waits for `self.step`"),
    EXAMPLES.invalid(
        "invalid_direct_jitted_call_converted_same.py",
        note="a direct jitted call converted in the same statement",
        message_contains="waits for `jax.jit(step)` and copies its result",
    ),
    EXAMPLES.invalid(
        "invalid_full_batch_step_per_epoch.py",
        line=16,
        column=19,
        note="full-batch training: an 'epoch' is one step of a callee that does not loop",
        message_contains=(
            "`float(loss)` in `for epoch in range(1000)` waits for `step` and copies"
            " `loss` to the host"
        ),
    ),
    EXAMPLES.invalid(
        "invalid_metrics_items_every_step.py",
        line=16,
        note="a walk over the step's metrics runs on every step",
        message_contains="`float(value)` in `for step in range(1000)`",
    ),
    EXAMPLES.invalid(
        "invalid_continue_skips_only_every_nth.py",
        line=16,
        note="`if step % 100 == 0: continue` skips one step in 100, the rest sync",
    ),
    EXAMPLES.invalid(
        "invalid_per_step_sync_beside_eval_pass.py",
        line=21,
        count=1,
        note="the eval pass under `if step % 100 == 0:` is rare; `float(loss)` is per step",
        message_contains="`float(loss)` in `for step in range(500)`",
    ),
    EXAMPLES.invalid(
        "invalid_short_inner_loop_in_long_run.py",
        line=16,
        note="50 steps per epoch, but the epochs are not bounded: still a sync per step",
        message_contains="`float(loss)` in `for step in range(50)`",
    ),
]


class HostSyncInLoop(HostSyncInLoopChecks, Rule):
    code = "JAX102"
    name = "host-sync-in-loop"
    default_enabled = True
    message = (
        "`{conversion}` in `{loop}` waits for `{callee}`{evidence} and copies {value} to the host on"
        " every iteration: one blocking device sync per step; {advice}"
    )
    fix_availability = "none"
    probe = "jaxlint probe syncs FILE.py:FUNC --line LINE"
    confirmed_by = (HostSyncEveryRun(),)  # the finding's line reads a device array every run
    docs = """\
## What it does
Flags, in host code (outside any traced function), a Python `for` or `while` loop
of steps (a chain: a jitted call of the loop takes what a jitted call of the loop
returned, as in `state, loss = train_step(state, batch)`, or an `nnx.jit` function
updates the modules it is given in place) that calls a jitted function and, on every
iteration, converts that call's result to a host value: `.item()`, `.tolist()`, `float()`/`int()`/`bool()`/`complex()`,
`np.asarray`/`np.array` (any converting NumPy function), `jax.device_get`,
`str()`/`repr()`/`format()`, an f-string field, or `print` of the array. A jitted
function is one the module shows as such: `@jax.jit` (also `pjit`, `pmap`,
`nnx.jit`, `eqx.filter_jit`, `partial(jax.jit, ...)`), `step = jax.jit(f)`,
`self.step = jax.jit(...)` or `jax.jit(f)(x)`, or a function imported from another
module of the project that module shows as jitted (the message then says where:
``waits for `train_step` (jitted at train/step.py:12)``; see "Project-wide
analysis" in docs/design.md). The message names the loop, the conversion, the
jitted function and the value it copies. The test of an `if` in the loop body
runs on every iteration and counts; an `elif` test, the branches, and what follows
`and`/`or` in an `if` test (`if not pending and bool(done):` is `if not pending: if
bool(done):`) do not.

A loop whose iterations are independent is not reported: Hessian columns, finite
differences, chunks of a table, a pass over eval batches with fixed parameters
(`for batch in eval_batches: total += eval_step(params, batch).item()`). It is a walk
over data rather than a chain of steps: each iteration's sync costs a round trip, but
nothing waits on the step before it. In the blind held-out reads recorded in
docs/precision/ (69 JAX102 rows: 3 true, 17 false alarms, 49 debatable), the
3 judged worth acting on were all per-step syncs in chains of training steps, and such
walks were judged debatable or false alarms (until 2026-12-07 they were reported).

A value that decides whether the loop goes on is not reported: the `while` test,
the test of an `if` that leaves the loop (`break` or `return`), and a host value
those tests read, directly or through the loop's assignments (`res = float(residual)`
then `if res < tol: break`; `loss_val = float(loss)` feeding a patience counter whose
test breaks the loop). The loop needs that answer on every iteration to go on: a
convergence test, an early stop, an L-BFGS step's acceptance, an RL rollout's `while
not done`. Such a loop does wait for the device on every step, but the advice to keep
the value on device cannot be followed without changing when the loop stops. In the
blind reads of fresh-2026-12e to fresh-2026-12l, every such finding was judged a false
alarm or debatable, none worth acting on (until 2026-12-07 they were reported, with
the advice to test every N steps). A conversion of a result of the same call in the body
(`float(state.temperature)` or `np.asarray(state.weights)` to log it) copies what the
test already waited for and is not reported either; a conversion of another jitted
call's result in that loop is, and so is a per-step conversion whose value the exit
test does not read (`if spent >= budget: break` beside `history.append(float(loss))`).
Nor is a read of a result that the loop waits for explicitly on every iteration
(`total = out[1].block_until_ready()`, or `jax.block_until_ready(out)`, to time each
call): the author waits on purpose, and the read copies what is already there.


**On by default** (a host sync per step is one of the red flags this linter exists
for; it was off until 2026-12-05). On the projects already read (the three held-out
sets and the pinned tuning corpus, now development data, and the trees of the
real-bug corpus; docs/precision/headline-rules.md), the once-per-epoch metric, the
tutorials and short sweeps, the checks that raise and the benchmarks behind the
earlier "off" are now recognised (below). What is left: 8 findings, no false alarm,
5 worth acting on (a per-step `float(loss)`, `.item()` or `np.asarray(loss)` in
training and evaluation loops) and 3 right but not worth acting on: the host needs
the value in the same iteration (an RL rollout that samples actions on the host for
host simulators, a scheduler that hands work to remote workers) or the loop already
syncs every step on a value it must check (a neighbour-list overflow). None of them
is a false claim: each loop does wait for the device on every iteration. Silence one
that must (`# noqa: JAX102`, with the reason), or turn the rule off with
`extend-ignore = ["JAX102"]`.

A value the host needs to go on is not reported: one given, in the same iteration,
to host code (a method of an object, a function jaxlint does not know as JAX, NumPy
or a builtin) whose results come back as inputs of the loop's jitted call
(`next_obs, reward, done = env.step(int(action))`, then `obs = next_obs` and
`policy(params, obs)`): a host environment needs each action before the device can
compute the next, so the advice to keep the value on device cannot be followed (5
false alarms of the fresh-2026-12k read, rl-blox's DQN, PER and CMA-ES loops). So is
one given to a method of a host object whose other calls in the loop give, through any
host computation, the inputs of a jitted call (`goal = sim.rollout(...)`, `z0 =
encode(jnp.asarray(goal["frame"]))`, then `sim.rollout(np.asarray(plan(z0)))`: a
simulator that runs each plan; xwm's closed-loop planning, fresh-2026-12n). A host call
whose result never goes back, on an object that gives the device nothing
(`logger.log(float(loss))` beside `loader.next_batch()`), is reported.

## Why is this bad
JAX dispatches work asynchronously: the jitted call returns at once and the device
keeps computing while Python prepares the next step. Converting the result to a
host value blocks until the device has finished and copies it back, so every
iteration waits for the device and the device waits for Python: one blocking sync
per step, which can dominate a training loop with small steps.

The rule reports only syncs that happen on every step, judged from what the code
says about how often the loop body runs. It stays silent where the sync is per
epoch, per report or needed once:
- a conversion after the loop, under an `if` inside the loop, or after
  `if step % N != 0: continue`;
- a loop that runs only every N steps: an evaluation pass over eval batches under
  `if step % N == 0:` (also `(step + 1) % N == 0`, `not step % N`, and `step % N == 0
  or step == 1`: a counter equal to one number is true on one iteration);
- an epoch loop: a loop that also holds an inner loop calling a jitted function
  (the training steps), or that calls, on every iteration, a jitted function that
  loops itself (`update_epoch`, a `lax.scan` over the batches), so what it converts
  it converts once per epoch;
- a callee that loops itself: the jitted function runs `lax.scan`, `fori_loop`,
  `while_loop`, `lax.map` or a `for` over `range` in its body (or in a function of
  the module it calls), so one call is an epoch or a chunk of steps;
- a walk over a few fixed entries, not a stream of steps: a literal list, tuple,
  set or dict, a literal `range` of at most 10 steps, a mapping's `.items()`,
  `.keys()` or `.values()`, a name assigned one of these (`LEARNING_RATES =
  (0.3, 0.1)`), a name that says configuration (`configs`, `cfg.model_sizes`,
  `settings`), and `enumerate`/`zip`/`sorted` of these;
- a short loop: one whose bounds the code spells, with the loops of its function
  around it, to at most 100 iterations in all (`range(50)`, `range(100 if not
  SMOKE_TEST else 10)`, `STEPS = 30` then `range(STEPS)`, a scan over
  `jnp.arange(0, 181, 5)` or `np.linspace(0, 1, 11)`): a tutorial or a short sweep,
  where a few dozen syncs cost milliseconds. `range(num_steps)`, `range(1000)` and a
  loop over a data iterator are not short, nor is `range(50)` inside an epoch loop
  whose length is not spelled;
- a loop in a registered benchmark (`@google_benchmark.register`), which repeats
  what it measures on purpose;
- a value computed before the loop, static metadata (`out.shape`), assertions
  (`assert`, `np.testing.assert_*`, `chex.assert_*`, `self.assertEqual`, and an
  `if` whose body ends by raising: `if not bool(ok): raise ValueError(...)`), which
  need the value every step, and a callee not known to be jitted (an unknown
  outermost decorator, a method of an object).

A walk over a few entries inside a training loop still runs on every step:
`for name, value in metrics.items(): history[name].append(float(value))` after
`metrics = train_step(...)` is reported.

In tests (files under `tests/`, `test_*.py`, `*_test.py`, `conftest.py`, and
functions named `test*` or pytest fixtures in any file) the rule is silent. A test's
loop exists to bring values to the host and check them (per step, or collected and
compared after the loop), and its speed over a few dozen steps is not what the test
is for: a per-step sync there is deliberate, and nobody would restructure a test to
avoid it.

## Example
```python
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)  # @jax.jit
    history.append(float(loss))
```

## Use instead
```python
losses = []
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)
    losses.append(loss)  # stays on device, no sync
    if step % 100 == 0:
        history.extend(jax.device_get(losses))
        losses = []
```

## Fix safety
No fix: where to fetch, and how often, is a design choice.

## Verify at runtime
`jaxlint probe syncs FILE.py:FUNC --line LINE` calls the function the loop is in once, as
it is, and counts the host's reads of device arrays on each of its lines: the finding's
line (the conversion) is confirmed when every one of its runs read a device array, one
blocking sync per iteration; the report also gives how many of the arrays were still
being computed when read and the time spent in the reads. To see what the syncs cost,
`jaxlint probe bench STEP.py:STEP --jit` times one step.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES

    _SMALL_TRIP_COUNT = 10

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._in_tests = ctx.is_test_file
        self._rare_loops: set[int] = set()
        """Loops that run only every Nth iteration of an enclosing loop (a modulo guard)."""
        self._loops_inside: dict[tuple[int, int], bool] = {}
        """Per (function, depth searched): it loops (``lax.scan``, ``fori_loop``, ``for``)."""
        self._loops: list[tuple[cst.For | cst.While, int]] = []
        """The host loops around the node visited, each with its function depth."""

    def visit_If(self, node: cst.If) -> None:
        super().visit_If(node)
        if rare_test(node.test):  # ``if step % N == 0:``: an eval pass every N steps
            for inner in walk(node.body):
                if type(inner) in (cst.For, cst.While):
                    self._rare_loops.add(id(inner))

    def visit_For(self, node: cst.For) -> None:
        self._loops.append((node, len(self._functions)))
        if self._skipped(node) or self._few_entries(node.iter, 2) or self._short(node):
            return
        self._check_loop(node)

    def leave_For(self, node: cst.For) -> None:
        self._loops.pop()

    def visit_While(self, node: cst.While) -> None:
        self._loops.append((node, len(self._functions)))
        if self._skipped(node):
            return
        self._check_loop(node)

    def leave_While(self, node: cst.While) -> None:
        self._loops.pop()
