import numpy as np
x = np.zeros(3)
x[0] = 1.0
x[1:] += 2.0
