def enable_x64(flag):
    pass

enable_x64(True)
