from mylib import pjit

step = pjit(f, in_s, out_s)
