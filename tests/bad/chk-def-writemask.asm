; expect: 3:5: error: def defines the whole register: no writemask [ST2013]
vs_3_0
def c1.x, 1, 2, 3, 4
