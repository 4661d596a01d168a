"""JAX4xx: recompilation and wasted compilation."""
