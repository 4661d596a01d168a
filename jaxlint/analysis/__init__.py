"""The shared semantic model that every rule asks (names now; traced values later)."""

from jaxlint.analysis.names import Binding, Scope, SemanticModel

__all__ = ["Binding", "Scope", "SemanticModel"]
