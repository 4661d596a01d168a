import xmaps

out = xmaps.xmap(f)
