!!ARBfp1.0
# expect: 3:1: error: ADDRESS registers exist only in vertex programs [ST2001]
ADDRESS A0;
END
