import torch
d = torch.ones(3).device()
