!!ARBfp1.0
# expect: 3:22: error: program.env[256]: environment parameter 256 is out of range (0..255) [ST2004]
PARAM p = program.env[256];
END
