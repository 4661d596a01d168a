"""The rule registry: one explicit list of every rule class, in code order.

Each rule lives in its own module, ``jaxlint/rules/<family>/<rule_name>.py``, with its
examples in ``<rule_name>.examples/`` beside it. Adding a rule means adding its module
and one line here (docs/design.md, "Where each kind of change goes").
"""

from __future__ import annotations

from jaxlint.rules.api_drift.deprecated_api import DeprecatedApi
from jaxlint.rules.api_drift.inert_config_call import InertConfigCall
from jaxlint.rules.api_drift.private_api import PrivateApi
from jaxlint.rules.api_drift.removed_api import RemovedApi
from jaxlint.rules.array_semantics.discarded_index_update import DiscardedIndexUpdate
from jaxlint.rules.array_semantics.empty_not_zeros import EmptyNotZeros
from jaxlint.rules.array_semantics.float64_without_x64 import Float64WithoutX64
from jaxlint.rules.array_semantics.in_place_update import InPlaceUpdate
from jaxlint.rules.base import Invalid, Option, Rule, Valid
from jaxlint.rules.compilation.donated_buffer_reuse import DonatedBufferReuse
from jaxlint.rules.compilation.jit_bound_method_state import JitBoundMethodState
from jaxlint.rules.compilation.jit_in_loop import JitInLoop
from jaxlint.rules.compilation.jit_method_self import JitMethodSelf
from jaxlint.rules.compilation.jit_of_fresh_callable import JitOfFreshCallable
from jaxlint.rules.compilation.unhashable_static_arg import UnhashableStaticArg
from jaxlint.rules.control_flow.large_unrolled_loop import LargeUnrolledLoop
from jaxlint.rules.control_flow.python_branch_on_tracer import PythonBranchOnTracer
from jaxlint.rules.control_flow.python_loop_over_tracer import PythonLoopOverTracer
from jaxlint.rules.control_flow.traced_shape import TracedShape
from jaxlint.rules.host_device.host_conversion_of_tracer import HostConversionOfTracer
from jaxlint.rules.host_device.host_sync_in_loop import HostSyncInLoop
from jaxlint.rules.host_device.print_in_traced import PrintInTraced
from jaxlint.rules.host_device.side_effect_in_traced import SideEffectInTraced
from jaxlint.rules.host_device.unsynchronized_timing import UnsynchronizedTiming
from jaxlint.rules.prng.constant_key_in_loop import ConstantKeyInLoop
from jaxlint.rules.prng.global_prng_key import GlobalPrngKey
from jaxlint.rules.prng.host_rng_in_traced import HostRngInTraced
from jaxlint.rules.prng.legacy_prng_key import LegacyPrngKey
from jaxlint.rules.prng.prng_key_reuse import PrngKeyReuse
from jaxlint.rules.prng.prng_key_reuse_contract import PrngKeyReuseContract
from jaxlint.rules.sharding.experimental_shard_map import ExperimentalShardMap
from jaxlint.rules.sharding.legacy_mesh_context import LegacyMeshContext
from jaxlint.rules.sharding.legacy_sharding_api import LegacyShardingApi
from jaxlint.rules.sharding.pjit import Pjit
from jaxlint.rules.sharding.pmap import Pmap

RULES: tuple[type[Rule], ...] = (
    HostConversionOfTracer,  # JAX101 host-conversion-of-tracer
    HostSyncInLoop,  # JAX102 host-sync-in-loop
    PrintInTraced,  # JAX103 print-in-traced
    SideEffectInTraced,  # JAX104 side-effect-in-traced
    UnsynchronizedTiming,  # JAX105 unsynchronized-timing
    PythonBranchOnTracer,  # JAX201 python-branch-on-tracer
    PythonLoopOverTracer,  # JAX202 python-loop-over-tracer
    TracedShape,  # JAX203 traced-shape
    LargeUnrolledLoop,  # JAX204 large-unrolled-loop
    PrngKeyReuse,  # JAX301 prng-key-reuse
    LegacyPrngKey,  # JAX302 legacy-prng-key
    HostRngInTraced,  # JAX303 host-rng-in-traced
    ConstantKeyInLoop,  # JAX304 constant-key-in-loop
    GlobalPrngKey,  # JAX305 global-prng-key
    PrngKeyReuseContract,  # JAX306 prng-key-reuse-contract
    JitInLoop,  # JAX401 jit-in-loop
    JitOfFreshCallable,  # JAX402 jit-of-fresh-callable
    JitMethodSelf,  # JAX403 jit-method-self
    UnhashableStaticArg,  # JAX404 unhashable-static-arg
    DonatedBufferReuse,  # JAX405 donated-buffer-reuse
    JitBoundMethodState,  # JAX406 jit-bound-method-state
    Pmap,  # JAX501 pmap
    LegacyMeshContext,  # JAX502 legacy-mesh-context
    Pjit,  # JAX503 pjit
    ExperimentalShardMap,  # JAX504 experimental-shard-map
    LegacyShardingApi,  # JAX505 legacy-sharding-api
    InPlaceUpdate,  # JAX601 in-place-update
    EmptyNotZeros,  # JAX602 empty-not-zeros
    Float64WithoutX64,  # JAX603 float64-without-x64
    DiscardedIndexUpdate,  # JAX604 discarded-index-update
    DeprecatedApi,  # JAX701 deprecated-api
    RemovedApi,  # JAX702 removed-api
    InertConfigCall,  # JAX703 inert-config-call
    PrivateApi,  # JAX704 private-api
)


def all_rules() -> tuple[type[Rule], ...]:
    """Every rule class, sorted by code."""
    return RULES


def find_rule(code_or_name: str) -> type[Rule] | None:
    for rule in all_rules():
        if code_or_name in (rule.code, rule.name):
            return rule
    return None


__all__ = ["RULES", "Invalid", "Option", "Rule", "Valid", "all_rules", "find_rule"]
