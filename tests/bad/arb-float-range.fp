!!ARBfp1.0
# expect: 3:19: error: '1e39' is out of the range of a float [ST1003]
MOV result.color, 1e39;
END
