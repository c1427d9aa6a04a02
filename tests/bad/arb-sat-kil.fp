!!ARBfp1.0
# expect: 3:1: error: KIL has no _SAT form [ST1007]
KIL_SAT fragment.color;
END
