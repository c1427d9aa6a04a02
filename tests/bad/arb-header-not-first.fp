  !!ARBfp1.0
# expect: 1:3: error: the !!ARBvp1.0 / !!ARBfp1.0 header must be the first characters of the program [ST1004]
END
