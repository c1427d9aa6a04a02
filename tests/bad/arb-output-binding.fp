!!ARBfp1.0
# expect: 3:12: error: OUTPUT needs a result.* binding, not 'fragment.color' [ST2019]
OUTPUT o = fragment.color;
END
