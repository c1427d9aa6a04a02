!!ARBfp1.0
# expect: 3:30: error: program.env[A0.x]: fragment programs have no relative addressing: the index must be a number [ST2011]
MOV result.color, program.env[A0.x];
END
