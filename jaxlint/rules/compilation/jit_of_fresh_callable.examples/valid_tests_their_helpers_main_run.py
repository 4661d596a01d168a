import jax
import jax.numpy as jnp

def test_double():
    f = jax.jit(lambda x: x * 2)
    assert (f(jnp.ones(2)) == 2).all()

def main():
    print(jax.jit(lambda x: x + 1)(1.0))

def test_helper():
    def run(x):
        return jax.jit(lambda v: v - 1)(x)

    run(1.0)

test_double()
main()
test_helper()
