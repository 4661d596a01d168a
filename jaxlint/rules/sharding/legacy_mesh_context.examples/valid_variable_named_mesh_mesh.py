import trimesh

mesh = trimesh.load('bunny.obj')
with mesh:
    pass
