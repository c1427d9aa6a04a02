; expect: 3:5: error: rep needs an integer constant i# here; found c0 [ST2019]
vs_2_0
rep c0
endrep
