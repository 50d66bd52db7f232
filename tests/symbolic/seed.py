"""The seed's layouts (seeds/000_28a9c404e15f3261.txt), built from their CuTe notation."""

from symcute import Layout
import symcute.symbolic as sym

F_TEXT = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
F_NAMES = (("t0", "t1", "wm", "wn"), (("v0", "v1", "v2"), ("_a", "_b")))
# CuTe prints these for right_inverse(F) and right_inverse(F).with_shape(32,16) (checked with g++ and the headers)
G_TEXT = "(8,2,2,2,4,2):(4,256,32,128,1,512)"
H_TEXT = "((8,2,2),(2,4,2)):((4,256,32),(128,1,512))"


def seed_F():
    return sym.formula(Layout.parse(F_TEXT), names=F_NAMES)
