import numpy as np

counts = np.zeros(3)
np.add.at(counts, [0, 0, 2], 1)
