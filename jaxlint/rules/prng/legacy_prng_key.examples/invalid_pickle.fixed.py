import pickle

import jax
import numpy as np

key = jax.random.PRNGKey(0)
blob = pickle.dumps(key)
restored = np.asarray(pickle.loads(blob))  # a reader that expects the uint32 pair
print(restored)
