import equinox as eqx


@eqx.filter_jit
def make_step(model, x):
    return model, x


for x in data:
    model, loss = make_step(model, x)
    with timer():
        history.append(loss.mean().tolist())
