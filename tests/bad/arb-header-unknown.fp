!!ARBfp1.5
# expect: 1:1: error: unknown program header (expected !!ARBvp1.0 or !!ARBfp1.0) [ST1005]
END
