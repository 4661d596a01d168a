"""JAX1xx: host transfers and side effects in traced code."""
