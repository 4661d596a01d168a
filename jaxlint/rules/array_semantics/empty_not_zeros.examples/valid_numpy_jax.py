import numpy as np
x = np.empty((3,))
