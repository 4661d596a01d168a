"""JAX2xx: Python control flow on traced values."""
