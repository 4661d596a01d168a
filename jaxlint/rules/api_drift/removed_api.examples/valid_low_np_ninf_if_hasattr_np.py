import numpy as np
low = np.NINF if hasattr(np, 'NINF') else -np.inf
