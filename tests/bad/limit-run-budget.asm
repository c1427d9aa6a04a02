; expect: 8:1: error: 2 invocations could execute 404 instructions (202 each), more than the run budget of 400 [ST4003]
; args: run --inputs tests/bad/limit-run-budget.in.json --max-run-instructions=400
; By hand: i0.x is 50 in the inputs, so the rep runs 50 times its three
; instructions plus the endrep: 1 + 50 x 4 = 201, and the mov before it
; (line 7) makes 202 per invocation; two invocations, 404.
vs_2_0
mov r0, c0
rep i0
add r0, r0, c1
add r0, r0, c1
mov oPos, r0
endrep
