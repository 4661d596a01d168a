"""JAX301 prng-key-reuse's INVALID examples (the files are in ``prng_key_reuse.examples/``),
listed apart from the rule in ``prng_key_reuse.py`` and from the VALID ones in
``prng_key_reuse_examples.py`` (each module stays under 800 lines)."""

from __future__ import annotations

from pathlib import Path

from jaxlint.rules.base import Examples

EXAMPLES = Examples(Path(__file__).with_name("prng_key_reuse.py"))

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
