import jax

class Buffer:
    def size(self, state):
        def psize(s):
            return jax.lax.psum(s, axis_name='x')

        return jax.pmap(psize, axis_name='x')(state)[0]
