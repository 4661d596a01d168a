import jax
jax.numpy_rank_promotion(new_val='raise')
