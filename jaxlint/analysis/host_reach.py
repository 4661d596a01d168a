"""Whether a function of the project may run outside a staged trace: the question
JAX402 asks before reporting a ``jit`` built in a function that other modules trace.

A module's summary lists the project functions it names outside every staged trace
(``host_calls``: imported ones; ``host_local``: its own), beside the calls its traced
functions make (``calls``). A function is reached on the host when some module names it
there, or a caller that is not staged (or only presumed traced by a framework's contract)
calls it, or a staged caller may itself be reached there: followed back through the
callers' modules, a few levels, each step one question the cache records
(``ProjectFacts.host_reached``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jaxlint.analysis.transforms import COMPILING

if TYPE_CHECKING:
    from jaxlint.analysis.project import ProjectFacts

_HOST_DEPTH = 3
"""How many modules of traced callers are followed back."""


def host_reached_by(facts: ProjectFacts, key: str, depth: int = 0) -> bool:
    """Whether the function ``key`` (``module.name``) may run outside a staged trace;
    ``True`` when unknown. At ``depth`` 0 its own module's uses are the asker's to check."""
    module, _, name = key.rpartition(".")
    if depth > _HOST_DEPTH:
        return True
    path = facts.path if module == facts.module.name else facts.project.index.find_module(module)
    if path is None:
        return True
    if depth:  # a caller's own module: its host uses of the caller
        summary = facts.project.summary_of(module)
        if summary is None or name in summary.get("host_local", ()):
            return True
    for call in facts.callers_of(module, path):
        if call["name"] != name:
            continue
        if call.get("host") or call.get("presumed"):
            return True
        caller = call.get("caller")
        if caller is None:  # ``jax.jit(f)`` in another module
            if call.get("transform") not in COMPILING:
                return True
            continue
        if not call.get("staging") or "." in caller or not call.get("from"):
            return True
        if host_reached_by(facts, f"{call['from']}.{caller}", depth + 1):
            return True
    return False
