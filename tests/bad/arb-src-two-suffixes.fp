!!ARBfp1.0
# expect: 3:35: error: unexpected '.' after fragment.color.x [ST1002]
MOV result.color, fragment.color.x.y;
END
