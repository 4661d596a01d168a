import jax as j

outs = [j.pmap(f, devices=d)(x) for d in groups]
