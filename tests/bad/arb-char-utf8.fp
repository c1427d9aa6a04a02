!!ARBfp1.0
# expect: 3:8: error: character 'é' is not part of the ARB program language [ST1001]
TEMP R0é;
END
