def device_put_replicated(x, devices):
    return x

y = device_put_replicated(1, [])
