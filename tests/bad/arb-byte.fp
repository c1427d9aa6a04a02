!!ARBfp1.0
# expect: 3:8: error: byte 0xff is not part of the ARB program language [ST1001]
TEMP R0ÿ;
END
