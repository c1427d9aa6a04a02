!!ARBfp1.0
# expect: 4:17: error: result.color[8]: color output 8 is out of range (0..7) [ST2004]
OPTION ARB_draw_buffers;
MOV result.color[8], fragment.color;
END
