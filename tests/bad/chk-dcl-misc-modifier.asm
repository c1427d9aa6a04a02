; expect: 3:4: error: vPos takes no modifiers [ST2008]
ps_3_0
dcl_centroid vPos.xy
