; expect: 3:4: error: _centroid applies only to dcl and texld* in ps_2_0 and later [ST2008]
ps_2_0
mov_centroid r0, r1
