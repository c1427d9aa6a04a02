; expect: 3:5: error: register oPos does not exist in vs_3_0; vs_3_0 writes its outputs to o# declared with dcl_usage [ST2003]
vs_3_0
mov oPos, r0
