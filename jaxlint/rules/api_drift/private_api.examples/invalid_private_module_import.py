import jax._src.core as core_internals

Tracer = core_internals.Tracer
