from optax._src import base

state = base.EmptyState()
