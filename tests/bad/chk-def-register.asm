; expect: 3:6: error: defi defines integer i# constants; found c0 (use def) [ST2013]
vs_3_0
defi c0, 1, 2, 3, 4
