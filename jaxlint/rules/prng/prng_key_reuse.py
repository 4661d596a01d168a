"""JAX301 prng-key-reuse: a PRNG key consumed twice on one path (twice in a row, in a
loop that does not rebind it, by the body of a lax loop that closes over it, or returned
consumed in a lax loop's carry), unless the two uses are compared against each other."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.prng.prng_key_reuse_analysis import PrngKeyReuseChecks

EXAMPLES = Examples(__file__)

# The examples are data, listed here rather than in the class body (the rule class stays
# under 400 lines: tests/test_rule_examples.py); the class names them as VALID/INVALID.
VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_where_keeps_one_of_two_draws.py",
        note="`jnp.where` keeps one of the two draws at every position: a mixture, no reuse",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_named_draw_kept_in_one_where_alternative.py",
        note="a draw kept, through its name, only in one alternative of `jnp.where` whose"
        " other alternative draws again: every position keeps one of the two (JAX's"
        " checker rejects the pair; no kept value shares bits with another)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_stateful_rng_helper_called_twice.py",
        note="a stateful RNG helper (`global KEY`, split and rebound) gives each call a new key",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_key_sub_split_key_each.py",
        note="`key, sub = split(key)` each iteration",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_keys_split_key_n_different.py",
        note="`keys = split(key, n)` and a different `keys[i]` per use",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_cond_branches_close_over_other_elements.py",
        note="`cond` branches closing over different elements of one split array",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_helper_keeps_another_split_element.py",
        note="`reset` keeps `split(rng)[0]`, the caller `split(new_rng)[1]`: another key"
        " (the same departure from JAX's checker)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_split_then_index_per_run.py",
        note="`split(key, n_runs)[run]` per run: another key of the same split each run"
        " (JAX's checker rejects the repeated split; the keys are distinct all the same)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_jitted_lower_reads_shapes_only.py",
        note="`jax.jit(f).lower(key)` traces with abstract values: it draws nothing",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_key_builds_only_a_restore_template.py",
        note="a network built from a used key only as the template of"
        " `eqx.tree_deserialise_leaves`: the restore replaces every leaf it drew",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_transform_and_its_inverse.py",
        note="a random transform and its inverse (`rotate`, `inverse_rotate`) given one key:"
        " the inverse must replay the same draws",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_fold_key_step_per_step.py",
        note="`fold_in(key, step)` per step: fold_in does not consume the key",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_key_passed_into_one_function.py",
        note="a key passed into one function and never used again",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_key_threaded_through_lax_scan.py",
        note="a key threaded through the `lax.scan` carry, rebound from its result",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_flax_self_make_rng_gives.py",
        note="Flax `self.make_rng` gives a fresh key on every call",
    ),
    EXAMPLES.valid(
        "valid_nnx_rngs_streams_give_fresh.py",
        note="`nnx.Rngs` streams give a fresh key on every call",
    ),
    EXAMPLES.valid(
        "valid_haiku_init_and_apply_split_keys.py",
        note="`init` and `apply` of a transformed function, each given its own split key",
    ),
    EXAMPLES.valid(
        "valid_one_use_each_arm_if.py", note="one use in each arm of an `if`", runs=True
    ),
    EXAMPLES.valid("valid_first_use_returns.py", note="the first use returns", runs=True),
    EXAMPLES.valid(
        "valid_exclusive_paths_same_flag.py",
        note="the first draw needs `not bootstrap`, the second runs only past "
        "`if not bootstrap: return`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_key_data_clone_do_consume.py",
        note="`key_data`, `clone` and `==` do not consume",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_lax_cond_runs_one_branch.py",
        note="`lax.cond` runs one branch: the key is consumed once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_iterating_over_split_keys_fresh.py",
        note="iterating over split keys: a fresh key per iteration",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_rng_numpy_generator_jax_key.py",
        note="`rng` is a NumPy generator, not a JAX key (mentions jax: import)",
    ),
    EXAMPLES.valid(
        "valid_two_functions_jaxlint_cannot_see.py",
        note="two functions jaxlint cannot see: they may only derive keys (Flax uses fold_in)",
    ),
    EXAMPLES.valid(
        "valid_loop_returns_after_only_consumption.py",
        note="the loop returns after its only consumption",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_flax_s_init_apply_derive.py",
        note="Flax's init/apply derive their keys with fold_in: the root key is not consumed",
    ),
    EXAMPLES.valid(
        "valid_predicate_namedtuple_stores_key_do.py",
        note="a predicate and a namedtuple that stores the key do not consume it",
    ),
    EXAMPLES.valid(
        "valid_reading_dtype_shape_does_consume.py",
        note="reading `.dtype`/`.shape` does not consume",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_compared_two_implementations.py",
        note="one key fed to two implementations whose results `assert_allclose` compares",
        runs=True,
        filename="tests/test_noise.py",
    ),
    EXAMPLES.valid(
        "valid_test_recomputes_expected_draws.py",
        note="a test writes the sampler's draws, with its keys, as the expected side of assertions",
        runs=True,
        filename="tests/test_sampler.py",
    ),
    EXAMPLES.valid(
        "valid_draws_compared_with_eq.py",
        note="two draws compared with `==`: a determinism check, the reuse is the point",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_paired_choice_stays_aligned.py",
        note="paired `choice` of two arrays with one key: the pairs stay aligned",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_tree_map_helper_permutes_each_leaf.py",
        note="a helper that only permutes each leaf, mapped over two trees with one key:"
        " the rows stay paired, on purpose",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_aligned_permutation_per_array.py",
        note="one key permutes each array of a comprehension: the same shuffle keeps rows paired",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_init_of_imported_module.py",
        note="`init` of a module from another package: it may only fold the key in",
    ),
    EXAMPLES.valid(
        "valid_test_loop_shadowed_range_not_builtin.py",
        filename="tests/test_shapes.py",
        note="a local `range` is not the builtin: one case per iteration, not a repetition",
    ),
    EXAMPLES.valid(
        "valid_test_loop_one_case_per_iteration.py",
        note="in a test, each iteration draws its own case from one key and keeps nothing",
        runs=True,
        filename="tests/test_softmax.py",
    ),
    EXAMPLES.valid(
        "valid_test_draw_then_split.py",
        note="in a test, a key drawn from by `normal` and then split: the split keys' draws"
        " are not correlated with it",
        runs=True,
        filename="tests/test_policy.py",
    ),
    EXAMPLES.valid(
        "valid_test_key_given_to_code_under_test.py",
        note="in a test, the key also goes to the code under test, which this file cannot see",
        filename="tests/test_sampler.py",
    ),
    EXAMPLES.valid(
        "valid_self_rng_split_and_stored.py",
        note="`self.rng, sub = split(self.rng)` on every call: a new key each call",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_cond_operand_ignored_by_branches.py",
        note="`lax.cond` given the key as an operand that both branches ignore (`_`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_object_built_per_draw.py",
        note="every call of the method is on an object just built with its own key"
        " (`GaussianMatrix(..., key=k).get_2d_array()`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_method_between_reassigns_key.py",
        note="a method of the class called between the draws gives `self.rng` a new key",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_inherited_method_may_reassign.py",
        note="a method this file does not show (inherited) is called between the draws:"
        " it may reassign `self.rng`",
    ),
    EXAMPLES.valid(
        "valid_key_split_once_in_constructor.py",
        note="the constructor splits the stored key once: it runs once per object",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_split_in_method_results_stored.py",
        note="a method splits the stored key and stores what it draws (an initialiser):"
        " a split is not reported across calls",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_numpy_generator_on_self.py",
        note="`self.rng` is a NumPy generator: never given to `jax.random`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_nnx_rngs_on_self_give_fresh.py",
        note="`self.rngs.noise()` (an `nnx.Rngs` held on the module) gives a fresh key per call",
    ),
    EXAMPLES.valid(
        "valid_state_replaced_between_draws.py",
        note="`state.rng` split and the state rebound (`state._replace(rng=...)`) between draws",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_property_gives_new_key.py",
        note="`self.rng` is a property that splits and stores: a new key on every read",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_class_key_per_test.py",
        filename="tests/test_noise.py",
        note="a test class's `self.key` from `setup_method`: each test runs once",
    ),
]
INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_self_rng_two_draws_in_one_method.py",
        line=13,
        column=34,
        message_contains=(
            "`self.rng` is consumed by `jax.random.normal` at line 12 and again by"
            " `jax.random.randint` at line 13"
        ),
        raises="KeyReuseError",
        note="a key held on `self`, drawn from twice in one method",
    ),
    EXAMPLES.invalid(
        "invalid_self_rng_same_key_every_call.py",
        line=12,
        message_contains="it is the same key on every call of `explore`",
        raises="KeyReuseError",
        note="a method draws from `self.rng`, which only the constructor assigns",
    ),
    EXAMPLES.invalid(
        "invalid_frozen_module_key_field.py",
        line=15,
        message_contains="the same key on every call of `__call__`",
        raises="KeyReuseError",
        note="an immutable module's key field drawn from in `__call__`",
    ),
    EXAMPLES.invalid(
        "invalid_equinox_module_key_field.py",
        line=10,
        message_contains="`self.key` is consumed by `jax.random.normal` at line 10 in `__call__`",
        note="an `eqx.Module` is immutable: its key field is the same key on every call"
        " (the frozen dataclass example shows it at runtime)",
    ),
    EXAMPLES.invalid(
        "invalid_same_flag_path_draws_twice.py",
        line=11,
        raises="KeyReuseError",
        note="both draws need `training`: one path goes through both",
    ),
    EXAMPLES.invalid(
        "invalid_helper_between_does_not_assign.py",
        line=17,
        message_contains="the same function with the same arguments, so the two draws are identical",
        raises="KeyReuseError",
        note="the method called between the draws never assigns `self.rng`",
    ),
    EXAMPLES.invalid(
        "invalid_helper_splits_key_already_drawn.py",
        line=15,
        message_contains="and again by `self._advance` (which draws from it) at line 15",
        raises="KeyReuseError",
        note="a method of the class splits `self.rng` after the caller drew from it",
    ),
    EXAMPLES.invalid(
        "invalid_key_passed_on_by_where_after_split.py",
        line=11,
        message_contains="and again by `jnp.where` (which does not draw from it but can"
        " pass it on, and which `jax_debug_key_reuse` counts as consuming it) at line 11",
        raises="KeyReuseError",
        note="`jnp.where` never draws, but the key it passes on was split already",
    ),
    EXAMPLES.invalid(
        "invalid_tree_map_helper_adds_noise.py",
        line=10,
        raises="KeyReuseError",
        note="the helper draws noise, not an index: the same noise on every leaf",
    ),
    EXAMPLES.invalid(
        "invalid_tree_map_alias_same_noise_every_leaf.py",
        line=10,
        column=12,
        message_contains=(
            "`key` is drawn from by `noise` (line 8), which `tree_map` at line 10 calls once"
            " for every leaf of the tree: the key is reused for every leaf"
        ),
        raises="KeyReuseError",
        note="a lambda mapped over a tree through a local alias of `tree_util.tree_map`"
        " draws from the one key it closes over (jax d10cf0e3)",
    ),
    EXAMPLES.invalid(
        "invalid_haiku_init_and_apply_same_key.py",
        line=16,
        column=32,
        message_contains=(
            "`rng` is consumed by `model.init` (which draws from it) at line 15 and again by"
            " `model.apply` (which receives it and may draw from it) at line 16"
        ),
        note="one key given to `init` and `apply` of an `hk.transform`ed function (dm-haiku"
        " 96ecde6a); tests/test_keys.py runs it under `jax_debug_key_reuse` where Haiku is"
        " installed: KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_loop_passes_key_through_train_step.py",
        line=18,
        column=51,
        message_contains=(
            "`rng` is consumed by `train_step` (which passes it on to `model`, which may draw"
            " from it) at line 18 on every iteration of the loop at line 17"
        ),
        raises="KeyReuseError",
        note="a training step of the file hands the loop's one key, unchanged, to the model"
        " on every step (flax 64a7cb54)",
    ),
    EXAMPLES.invalid(
        "invalid_state_attribute_two_draws.py",
        line=15,
        message_contains="`state.rng` is consumed by `jax.random.normal` at line 14",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_init_of_imported_module_given_only_the_key.py",
        line=7,
        column=31,
        message_contains="(which receives it and may draw from it) at line 6",
        note="a foreign `init` given only the key, no draw from it as example input:"
        " a use like any other",
    ),
    EXAMPLES.invalid(
        "invalid_y_jax_random_uniform_key_3.py",
        line=8,
        column=28,
        message_contains=(
            "by `jax.random.normal` at line 7 and again by `jax.random.uniform` at line 8:"
            " each value of `jax.random.normal` is an increasing function of the value of"
            " `jax.random.uniform` at the same position (the same random bits)"
        ),
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_x_x_jax_random_normal_key.py",
        line=9,
        column=35,
        message_contains="at line 9 on every iteration of the loop at line 8",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_noise_jax_random_normal_key_2.py",
        line=9,
        message_contains="`key` is consumed by `jax.random.split` at line 8 and again",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_return_jr_normal_key_s_s.py",
        line=8,
        column=23,
        message_contains="every iteration of the comprehension at line 8",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_return_acc_jax_random_normal_key.py",
        line=9,
        message_contains="captured by `body`, the body of `lax.fori_loop` at line 11",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_walk_jax_random_key_0_jnp.py",
        message_contains="the body of `lax.scan`",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_return_x_jax_random_normal_key.py",
        line=10,
        message_contains="by `jax.random.bernoulli` at line 9",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_w2_init_layer_key_3.py",
        line=12,
        message_contains=(
            "by `init_layer` (which draws from it) at line 11 and again by `init_layer`"
            " (which draws from it) at line 12"
        ),
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_f_jax_random_key_7.py",
        message_contains="`keys[0]` is consumed by `jax.random.normal` at line 9 and again",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_function_jaxlint_cannot_see_next.py",
        line=9,
        column=27,
        message_contains="by `w_init` (which receives it and may draw from it) at line 8",
        raises="KeyReuseError",
        note="a function jaxlint cannot see, next to a certain consumption",
    ),
    EXAMPLES.invalid(
        "invalid_x_x_jax_random_uniform_sub.py",
        line=11,
        count=1,
        message_contains="with the same arguments, so the two draws are identical",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_two_distributions_in_test.py",
        line=9,
        message_contains=(
            "by `jax.random.normal` at line 8 and again by `jax.random.bernoulli` at line 9:"
            " `jax.random.bernoulli` is exactly `jax.random.normal(...) < norm.ppf(0.5)` at"
            " every position (the same random bits), so one draw decides the other"
        ),
        raises="KeyReuseError",
        filename="tests/test_data.py",
        note="the mask is exactly `x < 0`: the masked mean only ever sees negative values",
    ),
    EXAMPLES.invalid(
        "invalid_draw_reused_in_where_alternative.py",
        line=10,
        message_contains="the same function with the same arguments, so the two draws are identical",
        raises="KeyReuseError",
        note="a draw before `jnp.where` and the same draw (same function, same arguments)"
        " again in the other alternative: the alternatives are equal, so the `where`"
        " selects nothing",
    ),
    EXAMPLES.invalid(
        "invalid_test_split_key_never_used.py",
        line=10,
        message_contains="`key2`, split from it, is never used: was it meant for `jax.random.uniform`?",
        raises="KeyReuseError",
        filename="tests/test_bounds.py",
        note="in a test, a draw from the key whose split made a key never used (numpyro's"
        " `key1, key2 = split(key)`, `bernoulli(key1)`, `uniform(key)`)",
    ),
    EXAMPLES.invalid(
        "invalid_prefix_overlap_test_inputs.py",
        line=9,
        message_contains="only the shape differs, so the smaller draw repeats the first values",
        raises="KeyReuseError",
        filename="tests/test_attention.py",
    ),
    EXAMPLES.invalid(
        "invalid_same_draw_used_twice_in_test.py",
        line=9,
        message_contains="the same function with the same arguments, so the two draws are identical",
        raises="KeyReuseError",
        filename="tests/test_graph.py",
    ),
    EXAMPLES.invalid(
        "invalid_test_repetition_loop_same_case.py",
        line=10,
        message_contains="on every iteration of the loop at line 9",
        raises="KeyReuseError",
        note="a test's `range` loop whose draw never reads the loop variable: every"
        " iteration checks the same deal",
    ),
    EXAMPLES.invalid(
        "invalid_test_loop_collects_same_draws.py",
        line=10,
        message_contains="on every iteration of the loop at line 9",
        raises="KeyReuseError",
        filename="tests/test_stats.py",
    ),
    EXAMPLES.invalid(
        "invalid_helper_keeps_the_same_split_element.py",
        line=14,
        raises="KeyReuseError",
        note="`reset` keeps `split(rng)[0]` and the caller takes the same element",
    ),
    EXAMPLES.invalid(
        "invalid_split_after_split_n.py",
        line=8,
        message_contains="both splits return the same first keys",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_consumed_key_stored_back_carry.py",
        line=10,
        message_contains="returned unchanged in the carry of `body`, the body of `lax.scan`",
        raises="KeyReuseError",
    ),
    EXAMPLES.invalid(
        "invalid_carry_drawn_then_split_next_iteration.py",
        line=10,
        message_contains=(
            "whose next iteration splits it at line 10: `subkey`, split from it, is never"
            " used: was it meant for `jax.random.categorical`?"
        ),
        raises="KeyReuseError",
        note="the body draws from the key it returns, which the next iteration splits",
    ),
]


class PrngKeyReuse(PrngKeyReuseChecks, Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    default_enabled = True  # see "On by default" in the docs
    message = "`{key}` {detail}"
    fix_availability = "none"
    probe = "JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("KeyReuseError"),)  # with JAX_DEBUG_KEY_REUSE=1
    docs = """\
## What it does
Flags a PRNG key that is consumed twice on one path through a function: two
samplers on the same key, a key used again after `jax.random.split(key)` without
rebinding it, a key consumed in a loop body (or a comprehension) that does not
rebind it, a key that the body of `lax.scan`, `lax.fori_loop`,
`lax.while_loop` or `lax.map` closes over and consumes, and a key that a lambda or
local function mapped over a tree (`jax.tree.map`, `jax.tree_util.tree_map`, also
through a local alias `tree_map = tree_util.tree_map`) or a sequence (`map`) closes
over and draws from: every leaf gets the same random bits. The message names both
uses by line.

"One path" reads the tests a path passed on a function's own names: after `if
references is None and not bootstrap: draw(key)` and `if not bootstrap: return ...`,
a later `draw(key)` runs only when `bootstrap` is true, where the first never ran, so
it is no reuse. Only a name's truth (`if flag:`, `not`, `and`, `or`) and `name is
None` are read, and a name assigned again forgets what its tests said.

It follows the semantics of JAX's own key-reuse checker (`jax_debug_key_reuse`),
which checks typed keys only (`jax.random.key`; a raw `PRNGKey` array used twice passes
it, checked on JAX 0.12, so for a key the file makes with `PRNGKey` the message says
which keys the checker rejects):
every sampler and `split` consume their key; `fold_in`, `clone`, `key_data` and
comparisons do not; a function of the same file consumes what its body consumes
(a lax `cond` runs one branch; a closure that draws from `rngs[3]` consumes that
element of its caller's split array, not the array). Ahead-of-time tracing
(`jax.jit(f).lower(key)`, `.trace`, `.eval_shape`) draws nothing, and so does a call
whose result is only the template of a restore that replaces every leaf
(`eqx.tree_deserialise_leaves(path, like)`, `flax.serialization.from_bytes(target, data)`,
`from_state_dict(target, state)`; not `restore_checkpoint`, which returns its target when
no checkpoint is found), through names bound once outside loops. A random transform
and its inverse given one key are deliberate (`rotate(x, key)` then
`inverse_rotate(y, key)`, told by the names: `inverse_`/`inv_`/`undo_` before the
other's name or `_inverse`/`_inv` after it): the inverse must replay the transform's
draws. One deliberate
departure: `split(key, n)[i]` takes key `i` of the split, which is the same key for
every `n` and another key for every `i` (checked on JAX 0.12), so `split(key, n)[run]`
once per `run` is not reported although the checker rejects a second `split(key, ...)`;
the same index twice is. This holds through a function of the file that only keeps
`split(rng)[0]` of its key parameter: a caller that takes `split(rng)[1]` of the same key
is not reported. A key passed to a function jaxlint cannot see may
be drawn from, so it counts, but only next to a certain consumption: two such
calls are not reported (they may only derive keys with `fold_in`, or a test may
reuse a key on purpose to compare two runs). A function of the same file that hands
a parameter, unchanged, to such a function (directly, or through a nested function
it calls or transforms: `jax.value_and_grad(loss_fn)`) consumes a key given to it
the same way; given the same certain key on every iteration of a loop that never
rebinds it, it is reported, since nothing on the way derives a key per step (a
`fold_in(rng, step)` there is no consumption). That is not reported in tests. A
jitted function of another module of the project consumes what its body consumes,
like a plain one. Not consumptions: predicates
(`assert is_prng_key(key)`, `self.assertTrue(f(key))`, `is_*`/`has_*` calls),
storing a key (in a `namedtuple`, or a dataclass, `NamedTuple` or struct of the
project without an `__init__` of its own, whose `__post_init__`, if any, never
reads the field the key is given for by name), and the root keys of a Flax
module's `init(key, x)`/`init_with_output`/`lazy_init` and the
`rngs=` of `apply` in a file that imports Flax (Flax derives every stream with
`fold_in`: `flax/core/scope.py`, `LazyRng.as_jax_rng`). A Haiku transformed
function of the same file (`f = hk.transform(g)`, `hk.transform_with_state`,
`init, apply = hk.transform(g)`) is known: its `init(rng, ...)` draws from the key
(Haiku splits it for every parameter initializer) and its `apply(params, [state,]
rng, ...)` may (it splits the key whenever the function asks for one), so one key
given to both is reported (`apply`'s keys repeat the ones `init` drew the
parameters with; `jax_debug_key_reuse` raises). One use in each arm of an
`if` is fine, and so is a use before a `return`, `break` or `raise`; a use in a
`try` body and another in its `except` handler is not reported. A loop body
(`lax.scan`, `fori_loop`, `while_loop`) that consumes a key and returns it
unchanged in its carry is reported too: the next iteration consumes it again.
When the body starts with `key, sub = split(key)` and draws from `key` before
returning it, the next iteration splits a key that was drawn from: a draw and a
split of one key (the message says so, and names `sub` when it is never used),
not the same draw again.

A key held on an attribute counts too, once it is clearly a key (given to a
`jax.random` function in the function, or, for `self.<attr>`, anywhere in the class,
or assigned there from `key`/`PRNGKey`/`split`/`fold_in`): `self.rng` or
`state.rng` drawn from twice with no assignment of it in between, and no call in
between that may assign it (a call that receives the object, a method of it this
file does not show, `super()`, a method of the class that assigns the attribute;
`yield` and `await` let other code run). A method of the class that draws from
`self.rng` consumes the caller's key. And a method that draws (with a sampler, not
`split`) from `self.<attr>` as it finds it, in a class where nothing but a
constructor (`__init__`, `__post_init__`, `setup`) assigns that attribute, draws
from the same key on every call: an Equinox module's key field, a frozen
dataclass, an object that never advances its key. That one is not reported in
tests (each test builds its object), nor when the class has a base this file does
not show or a method that may assign any attribute, nor when every call of the
method in the file is on an object built right there with its own key
(`GaussianMatrix(rows, cols, key=k).get_2d_array()`: a new object per draw). Flax's `self.make_rng(...)` and
`nnx.Rngs` streams (`self.rngs.params()`) give a fresh key on every call: never
reported.

Deliberate reuse is not reported, in any file: two uses whose results are
compared against each other (what the first returns reaches one side of
`assert_allclose`, `assertEqual`, `chex.assert_trees_all_close`, `allclose` or
`==`, what the second returns the other side: one key fed to two implementations
to check they agree), paired index draws that keep two arrays aligned
(`choice(key, xs, (b,))` and `choice(key, ys, (b,))`, or `permutation`; also over
the leaves of a tree, `tree.map(lambda x: shuffle(x, key), batch)`, directly or
through a function of the file that only permutes or picks from its argument), and a
key given to `model.init(key, ...)` of a module the file imports (it may split
the key or only fold it in; this file cannot tell). Comparing shapes
(`x.shape == y.shape`, `len`) is not comparing values. Nor are the two alternatives of
`jnp.where(c, a, b)` (or `lax.select`) a reuse: every position keeps the value of `a`
or of `b`, never both, so no value is computed from two draws of the same bits (a
mixture such as `where(u < 0.8, randint(k, (), 24, 31), randint(k, (), 31, 37))`), by
construction rather than by how JAX 0.12 happens to draw; JAX's `jax_debug_key_reuse`
checker still rejects it. The same holds for a draw made before the `where` and kept,
through names, only in one alternative while the other draws again (`z = normal(k, s)`,
then `where(c, scale * z, exponential(k, s))`); if the first draw is read anywhere
else (the condition, another result), or the two draws are the same function with the
same arguments (the alternatives are then equal and the `where` selects nothing), it is
reported. The layout is not checked: when one alternative reduces a draw of another
shape to the position's (`normal(k, (n,))` against `gumbel(k, (n, m)).sum(-1)`), values
kept at two different positions can still come from the same bits.

The message says what the evidence shows: the same sampler with the same
arguments (the two draws are identical), only the shape differing (the smaller
draw repeats the first values of the larger one: `normal(k, (2, d))` is the
first rows of `normal(k, (4, d))`), `split(key)` after `split(key, n)` (the same
first keys), two different samplers (correlated draws; for `bernoulli`, `uniform` and `normal` of
one shape, exactly how: `bernoulli(k, p, s)` is `uniform(k, s) < p` and
`normal(k, s) < norm.ppf(p)`, and `normal(k, s)` an increasing function of
`uniform(k, s)`, position by position), a draw and a split (JAX's
checker rejects them; what the split's keys share with the draw depends on the
sampler: `permutation`, `randint`, `choice` without `p=`, `gamma`, `beta`, `t`,
`poisson`, `binomial` and the others that split their key themselves use the very
keys `split(key)` returns (as in a data loader that splits the key it permuted
its data with: its batches then draw from keys the permutation drew with); for
`normal`, `uniform` and the others that draw from the key itself, the split keys'
draws are not correlated with the draw on JAX 0.12; both measured by
`tests/test_prng_split_runtime.py`), or a function that receives the key and *may*
draw from it.

In tests (files under `tests/`, `test_*.py`, `*_test.py`, `conftest.py`, and
`test*` functions and pytest fixtures anywhere): comparisons are silent as
everywhere, and reuse that makes "different" test inputs overlap or repeat (two
samplers on one key, prefix-overlapping shapes, identical draws, draws collected
across a loop) is reported, because the test then checks less than it seems to.
Not reported in tests: a key also passed to a function the file cannot see (the
code under test; whether it draws is unknown and the correlation with the test's
inputs rarely matters), and a loop that draws each iteration's own case from one
key without keeping the draws across iterations (each iteration is a separate
case, like a parametrised test with a fixed seed), and a key both drawn from by a
sampler that draws from the key itself (`normal`, `uniform`...) and split (by
`split`, or by a sampler that splits its key itself, such as `permutation`): the
split keys' draws are not correlated with that draw (measured), so the test's data
are as independent as it means them to be, and only the checker objects (rejax's
tests: `policy.act(obs, rng)` then `rng, sub = split(rng)`; five such findings were
judged harmless in the fresh-2026-12f read), unless a key the split made is never
used (`key1, key2 = split(key)`, `bernoulli(key1)`, then `uniform(key)` where `key2`
was meant: reported, and the message names `key2`). A `for _ in range(n)` loop whose
consuming call never reads the loop variable is reported even there: every
iteration repeats the same "random" case.


**On by default**, as a red flag this linter exists for. On the eleven pinned
projects none of 40 sampled findings was a false alarm (5 bugs, 3 latent, 32
harmless test or benchmark data drawn twice; docs/precision/prng.md). An earlier
read of held-out projects, before the rule learned deliberate reuse and test code,
found 3 false alarms in 49 (a key shared on purpose through an indirect flow, a
foreign `init` that never draws, a Flax `init` in another module;
docs/precision/heldout.md): such a finding is silenced with `# noqa: JAX301`.

## Why is this bad
JAX random numbers are a pure function of the key: the same key gives the same
bits. Two samplers on one key return correlated (often identical) numbers, a
loop that reuses its key draws the same "random" values every iteration, and a
`scan` body that closes over a key repeats the same noise at every step. No error
is raised unless `jax_debug_key_reuse` is switched on, which costs time and only
catches the paths a run takes.

## Example
```python
import jax

def sample(key):
    x = jax.random.normal(key, (3,))
    y = jax.random.uniform(key, (3,))  # the same bits as x
    return x + y
```

## Use instead
```python
import jax

def sample(key):
    key_x, key_y = jax.random.split(key)
    x = jax.random.normal(key_x, (3,))
    y = jax.random.uniform(key_y, (3,))
    return x + y
```
In a loop, rebind the key each iteration (`key, sub = jax.random.split(key)`) or
derive one per step with `jax.random.fold_in(key, step)`; in `lax.scan`, thread
the key through the carry.

## Fix safety
No fix: which key each use should get (a split, a fold-in, a new argument) is a
design decision, and changing it changes the program's random numbers.

## Verify at runtime
`JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC` (the `verify:` line of
each finding, filled in) traces the function with JAX's checker switched on by the
environment; without the variable the checker is off and the probe passes. The
inputs come from an input factory that passes a typed key (`jax.random.key(0)`), or
from a call site in the file when there is none: its `eval_shape` stage fails with
`jax.errors.KeyReuseError: In jit, argument 0 is already consumed.`, which the
probe attributes to JAX301. In your own code: `jax.config.update("jax_debug_key_reuse", True)` or
`with jax.debug_key_reuse(True):`. The checker does not track raw `PRNGKey` keys.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES

    def visit_Module(self, node: cst.Module) -> None:
        text = self.ctx.text
        if "random" not in text and "rng" not in text:
            return
        keys = self.ctx.keys
        for reuse in keys.reuses:
            if (
                not reuse.definite
                or keys.compared(reuse)
                or keys.aligned(reuse)
                or keys.inverse_pair(reuse)
                or keys.exclusive(reuse)
            ):
                continue
            if self._test_code(reuse) and not self._reported_in_tests(reuse):
                continue
            self.report(reuse.second.arg, key=self._name(reuse), detail=self._detail(reuse))
