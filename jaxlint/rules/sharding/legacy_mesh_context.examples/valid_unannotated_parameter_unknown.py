def render(mesh):
    with mesh:
        draw()
