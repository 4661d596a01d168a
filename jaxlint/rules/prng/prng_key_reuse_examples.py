"""JAX301 prng-key-reuse's VALID and INVALID examples (the files are in
``prng_key_reuse.examples/``), listed apart from the rule in ``prng_key_reuse.py``."""

from __future__ import annotations

from pathlib import Path

from jaxlint.rules.base import Examples

EXAMPLES = Examples(Path(__file__).with_name("prng_key_reuse.py"))

# The examples are data, kept apart from the rule's module (which stays under 800 lines,
# its class under 400: tests/test_rule_examples.py); the class names them as VALID/INVALID.
VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_dict_of_alternative_initialisers.py",
        note="a dict of initialisers drawn from one key, of which one entry is kept: the"
        " draws are alternatives (scikit-jax's `weights_init_dict[self.weights]`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_split_keys_unread_on_that_branch.py",
        note="a key split, then on one branch drawn from while no key of the split is read"
        " there: nothing shares the draw's bits (crayopt's `propose`; JAX's checker, when"
        " on, rejects it: the INVALID example with the checker)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_smoke_call_result_thrown_away.py",
        note="a smoke run of a function of the file whose value is thrown away: its draws"
        " reach nothing (generax's examples)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_first_use_switched_off_by_if_false.py",
        note="the first draw is under `if False:`: it never runs (generax's research scripts)",
        runs=True,
    ),
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
        "valid_two_named_draws_in_select_alternatives.py",
        note="two draws of one key, each kept through its name in one alternative of"
        " `lax.select` (kozax's mutation: a branch's mutation or a nudged constant)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_draw_only_for_its_shape.py",
        note="a draw whose result is only read for its shape (`f(key, 1).shape[-1]`): its"
        " values reach nothing (vpet-abc's parameter count)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_tests_run_by_hand_share_module_key.py",
        filename="tests/test_by_hand.py",
        note="a test file's `__main__` block runs its tests by hand: each draws its own"
        " fixture from the module's `KEY`, as under pytest (jxpinn)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_equinox_layer_and_own_draw.py",
        note="an Equinox layer (`eqx.nn.Linear`) splits its key before drawing: a draw from"
        " the same key shares no bits with its weights (JAX306 reports the pair)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_same_key_for_each_configuration.py",
        note="one key for the function that runs each configuration of a sweep (`for name,"
        " cfg in CONFIGS`): a controlled comparison, the runs differ only by their"
        ' configuration (xwm\'s examples compare presets and strategies "on identical data"'
        "); JAX's checker would reject it",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_reuse_commented_on_purpose.py",
        note="a comment beside the pair says the key is used again on purpose (alem-env's"
        " `# same rng as events are mutually exclusive`, rex-lib's `# ... we reuse the seed`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_dummy_key_for_warm_up.py",
        note="a key named `dummy_key` drives a warm-up whose results are thrown away",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_doctest_namespace_fixture.py",
        note="a fixture filling `doctest_namespace`: example values for the docs",
        filename="conftest.py",
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
        "valid_runge_kutta_stages_share_one_noise.py",
        note="the stages of one Runge-Kutta step evaluate one disturbance, held over the"
        " step, at several points (raddo's `rk4_step`, fresh-2026-12p); each step gets its"
        " own key",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_common_random_numbers_across_levels.py",
        note="the same keys for each level of a literal sweep (common random numbers: the"
        " levels differ only by their setting; tinydiffeq's convergence test)",
        runs=True,
        filename="tests/test_convergence.py",
    ),
    EXAMPLES.valid(
        "valid_test_inputs_from_one_key.py",
        note="in a test, two inputs drawn from one key share values, but what the test"
        " asserts does not depend on their independence (185 such findings in test"
        " files of the held-out reads, 3 bugs); not reported unless JAX's checker is on",
        runs=True,
        filename="tests/test_attention.py",
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
    EXAMPLES.valid(
        "valid_element_and_map_over_the_rest.py",
        note="`keys[0]` drawn from on its own, and the map given `keys[1:]`: no key used twice",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_element_and_unmapped_keys.py",
        note="`in_axes=None`: the mapped function gets the whole array and draws only from"
        " `ks[1]`; nothing maps over `keys`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_scan_carry_key_passed_through.py",
        note="a key in `lax.scan`'s carry that the body only hands back, drawing from the keys"
        " in `xs`: the loop does not consume it (smcs' samplers; JAX's checker agrees)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_select_choices_keep_one_draw_each.py",
        note="two draws of one key kept, through derived names, in different choices of"
        " `jnp.select` (safenax's frozen lake: the thin-ice shock or the safe noise)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_loop_splits_carry_key_draws_nothing.py",
        note="a `while_loop` whose body splits the carried key and draws from none of the"
        " keys it splits off: no value comes from the key (JAX306 reports the broken contract)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_warm_up_run_then_timed_run.py",
        note="a run whose result is only waited for (it compiles), then the same run timed:"
        " the first run's draws are never used (morphix's benchmark)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_warm_up_with_a_placeholder_key.py",
        note="a `compile` method runs the code once with `key(0)` so that JAX compiles it,"
        " and throws the outputs away (envrax's `VecEnv.compile`)",
        runs=True,
    ),
]
INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_two_entries_of_one_dict_used_together.py",
        line=10,
        message_contains="the two draws are identical",
        note="two entries of the dict are read: the draws are used together",
    ),
    EXAMPLES.invalid(
        "invalid_smoke_call_result_kept.py",
        line=18,
        message_contains="consumed by `unbatched_loss` (which splits it) at line 16",
        note="the first call's value is kept: its draws share bits with the split's",
    ),
    EXAMPLES.invalid(
        "invalid_comment_names_the_bug.py",
        line=8,
        message_contains="the same function with the same arguments",
        raises="KeyReuseError",
        note="a comment that names the reuse without saying it is meant does not silence it",
    ),
    EXAMPLES.invalid(
        "invalid_reuse_named_against_loop_body_use.py",
        line=9,
        message_contains="consumed by `update` (which receives it and may draw from it) at"
        " line 13 and again by `jax.random.split` at line 9",
        raises="KeyReuseError",
        note="the pair named is the one the running path makes: the inner loop's key, not the"
        " epoch's permuted key, which reaches line 9 only if the inner loop never runs"
        " (diffusionjax's examples, rex-lib's graph)",
    ),
    EXAMPLES.invalid(
        "invalid_same_key_for_each_layer_shape_via_helper.py",
        line=13,
        message_contains="on every iteration of the loop at line 12",
        raises="KeyReuseError",
        note="a loop over one model's layer shapes is not a comparison of configurations,"
        " even through a helper",
    ),
    EXAMPLES.invalid(
        "invalid_same_key_drawn_for_each_layer_size.py",
        line=9,
        message_contains="on every iteration of the loop at line 8",
        raises="KeyReuseError",
        note="a loop over literal sizes that draws from the key itself: every layer gets the"
        " same bits, not a comparison of configurations",
    ),
    EXAMPLES.invalid(
        "invalid_self_rng_two_draws_in_one_method.py",
        line=13,
        column=36,
        message_contains=(
            "`self.rng` is consumed by `jax.random.normal` at line 12 and again by"
            " `jax.random.uniform` at line 13"
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
        note="the test file switches JAX's key-reuse checker on (the test fails), and the"
        " mask is exactly `x < 0`: the masked mean only ever sees negative values",
    ),
    EXAMPLES.invalid(
        "invalid_named_draws_mixed_in_one_alternative.py",
        line=9,
        raises="KeyReuseError",
        note="two named draws of one key added together in one alternative of `jnp.where`:"
        " that alternative mixes both",
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
        "invalid_split_key_read_after_the_reuse.py",
        line=6,
        message_contains="consumed by `jax.random.split` at line 5 and again by"
        " `jax.random.normal` at line 6",
        note="a key drawn from after its split, and a key of that split drawn from later on"
        " that path: the two draws share bits",
    ),
    EXAMPLES.invalid(
        "invalid_split_keys_unread_checker_on.py",
        line=9,
        message_contains="consumed by `jax.random.split` at line 7",
        raises="KeyReuseError",
        note="the VALID branch-local draw after a split, in a module that switches JAX's"
        " key-reuse checker on: JAX raises",
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
        "invalid_test_dataset_columns_from_one_key.py",
        line=8,
        message_contains="both draws come from the same random bits, so they are correlated",
        filename="tests/test_fit.py",
        note="in a test, two draws of one key stacked into one dataset: its columns are"
        " dependent (every row lies on one line; setu-sbi's training"
        " data, fresh-2026-12m)",
    ),
    EXAMPLES.invalid(
        "invalid_test_reused_split_key_sibling_unused.py",
        line=8,
        message_contains="`k3`, split with it, is never used: was it meant for `jax.random.uniform`?",
        filename="tests/test_rates.py",
        note="in a test, a split key drawn twice while another key of the split is never used",
    ),
    EXAMPLES.invalid(
        "invalid_prefix_overlap_test_inputs.py",
        line=9,
        message_contains="only the shape differs, so the smaller draw repeats the first values",
        raises="KeyReuseError",
        filename="tests/test_attention.py",
        note="the test file switches JAX's key-reuse checker on: the test fails",
    ),
    EXAMPLES.invalid(
        "invalid_same_draw_used_twice_in_test.py",
        line=9,
        message_contains="the same function with the same arguments, so the two draws are identical",
        raises="KeyReuseError",
        filename="tests/test_graph.py",
        note="the test file switches JAX's key-reuse checker on: the test fails",
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
    EXAMPLES.invalid(
        "invalid_element_and_map_over_keys.py",
        line=9,
        message_contains="maps over every key of `keys`, `keys[0]` included",
        raises="KeyReuseError",
        note="`keys[0]` draws the mask, and `vmap` over `keys` draws tree 0's noise from it"
        " again (kozax's `mutate_trees`, seen by a reader)",
    ),
    EXAMPLES.invalid(
        "invalid_map_then_element.py",
        line=7,
        message_contains="its step for `keys[0]` draws from the same random bits",
        note="the map's first result and `bias` are equal draws (the file asserts it)",
    ),
    EXAMPLES.invalid(
        "invalid_waited_for_then_used.py",
        line=14,
        message_contains="again by `simulate` (which draws from it) at line 14",
        raises="KeyReuseError",
        note="waited for, then read: both runs' draws are used",
    ),
    EXAMPLES.invalid(
        "invalid_loop_body_splits_a_split_key.py",
        line=14,
        message_contains="(whose body splits it) at line 14: both splits return the same first keys",
        raises="KeyReuseError",
        note="split before the loop, then split again by the loop's body: the same keys",
    ),
    EXAMPLES.invalid(
        "invalid_scan_carry_key_split_again.py",
        line=14,
        message_contains="again by `jax.lax.scan`",
        raises="KeyReuseError",
        note="the body splits the carry's key, which was already split before the loop",
    ),
]
