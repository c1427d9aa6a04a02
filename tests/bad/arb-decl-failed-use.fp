!!ARBfp1.0
# expect: 3:20: error: fragment.foo: not a fragment attribute binding (color, texcoord, fogcoord, position) [ST2101]
ATTRIB a = fragment.foo;
MOV result.color, a;
END
