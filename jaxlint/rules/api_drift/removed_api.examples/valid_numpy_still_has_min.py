import numpy as np
y = np.clip(np.arange(5.0), a_min=1.0, a_max=3.0)
