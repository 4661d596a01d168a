import time


def work():
    t0 = time.time()
    time.sleep(0.01)
    data = load_batch()
    return time.time() - t0
