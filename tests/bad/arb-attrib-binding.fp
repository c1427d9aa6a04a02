!!ARBfp1.0
# expect: 3:12: error: ATTRIB needs a fragment.* binding, not 'vertex.color' [ST2019]
ATTRIB a = vertex.color;
END
