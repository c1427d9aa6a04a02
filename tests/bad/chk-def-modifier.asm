; expect: 3:4: error: def takes no modifiers [ST2008]
vs_3_0
def_sat c0, 1, 2, 3, 4
