def pmap(f):
    return f

step = pmap(lambda x: x)
