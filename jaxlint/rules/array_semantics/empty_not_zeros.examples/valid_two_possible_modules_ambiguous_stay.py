try:
    import jax.numpy as np
except ImportError:
    import numpy as np
x = np.empty(3)
