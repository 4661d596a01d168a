"""JAX1xx: host transfers and side effects in traced code.

Rules, one module each: JAX101 host-conversion-of-tracer, JAX102 host-sync-in-loop,
JAX103 print-in-traced, JAX104 side-effect-in-traced, JAX105 unsynchronized-timing.
Their shared queries and the ``Shared`` mixin are in ``helpers``.
"""

from __future__ import annotations

from jaxlint.rules.host_device.host_conversion_of_tracer import HostConversionOfTracer
from jaxlint.rules.host_device.host_sync_in_loop import HostSyncInLoop
from jaxlint.rules.host_device.print_in_traced import PrintInTraced
from jaxlint.rules.host_device.side_effect_in_traced import SideEffectInTraced
from jaxlint.rules.host_device.unsynchronized_timing import UnsynchronizedTiming

__all__ = [
    "HostConversionOfTracer",
    "HostSyncInLoop",
    "PrintInTraced",
    "SideEffectInTraced",
    "UnsynchronizedTiming",
]
