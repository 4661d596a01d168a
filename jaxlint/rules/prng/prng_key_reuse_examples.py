"""JAX301 prng-key-reuse's VALID examples (the files are in ``prng_key_reuse.examples/``),
listed apart from the rule in ``prng_key_reuse.py``; the INVALID ones are in
``prng_key_reuse_invalid_examples.py``."""

from __future__ import annotations

from pathlib import Path

from jaxlint.rules.base import Examples
from jaxlint.rules.prng.prng_key_reuse_invalid_examples import INVALID_EXAMPLES

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

__all__ = ["INVALID_EXAMPLES", "VALID_EXAMPLES"]
