import numpy as np


def train(model, batches):
    for batch in batches:
        loss = model.train_step(batch)
        print(float(loss))
