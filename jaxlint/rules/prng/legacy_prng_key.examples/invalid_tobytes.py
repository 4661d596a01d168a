import hashlib

import jax

key = jax.random.PRNGKey(0)
digest = hashlib.sha256(key.tobytes()).hexdigest()
print(digest)
