"""The rule registry: one explicit list of every rule class, in code order.

Each rule lives in its own module, ``jaxlint/rules/<family>/<rule_name>.py``; adding a
rule means adding its module and one line here (see docs/design.md, "Where things go").
"""

from __future__ import annotations

from jaxlint.rules.api_drift import DeprecatedApi, InertConfigCall, RemovedApi
from jaxlint.rules.array_semantics import EmptyNotZeros, Float64WithoutX64, InPlaceUpdate
from jaxlint.rules.base import Invalid, Option, Rule, Valid
from jaxlint.rules.compilation import (
    DonatedBufferReuse,
    JitInLoop,
    JitMethodSelf,
    JitOfFreshCallable,
    UnhashableStaticArg,
)
from jaxlint.rules.control_flow import (
    LargeUnrolledLoop,
    PythonBranchOnTracer,
    PythonLoopOverTracer,
    TracedShape,
)
from jaxlint.rules.host_device import (
    HostConversionOfTracer,
    HostSyncInLoop,
    PrintInTraced,
    SideEffectInTraced,
    UnsynchronizedTiming,
)
from jaxlint.rules.prng import (
    ConstantKeyInLoop,
    GlobalPrngKey,
    HostRngInTraced,
    LegacyPrngKey,
    PrngKeyReuse,
)
from jaxlint.rules.sharding import (
    ExperimentalShardMap,
    LegacyMeshContext,
    LegacyShardingApi,
    Pjit,
    Pmap,
)

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
    JitInLoop,  # JAX401 jit-in-loop
    JitOfFreshCallable,  # JAX402 jit-of-fresh-callable
    JitMethodSelf,  # JAX403 jit-method-self
    UnhashableStaticArg,  # JAX404 unhashable-static-arg
    DonatedBufferReuse,  # JAX405 donated-buffer-reuse
    Pmap,  # JAX501 pmap
    LegacyMeshContext,  # JAX502 legacy-mesh-context
    Pjit,  # JAX503 pjit
    ExperimentalShardMap,  # JAX504 experimental-shard-map
    LegacyShardingApi,  # JAX505 legacy-sharding-api
    InPlaceUpdate,  # JAX601 in-place-update
    EmptyNotZeros,  # JAX602 empty-not-zeros
    Float64WithoutX64,  # JAX603 float64-without-x64
    DeprecatedApi,  # JAX701 deprecated-api
    RemovedApi,  # JAX702 removed-api
    InertConfigCall,  # JAX703 inert-config-call
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
